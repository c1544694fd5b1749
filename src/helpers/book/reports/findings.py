"""The book's answers in one place: the key findings of the landing page and its overview figure."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pandas as pd

from helpers.analysis.cooccurrence import distinct_pairs
from helpers.analysis.links.states import LINK_STATES, state_shares
from helpers.book.display import markdown_cell as md
from helpers.book.formatting import count, number, plural, share_and_interval
from helpers.book.reports import drawing
from helpers.book.settings import with_titles
from helpers.book.build.title import figure_label

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from helpers.analysis.pipeline import Analysis

__all__ = ["N_FINDING_THEMES", "N_FINDING_PAIRS", "N_OVERVIEW_THEMES", "key_findings", "key_counts", "finding_pairs",
           "overview_figure"]

N_FINDING_THEMES = 5
N_FINDING_PAIRS = 3
EXAMPLE_TITLE_CHARS = 70  # an example paper's title on the landing page is cut at a word to this
N_OVERVIEW_THEMES = 15


def key_findings(analysis: "Analysis") -> dict[str, Any]:
    """The landing page's three findings as Markdown sentences (for ``{glue:md}``), by glue name; true for any
    corpus, with or without themes or links. Corpus-derived words are escaped.

    Parameters
    ----------
    analysis : Analysis
        The corpus analysed: its themes, term map and links.

    Returns
    -------
    dict
        ``intro_themes_sentence``, ``intro_pairs_sentence``, ``intro_linked_sentence`` and the others the landing
        page's findings show, each a sentence with the corpus's words escaped.

    Examples
    --------
    >>> from helpers.analysis.corpus import write_corpus
    >>> from helpers.analysis.pipeline import run_pipeline
    >>> folder = write_corpus({"a.txt": "We study galaxies with a new telescope survey today."})
    >>> findings = key_findings(run_pipeline([folder]))
    >>> findings["intro_themes_sentence"]
    'No themes could be fitted: themes need at least 4 abstracts; this corpus has 1.'
    >>> findings["intro_linked_sentence"]
    '0 of 1 paper (0%, 95% interval 0% to 79%) link code, data or a project page; 0 more say their code or data are available but give no usable link, and 0 only promise it for later'
    """
    from helpers.book.reports.links import venue_code_sentence  # lazy: at the top it would load jinja2

    papers = analysis.papers
    model = analysis.themes.model
    if model is None:
        themes_sentence = f"No themes could be fitted: {md(analysis.themes.message)}."
    else:
        by_size = model.themes.sort_values(["n_papers", "theme"], ascending=[False, True])
        listed = "; ".join(f"*{md(row.label)}* ({number(row.n_papers)})" for row in by_size.head(N_FINDING_THEMES).itertuples())
        themes_sentence = (f"{count(len(by_size), 'theme')}; the largest is *{md(by_size.iloc[0]['label'])}* with "
                           f"{count(int(by_size.iloc[0]['n_papers']), 'paper')}. By size: {listed}")
        if len(by_size) > N_FINDING_THEMES:
            themes_sentence += f"; and {len(by_size) - N_FINDING_THEMES} more"
        themes_sentence += "."
        if analysis.hierarchy is not None:  # the coarser grain (helpers.analysis.themes.hierarchy)
            broad = analysis.hierarchy.broad
            named = [f"*{md(row.broad_label)}* ({number(row.broad_n_papers)})" for row in broad.itertuples()]
            themes_sentence += (f" At a coarser grain, {count(len(broad), 'broad theme')}: "
                                f"{', '.join(named[:-1]) + ' and ' + named[-1] if len(named) > 1 else named[0]}.")
    shares = state_shares(papers).set_index("link_state")
    linked = shares.loc["linked"]
    n_linked = int(linked["n_papers"])
    share, interval = share_and_interval(linked["share"], linked["ci_low"], linked["ci_high"])
    linked_sentence = (f"{number(n_linked)} of {count(len(papers), 'paper')} ({share}, 95% interval {interval}) "
                       f"{plural('links', n_linked)} code, data or a project page")
    states = papers["link_state"].value_counts()
    n_dangling, n_promised = int(states.get("dangling", 0)), int(states.get("promised", 0))
    linked_sentence += (f"; {number(n_dangling)} more {'says its' if n_dangling == 1 else 'say their'} code or data "
                        f"{plural('is', n_dangling)} available but "
                        f"{plural('gives', n_dangling)} no usable link, and {number(n_promised)} only "
                        f"{plural('promises', n_promised)} it for later")
    # The code link given to the venue (a software field), only where the input has a code field.
    venue = venue_code_sentence(papers, emphasis=False)
    if venue:
        linked_sentence += ". " + venue.split("; ")[0]
    pairs = distinct_pairs(analysis.cooccurrence, N_FINDING_PAIRS)
    if len(pairs):
        titles = _titles(analysis)
        pairs_sentence = "; ".join(f"*{md(p.source)}* and *{md(p.target)}* ({count(int(p.n_papers), 'paper')}, "
                                   f"such as “{md(titles.get(p.example, p.example))}”)"
                                   for p in pairs.itertuples())
    else:
        pairs_sentence = "none: fewer than two terms are on the term map"
    return {
        "intro_themes_sentence": themes_sentence,
        "intro_linked_sentence": linked_sentence,
        "intro_pairs_sentence": pairs_sentence,
    }


def _titles(analysis: "Analysis") -> dict[str, str]:
    """Each paper's title as the book shows it (``display_title``: the book's metadata file where the corpus
    has no titles), shortened, for the landing page's example papers."""
    from helpers.analysis.corpus.titles import shorten_title  # lazy: keeps this module's import light
    papers = with_titles(analysis.papers)
    return {str(paper): shorten_title(str(title), EXAMPLE_TITLE_CHARS)
            for paper, title in zip(papers["paper_id"], papers["display_title"])}


def key_counts(analysis: "Analysis") -> dict[str, int | str]:
    """The values the landing page glues beside :func:`key_findings`' sentences (those its text shows).

    Parameters
    ----------
    analysis : Analysis
        The corpus analysed (its themes).

    Returns
    -------
    dict
        ``intro_overview_themes``.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> key_counts(SimpleNamespace(themes=SimpleNamespace(table=pd.DataFrame({"theme": range(20)}))))
    {'intro_overview_themes': 'the 15 largest of the 20 themes'}
    """
    n_themes = len(analysis.themes.table)
    return {"intro_overview_themes": (f"the {N_OVERVIEW_THEMES} largest of the {n_themes} themes"
                                      if n_themes > N_OVERVIEW_THEMES
                                      else "the one theme" if n_themes == 1 else f"all {n_themes} themes")}


def finding_pairs(analysis: "Analysis") -> int:
    """How many strongest pairs of distinct communities the key findings show (at most :data:`N_FINDING_PAIRS`).

    Parameters
    ----------
    analysis : Analysis
        The corpus analysed (its term map).

    Returns
    -------
    int

    Examples
    --------
    >>> from helpers.analysis.corpus import write_corpus
    >>> from helpers.analysis.pipeline import run_pipeline
    >>> finding_pairs(run_pipeline([write_corpus({"a.txt": "Crash severity on rural roads, by driver age."})]))
    0
    """
    return len(distinct_pairs(analysis.cooccurrence, N_FINDING_PAIRS))


def overview_figure(analysis: "Analysis") -> tuple["Figure", pd.DataFrame]:
    """Two panels: papers per theme (the :data:`N_OVERVIEW_THEMES` largest) and papers per link state.

    Parameters
    ----------
    analysis : Analysis
        The corpus analysed: its themes and its papers' link states.

    Returns
    -------
    figure : Figure
    data : DataFrame
        One row per bar: ``panel, name, papers``.

    Examples
    --------
    >>> from helpers.analysis.corpus import write_corpus
    >>> from helpers.analysis.pipeline import run_pipeline
    >>> figure, data = overview_figure(run_pipeline([write_corpus({"a.txt": "Broiler growth under heat stress in summer."})]))
    >>> len(figure.axes)
    2
    """
    from helpers.book.reports.theme_figures import theme_palette  # lazy: keeps this module's import light

    model = analysis.themes.model
    n_bars = min(len(model.themes), N_OVERVIEW_THEMES) if model is not None else 2
    # One panel above the other, each bar's name in full beside it, at the column's width.
    figure, (themes_axis, links_axis) = drawing.column_subplots(
        1.3 + 0.22 * (n_bars + len(LINK_STATES)), 2, 1, height_ratios=[n_bars + 1.5, len(LINK_STATES) + 1.5])
    rows = []
    if model is None:
        themes_axis.axis("off")
        themes_axis.text(0.5, 0.5, f"No themes: {analysis.themes.message}", ha="center", va="center", wrap=True)
    else:
        palette = theme_palette(len(model.themes))
        by_size = model.themes.sort_values(["n_papers", "theme"], ascending=[False, True]).head(N_OVERVIEW_THEMES)
        names = [f"{t}. {label}" for t, label in zip(by_size["theme"], by_size["label"])]
        bars = range(len(names) - 1, -1, -1)  # positions, so two names shortened alike keep their own bars
        themes_axis.barh(list(bars), by_size["n_papers"], color=[palette[int(t) - 1] for t in by_size["theme"]])
        themes_axis.set_yticks(list(bars), [drawing.shorten(name, 48) for name in names])
        themes_axis.set(xlabel="Papers", title="Largest themes")
        rows += [dict(panel="themes", category=n, papers=int(c)) for n, c in zip(names, by_size["n_papers"])]
    counts = analysis.papers["link_state"].value_counts().reindex(list(LINK_STATES), fill_value=0)
    links_axis.barh(list(LINK_STATES)[::-1], counts.to_numpy()[::-1], color="tab:blue")
    for position, value in enumerate(counts.to_numpy()[::-1]):
        links_axis.text(value, position, f" {value}", va="center")
    links_axis.set(xlabel="Papers", title="What abstracts say about code and data")
    links_axis.set_xlim(0, 1.2 * max(int(counts.max()), 1))  # room for the count beside the longest bar
    rows += [dict(panel="link states", category=s, papers=int(c)) for s, c in counts.items()]
    drawing.set_title(figure, f"The corpus at a glance: {figure_label(analysis)}")
    return drawing.finish(figure), pd.DataFrame(rows, columns=["panel", "category", "papers"])
