"""The paper explorer's page: every paper of the corpus, searchable, sortable and filterable, at any corpus size.

The page is a small static shell (:func:`explorer_html`) plus one data file, ``explorer-data.js``
(:mod:`helpers.web.explorer_data`), that a ``<script src>`` loads. The page's style and script are package
files, ``static/explorer.css`` and ``static/explorer.js``, inlined into the shell. The script renders one page
of rows at a time (:data:`PAGE_SIZE`), sets every piece of corpus text as text (``textContent``, text nodes;
never as HTML), makes elements of six inline tags only (``em, i, b, strong, sub, sup`` written without
attributes and closed in order, built with ``createElement``; any other tag shows as written), makes links
only of ``http(s)`` URLs, and typesets math with the book's local MathJax only in expanded rows. Other pages
link to it filtered (:func:`explorer_url`, :func:`papers_link_text`).

URL parameters open the explorer filtered: ``?q=words``, ``?theme=<number>``,
``?state=<link state>``, ``?term=<map term>`` (repeatable: papers using every
term given), ``?keyword=<keyword>`` (repeatable: papers giving every keyword, as the keyword map spells them),
``?group=<group>`` and, where the input has a code field, ``?venue_code=given`` or
``?venue_code=not-given`` (a code link given to the venue, or none), ``?broad=<letter>`` (the papers whose
strongest theme is in that broad theme, :mod:`helpers.analysis.themes.hierarchy`); ``#paper-<paper_id>``
shows and expands one paper.
"""

from __future__ import annotations

import html
from urllib.parse import quote

from helpers.web.assets import inline_script, static_text
from helpers.web.explorer_data import DATA_FILE

# The page's style and script, shipped in static/ (linted and tested under tests/js).
STYLE_FILE, SCRIPT_FILE = "explorer.css", "explorer.js"
PAGE_SIZE = 50
# The book's local MathJax (``mathjax_path`` in _config.yml, served from _static), from a chapter page.
MATHJAX_SRC = "../_static/mathjax/es5/tex-chtml.js"


def papers_link_text(n_papers: int, n_in_sample: int | None = None) -> str:
    """The text of a link to the explorer filtered to ``n_papers`` papers, ``n_in_sample`` of them in its sample
    (``None``: it holds every paper).

    Parameters
    ----------
    n_papers
        The papers the link stands for.
    n_in_sample
        How many of them the explorer's sample holds (``None``: the explorer holds every paper).

    Returns
    -------
    str
        The link's words.

    Examples
    --------
    >>> papers_link_text(97), papers_link_text(1_970, n_in_sample=1_601), papers_link_text(12, n_in_sample=12)
    ('all 97 papers', 'the 1,601 of 1,970 in the sample', 'all 12 papers')
    >>> papers_link_text(1), papers_link_text(0)
    ('the 1 paper', 'no paper')
    """
    if n_in_sample is None or n_in_sample == n_papers:
        if n_papers <= 1:
            return "the 1 paper" if n_papers == 1 else "no paper"
        return f"all {int(n_papers):,} papers"
    return f"the {int(n_in_sample):,} of {int(n_papers):,} in the sample"


def explorer_url(*, q: str = "", theme: int | None = None, state: str = "", terms: tuple[str, ...] = (),
                 group: str = "", venue_code: str = "", broad: str = "", page: str = "explorer.html") -> str:
    """A link to the explorer opened filtered, for other chapters' "all N papers" links (HTML-escape it).

    Parameters
    ----------
    q
        Words to search for.
    theme
        A theme's number.
    state
        A link state.
    terms
        Map terms the papers must all use.
    group, venue_code, broad
        A group, ``given`` or ``not-given`` (a code link given to the venue), a broad theme's letter.
    page
        The explorer's address from the linking page.

    Returns
    -------
    str
        The address with its query, each value percent-encoded.

    Examples
    --------
    >>> explorer_url(terms=("graph neural network", "node"))
    'explorer.html?term=graph%20neural%20network&term=node'
    >>> explorer_url(q="a&b", theme=3, state="dangling")
    'explorer.html?q=a%26b&theme=3&state=dangling'
    >>> explorer_url(group="2025", terms=("llm",))
    'explorer.html?term=llm&group=2025'
    >>> explorer_url(group="2025", venue_code="given")
    'explorer.html?group=2025&venue_code=given'
    >>> explorer_url(broad="B")
    'explorer.html?broad=B'
    """
    parts = [f"q={quote(q, safe='')}"] if q else []
    parts += [f"theme={int(theme)}"] if theme is not None else []
    parts += [f"state={quote(state, safe='')}"] if state else []
    parts += [f"term={quote(term, safe='')}" for term in terms]
    parts += [f"group={quote(group, safe='')}"] if group else []
    parts += [f"venue_code={quote(venue_code, safe='')}"] if venue_code else []
    parts += [f"broad={quote(broad, safe='')}"] if broad else []
    return page + ("?" + "&".join(parts) if parts else "")


def explorer_markdown(n_papers: int) -> str:
    """The explorer's stand-in in the PDF book, which cannot run it.

    Parameters
    ----------
    n_papers
        The corpus's papers.

    Returns
    -------
    str
        One Markdown sentence.

    Examples
    --------
    >>> explorer_markdown(57)
    'The interactive explorer of the 57 papers is part of the web version of this book (`chapters/explorer.html`).'
    >>> explorer_markdown(1)
    'The interactive explorer of the 1 paper is part of the web version of this book (`chapters/explorer.html`).'
    """
    papers = "paper" if int(n_papers) == 1 else "papers"
    return (f"The interactive explorer of the {int(n_papers):,} {papers} is part of the web version of this book "
            "(`chapters/explorer.html`).")


_HEADERS = [("", "", "expand"), ("title", "Title", "title"), ("authors", "Authors", "authors"),
            ("theme", "Theme", "theme"), ("state", "Link state", "state"), ("", "Code and data links", "links"),
            ("words", "Words", "words"), ("file", "Source", "file")]
_YEAR_HEADER = ("year", "Year", "year")


def explorer_html(*, data_src: str = f"../figures/{DATA_FILE}", mathjax_src: str = MATHJAX_SRC,
                  page_size: int = PAGE_SIZE, with_year: bool = False, with_groups: bool = False,
                  with_venue_code: bool = False, with_broad: bool = False) -> str:
    """The explorer's page: style, controls, an empty table, the data file's ``<script src>`` and the script.

    The shell holds no corpus text; everything shown comes from the data file
    (:func:`helpers.web.explorer_data.write_explorer_data`), whose address relative to the page is ``data_src``.
    ``mathjax_src`` is the book's MathJax, loaded when the first row is expanded (unless the
    page already loads it). ``with_year`` adds a Year column (the data has ``year``), ``with_groups``
    a group filter (the data has ``groups``), ``with_venue_code`` a filter by the code link given to the venue
    (the data has ``venue_code``), ``with_broad`` a broad theme filter (the data has ``broad``); without them the
    page is as it always was.

    Parameters
    ----------
    data_src
        The data file's address from the page.
    mathjax_src
        The book's MathJax from the page.
    page_size
        Rows per page of the table.
    with_year, with_groups, with_venue_code, with_broad
        Whether the page has a Year column and the group, venue code and broad theme filters.

    Returns
    -------
    str
        The page's HTML.

    Examples
    --------
    >>> page = explorer_html(with_year=True)
    >>> '<script src="../figures/explorer-data.js"></script>' in page, ">Year<" in page
    (True, True)
    """
    shown = _HEADERS[:3] + [_YEAR_HEADER] + _HEADERS[3:] if with_year else _HEADERS
    columns = "".join(f'<col class="c-{css}">' for _, _, css in shown)
    headers = "".join(
        f'<th data-sort="{key}" scope="col"><button type="button">{name}</button></th>' if key
        else f'<th scope="col">{name}</th>' for key, name, _ in shown)
    group_select = ('<select class="explorer-group" aria-label="Filter by group"><option value="">All groups'
                    '</option></select>' if with_groups else "")
    venue_select = ('<select class="explorer-venue" aria-label="Filter by code link given to the venue">'
                    '<option value="">Any code link to the venue</option>'
                    '<option value="given">Code link given to the venue</option>'
                    '<option value="not-given">No code link given to the venue</option></select>'
                    if with_venue_code else "")
    broad_select = ('<select class="explorer-broad" aria-label="Filter by broad theme"><option value="">'
                    'All broad themes</option></select>' if with_broad else "")
    app_class = "mathjax_ignore with-year" if with_year else "mathjax_ignore"
    return (
        f"\n<style>\n{static_text(STYLE_FILE)}</style>\n"
        + f'<div id="explorer-app" class="{app_class}" data-page-size="{int(page_size)}" '
          f'data-src="{html.escape(data_src, quote=True)}" data-mathjax="{html.escape(mathjax_src, quote=True)}">'
        + '<div class="explorer-controls">'
        + '<input class="explorer-search" type="search" placeholder="Search titles, authors, themes, abstracts" '
          'aria-label="Search papers">' + broad_select
        + '<select class="explorer-theme" aria-label="Filter by theme"><option value="">All themes</option></select>'
        + '<select class="explorer-state" aria-label="Filter by link state"><option value="">All link states'
          '</option></select>' + group_select + venue_select
        + '<span class="explorer-terms" aria-label="Map term filters"></span>'
        + '<span class="explorer-count" role="status" aria-live="polite">Loading the papers…</span></div>'
        + f"<table><colgroup>{columns}</colgroup><thead><tr>{headers}</tr></thead><tbody></tbody></table>"
        + '<nav class="explorer-pager" aria-label="Pages of papers" hidden>'
          '<button type="button" class="pager-first">First</button>'
          '<button type="button" class="pager-previous">Previous</button><span class="pager-text"></span>'
          '<button type="button" class="pager-next">Next</button>'
          '<button type="button" class="pager-last">Last</button></nav>'
        + "<noscript>The explorer needs JavaScript; every paper is also in the analysis's papers.csv.</noscript>"
        + "</div>"
        + f'<script src="{html.escape(data_src, quote=True)}"></script>'
        + "\n" + inline_script(static_text(SCRIPT_FILE), name=SCRIPT_FILE) + "\n"
    )
