"""A term map's options (:class:`TermMapOptions`, given) and the settings it was made with
(:class:`CooccurrenceSettings`, found: ``result.settings.min_pair_papers``), as attributes.

The options are checked once, where they are built, so every step of the map reads values it can trust; the
settings add what the corpus decided (the default thresholds, the counts) for the Reproduce page.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from helpers.analysis.cooccurrence.communities import LOUVAIN_RESOLUTION, LOUVAIN_SEED
from helpers.analysis.cooccurrence.selection import RANKINGS, RELEVANT_SHARE
from helpers.analysis.settings import check_share, check_whole

if TYPE_CHECKING:
    from helpers.analysis.settings import AnalysisSettings
    from helpers.analysis.text.vocabulary import VocabularyEdits


@dataclass(frozen=True)
class TermMapOptions:
    """What a term map is asked for (:func:`helpers.analysis.cooccurrence.analyse_cooccurrence`,
    :func:`helpers.analysis.cooccurrence.analyse_partitions`); the defaults are the book's.

    Attributes
    ----------
    min_occurrences : int, optional
        Abstracts a term needs to be a candidate for the map (default
        :func:`helpers.analysis.cooccurrence.default_min_occurrences`, which grows with the corpus).
    relevant_share : float
        Of those, the share kept, best ranked first; VOSviewer's default is 60%.
    ranking : {"combined", "relevance", "frequency"}
        How the eligible terms are ranked (:func:`helpers.analysis.cooccurrence.select_terms`): the combined
        termhood score, VOSviewer's relevance alone, or occurrences.
    min_pair_papers : int, optional
        Pairs sharing fewer abstracts are not drawn (they stay in the pairs table); default
        :func:`helpers.analysis.cooccurrence.default_min_pair_papers`.
    seed : int
        Louvain's first seed and the layout's.
    resolution : float
        Louvain's resolution.
    thesaurus : dict of str to str, optional
        Term merges applied before counting (default: the project's
        :func:`helpers.analysis.cooccurrence.read_thesaurus`).
    generic_terms : frozenset of str, optional
        The combined ranking's stock list (default: the project's ``resources/generic_terms.txt``).
    edits : VocabularyEdits, optional
        The researcher's thesaurus and stop terms, applied to each abstract's candidate terms before any count is
        summed.

    Raises
    ------
    SettingsError
        For a ``min_occurrences`` below 1 or a ``relevant_share`` outside (0, 1]
        (:mod:`helpers.analysis.settings`).
    ValueError
        For a ``ranking`` not in :data:`helpers.analysis.cooccurrence.RANKINGS`.

    Examples
    --------
    >>> TermMapOptions(min_occurrences=2).relevant_share
    0.6
    >>> TermMapOptions(relevant_share=0)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    helpers.analysis.settings.SettingsError: --relevant-share...: must be a number above 0 and at most 1, got 0
    """

    min_occurrences: int | None = None
    relevant_share: float = RELEVANT_SHARE
    ranking: str = "combined"
    min_pair_papers: int | None = None
    seed: int = LOUVAIN_SEED
    resolution: float = LOUVAIN_RESOLUTION
    thesaurus: dict[str, str] | None = None
    generic_terms: frozenset[str] | None = None
    edits: VocabularyEdits | None = None

    def __post_init__(self) -> None:
        check_whole(self.min_occurrences, "min_occurrences", minimum=1, optional=True)
        check_share(self.relevant_share, "relevant_share")
        if self.ranking not in RANKINGS:
            raise ValueError(f"ranking must be one of {', '.join(RANKINGS)}, got {self.ranking!r}")

    @classmethod
    def from_settings(cls, settings: "AnalysisSettings") -> "TermMapOptions":
        """The term map an analysis asks for: its seed, thresholds and vocabulary files (read here), the other
        options at their defaults; every engine builds its options here.

        Parameters
        ----------
        settings : AnalysisSettings
            The analysis's settings.

        Returns
        -------
        TermMapOptions
            The options of the analysis's term map.

        Examples
        --------
        >>> from helpers.analysis.settings import AnalysisSettings
        >>> options = TermMapOptions.from_settings(AnalysisSettings(seed=2, min_occurrences=4))
        >>> options.seed, options.min_occurrences, options.relevant_share, options.edits
        (2, 4, 0.6, None)
        """
        from helpers.analysis.text.vocabulary_files import edits_of  # lazy: reads the files only when asked

        return cls(seed=settings.seed, min_occurrences=settings.min_occurrences,
                   relevant_share=settings.relevant_share, edits=edits_of(settings.vocabulary))


@dataclass(frozen=True)
class CooccurrenceSettings:
    """What the term map was made with, as attributes (``result.settings.min_pair_papers``), in the order the
    Reproduce page lists them (:meth:`as_dict`).

    Attributes
    ----------
    min_occurrences : int
        Abstracts a term needs to be a candidate for the map.
    relevant_share : float
        Share of the eligible terms kept, best ranked first.
    min_pair_papers : int
        Abstracts a pair needs to be a link of the network.
    louvain_seed : int
    resolution : float
        The Louvain communities' seed and resolution.
    n_papers, n_candidates, n_eligible : int
        Abstracts counted, candidate terms, and terms with at least ``min_occurrences`` abstracts.
    relevance_smoothing : float
    relevance_topics : int
        The relevance score's smoothing and number of topics.
    max_map_terms, max_term_words, max_links_per_term : int
        The map's caps: terms, words a term, links a term.
    ranking : str
        The ranking the kept terms were chosen by (:func:`helpers.analysis.cooccurrence.select_terms`).
    n_tokens, n_generic, n_nested : int
        Tokens counted, generic terms left out, terms nested in a longer one and merged into it.

    Examples
    --------
    >>> from helpers.analysis.cooccurrence import analyse_cooccurrence
    >>> from helpers.analysis.text.cleaning import analysis_text
    >>> import pandas as pd
    >>> raw = pd.Series({"p1": "Heat stress in broilers.", "p2": "Heat stress and feed intake in broilers."})
    >>> settings = analyse_cooccurrence(raw, raw.map(analysis_text), TermMapOptions(min_occurrences=2)).settings
    >>> settings.min_occurrences, settings.n_papers, list(settings.as_dict())[:3]
    (2, 2, ['min_occurrences', 'relevant_share', 'min_pair_papers'])
    """

    min_occurrences: int
    relevant_share: float
    min_pair_papers: int
    louvain_seed: int
    resolution: float
    n_papers: int
    n_candidates: int
    n_eligible: int
    relevance_smoothing: float
    relevance_topics: int
    max_map_terms: int
    max_term_words: int
    max_links_per_term: int
    ranking: str
    n_tokens: int
    n_generic: int
    n_nested: int

    def as_dict(self) -> dict[str, Any]:
        """The settings by name, in the order above.

        Returns
        -------
        dict
            Setting name -> value.
        """
        return asdict(self)
