"""The book's title, named after its corpus: "ICML 2023–2025: 751 abstracts".

The venue and years come from the papers' ``venue`` and ``year`` columns where the input carries them
(BibTeX, RIS, tables), else from the files' header lines ("ICML 2024 Papers"). ``BOOK_TITLE`` in the
environment replaces the derived title.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable, Mapping

import pandas as pd

from helpers.book.formatting import count

if TYPE_CHECKING:
    from helpers.analysis.pipeline import Analysis

TITLE_ENV = "BOOK_TITLE"
#: The most venues a title names; a corpus of more venues is named by their number.
MAX_NAMED_VENUES = 3
#: A venue must hold at least this share of the papers with a venue to be named.
MIN_VENUE_SHARE = 0.05
_HEADER_VENUE = re.compile(r"^\s*([A-Z][A-Za-z&-]{1,15})\s+((?:19|20)\d\d)\b")
_YEAR = re.compile(r"\b((?:19|20)\d\d)\b")
_SMALL_WORDS = {"of", "on", "the", "and", "for", "in", "a", "an", "to"}
_ORDINAL = re.compile(r"^\d+(st|nd|rd|th)$", re.IGNORECASE)


def venue_short_name(venue: str) -> str:
    """A venue as a title names it: an acronym of a "Conference on ..." name, else the name as given.

    Examples
    --------
    >>> venue_short_name("Proceedings of the 40th International Conference on Machine Learning")
    'ICML'
    >>> venue_short_name("ICML"), venue_short_name("Journal of Cleaner Production")
    ('ICML', 'Journal of Cleaner Production')
    """
    venue = " ".join(str(venue).split())
    if re.search(r"\b(Conference|Symposium|Workshop)\b", venue) and len(venue.split()) > 3:
        name = re.sub(r"^(Proceedings|Proc\.)\s+of\s+(the\s+)?", "", venue, flags=re.IGNORECASE)
        words = [w for w in re.split(r"[\s-]+", name) if w and not _ORDINAL.match(w) and w.lower() not in _SMALL_WORDS]
        return "".join(w[0].upper() for w in words if w[0].isalpha())
    return venue


def year_span(years: Iterable[int]) -> str:
    """Years as a title writes them: "2024", "2023–2025" (consecutive), "2019, 2021" (a few), "2010–2020" (many).

    Examples
    --------
    >>> year_span([2024, 2024]), year_span([2025, 2023, 2024]), year_span([2019, 2021]), year_span([])
    ('2024', '2023–2025', '2019, 2021', '')
    """
    distinct = sorted({int(y) for y in years})
    if not distinct:
        return ""
    if len(distinct) == 1:
        return str(distinct[0])
    if distinct == list(range(distinct[0], distinct[-1] + 1)) or len(distinct) > 3:
        return f"{distinct[0]}\u2013{distinct[-1]}"
    return ", ".join(str(y) for y in distinct)


@dataclass(frozen=True)
class CorpusName:
    """What a corpus is: its venues (short names, most papers first), years and number of abstracts."""

    venues: tuple[str, ...]
    n_venues: int
    years: str
    n_abstracts: int

    @property
    def title(self) -> str:
        """ "ICML 2023–2025: 751 abstracts"; "57 abstracts" when neither venue nor year is known.

        Examples
        --------
        >>> CorpusName(("ICML",), 1, "2024", 57).title
        'ICML 2024: 57 abstracts'
        >>> CorpusName(("A", "B", "C", "D"), 9, "", 1).title, CorpusName((), 0, "", 1).title
        ('9 venues: 1 abstract', '1 abstract')
        """
        what = ", ".join(self.venues) if 0 < self.n_venues <= MAX_NAMED_VENUES else (
            f"{self.n_venues} venues" if self.n_venues else "")
        head = " ".join(part for part in (what, self.years) if part)
        abstracts = count(self.n_abstracts, "abstract")
        return f"{head}: {abstracts}" if head else abstracts

    @property
    def sentence_subject(self) -> str:
        """The corpus as the subject of a sentence: "751 abstracts of ICML 2023–2025".

        Examples
        --------
        >>> CorpusName(("ICML",), 1, "2024", 57).sentence_subject, CorpusName((), 0, "", 3).sentence_subject
        ('57 abstracts of ICML 2024', '3 abstracts')
        """
        head = self.title.split(": ")[0] if ": " in self.title else ""
        abstracts = count(self.n_abstracts, "abstract")
        return f"{abstracts} of {head}" if head else abstracts


def corpus_name(papers: pd.DataFrame, headers: Mapping[str, str | None]) -> CorpusName:
    """Name a corpus from its papers' ``venue`` and ``year`` columns, else from its files' header lines.

    Examples
    --------
    >>> papers = pd.DataFrame({"venue": ["ICML", "ICML", None], "year": [2023, 2025, 2024]})
    >>> corpus_name(papers, {}).title
    'ICML 2023–2025: 3 abstracts'
    >>> corpus_name(pd.DataFrame({"paper_id": ["a", "b"]}), {"x.txt": "ICML 2024 Papers", "y.txt": None}).title
    'ICML 2024: 2 abstracts'
    """
    venue_counts: Counter[str] = Counter()
    if "venue" in papers:
        venue_counts.update(venue_short_name(v) for v in papers["venue"].dropna() if str(v).strip())
    header_years: list[int] = []
    for header in headers.values():
        match = _HEADER_VENUE.match(header or "")
        if match and not venue_counts:
            venue_counts[match.group(1)] += 0
        header_years += [int(y) for y in _YEAR.findall(header or "")]
    total = sum(venue_counts.values())
    named = [v for v, n in sorted(venue_counts.items(), key=lambda item: (-item[1], item[0]))
             if total == 0 or n / total >= MIN_VENUE_SHARE]
    years: list[int] = []
    if "year" in papers:
        years = [int(y) for y in pd.to_numeric(papers["year"], errors="coerce").dropna()]
    return CorpusName(venues=tuple(named), n_venues=len(named), years=year_span(years or header_years),
                      n_abstracts=len(papers))


def book_title(analysis: "Analysis", environment: Mapping[str, str] | None = None) -> str:
    """The book's title: ``BOOK_TITLE`` when set, else :func:`corpus_name`'s title of the analysed corpus."""
    environment = os.environ if environment is None else environment
    given = environment.get(TITLE_ENV, "").strip()
    return given or corpus_name(analysis.papers, analysis.corpus.headers).title


def analysis_name(analysis: "Analysis") -> CorpusName:
    """:func:`corpus_name` of an analysis."""
    return corpus_name(analysis.papers, analysis.corpus.headers)


def figure_label(analysis: "Analysis") -> str:
    """The corpus as a figure's title names it: "ICML 2024: 57 abstracts" (``BOOK_TITLE`` when set)."""
    return book_title(analysis)


def citation_title(analysis: "Analysis", environment: Mapping[str, str] | None = None) -> str:
    """The title a citation of this build gives: "Themes, co-occurring terms and link availability in 751
    abstracts of ICML 2023–2025" (``BOOK_TITLE`` when set)."""
    environment = os.environ if environment is None else environment
    given = environment.get(TITLE_ENV, "").strip()
    subject = analysis_name(analysis).sentence_subject
    return given or f"Themes, co-occurring terms and link availability in {subject}"
