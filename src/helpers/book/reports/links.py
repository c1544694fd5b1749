"""What the links chapter shows: its glued values, tables, figures and the evaluation of the claim classifier."""

from __future__ import annotations

import html
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from helpers.analysis.links.evaluation import load_evaluation_set
from helpers.analysis.links.hosts import HOST_KINDS, LINKED_KINDS
from helpers.analysis.links.states import LINK_STATES, state_shares, venue_code_shares
from helpers.book.display import markdown_cell as md, paper_links
from helpers.book.formatting import count, number, percent, plural, share_and_interval
from helpers.book.inputs import page_input
from helpers.book.reports import drawing
from helpers.book.reports.link_threshold import MIN_LINKED_PAPERS, few_links
from helpers.book.build.title import analysis_name
from helpers.web.explorer import explorer_url, papers_link_text
from helpers.web.explorer_data import explorer_papers

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from helpers.analysis.pipeline import Analysis

N_TOP_ROWS = 20
#: The sections of the links chapter left out of the book when fewer than :data:`MIN_LINKED_PAPERS` papers give
#: a link (:mod:`helpers.book.build.sphinx_ext`), with the figures in them.
FEW_LINKS_SECTIONS = ("sec-links-shares", "sec-links-hosts")
FEW_LINKS_FIGURES = ("fig-links-shares", "fig-links-host-kinds", "fig-change-links")
#: What changed's section of the linked share per group, left out too when few papers give a link.
FEW_LINKS_CHANGE_SECTIONS = ("sec-change-links",)
#: The sections left out too when the abstracts hold no link at all: no link to repair or to check.
NO_LINKS_SECTIONS = ("sec-links-repaired", "sec-links-health")
EVALUATION_SET = Path("tests") / "evaluation" / "availability_claims.csv"
FIRST_RUN = Path("tests") / "evaluation" / "availability_first_run.csv"


@dataclass(frozen=True)
class LinkCounts:
    """The corpus's papers and links by link state, as the chapter's lead (:func:`chapter_lead`) reads them.

    ``share_linked`` and ``ci_linked`` are the linked share and its 95% Wilson interval as the lead prints them.
    """

    n_papers: int
    n_urls: int
    n_distinct: int
    n_linked: int
    share_linked: str
    ci_linked: str
    n_dangling: int
    n_promised: int
    n_none: int
    n_promised_too: int
    n_repaired: int


def link_counts(analysis: "Analysis") -> LinkCounts:
    """Papers per link state (with the linked share's interval) and the links' counts of ``analysis``."""
    papers, links = analysis.papers, analysis.links.links
    overall = state_shares(papers).set_index("link_state")
    linked = overall.loc["linked"]
    share_linked, ci_linked = share_and_interval(linked["share"], linked["ci_low"], linked["ci_high"])
    return LinkCounts(
        n_papers=len(papers), n_urls=len(links), n_distinct=int(links["url"].nunique()),
        n_linked=int(linked["n_papers"]), share_linked=share_linked, ci_linked=ci_linked,
        n_dangling=int(overall.loc["dangling", "n_papers"]), n_promised=int(overall.loc["promised", "n_papers"]),
        n_none=int(overall.loc["none", "n_papers"]), n_promised_too=int(papers["promised_too"].sum()),
        n_repaired=int(links["repaired"].sum()))


def link_findings(analysis: "Analysis") -> dict[str, Any]:
    """Every value the links chapter glues about the corpus, by glue name (the counts by state are in its lead,
    :func:`chapter_lead`)."""
    links = analysis.links.links
    code_links = links[links["kind"] == "code"]
    return {
        "links_n_code": len(code_links),
        "links_n_owners": code_links["owner"].nunique(),
        "links_linked_kinds": ", ".join(LINKED_KINDS),
        "links_n_top": N_TOP_ROWS,
    }


def shares_table(papers: pd.DataFrame, theme_labels: dict[int, str]) -> pd.DataFrame:
    """Shares of each link state with Wilson intervals: overall, per source file and per theme (themes in the
    order of their numbers, 2 before 10)."""
    parts = [state_shares(papers).assign(grouping="all"),
             state_shares(papers, "source_file").assign(grouping="source file")]
    themed = papers.dropna(subset=["theme"])
    if theme_labels and len(themed):
        themed = themed.assign(theme_label=themed["theme"].map(lambda t: f"{int(t)}. {theme_labels[int(t)]}"))
        by_theme = state_shares(themed, "theme_label").assign(grouping="theme")
        number = by_theme["group"].map(lambda label: int(str(label).split(".", 1)[0]))
        parts.append(by_theme.assign(_number=number).sort_values("_number", kind="stable").drop(columns="_number"))
    return pd.concat(parts, ignore_index=True)


def state_counts(shares: pd.DataFrame) -> pd.DataFrame:
    """Papers per link state (columns) for each group of :func:`shares_table`, in its order (themes by number: 2
    before 10, never sorted as text)."""
    return (shares.pivot_table(index=["grouping", "group"], columns="link_state", values="n_papers", aggfunc="sum",
                               sort=False)
            .reindex(columns=list(LINK_STATES)).reset_index())


def shares_figure(shares: pd.DataFrame, corpus_label: str) -> tuple["Figure", pd.DataFrame]:
    """Share of papers in state ``linked``, with its 95% Wilson interval, per group of :func:`shares_table`."""
    linked = shares[shares["link_state"] == "linked"].reset_index(drop=True)
    figure, axis = drawing.column_subplots(1.1 + 0.24 * len(linked))
    positions = list(range(len(linked)))[::-1]
    axis.hlines(positions, linked["ci_low"], linked["ci_high"], color="grey")
    axis.scatter(linked["share"], positions, color="tab:blue", zorder=3)
    axis.set_yticks(positions)
    axis.set_yticklabels([drawing.shorten(g if r == "all" else f"{g} ({r})", 48)
                          for g, r in zip(linked["group"], linked["grouping"])])
    axis.set_xlim(0, 1)
    axis.set(xlabel="Share of papers in state linked (95% Wilson interval)")
    drawing.set_title(figure, f"Papers linking code, data or a project page, {corpus_label}")
    return drawing.finish(figure), shares


def host_kinds_figure(links: pd.DataFrame, corpus_label: str) -> tuple["Figure", pd.DataFrame]:
    """Links per host kind (every kind of :data:`HOST_KINDS`, zero included)."""
    kinds = links.groupby("kind").size().reindex(list(HOST_KINDS), fill_value=0).rename("links")
    kinds = kinds.rename_axis("kind").reset_index()
    figure, axis = drawing.column_subplots(1.0 + 0.3 * len(kinds))
    colours = ["tab:blue" if k in LINKED_KINDS else "tab:grey" for k in kinds["kind"]]
    axis.barh(kinds["kind"][::-1], kinds["links"][::-1], color=colours[::-1])
    axis.set(xlabel="Links", ylabel="Host kind")
    drawing.set_title(figure, f"Links by host kind (blue: counts as linked), {corpus_label}")
    return drawing.finish(figure), kinds


def hosts_table(links: pd.DataFrame) -> pd.DataFrame:
    """Links per host, most first: ``host, kind, links``."""
    return (links.groupby(["host", "kind"]).size().rename("links").reset_index()
            .sort_values(["links", "host"], ascending=[False, True], ignore_index=True))


def owners_table(links: pd.DataFrame) -> pd.DataFrame:
    """Code links per repository owner, most first: ``owner, repositories, links``."""
    code = links[(links["kind"] == "code") & (links["owner"].fillna("").astype(str).str.strip() != "")]
    return (code.groupby("owner").agg(repositories=("repository", "nunique"), links=("url", "size")).reset_index()
            .sort_values(["links", "owner"], ascending=[False, True], ignore_index=True))


def quoted_claims(analysis: "Analysis", papers: pd.DataFrame) -> pd.DataFrame:
    """Every dangling or promised claim, quoted: ``statement, paper`` (escaped link), ``sentence``.

    ``papers`` needs ``paper_id, display_title``.
    """
    statements = analysis.links.statements
    quoted = statements[statements["statement"].isin(["dangling", "promised"])].merge(
        papers[["paper_id", "display_title"]], on="paper_id")
    quoted["paper"] = [paper_links([i], [t]) for i, t in zip(quoted["paper_id"], quoted["display_title"])]
    return quoted[["statement", "paper", "sentence"]].reset_index(drop=True)


def repaired_links(links: pd.DataFrame) -> pd.DataFrame:
    """Each repaired URL with the text as written: ``original, url, kind``."""
    return links.loc[links["repaired"], ["original", "url", "kind"]].reset_index(drop=True)


def evaluation_set(root: Path) -> pd.DataFrame | None:
    """The labelled availability sentences, each with its abstract's other labelled sentences as context.

    ``None`` when the set is not there (a copy of the book without its tests).
    """
    path = page_input(EVALUATION_SET, root=root)
    return load_evaluation_set(path) if path.exists() else None


def health_table(health: pd.DataFrame, links: pd.DataFrame) -> pd.DataFrame:
    """Each distinct URL's status from the newest link check, with its host kind; problems first. Empty when
    no link was checked (the page then says how to check them instead of listing "unchecked" rows)."""
    if not (health["status"] != "unchecked").any():
        return pd.DataFrame(columns=["url", "kind", "status", "http_code", "final_url", "checked_at"])
    order = {"broken": 0, "error": 1, "timeout": 2, "redirected": 3, "ok": 4, "unchecked": 5}
    table = health.merge(links[["url", "kind"]].drop_duplicates("url"), on="url")
    table = table.assign(_order=table["status"].map(order).fillna(len(order)))
    return (table.sort_values(["_order", "url"], ignore_index=True)
            [["url", "kind", "status", "http_code", "final_url", "checked_at"]])


def health_sentence(health: pd.DataFrame, source: str) -> str:
    """The one sentence on link health: where the statuses come from, or, when no link was checked, the command
    that checks them (``source``: :func:`helpers.analysis.links.linkcheck.link_health`'s sentence).

    Examples
    --------
    >>> print(health_sentence(pd.DataFrame({"status": ["unchecked"]}), "not checked"))  # doctest: +NORMALIZE_WHITESPACE
    The links have not been checked, as the book builds offline: `make linkcheck` (or `python -m helpers
    linkcheck`) checks them online and saves a dated CSV in `data/linkcheck/`, the newest of which the book shows.
    """
    command = "`make linkcheck` (or `python -m helpers linkcheck`)"
    if not (health["status"] != "unchecked").any():
        return (f"The links have not been checked, as the book builds offline: {command} checks them online and "
                "saves a dated CSV in `data/linkcheck/`, the newest of which the book shows.")
    return (f"Link status {source}: the newest check that {command} saved in `data/linkcheck/` (the book itself "
            "never goes online).")


def state_links_html(papers: pd.DataFrame) -> tuple[str, str]:
    """One link per link state to the explorer filtered to it (``explorer.html?state=...``), as HTML and Markdown.

    Examples
    --------
    >>> html_text, markdown_text = state_links_html(pd.DataFrame({"link_state": ["linked", "none", "none"]}))
    >>> markdown_text
    'Papers by state: linked 1, dangling 0, promised 0, none 2 (in the explorer of the web book).'
    """
    counts = papers["link_state"].value_counts()
    items = [(state, int(counts.get(state, 0))) for state in LINK_STATES]
    shown = explorer_papers(papers)
    # When the explorer holds a sample, say how many of each state it lists.
    in_sample = shown["link_state"].value_counts() if len(shown) < len(papers) else None
    html_text = "Papers by state, in the explorer: " + " · ".join(
        f'<a href="explorer.html?state={state.replace(" ", "+")}">{state}: '
        f'{papers_link_text(n, None if in_sample is None else int(in_sample.get(state, 0)))}</a>'
        for state, n in items)
    markdown_text = ("Papers by state: " + ", ".join(f"{state} {n}" for state, n in items)
                     + " (in the explorer of the web book).")
    return f"<p>{html_text}</p>", markdown_text


def left_out_sections(papers: pd.DataFrame, links: pd.DataFrame) -> tuple[str, ...]:
    """The links chapter's sections the book leaves out for this corpus: those of shares, tables and figures when
    :func:`few_links`, and those on repairing and checking links when the abstracts hold none.

    Examples
    --------
    >>> few = pd.DataFrame({"link_state": ["linked", "none"]})
    >>> left_out_sections(few, pd.DataFrame({"url": ["https://a.org"]}))
    ('sec-links-shares', 'sec-links-hosts')
    >>> left_out_sections(few.assign(link_state="none"), pd.DataFrame({"url": []}))
    ('sec-links-shares', 'sec-links-hosts', 'sec-links-repaired', 'sec-links-health')
    >>> left_out_sections(pd.DataFrame({"link_state": ["linked"] * 10}), pd.DataFrame({"url": ["https://a.org"]}))
    ()
    """
    return ((FEW_LINKS_SECTIONS if few_links(papers) else ())
            + (NO_LINKS_SECTIONS if len(links) == 0 else ()))


def few_links_paragraph(n_linked: int) -> str:
    """The paragraph that stands for the shares, tables and figures when :func:`few_links`: why none are shown
    and what so few links mean.

    Examples
    --------
    >>> print(few_links_paragraph(0)[:59])
    No paper gives a link, so this page shows no shares, tables
    >>> print(few_links_paragraph(1))  # doctest: +NORMALIZE_WHITESPACE
    With 1 paper giving a link, fewer than 10, this page shows no shares, tables or figures of links per file, per
    theme or per group: comparing the linked share of two groups wants about 5 linked papers expected in each
    (Cochran, 1954), so they would be zeros and noise. What it means: the abstracts of this corpus rarely point
    readers to code or data. That says little about the papers themselves, which may give code and data in the
    body, in a data availability statement or in supplementary material, none of which an abstract shows.
    """
    opening = ("No paper gives a link, so this page shows" if n_linked == 0 else
               f"With {count(n_linked, 'paper')} giving a link, fewer than {number(MIN_LINKED_PAPERS)}, this page shows")
    how_often = "never" if n_linked == 0 else "rarely"
    return (f"{opening} no shares, tables or figures "
            "of links per file, per theme or per group: comparing the linked share of two groups wants about 5 "
            "linked papers expected in each (Cochran, 1954), so they would be zeros and noise. What it means: "
            f"the abstracts of this corpus {how_often} point readers to code or data. That says little about the papers "
            "themselves, which may give code and data in the body, in a data availability statement or in "
            "supplementary material, none of which an abstract shows.")


def chapter_lead(analysis: "Analysis") -> dict[str, str]:
    """The chapter's first paragraph (Markdown, glued as ``links_lead``): each link state's papers, counted
    with agreeing words; and, when :func:`few_links`, the paragraph that says so (``links_few_note``, else ``""``).

    Examples
    --------
    >>> from helpers.analysis.corpus import write_corpus
    >>> from helpers.analysis.pipeline import run_pipeline
    >>> folder = write_corpus({"a.txt": "Our code is at https://github.com/a/b and we study galaxies today."})
    >>> print(chapter_lead(run_pipeline([folder]))["links_lead"])  # doctest: +NORMALIZE_WHITESPACE
    Of the 1 abstract, **1 (100%, 95% Wilson interval 21% to 100%) gives a link** to code, data or a project
    page; 0 claim code or data without a usable link, 0 only promise them and 0 say nothing about them. The
    abstract holds 1 link (1 distinct); 0 were written in a broken form and repaired.
    """
    counts = link_counts(analysis)
    n_linked, n_dangling, n_promised, n_none = counts.n_linked, counts.n_dangling, counts.n_promised, counts.n_none
    n_too, n_urls, n_repaired = counts.n_promised_too, counts.n_urls, counts.n_repaired
    subject = md(analysis_name(analysis).sentence_subject)
    one = counts.n_papers == 1
    lead = (f"Of the {subject}, **{number(n_linked)} ({counts.share_linked}, 95% Wilson interval "
            f"{counts.ci_linked}) {plural('gives', n_linked)} a link** to code, data or a "
            f"project page; {number(n_dangling)} {plural('claims', n_dangling)} code or data without a "
            f"usable link, {number(n_promised)} only {plural('promises', n_promised)} them and "
            f"{number(n_none)} {plural('says', n_none)} nothing about them.")
    if n_too:
        lead += f" Of the linked papers, {number(n_too)} also {plural('promises', n_too)} more to come."
    if n_urls == 0:
        lead += f" The {'abstract holds' if one else 'abstracts hold'} no link."
    else:
        lead += (f" The {'abstract holds' if one else 'abstracts hold'} {count(n_urls, 'link')} "
                 f"({number(counts.n_distinct)} distinct); {number(n_repaired)} "
                 f"{'was' if n_repaired == 1 else 'were'} written in a broken form and repaired.")
    venue = venue_code_sentence(analysis.papers)  # only where the input has a code field
    lead += f" {venue}" if venue else ""
    few = few_links_paragraph(n_linked) if few_links(analysis.papers) else ""
    return {"links_lead": lead, "links_few_note": few}


def venue_code_sentence(papers: pd.DataFrame, *, emphasis: bool = True, wilson: str = "Wilson ") -> str:
    """The code link given to the venue beside the abstract's link, over the papers whose metadata has a code
    field (:func:`helpers.analysis.links.states.venue_code_shares`), as Markdown; ``""`` without a code field.

    Examples
    --------
    >>> papers = pd.DataFrame({"venue_code_field": [True, True], "venue_code": [True, False],
    ...                        "link_state": ["none", "linked"]})
    >>> print(venue_code_sentence(papers, emphasis=False))  # doctest: +NORMALIZE_WHITESPACE
    Of the 2 papers whose metadata has a code field, 1 (50%, 95% Wilson interval 9% to 91%) gave the venue a
    code link, and the abstracts of 1 (50%, 95% Wilson interval 9% to 91%) link code, data or a project page;
    1 of the 1 paper with a code link given to the venue says nothing about code or data in its abstract.
    """
    shares = venue_code_shares(papers)
    if shares.empty:
        return ""
    row = shares.iloc[0]
    covered = papers[papers["venue_code_field"].astype(bool)]
    groups = sorted(set(covered["group"].astype(str))) if "group" in covered else []
    where = f" (in {', '.join(md(g) for g in groups)})" if groups and groups != ["all"] else ""
    n_venue, n_linked, n_only = int(row["n_venue_code"]), int(row["n_abstract_linked"]), int(row["n_venue_code_only"])
    given = (f"{number(n_venue)} ({percent(row['venue_share'])}, 95% {wilson}interval {percent(row['venue_ci_low'])} "
             f"to {percent(row['venue_ci_high'])}) gave the venue a code link")
    return (f"Of the {count(int(row['n_papers']), 'paper')} whose metadata has a code field{where}, "
            + (f"**{given}**" if emphasis else given)
            + f", and the abstracts of {number(n_linked)} ({percent(row['abstract_share'])}, 95% {wilson}interval "
            f"{percent(row['abstract_ci_low'])} to {percent(row['abstract_ci_high'])}) "
            f"link code, data or a project page; {number(n_only)} of the "
            f"{count(n_venue, 'paper')} with a code link given to the venue {plural('says', n_only)} "
            f"nothing about code or data in {'its' if n_only == 1 else 'their'} abstract.")


def venue_code_table(papers: pd.DataFrame, by: str | None = None) -> pd.DataFrame:
    """Per group of ``by`` (or all papers), over the papers whose input has a code field: how many gave the venue
    a code link and how many abstracts link code, data or a project page, each with its share and 95% Wilson
    interval; the papers with a venue link whose abstract says nothing; a link to them in the explorer. Empty
    without a code field.

    Examples
    --------
    >>> papers = pd.DataFrame({"venue_code_field": [True, True], "venue_code": [True, False],
    ...                        "link_state": ["none", "linked"]})
    >>> venue_code_table(papers).iloc[0, 2:4].tolist()
    ['1 (50%; 9% to 91%)', '1 (50%; 9% to 91%)']
    """
    shares = venue_code_shares(papers, by)
    if shares.empty:
        return pd.DataFrame()

    def cells(n, share, low, high):
        return [f"{number(int(k))} ({percent(s)}; {percent(a)} to {percent(b)})" for k, s, a, b in zip(n, share, low, high)]

    groups = shares["group"].astype(str)
    links = [f'<a href="{html_escape(explorer_url(group="" if by is None else g, venue_code="given"))}">'
             f"the {count(int(n), 'paper')}</a>" for g, n in zip(groups, shares["n_venue_code"])]
    return pd.DataFrame({
        "group": groups, "papers with a code field": shares["n_papers"],
        "code link given to the venue (share; 95% Wilson interval)": cells(
            shares["n_venue_code"], shares["venue_share"], shares["venue_ci_low"], shares["venue_ci_high"]),
        "abstract links code, data or a project page (share; 95% Wilson interval)": cells(
            shares["n_abstract_linked"], shares["abstract_share"], shares["abstract_ci_low"], shares["abstract_ci_high"]),
        "code link given to the venue, abstract silent": shares["n_venue_code_only"],
        "explorer": links})


def html_escape(text: str) -> str:
    """HTML-escape an attribute value (quotes too)."""
    return html.escape(text, quote=True)
