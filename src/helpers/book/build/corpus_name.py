"""A corpus named from its papers: "ICML 2023–2025: 751 abstracts", "Transportation Science and Technology,
1983–2018: 729 Web of Science abstracts".

The venue and years come from the papers' ``venue`` and ``year`` columns where the input carries them
(BibTeX, RIS, tables), else from the files' header lines ("ICML 2024 Papers"). A corpus of many venues (a
database export) is named by its subject: the subjects the export gives its records (the papers' ``subjects``:
Web of Science categories, PubMed's MeSH major topics), else a journal that holds a large share of the papers,
else names the caller gives (the hook for the largest themes); without any, by its database or number of venues.
The book's title, its figures' labels and its citation (:mod:`helpers.book.build.title`) say this name.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

import pandas as pd

from helpers.book.formatting import count

__all__ = ["CorpusName", "corpus_name", "venue_short_name", "year_span", "DATABASE_NAMES", "DATABASE_KEYS"]

#: The most venues a title names.
MAX_NAMED_VENUES = 2
#: The databases a title names when the venues are many (an export of one database).
DATABASE_NAMES = {"wos": "Web of Science", "medline": "PubMed", "scopus": "Scopus"}
#: Record keys that name their database, whatever the file's format (Scopus EIDs, Web of Science accession numbers).
DATABASE_KEYS = {"scopus": re.compile(r"^2-s2\.0-\d+$"), "wos": re.compile(r"^WOS:\w+$")}
_HEADER_VENUE = re.compile(r"^\s*([A-Z][A-Za-z&-]{1,15})\s+((?:19|20)\d\d)\b")
_YEAR = re.compile(r"\b((?:19|20)\d\d)\b")
_SMALL_WORDS = {"of", "on", "the", "and", "for", "in", "a", "an", "to"}
_ORDINAL = re.compile(r"^\d+(st|nd|rd|th)$", re.IGNORECASE)
_ACRONYM_PART = re.compile(r"([A-Z][A-Z0-9&]{1,9})(?:[\s'-]+(?:19|20)?\d\d)?")
#: The named venues must hold this share of the papers that carry a venue; else the corpus is named by its
#: database (one export) or by its number of venues.
NAMED_VENUES_SHARE = 0.8
#: The most subjects a title names.
MAX_NAMED_SUBJECTS = 2
#: A second subject is named only when the subjects' names stay within this many characters (a short title).
MAX_SUBJECT_CHARS = 45
#: A subject the title names is given to at least this share of the papers that carry subjects.
SUBJECT_SHARE = 0.2
#: Without subjects, a journal names the subject when it holds at least this share of the papers with a venue.
JOURNAL_SHARE = 0.4
#: Index terms that say who or what was studied, or what kind of document it is, never the subject: the check tags
#: and publication types of MeSH and Emtree (Scopus' index keywords) that most records of a field carry.
CHECK_TAGS = frozenset({
    "human", "humans", "animal", "animals", "female", "male", "adult", "aged", "middle aged", "young adult",
    "adolescent", "child", "child, preschool", "preschool child", "school child", "infant", "infant, newborn",
    "newborn", "aged, 80 and over", "very elderly", "article", "review", "controlled study", "nonhuman",
    "priority journal", "major clinical study", "clinical article", "procedures", "methodology", "questionnaire",
    "cross-sectional study", "cross-sectional studies", "cohort analysis", "prospective study", "retrospective study",
    "retrospective studies", "prospective studies", "comparative study", "randomized controlled trial", "case report",
    "mouse", "mice", "rat", "rats", "animal experiment", "animal model", "human experiment", "normal human",
    "united states", "pregnancy", "sensitivity and specificity", "surveys and questionnaires", "treatment outcome",
})
# Web of Science's qualified categories ("Engineering, Civil"): a qualifier of adjectives reads first.
_ADJECTIVE = re.compile(r"^(?:[A-Z][a-z]*(?:al|ic|ed|ar|il)|&)$")
_BROAD_QUALIFIER = re.compile(r"^(?:Multidisciplinary|Interdisciplinary Applications)$")


def venue_short_name(venue: str) -> str:
    """A venue as a title names it: its acronym where it gives one ("..., ECC 2024") or is a "Conference on ..."
    name, a journal's name without its subtitle, never a year.

    Parameters
    ----------
    venue
        A venue as the input names it.

    Returns
    -------
    str
        The short name.

    Examples
    --------
    >>> venue_short_name("Proceedings of the 40th International Conference on Machine Learning")
    'ICML'
    >>> venue_short_name("ICML"), venue_short_name("Journal of Cleaner Production")
    ('ICML', 'Journal of Cleaner Production')
    >>> venue_short_name("2024 EUROPEAN CONTROL CONFERENCE, ECC 2024")
    'ECC'
    >>> venue_short_name("Value in health : the journal of the International Society for Pharmacoeconomics")
    'Value in health'
    """
    venue = " ".join(str(venue).split())
    for part in venue.split(",")[1:]:
        acronym = _ACRONYM_PART.fullmatch(part.strip())
        if acronym:
            return acronym.group(1)
    venue = venue.split(" : ")[0].strip()
    if re.search(r"\b(Conference|Symposium|Workshop)\b", venue, re.IGNORECASE) and len(venue.split()) > 3:
        name = re.sub(r"^(Proceedings|Proc\.)\s+of\s+(the\s+)?", "", venue, flags=re.IGNORECASE)
        words = [w for w in re.split(r"[\s,-]+", name) if w and not _ORDINAL.match(w) and not _YEAR.fullmatch(w)
                 and w.lower() not in _SMALL_WORDS]
        return "".join(w[0].upper() for w in words if w[0].isalpha())
    return _YEAR.sub("", venue).strip(" ,") or venue


def subject_name(subject: str) -> str:
    """A subject as a title names it: a Web of Science category's qualifier of adjectives first, a broad one
    dropped, "&" as "and".

    Examples
    --------
    >>> subject_name("Engineering, Civil"), subject_name("Engineering, Electrical & Electronic")
    ('Civil Engineering', 'Electrical and Electronic Engineering')
    >>> subject_name("Materials Science, Multidisciplinary"), subject_name("Agriculture, Dairy & Animal Science")
    ('Materials Science', 'Agriculture, Dairy and Animal Science')
    >>> subject_name("Public, Environmental & Occupational Health"), subject_name("Decision Support Techniques")
    ('Public, Environmental and Occupational Health', 'Decision Support Techniques')
    >>> subject_name("Agricultural robots"), subject_name("mRNA vaccines of the pH test")
    ('Agricultural Robots', 'mRNA Vaccines of the pH Test')
    """
    subject = " ".join(word[0].upper() + word[1:] if word.islower() and (not index or word not in _SMALL_WORDS)
                       else word for index, word in enumerate(subject.split()))
    head, comma, qualifier = subject.partition(", ")
    if comma and "," not in qualifier and len(head.split()) <= 2 and not _ADJECTIVE.match(head.split()[-1]):
        if _BROAD_QUALIFIER.match(qualifier):
            subject = head
        elif all(_ADJECTIVE.match(word) for word in qualifier.split()):
            subject = f"{qualifier} {head}"
    return subject.replace(" & ", " and ")


def named_subjects(subjects: Iterable[str], share: float = SUBJECT_SHARE) -> tuple[str, ...]:
    """The subjects a title names (:func:`subject_name`), most papers first: each given to at least ``share`` of
    the papers with subjects (``subjects``: one ``; ``-separated text per paper, ``""`` without), at most
    :data:`MAX_NAMED_SUBJECTS` within :data:`MAX_SUBJECT_CHARS` characters, no check tag (:data:`CHECK_TAGS`:
    "Humans", "Article"), none whose words (their first six
    letters) another named one holds, or that holds another's words ("Transportation Science and Technology" after
    "Transportation", "Agriculture" after "Agricultural Robots").

    Examples
    --------
    >>> named_subjects(["Transportation Science & Technology; Transportation", "Transportation; Ergonomics",
    ...                 "Transportation Science & Technology; Transportation", "Ergonomics; Engineering, Civil",
    ...                 "Transportation Science & Technology", ""])
    ('Transportation', 'Ergonomics')
    >>> named_subjects(["A", "B", "C", "D", "E", "F"]), named_subjects([])
    ((), ())
    >>> named_subjects(["Automation & Control Systems", "Operations Research & Management Science"] * 2)
    ('Automation and Control Systems',)
    >>> named_subjects(["human; article; female; diabetes mellitus", "Human; Article; male; obesity; diabetes mellitus"])
    ('Diabetes Mellitus', 'Obesity')
    """
    counts: Counter[str] = Counter()
    n_papers = 0
    for text in subjects:
        names = {subject_name(s) for s in str(text).split(";") if s.strip() and s.strip().lower() not in CHECK_TAGS}
        n_papers += bool(names)
        counts.update(names)
    named: list[str] = []
    for name, n in sorted(counts.items(), key=lambda item: (-item[1], item[0])):
        if n < share * n_papers or len(named) == MAX_NAMED_SUBJECTS:
            break
        if any(_stems(name) <= _stems(other) or _stems(other) <= _stems(name) for other in named) or (
                named and len(named[0]) + len(name) + 2 > MAX_SUBJECT_CHARS):
            continue
        named.append(name)
    return tuple(named)


def _stems(name: str) -> set[str]:
    """A subject's words as :func:`named_subjects` compares them: lower case, their first six letters."""
    return {word[:6] for word in re.findall(r"\w+", name.lower()) if word not in _SMALL_WORDS}


def year_span(years: Iterable[int]) -> str:
    """Years as a title writes them: "2024", "2023–2025" (consecutive), "2019, 2021" (a few), "2010–2020" (many).

    Parameters
    ----------
    years
        The papers' years.

    Returns
    -------
    str
        The span, empty without a year.

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
    """What a corpus is: the venues (or database) its title names, most papers first (none: it is named by
    ``n_venues``), its years and its number of abstracts.

    Attributes
    ----------
    venues
        The venues or the database the title names.
    n_venues
        The corpus's venues (or files' header venues).
    years
        The years, as :func:`year_span` writes them.
    n_abstracts
        The corpus's abstracts.
    from_database
        Whether ``venues`` names the export's database.
    subjects
        The subjects the title names first.

    Examples
    --------
    >>> CorpusName(venues=("ICML",), n_venues=1, years="2024", n_abstracts=57).title
    'ICML 2024: 57 abstracts'
    """

    venues: tuple[str, ...]
    n_venues: int
    years: str
    n_abstracts: int
    from_database: bool = False
    #: The subjects the title names instead of the database or the number of venues (:func:`named_subjects`).
    subjects: tuple[str, ...] = ()

    @property
    def title(self) -> str:
        """ "ICML 2023–2025: 751 abstracts"; "Transportation and Ergonomics, 1983–2018: 729 Web of Science
        abstracts" for a corpus named by its subjects; "57 abstracts" when neither venue nor year is known.

        Examples
        --------
        >>> CorpusName(("ICML",), 1, "2024", 57).title
        'ICML 2024: 57 abstracts'
        >>> CorpusName((), 9, "", 1).title, CorpusName((), 0, "", 1).title
        ('9 venues: 1 abstract', '1 abstract')
        >>> CorpusName(("Web of Science",), 80, "1983–2018", 729, True, ("Transportation", "Ergonomics")).title
        'Transportation and Ergonomics, 1983–2018: 729 Web of Science abstracts'
        >>> CorpusName((), 9, "", 12, subjects=("Operations Research and Management Science", "Robotics")).title
        'Operations Research and Management Science; Robotics: 12 abstracts'
        """
        if self.subjects:
            joiner = "; " if any(" and " in s or "," in s for s in self.subjects) else " and "
            head = ", ".join(part for part in (joiner.join(self.subjects), self.years) if part)
            database = f"{self.venues[0]} " if self.from_database and self.venues else ""
            return f"{head}: {count(self.n_abstracts, database + 'abstract')}"
        what = ", ".join(self.venues) if self.venues else (f"{self.n_venues} venues" if self.n_venues else "")
        head = " ".join(part for part in (what, self.years) if part)
        abstracts = count(self.n_abstracts, "abstract")
        return f"{head}: {abstracts}" if head else abstracts

    @property
    def sentence_subject(self) -> str:
        """The corpus as the subject of a sentence: "751 abstracts of ICML 2023–2025", "729 Web of Science abstracts
        on Transportation Science and Technology, 1991–2018" (named by its subjects, as the title is), "91 abstracts
        from Web of Science, 2024–2025", "128 abstracts in 89 venues, 2020–2022".

        Examples
        --------
        >>> CorpusName(("ICML",), 1, "2024", 57).sentence_subject, CorpusName((), 0, "", 3).sentence_subject
        ('57 abstracts of ICML 2024', '3 abstracts')
        >>> CorpusName(("PubMed",), 40, "1990–2023", 334, from_database=True).sentence_subject
        '334 abstracts from PubMed, 1990–2023'
        >>> CorpusName((), 89, "2020–2022", 128).sentence_subject
        '128 abstracts in 89 venues, 2020–2022'
        >>> CorpusName(("Scopus",), 40, "2014–2023", 67, True, ("Agricultural Robots",)).sentence_subject
        '67 Scopus abstracts on Agricultural Robots, 2014–2023'
        """
        abstracts = count(self.n_abstracts, "abstract")
        years = f", {self.years}" if self.years else ""
        if self.subjects:  # named by its subject, as the title is
            joiner = "; " if any(" and " in s or "," in s for s in self.subjects) else " and "
            database = f"{self.venues[0]} " if self.from_database and self.venues else ""
            return f"{count(self.n_abstracts, database + 'abstract')} on {joiner.join(self.subjects)}{years}"
        if self.venues and self.from_database:
            return f"{abstracts} from {', '.join(self.venues)}{years}"
        if self.venues:
            return f"{abstracts} of {' '.join(part for part in (', '.join(self.venues), self.years) if part)}"
        if self.n_venues:
            return f"{abstracts} in {count(self.n_venues, 'venue')}{years}"
        return f"{abstracts} of {self.years}" if self.years else abstracts


def corpus_name(papers: pd.DataFrame, headers: Mapping[str, str | None], databases: Iterable[str] = (),
                fallback_subjects: Sequence[str] = ()) -> CorpusName:
    """Name a corpus from its papers' ``venue`` and ``year`` columns, else from its files' header lines.

    The venues named are the fewest, most frequent first, that hold :data:`NAMED_VENUES_SHARE` of the papers
    with a venue, when they are at most :data:`MAX_NAMED_VENUES`; otherwise the corpus is named by its
    subjects (:func:`named_subjects` of the papers' ``subjects``; else a journal holding :data:`JOURNAL_SHARE` of
    the papers; else ``fallback_subjects``, such as the names of the largest themes), with its one database
    (``databases``: the formats of its files, e.g. ``wos``), or, without subjects, by that database or by its
    number of venues.

    Parameters
    ----------
    papers
        The papers table (``venue``, ``year``, ``subjects`` where the input gives them).
    headers
        Each file's header line, or ``None``.
    databases
        The files' databases or formats.
    fallback_subjects
        Names to use when the papers give no subject.

    Returns
    -------
    CorpusName
        What the corpus is.

    Examples
    --------
    >>> papers = pd.DataFrame({"venue": ["ICML", "ICML", None], "year": [2023, 2025, 2024]})
    >>> corpus_name(papers, {}).title
    'ICML 2023–2025: 3 abstracts'
    >>> corpus_name(pd.DataFrame({"paper_id": ["a", "b"]}), {"x.txt": "ICML 2024 Papers", "y.txt": None}).title
    'ICML 2024: 2 abstracts'
    >>> journals = pd.DataFrame({"venue": ["J A", "J B", "J C", "J D"], "year": [2020, 2021, 2021, 2022]})
    >>> corpus_name(journals, {}, ["wos"]).title, corpus_name(journals, {}).title
    ('Web of Science 2020–2022: 4 abstracts', '4 venues 2020–2022: 4 abstracts')
    >>> corpus_name(journals.assign(subjects=["Ecology", "Ecology; Zoology", "Zoology", "Ecology"]), {}, ["wos"]).title
    'Ecology and Zoology, 2020–2022: 4 Web of Science abstracts'
    >>> corpus_name(journals, {}, ["wos"], fallback_subjects=["Heat Pumps"]).title
    'Heat Pumps, 2020–2022: 4 Web of Science abstracts'
    """
    venue_counts: Counter[str] = Counter()
    if "venue" in papers:
        venue_counts.update(venue_short_name(v) for v in papers["venue"].dropna() if str(v).strip())
    header_years: list[int] = []
    header_venues: list[str] = []
    for header in headers.values():
        match = _HEADER_VENUE.match(header or "")
        if match and match.group(1) not in header_venues:
            header_venues.append(match.group(1))
        header_years += [int(y) for y in _YEAR.findall(header or "")]
    total = sum(venue_counts.values())
    named: list[str] = []
    covered = 0
    for venue, n in sorted(venue_counts.items(), key=lambda item: (-item[1], item[0])):
        named.append(venue)
        covered += n
        if covered >= NAMED_VENUES_SHARE * total:
            break
    databases = list(databases)
    known_databases = sorted({DATABASE_NAMES[d] for d in databases if d in DATABASE_NAMES})
    from_database = False
    if total and len(named) > MAX_NAMED_VENUES:
        from_database = len(known_databases) == 1 and set(databases) <= set(DATABASE_NAMES)
        named = known_databases if from_database else []
    elif not total:
        named = header_venues[:MAX_NAMED_VENUES] if len(header_venues) <= MAX_NAMED_VENUES else []
    n_venues = len(venue_counts) if total else len(header_venues)
    subjects: tuple[str, ...] = ()
    if total and (from_database or not named):
        subjects = (named_subjects(papers["subjects"]) if "subjects" in papers else ()) or named_subjects(
            (venue_short_name(v) for v in papers["venue"].dropna() if str(v).strip()), JOURNAL_SHARE
        ) or tuple(fallback_subjects)
    years: list[int] = []
    if "year" in papers:
        years = [int(y) for y in pd.to_numeric(papers["year"], errors="coerce").dropna()]
    return CorpusName(venues=tuple(named), n_venues=n_venues, years=year_span(years or header_years),
                      n_abstracts=len(papers), from_database=from_database, subjects=subjects)
