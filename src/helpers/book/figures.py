"""Save figures for citing: PNG (200 dpi), SVG and PDF, with the CSV of the data plotted.

Chapters draw with matplotlib/seaborn, then call :func:`save_figure` so every
figure of the book can be downloaded in three formats next to its data.
"""

from __future__ import annotations

import io
import textwrap
from pathlib import Path

import matplotlib
import pandas as pd
from helpers.analysis.spreadsheet import write_csv
from helpers.book.citation import _bibtex_text
from helpers.book.settings import config

FIGURE_FORMATS = ("png", "svg", "pdf", "csv")
PNG_DPI = 200
SCREEN_DPI = 100  # the page shows figures at the resolution of matplotlib's inline backend

# Fixed SVG ids and no timestamps, so the same data gives byte-identical files.
matplotlib.rcParams["svg.hashsalt"] = "abstracts-book"
_METADATA = {"svg": {"Date": None}, "pdf": {"CreationDate": None, "ModDate": None}, "png": {}}


def figure_dir() -> Path:
    """Where figure files go: the book setting ``BOOK_FIGURE_DIR`` (:class:`helpers.book.BookConfig`)."""
    return config().figure_dir


def save_figure(figure, data: pd.DataFrame, label: str, *, folder: Path | None = None) -> list[Path]:
    """Write ``label``.png/.svg/.pdf and ``label``.csv (the data plotted) into ``folder``.

    Parameters
    ----------
    figure : matplotlib.figure.Figure
    data : DataFrame
        The numbers the figure shows, written with ``index=False``.
    label : str
        The figure's label, ``fig-<chapter>-<slug>``.

    Returns
    -------
    list of Path
        The four files written, in :data:`FIGURE_FORMATS` order. A small copy of the PNG for the figure index
        goes to ``folder/thumbnails/`` (:func:`write_thumbnail`).
    """
    if not label.startswith("fig-"):
        raise ValueError(f"figure labels start with 'fig-', got {label!r}")
    folder = folder or figure_dir()
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for extension in FIGURE_FORMATS[:3]:
        path = folder / f"{label}.{extension}"
        figure.savefig(path, dpi=PNG_DPI, bbox_inches="tight", metadata=_METADATA[extension])
        written.append(path)
    csv_path = folder / f"{label}.csv"
    write_csv(data, csv_path)
    written.append(csv_path)
    write_thumbnail(written[0], folder / THUMBNAIL_DIR)
    return written


THUMBNAIL_DIR = "thumbnails"
THUMBNAIL_PIXELS = 400  # wide: sharp at the index's 200 CSS pixels on a screen of two device pixels per CSS pixel


def write_thumbnail(png_path: Path, folder: Path, *, width: int = THUMBNAIL_PIXELS) -> Path:
    """A copy of ``png_path`` at most ``width`` pixels wide, as ``folder/<same name>``, for the figure index.

    Examples
    --------
    >>> import tempfile
    >>> from PIL import Image
    >>> path = Path(tempfile.mkdtemp()) / "fig-a-b.png"
    >>> Image.new("RGB", (1600, 800), "white").save(path)
    >>> thumbnail = write_thumbnail(path, path.parent / "thumbnails")
    >>> thumbnail.name, Image.open(thumbnail).size
    ('fig-a-b.png', (400, 200))
    """
    from PIL import Image  # lazy: slow to import

    folder.mkdir(parents=True, exist_ok=True)
    with Image.open(png_path) as image:
        scale = min(1.0, width / image.width)
        size = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
        small = image.convert("RGBA").resize(size, Image.Resampling.LANCZOS)
    target = folder / png_path.name
    small.save(target, format="PNG", optimize=True)
    return target


def download_links_html(label: str, *, base: str = "../figures") -> str:
    """HTML links to a figure's files, as shown under the figure."""
    links = " · ".join(
        f'<a href="{base}/{label}.{extension}" download>{extension.upper()}</a>'
        for extension in FIGURE_FORMATS
    )
    return f'<p class="figure-downloads">Download {label}: {links}</p>'


BOOK_TITLE = "What conference abstracts say: themes, co-occurring terms and link availability"


def figure_page(chapter: str) -> str:
    """The page of a chapter, relative to the book's root: ``chapters/<chapter>.html`` (``intro.html``)."""
    return "intro.html" if chapter == "intro" else f"chapters/{chapter}.html"


def figure_url(label: str, chapter: str, base_url: str | None = None) -> str:
    """A figure's address: absolute under ``base_url`` (``BOOK_BASE_URL``), else relative to the book's root.

    Examples
    --------
    >>> figure_url("fig-themes-map", "themes", "https://example.org/book/")
    'https://example.org/book/chapters/themes.html#fig-themes-map'
    >>> figure_url("fig-intro-overview", "intro")
    'intro.html#fig-intro-overview'
    """
    address = f"{figure_page(chapter)}#{label}"
    return f"{base_url.rstrip('/')}/{address}" if base_url else address


def figure_citation(label: str, chapter: str, *, version: str, corpus_sha256: str, title: str = BOOK_TITLE,
                    base_url: str | None = None) -> str:
    """The citation that ends a figure's caption, after its number.

    Parameters
    ----------
    label, chapter : str
        The figure's label and the chapter it is on (:data:`FIGURES`).
    version, corpus_sha256 : str
        The book's version and the corpus it was built on (the first 12 hex digits are shown).
    title : str
        The book's title.
    base_url : str, optional
        Where the book is published (``BOOK_BASE_URL``); without it the address is relative to the book's root.

    Examples
    --------
    >>> figure_citation("fig-themes-map", "themes", version="0.2.0", corpus_sha256="ab" * 32, title="A book")
    'A book, version 0.2.0, corpus SHA-256 abababababab, chapters/themes.html#fig-themes-map'
    >>> figure_citation("fig-themes-map", "themes", version="0.2.0", corpus_sha256="ab" * 32, title="A book",
    ...                 base_url="https://example.org/book/")
    'A book, version 0.2.0, corpus SHA-256 abababababab, https://example.org/book/chapters/themes.html#fig-themes-map'
    """
    return (f"{title}, version {version}, corpus SHA-256 {corpus_sha256[:12]}, "
            f"{figure_url(label, chapter, base_url)}")


def figure_bibtex(label: str, chapter: str, caption: str, *, version: str, corpus_sha256: str, year: str,
                  title: str = BOOK_TITLE, base_url: str | None = None, width: int = 72) -> str:
    r"""A BibTeX entry for one figure, no line longer than ``width`` characters (but a long URL's).

    With ``base_url`` the entry gives the figure's absolute address (``url`` and ``howpublished``); without it,
    no address field at all (a relative path is no address for a reader), and the note names the page.

    Examples
    --------
    >>> print(figure_bibtex("fig-a-b", "a", "A caption", version="1", corpus_sha256="0" * 64, year="2026",
    ...                     title="A book", width=60))
    @misc{fig_a_b,
      title   = {A caption},
      note    = {Figure fig-a-b of ``A book'', version 1,
                 corpus SHA-256 000000000000, on the page
                 chapters/a.html of the web book},
      year    = {2026}
    }
    >>> print(figure_bibtex("fig-a-b", "a", "A & B", version="1", corpus_sha256="0" * 64, year="2026",
    ...                     title="A book", base_url="https://example.org/book/", width=60))
    @misc{fig_a_b,
      title   = {A \& B},
      note    = {Figure fig-a-b of ``A book'', version 1,
                 corpus SHA-256 000000000000},
      url     = {https://example.org/book/chapters/a.html#fig-a-b},
      howpublished = {\url{https://example.org/book/chapters/a.html#fig-a-b}},
      year    = {2026}
    }
    """
    note = f"Figure {label} of ``{_bibtex_text(title)}'', version {version}, corpus SHA-256 {corpus_sha256[:12]}"
    if not base_url:
        note += f", on the page {figure_page(chapter)} of the web book"
    note_text = ("\n" + " " * 13).join(textwrap.wrap(note, width=width - 17))
    address = [] if not base_url else [f"  url     = {{{figure_url(label, chapter, base_url)}}},",
                                       f"  howpublished = {{\\url{{{figure_url(label, chapter, base_url)}}}}},"]
    return "\n".join([
        "@misc{" + label.replace("-", "_") + ",",
        f"  title   = {{{_bibtex_text(caption)}}},",
        f"  note    = {{{note_text}}},",
        *address,
        f"  year    = {{{year}}}",
        "}",
    ])


# Every figure of the book: label, chapter, title. tests/test_book_files.py keeps it in sync.
FIGURES = [
    ('fig-intro-overview', 'intro', 'The corpus at a glance: largest themes and link states'),
    ('fig-corpus-lengths', 'corpus', 'Abstract length'),
    ('fig-themes-top-terms', 'themes', 'Top terms per theme'),
    ('fig-themes-map', 'themes', 'Map of the papers by theme weights'),
    ('fig-themes-wordclouds', 'themes', 'Word clouds per theme'),
    ('fig-themes-by-source', 'themes', 'Themes by source file'),
    ('fig-themes-model-selection', 'themes', 'Model selection: coherence, diversity and stability per k'),
    ('fig-cooccurrence-network', 'cooccurrence', 'Co-occurrence network of terms'),
    ('fig-cooccurrence-density', 'cooccurrence', 'Density view of the term map'),
    ('fig-cooccurrence-ego', 'cooccurrence', 'Ego networks of the terms naming the largest communities'),
    ('fig-cooccurrence-themes', 'cooccurrence', 'Term communities by theme'),
    ('fig-cooccurrence-keywords', 'cooccurrence', "Map of the authors' keywords"),
    ('fig-links-shares', 'links', 'Share of papers giving a link, with Wilson intervals'),
    ('fig-links-host-kinds', 'links', 'Links by host kind'),
    ('fig-performance-stages', 'performance', 'Time per stage against corpus size'),
]
#: The figures of "What changed", drawn only when the papers form two groups or more (one group: none).
GROUP_FIGURES = [
    ('fig-change-prevalence', 'change', 'Theme shares per group, with Wilson 95% intervals'),
    ('fig-change-thematic-map', 'change', 'Thematic map per group: centrality and density of each theme'),
    ('fig-change-overlay', 'change', 'Term map coloured by the mean year of each term\'s papers'),
    ('fig-change-links', 'change', 'Papers giving a link per group, with Wilson intervals'),
]


def figure_title(label: str) -> str:
    """A figure's title (its alt text where its page's own is not at hand).

    Examples
    --------
    >>> figure_title("fig-themes-map"), figure_title("fig-new")
    ('Map of the papers by theme weights', 'fig-new')
    """
    return next((title for known, _, title in FIGURES + GROUP_FIGURES if known == label), label)


def screen_png(png_path: Path) -> bytes:
    """The saved ``PNG_DPI`` PNG scaled to :data:`SCREEN_DPI`, as PNG bytes, for the page itself.

    Scaling the saved file is far cheaper than drawing the figure once more (a figure of 18 panels
    takes seconds to draw), and the page shows what the download link gives.

    Examples
    --------
    >>> import tempfile
    >>> from PIL import Image
    >>> path = Path(tempfile.mkdtemp()) / "x.png"
    >>> Image.new("RGB", (400, 200), "white").save(path, dpi=(PNG_DPI, PNG_DPI))
    >>> import io
    >>> Image.open(io.BytesIO(screen_png(path))).size
    (200, 100)
    """
    from PIL import Image  # lazy: slow to import

    with Image.open(png_path) as image:
        scale = SCREEN_DPI / PNG_DPI
        size = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
        smaller = image.convert("RGBA").resize(size, Image.Resampling.LANCZOS)
    buffer = io.BytesIO()
    smaller.save(buffer, format="PNG", dpi=(SCREEN_DPI, SCREEN_DPI))
    return buffer.getvalue()
