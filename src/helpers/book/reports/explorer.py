"""What the explorer chapter says about the papers' own metadata and groups (the page itself: :mod:`helpers.web.explorer`)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from helpers.book.display import markdown_cell
from helpers.book.formatting import count, number
from helpers.web.explorer_data import MAX_EXPLORER_PAPERS, SAMPLE_SEED, explorer_papers  # noqa: F401 (the chapter's)
from helpers.analysis.spreadsheet import write_csv

if TYPE_CHECKING:
    from helpers.analysis.pipeline import Analysis

__all__ = ["FULL_TABLE", "FULL_TABLE_COLUMNS", "MAX_EXPLORER_PAPERS", "explorer_papers", "titles_sentence", "grains_note",
           "groups_note", "venue_code_note", "sample_note", "write_full_table"]


def titles_sentence(analysis: "Analysis", papers: pd.DataFrame, metadata_file: str) -> str:
    """How many papers have a title and where the titles come from, as Markdown: naming only the sources that gave
    one (the input's own title fields; the book's metadata file ``metadata_file`` only where it matched a paper).

    ``papers`` is ``analysis.papers`` with the metadata file's titles added (:func:`helpers.book.with_titles`).

    Parameters
    ----------
    analysis : Analysis
        The corpus analysed (its papers' own titles).
    papers : DataFrame
        The papers with the metadata file's titles.
    metadata_file : str
        The book's metadata file, as the sentence names it.

    Returns
    -------
    str
        Markdown.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> own = pd.DataFrame({"title": ["A", "", ""]})
    >>> titles_sentence(SimpleNamespace(papers=own), own, "data/meta.csv")
    "1 of the 3 papers has a title, from the input files' own title fields; the others are shown by `paper_id` and their first words, markup removed."
    >>> print(titles_sentence(SimpleNamespace(papers=own.drop(columns="title")), own.assign(title=["A", "B", "C"]),
    ...                       "data/meta.csv"))  # doctest: +NORMALIZE_WHITESPACE
    All 3 papers have a title, from the book's metadata file `data/meta.csv` (matched by the SHA-1 of the
    abstract).
    """
    n_papers = len(papers)
    given = analysis.papers["title"].fillna("").astype(str) != "" if "title" in analysis.papers else None
    n_own = int(given.sum()) if given is not None else 0
    n_titled = int((papers["title"].fillna("").astype(str) != "").sum()) if "title" in papers else 0
    n_matched = n_titled - n_own
    sources = []
    if n_own:
        sources.append("the input files' own title fields")
    if n_matched:
        sources.append(f"the book's metadata file `{markdown_cell(metadata_file)}` (matched by the SHA-1 of the "
                       f"abstract{f', {number(n_matched)} of them' if n_own else ''})")
    if n_titled == 0:
        return (f"No paper of the {count(n_papers, 'paper')} has a title in the input; each is shown by `paper_id` "
                "and its first words, markup removed.")
    have = "has" if n_titled == 1 else "have"
    subject = (f"All {count(n_papers, 'paper')}" if n_titled == n_papers and n_papers > 1
               else "The paper" if n_titled == n_papers else f"{number(n_titled)} of the {count(n_papers, 'paper')}")
    rest = ("" if n_titled == n_papers
            else "; the others are shown by `paper_id` and their first words, markup removed")
    return f"{subject} {have} a title, from {' and '.join(sources)}{rest}."


def grains_note(analysis: "Analysis") -> str:
    """A Markdown sentence on the Theme column's two grains (:mod:`helpers.analysis.themes.hierarchy`); ``""``
    without broad themes.

    Parameters
    ----------
    analysis : Analysis
        The corpus analysed: its broad themes.

    Returns
    -------
    str
        Markdown, ``""`` without broad themes.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> table = pd.DataFrame({"broad_theme": ["A", "A", "B"], "theme": [1, 2, 3]})
    >>> papers = pd.DataFrame({"mixed": [True, False, False, True]})
    >>> print(grains_note(SimpleNamespace(hierarchy=SimpleNamespace(table=table), papers=papers)))
    The Theme column names each paper's broad theme (of 2, lettered), its strongest theme and the second, each with its share of the paper's theme weight; 2 of the 4 papers are *mixed*, their strongest theme under half of it. The broad theme filter (`?broad=<letter>`) lists the papers whose strongest theme is in that broad theme.
    >>> grains_note(SimpleNamespace(hierarchy=None, papers=papers))
    ''
    """
    if analysis.hierarchy is None or "mixed" not in analysis.papers:
        return ""
    n_broad = analysis.hierarchy.table["broad_theme"].nunique()
    mixed = int(analysis.papers["mixed"].astype(bool).sum())
    return (f"The Theme column names each paper's broad theme (of {number(n_broad)}, lettered), its strongest theme "
            "and the second, each with its share of the paper's theme weight; "
            f"{number(mixed)} of the {count(len(analysis.papers), 'paper')} {'is' if mixed == 1 else 'are'} *mixed*, "
            "their strongest theme under half of it. The broad theme filter (`?broad=<letter>`) lists the papers "
            "whose strongest theme is in that broad theme.")


def groups_note(analysis: "Analysis") -> str:
    """A Markdown paragraph on the Year column and the group filter; ``""`` when the page has neither.

    Parameters
    ----------
    analysis : Analysis
        The corpus analysed: its groups (years, venues or files).

    Returns
    -------
    str
        Markdown, ``""`` with one group.

    Examples
    --------
    >>> import pandas as pd
    >>> from types import SimpleNamespace
    >>> grouped = SimpleNamespace(papers=pd.DataFrame({"year": [2023, 2025]}), group_order=("2023", "2025"),
    ...                           group_by="year")
    >>> print(groups_note(grouped))
    The papers carry their year (the Year column sorts by it) and fall into 2 groups by year (2023, 2025): the group filter shows one of them, and `?group=<name>` opens the explorer on it.
    >>> groups_note(SimpleNamespace(papers=pd.DataFrame({"text": ["x"]}), group_order=("all",), group_by=None))
    ''
    """
    has_year = "year" in analysis.papers
    grouped = len(analysis.group_order) > 1
    if not has_year and not grouped:
        return ""
    parts = ["The papers carry their year (the Year column sorts by it)"] if has_year else []
    if grouped:
        names = ", ".join(markdown_cell(name) for name in analysis.group_order)
        parts.append(f"fall into {len(analysis.group_order):,} groups by {markdown_cell(analysis.group_by)} ({names}): "
                     "the group filter shows one of them, and `?group=<name>` opens the explorer on it")
    if has_year and grouped:
        return parts[0] + " and " + parts[1] + "."
    return (parts[0] if has_year else "The papers " + parts[0]) + "."


def venue_code_note(analysis: "Analysis") -> str:
    """A Markdown sentence on the code link given to the venue (the input's ``software`` field or a ``url`` on a
    code host); ``""`` when no paper's input has a code field.

    Parameters
    ----------
    analysis : Analysis
        The corpus analysed: its papers' venue code fields.

    Returns
    -------
    str
        Markdown, ``""`` when no paper has a code field.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> papers = pd.DataFrame({"venue_code_field": [True, True, False], "venue_code": [True, False, False]})
    >>> print(venue_code_note(SimpleNamespace(papers=papers)))  # doctest: +NORMALIZE_WHITESPACE
    1 of the 2 papers whose metadata has a code field gave the venue a code link (the paper's metadata, not its
    abstract): the row links it as "code given to the venue", beside the abstract's own links and link state, and
    the filter by code link to the venue (`?venue_code=given` or `?venue_code=not-given`) lists those papers or
    the others.
    >>> venue_code_note(SimpleNamespace(papers=pd.DataFrame({"text": ["x"]})))
    ''
    """
    papers = analysis.papers
    if "venue_code_field" not in papers or not papers["venue_code_field"].astype(bool).any():
        return ""
    covered = papers[papers["venue_code_field"].astype(bool)]
    return (f"{number(int(covered['venue_code'].astype(bool).sum()))} of the {count(len(covered), 'paper')} whose "
            "metadata has a code field gave the venue a code link (the paper's metadata, not its abstract): the "
            "row links it as \"code given to the venue\", beside the abstract's own links and link state, and the "
            "filter by code link to the venue (`?venue_code=given` or `?venue_code=not-given`) lists those papers "
            "or the others.")


#: The full paper table offered beside a sample (in the figure folder), and its columns (no abstract text).
FULL_TABLE = "explorer-all-papers"
FULL_TABLE_COLUMNS = ["paper_id", "display_title", "authors", "theme", "link_state", "n_words", "source_file",
                      "position"]


def sample_note(n_shown: int, n_papers: int, seed: int = SAMPLE_SEED) -> tuple[str, str]:
    """HTML and Markdown saying the explorer holds a sample, with the full table's link (as in the web book and
    in the PDF book); ``("", "")`` when it holds every paper.

    Parameters
    ----------
    n_shown : int
        Papers in the explorer.
    n_papers : int
        Papers in the corpus.
    seed : int, optional
        The sample's seed.

    Returns
    -------
    html, markdown : str

    Examples
    --------
    >>> sample_note(57, 57)
    ('', '')
    >>> html_text, markdown_text = sample_note(20_000, 1_000_000)
    >>> print(markdown_text)
    The corpus has 1,000,000 papers, too many for one page: the explorer holds a random sample of 20,000 of them \
(seed 0, numpy's default_rng), in corpus order, so its search, filters and counts cover that sample. Every \
paper, without its abstract, is in figures/explorer-all-papers.csv of the web book; `python -m helpers analyse` \
writes them all with their abstracts (papers.csv, and papers/*.parquet in parts).
    >>> html_text.count("<code>"), "`" in html_text
    (3, False)
    """
    if n_shown >= n_papers:
        return "", ""
    text = (f"The corpus has {n_papers:,} papers, too many for one page: the explorer holds a random sample of "
            f"{n_shown:,} of them (seed {seed}, numpy's default_rng), in corpus order, so its search, filters "
            "and counts cover that sample. Every paper, without its abstract, is in {link}; {command} "
            "writes them all with their abstracts ({csv}, and {parquet} in parts).")
    link = f'<a href="../figures/{FULL_TABLE}.csv" download>{FULL_TABLE}.csv</a>'
    html_text = text.format(link=link, command="<code>python -m helpers analyse</code>", csv="<code>papers.csv</code>",
                            parquet="<code>papers/*.parquet</code>")
    return (f"<p>{html_text}</p>",
            text.format(link=f"figures/{FULL_TABLE}.csv of the web book", command="`python -m helpers analyse`",
                        csv="papers.csv", parquet="papers/*.parquet"))


def write_full_table(papers: pd.DataFrame, folder) -> None:
    """Write every paper's :data:`FULL_TABLE_COLUMNS` (those it has) as ``folder/``:data:`FULL_TABLE```.csv``.

    Parameters
    ----------
    papers : DataFrame
        Every paper of the corpus.
    folder : Path
        The book's figure folder (created when missing).

    Returns
    -------
    None

    Examples
    --------
    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> write_full_table(pd.DataFrame({"paper_id": ["p1"], "display_title": ["=Hens"]}), folder)
    >>> (folder / f"{FULL_TABLE}.csv").read_text()
    "paper_id,display_title\\np1,'=Hens\\n"
    """
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    columns = [c for c in FULL_TABLE_COLUMNS if c in papers]
    write_csv(papers[columns], folder / f"{FULL_TABLE}.csv")
