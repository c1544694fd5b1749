"""The seed format: abstracts as UTF-8 text, one per block, blocks separated by blank lines.

An optional first block of one short line that is not a sentence is the file's header
(:func:`is_header`); every other block is an abstract, its lines joined (:func:`join_lines`). The
caller (:func:`helpers.analysis.corpus.read_corpus`) decides what a block of too few words is.
Whether a file is in this format at all is decided in :mod:`helpers.analysis.readers.detect`.
"""

from __future__ import annotations

from typing import Sequence

__all__ = ["MAX_HEADER_WORDS", "SENTENCE_END", "split_blocks", "join_lines", "is_header"]

MAX_HEADER_WORDS = 12
SENTENCE_END = (".", "!", "?", "。")


def split_blocks(text: str) -> list[tuple[int, int, list[str]]]:
    """Split normalised text into blocks of non-blank lines.

    Returns ``(first_line, last_line, lines)`` for each block, with 1-based
    line numbers and each line stripped of surrounding spaces.

    Parameters
    ----------
    text : str
        A seed-format file's text, normalised (:func:`helpers.analysis.corpus.normalise_text`).

    Returns
    -------
    list of (int, int, list of str)
        Each block's first and last line (1-based) and its lines.

    Examples
    --------
    >>> split_blocks("Title\\n\\nOne line\\nand more\\n\\n\\nLast")
    [(1, 1, ['Title']), (3, 4, ['One line', 'and more']), (7, 7, ['Last'])]
    """
    blocks: list[tuple[int, int, list[str]]] = []
    current: list[str] = []
    first = 0
    for number, raw_line in enumerate(text.split("\n"), start=1):
        line = raw_line.strip()
        if line:
            if not current:
                first = number
            current.append(line)
        elif current:
            blocks.append((first, number - 1, current))
            current = []
    if current:
        blocks.append((first, first + len(current) - 1, current))
    return blocks


def join_lines(lines: Sequence[str]) -> str:
    """Join the lines of one block; a line ending in a word hyphen joins without a space.

    Parameters
    ----------
    lines : sequence of str
        The lines of one block.

    Returns
    -------
    str
        The block's text on one line.

    Examples
    --------
    >>> join_lines(["retrieval-", "augmented generation", "works"])
    'retrieval-augmented generation works'
    >>> join_lines(["a dash -", "here"])
    'a dash - here'
    """
    parts: list[str] = []
    last = len(lines) - 1
    for index, line in enumerate(lines):
        parts.append(line)
        if index < last:
            hyphenated = len(line) >= 2 and line[-1] == "-" and line[-2].isalnum()
            if not hyphenated:
                parts.append(" ")
    return "".join(parts)


def is_header(lines: Sequence[str]) -> bool:
    """A first block is a header when it is one short line that is not a sentence.

    Parameters
    ----------
    lines : sequence of str
        The file's first block.

    Returns
    -------
    bool
        Whether it names the file's papers rather than being an abstract.

    Examples
    --------
    >>> is_header(["ICML 2024 Papers"]), is_header(["We study how crash severity varies with speed."])
    (True, False)
    """
    if len(lines) != 1:
        return False
    line = lines[0]
    return len(line.split()) <= MAX_HEADER_WORDS and not line.endswith(SENTENCE_END)
