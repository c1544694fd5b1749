"""Tokens: the runs of words between boundaries of an analysis text, and a whole corpus as word ids.

:func:`segments` cuts one analysis text (:func:`helpers.analysis.text.cleaning.analysis_text`) into runs of
word tokens: punctuation, symbols, removed spans, numbers and single letters end a run; hyphenated words stay
whole, and a charged ion or an oxidation state is one token ("hg2+", "cu(ii)"). :func:`tokenize_corpus` does
the same for a whole corpus at once into a :class:`TokenizedCorpus` (word ids in one flat array, so term
counting is vectorised), in chunks on several processes for large corpora.
"""

from __future__ import annotations

import re
from array import array
from collections import defaultdict
from collections.abc import Sequence as SequenceBase
from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable, Iterator, Sequence

import numpy as np

from helpers.analysis.text.cleaning import BOUNDARY, ELEMENT_SYMBOL, analysis_text

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["segments", "tokenize", "TokenizedCorpus", "TokenPartitions", "tokenize_corpus", "merge_token_chunks",
           "analysis_texts_to_tokens"]

_POSSESSIVE = re.compile(r"['’]s\b")
# Symbols end a phrase like punctuation (a formula "CuSO4·5H2O", "x ≈ 3" or "Cl−" never joins its neighbours).
_PUNCTUATION = re.compile(r"[.,;:!?()\[\]{}\"“”‘’'/\\|<>=+*&%#@~^·•×÷±∼≈≤≥≠≫≪→←↔∝∞°−⊙⊗⊕]|\s[-–—]+\s|[–—]")
_SPECIES = (rf"(?<![\w-])(?:{ELEMENT_SYMBOL}[+−]|(?:{ELEMENT_SYMBOL}\d*)+\d[+−]|"
            rf"{ELEMENT_SYMBOL}\((?:i{{1,3}}|iv|vi{{0,3}})\))(?![\w+−(])")
# The look-ahead lets a word that cannot start a species skip the element alternatives (as fast as without them).
_TOKEN = re.compile(rf"(?=[a-z]{{1,2}}[\d+−(]){_SPECIES}|[^\W_](?:[\w]|-(?=[^\W_]))*")
# Punctuation first, then word tokens: one scan yields both, in text order.
_PIECE = re.compile(f"{_PUNCTUATION.pattern}|{_TOKEN.pattern}")


def _is_word(piece: str) -> bool:
    """A piece that can be part of a term (the test :func:`segments` applies)."""
    return len(piece) >= 2 and not piece[0].isdigit() and _TOKEN.fullmatch(piece) is not None


def segments(text: str) -> Iterator[list[str]]:
    """Runs of word tokens between boundaries, from an analysis text.

    Punctuation, removed spans, dashes and numbers end a run; single letters
    are dropped (and end a run too). Hyphenated words stay whole.

    Parameters
    ----------
    text : str
        An analysis text (:func:`helpers.analysis.text.cleaning.analysis_text`).

    Yields
    ------
    list of str
        One run of word tokens, in text order.

    Examples
    --------
    >>> list(segments("graph neural networks (gnns), top 5 accuracy; fine-tuning"))
    [['graph', 'neural', 'networks'], ['gnns'], ['top'], ['accuracy'], ['fine-tuning']]
    """
    run: list[str] = []
    for piece in _PIECE.findall(_POSSESSIVE.sub("", text)):
        if _is_word(piece):
            run.append(piece)
        elif run:
            yield run
            run = []
    if run:
        yield run


def tokenize(text: str) -> list[str]:
    """All word tokens of an analysis text, in order (numbers dropped).

    Parameters
    ----------
    text : str
        An analysis text.

    Returns
    -------
    list of str
        The tokens of every run of :func:`segments`, in order.

    Examples
    --------
    >>> tokenize(analysis_text("Fine-tuning 7B models, in 2024."))
    ['fine-tuning', 'models', 'in']
    """
    return [token for run in segments(text) for token in run]


@dataclass(frozen=True)
class TokenizedCorpus:
    """Every analysis text as word ids in one flat array, so term counting is vectorised.

    Attributes
    ----------
    paper_ids : ndarray of str
        One per text, in the order given.
    token_ids : ndarray of int32
        Ids into ``vocabulary`` for the whole corpus; id 0 is a boundary
        (punctuation, removed span, number, single letter) and ends every text,
        so no n-gram spans two runs or two papers.
    starts : ndarray of int64
        ``token_ids[starts[i]:starts[i + 1]]`` are the ids of text ``i``.
    vocabulary : ndarray of str
        Distinct word tokens in order of first appearance; ``vocabulary[0]`` is ``"|"``.

    Examples
    --------
    >>> tokens = tokenize_corpus(["graph networks, graph", "the 3 networks"], ["a", "b"])
    >>> tokens.vocabulary.tolist(), tokens.token_ids.tolist()
    (['|', 'graph', 'networks', 'the'], [1, 2, 0, 1, 0, 3, 0, 2, 0])
    >>> tokens.text_index().tolist()
    [0, 0, 0, 0, 0, 1, 1, 1, 1]
    """

    paper_ids: np.ndarray
    token_ids: np.ndarray
    starts: np.ndarray
    vocabulary: np.ndarray

    def __len__(self) -> int:
        return len(self.paper_ids)

    def text_index(self) -> np.ndarray:
        """The index of the text each position of ``token_ids`` belongs to."""
        return np.repeat(np.arange(len(self), dtype=np.int32), np.diff(self.starts))

    def rows(self, start: int, stop: int) -> "TokenizedCorpus":
        """Texts ``start`` to ``stop - 1`` as a corpus of their own, with only the words they use (in the
        order of ``vocabulary``), so each text's tokens are the same words.

        Examples
        --------
        >>> part = tokenize_corpus(["graph networks", "the networks"], ["a", "b"]).rows(1, 2)
        >>> part.paper_ids.tolist(), part.vocabulary.tolist(), part.token_ids.tolist()
        (['b'], ['|', 'networks', 'the'], [2, 1, 0])
        """
        ids = self.token_ids[self.starts[start]:self.starts[stop]]
        used = np.zeros(len(self.vocabulary), dtype=bool)
        used[0] = True
        used[ids] = True
        new_ids = (np.cumsum(used) - 1).astype(np.int32)
        return TokenizedCorpus(paper_ids=self.paper_ids[start:stop], token_ids=new_ids[ids],
                               starts=self.starts[start:stop + 1] - self.starts[start],
                               vocabulary=self.vocabulary[used])


class TokenPartitions(SequenceBase):
    """A corpus's consecutive row ranges as corpora of their own (:meth:`TokenizedCorpus.rows`), each made
    when asked for: a loop over them holds one at a time.

    Parameters
    ----------
    tokens : TokenizedCorpus
        The whole corpus.
    bounds : sequence of (int, int)
        ``(start, stop)`` rows of each partition, in order.

    Attributes
    ----------
    tokens : TokenizedCorpus
        As given.
    bounds : list of (int, int)
        As given.

    Examples
    --------
    >>> parts = TokenPartitions(tokenize_corpus(["a graph", "the networks", "graphs"], list("abc")), [(0, 2), (2, 3)])
    >>> len(parts), [part.paper_ids.tolist() for part in parts]
    (2, [['a', 'b'], ['c']])
    """

    def __init__(self, tokens: TokenizedCorpus, bounds: Sequence[tuple[int, int]]) -> None:
        self.tokens, self.bounds = tokens, list(bounds)

    def __len__(self) -> int:
        return len(self.bounds)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        return self.tokens.rows(*self.bounds[index])


def _new_piece_ids() -> defaultdict[str, int]:
    """A piece -> id mapping where a new piece gets the next id; the boundary is id 0."""
    piece_ids: defaultdict[str, int] = defaultdict()
    piece_ids.default_factory = piece_ids.__len__
    piece_ids[BOUNDARY.strip()]
    return piece_ids


def _tokenize_chunk(texts: Sequence[str], clean: bool) -> tuple[list[str], np.ndarray, np.ndarray]:
    """Pieces (in first-seen order), their ids for every position, and each text's length."""
    piece_ids = _new_piece_ids()
    flat = array("i")
    lengths = array("q")
    for text in texts:
        if clean:
            text = analysis_text(text)
        if "'s" in text or "’s" in text:
            text = _POSSESSIVE.sub("", text)
        pieces = _PIECE.findall(text)
        pieces.append(BOUNDARY.strip())
        flat.extend(map(piece_ids.__getitem__, pieces))
        lengths.append(len(pieces))
    return list(piece_ids), np.frombuffer(flat, dtype=np.int32), np.frombuffer(lengths, dtype=np.int64)


def tokenize_corpus(texts: Iterable[str], paper_ids: Iterable[str], *, clean: bool = False,
                    n_jobs: int | None = 1) -> TokenizedCorpus:
    """Tokenise analysis texts (:func:`analysis_text`) into a :class:`TokenizedCorpus`.

    The word runs are exactly those of :func:`segments`; a tested equivalence.
    With ``clean=True`` the texts are stored abstracts and :func:`analysis_text`
    is applied first. ``n_jobs`` processes share the work for large corpora
    (:func:`helpers.analysis._parallel.map_chunks`); the result does not depend on it.

    Parameters
    ----------
    texts : iterable of str
        Analysis texts, or stored abstracts with ``clean=True``.
    paper_ids : iterable of str
        One id per text, in the same order.
    clean : bool
        Apply :func:`helpers.analysis.text.cleaning.analysis_text` first.
    n_jobs : int or None
        Processes to share the work (``None``: every core).

    Returns
    -------
    TokenizedCorpus
        The texts' word ids, in the order given.

    Examples
    --------
    >>> tokens = tokenize_corpus(["We fit <em>Graph</em> models.", "Models, 3 graphs"], ["a", "b"], clean=True)
    >>> tokens.vocabulary.tolist(), tokens.starts.tolist()
    (['|', 'we', 'fit', 'graph', 'models', 'graphs'], [0, 6, 11])
    """
    from helpers.analysis._parallel import map_chunks

    texts = list(texts)
    return merge_token_chunks(map_chunks(_tokenize_chunk, texts, clean, n_jobs=n_jobs), paper_ids)


def merge_token_chunks(chunks: Sequence[tuple[list[str], np.ndarray, np.ndarray]], paper_ids: Iterable[str]
                       ) -> TokenizedCorpus:
    """The :class:`TokenizedCorpus` of consecutive chunks of texts, each tokenised on its own
    (``_tokenize_chunk``: its pieces in first-seen order, their ids, each text's length), in chunk order.

    The same as tokenising all texts in one piece, however they were cut into chunks (a tested equivalence).

    Parameters
    ----------
    chunks : sequence of (list of str, ndarray, ndarray)
        What ``_tokenize_chunk`` gives for each chunk, in order.
    paper_ids : iterable of str
        One id per text of all chunks, in order.

    Returns
    -------
    TokenizedCorpus
        The texts of every chunk, ids in order of first appearance over the chunks.

    Examples
    --------
    >>> chunks = [_tokenize_chunk(["graph networks"], False), _tokenize_chunk(["the graph"], False)]
    >>> merge_token_chunks(chunks, ["a", "b"]).token_ids.tolist()
    [1, 2, 0, 3, 1, 0]
    """
    # Global ids in order of first appearance over the chunks in order: as if run in one piece.
    piece_ids = _new_piece_ids()
    flat_parts, length_parts = [], []
    for pieces, flat, lengths in chunks:
        to_global = np.fromiter(map(piece_ids.__getitem__, pieces), dtype=np.int32, count=len(pieces))
        flat_parts.append(to_global[flat])
        length_parts.append(lengths)
    pieces_in_order = list(piece_ids)
    is_word = np.fromiter(map(_is_word, pieces_in_order), dtype=bool, count=len(pieces_in_order))
    new_ids = np.where(is_word, np.cumsum(is_word), 0).astype(np.int32)
    vocabulary = np.array([BOUNDARY.strip()] + [p for p, w in zip(pieces_in_order, is_word) if w],
                          dtype=object)
    starts = np.zeros(sum(len(lengths) for lengths in length_parts) + 1, dtype=np.int64)
    np.cumsum(np.concatenate(length_parts), out=starts[1:])
    return TokenizedCorpus(
        paper_ids=np.array(list(paper_ids), dtype=object),
        token_ids=new_ids[np.concatenate(flat_parts)],
        starts=starts,
        vocabulary=vocabulary,
    )


def analysis_texts_to_tokens(texts: "TokenizedCorpus | pd.Series") -> TokenizedCorpus:
    """A :class:`TokenizedCorpus` as given, or made from analysis texts indexed by ``paper_id``.

    Parameters
    ----------
    texts : TokenizedCorpus or Series of str
        Word ids already, or analysis texts indexed by ``paper_id``.

    Returns
    -------
    TokenizedCorpus
        ``texts`` itself, or the texts tokenised.

    Examples
    --------
    >>> import pandas as pd
    >>> analysis_texts_to_tokens(pd.Series(["graph networks"], index=["p1"])).vocabulary.tolist()
    ['|', 'graph', 'networks']
    """
    if isinstance(texts, TokenizedCorpus):
        return texts
    return tokenize_corpus(texts.tolist(), texts.index.astype(str))
