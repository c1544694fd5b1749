"""Save figures for citing: PNG (300 dpi), SVG and PDF at the size the page shows them, with the CSV of the data plotted.

Chapters draw with matplotlib/seaborn at the width of the space a figure is shown in
(:func:`helpers.book.figure_text.figure_size`), then call :func:`save_figure` so every
figure of the book can be downloaded in three formats next to its data, and its size and space are recorded
(``sizes/<label>.json``) for the download line and for the test of its text sizes.
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass
from pathlib import Path

import matplotlib
import pandas as pd
from helpers.analysis.spreadsheet import write_csv
from helpers.book.build.citation import _bibtex_text, wrap_words
from helpers.book.figure_pixels import PNG_DPI, drawn_pixels, scaled_copies
from helpers.book.figure_text import SCREEN_DPI, SIZE_DIR, SPACES, use_figure_style
from helpers.book.figure_writers import can_write_in_background, write_in_background
from helpers.book.settings import config

FIGURE_FORMATS = ("png", "svg", "pdf", "csv")
# The margin around what is drawn: a figure drawn at its space's width (figure_size) is saved at that width.
SAVE_PAD_INCHES = 0.04


# Fixed SVG ids and no timestamps, so the same data gives byte-identical files; the book's text sizes.
use_figure_style()
matplotlib.rcParams["svg.hashsalt"] = "abstracts-book"
_METADATA = {"svg": {"Date": None}, "pdf": {"CreationDate": None, "ModDate": None}, "png": {}}


def figure_dir() -> Path:
    """Where figure files go: the book setting ``BOOK_FIGURE_DIR`` (:class:`helpers.book.BookConfig`)."""
    return config().figure_dir


#: Figures the page shows at the theme's full width (their ``{glue:figure}`` has ``:figclass: full-width``); every
#: other figure is shown in the text column (:data:`helpers.book.figure_text.SPACES`).
WIDE_FIGURES: frozenset[str] = frozenset()


def figure_space(label: str) -> str:
    """The space a figure is shown in: ``"wide"`` for :data:`WIDE_FIGURES`, else ``"column"``.

    Examples
    --------
    >>> figure_space("fig-themes-map")
    'column'
    """
    return "wide" if label in WIDE_FIGURES else "column"


@dataclass(frozen=True)
class SavedFigure:
    """What :func:`save_page_figure` wrote, and the picture the page shows.

    Attributes
    ----------
    files : list of Path
        The four files written, in :data:`FIGURE_FORMATS` order.
    screen_png : bytes
        The figure at :data:`~helpers.book.figure_text.SCREEN_DPI`, as PNG bytes, for the page itself: the saved
        PNG scaled down (:func:`helpers.book.figure_pixels.scaled_copies`).
    """

    files: list[Path]
    screen_png: bytes


def save_figure(figure, data: pd.DataFrame, label: str, *, folder: Path | None = None,
                width: str | None = None, background: bool | None = None) -> list[Path]:
    """Write ``label``.png/.svg/.pdf and ``label``.csv (the data plotted) into ``folder``.

    Parameters
    ----------
    figure : matplotlib.figure.Figure
    data : DataFrame
        The numbers the figure shows, written with ``index=False``.
    label : str
        The figure's label, ``fig-<chapter>-<slug>``.
    width : {"column", "wide"}, optional
        The space the page shows the figure in (:data:`helpers.book.figure_text.SPACES`; default
        :func:`figure_space`), recorded with the figure's size in inches as ``folder/sizes/<label>.json``
        (:func:`figure_record`).
    background : bool, optional
        Write the SVG and the PDF in a forked child while the caller goes on
        (:func:`helpers.book.figure_writers.write_in_background`; the book build waits for them). Default: the
        book setting ``BOOK_FIGURES_IN_BACKGROUND`` (:class:`helpers.book.BookConfig`), which the book's build and
        ``make lab`` set.

    Returns
    -------
    list of Path
        The four files written, in :data:`FIGURE_FORMATS` order. A small copy of the PNG for the figure index
        goes to ``folder/thumbnails/`` (:func:`helpers.book.figure_pixels.scaled_copies`).
    """
    return save_page_figure(figure, data, label, folder=folder, width=width, background=background).files


def save_page_figure(figure, data: pd.DataFrame, label: str, *, folder: Path | None = None,
                     width: str | None = None, background: bool | None = None) -> SavedFigure:
    """:func:`save_figure`, and the picture the page shows, both from one drawing at :data:`PNG_DPI`.

    Parameters
    ----------
    figure, data, label, folder, width, background
        As for :func:`save_figure`.

    Returns
    -------
    SavedFigure
        The files and the page's PNG.

    Examples
    --------
    >>> import tempfile, matplotlib.pyplot as plt
    >>> from PIL import Image
    >>> figure = plt.figure(figsize=(3, 1))
    >>> saved = save_page_figure(figure, pd.DataFrame({"x": [1]}), "fig-a-b", folder=Path(tempfile.mkdtemp()),
    ...                          background=False)
    >>> [path.suffix for path in saved.files], Image.open(io.BytesIO(saved.screen_png)).size
    (['.png', '.svg', '.pdf', '.csv'], (308, 108))
    >>> plt.close(figure)
    """
    if not label.startswith("fig-"):
        raise ValueError(f"figure labels start with 'fig-', got {label!r}")
    width = width or figure_space(label)
    if width not in SPACES:
        raise ValueError(f"figure width must be one of {SPACES}, got {width!r}")
    folder = folder or figure_dir()
    folder.mkdir(parents=True, exist_ok=True)
    written = [folder / f"{label}.{extension}" for extension in FIGURE_FORMATS]
    _save_formats(figure, folder, label, ("png",))
    pixels = drawn_pixels(figure, written[0])

    def vector_files(into: Path) -> None:
        _save_formats(figure, into, label, ("svg", "pdf"))

    if background is None:
        background = config().figures_in_background
    if background and can_write_in_background():
        write_in_background(vector_files, folder, label)
    else:
        vector_files(folder)
    write_csv(data, written[3])
    screen, thumbnail = scaled_copies(pixels)
    (folder / THUMBNAIL_DIR).mkdir(exist_ok=True)
    thumbnail.save(folder / THUMBNAIL_DIR / written[0].name, format="PNG")
    record = {"label": label, "space": width, "width_in": round(pixels.width / PNG_DPI, 2),
              "height_in": round(pixels.height / PNG_DPI, 2)}
    (folder / SIZE_DIR).mkdir(exist_ok=True)
    (folder / SIZE_DIR / f"{label}.json").write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    buffer = io.BytesIO()
    screen.save(buffer, format="PNG", dpi=(SCREEN_DPI, SCREEN_DPI))
    return SavedFigure(written, buffer.getvalue())


def _save_formats(figure, folder: Path, label: str, extensions: tuple[str, ...]) -> None:
    """``figure`` as ``folder/<label>.<extension>`` for each of ``extensions``: cut to what is drawn, no dates."""
    for extension in extensions:
        figure.savefig(folder / f"{label}.{extension}", dpi=PNG_DPI, bbox_inches="tight", pad_inches=SAVE_PAD_INCHES,
                       metadata=_METADATA[extension])


def figure_record(label: str, folder: Path | None = None) -> dict | None:
    """What :func:`save_figure` recorded of a figure: ``label, space, width_in, height_in`` (None: not saved)."""
    path = (folder or figure_dir()) / SIZE_DIR / f"{label}.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else None


def size_text(width_in: float, height_in: float) -> str:
    """A figure's printed size in inches and centimetres, for its download line.

    Examples
    --------
    >>> size_text(6.72, 5.04)
    '6.7 × 5.0 in (17.1 × 12.8 cm)'
    """
    return f"{width_in:.1f} × {height_in:.1f} in ({width_in * 2.54:.1f} × {height_in * 2.54:.1f} cm)"


THUMBNAIL_DIR = "thumbnails"
def download_links_html(label: str, *, base: str = "../figures", size: tuple[float, float] | None = None) -> str:
    """HTML links to a figure's files, as shown under the figure; with ``size`` (inches), the size they give.

    Examples
    --------
    >>> print(download_links_html("fig-a-b", base="f", size=(6.72, 5.04)))  # doctest: +NORMALIZE_WHITESPACE
    <p class="figure-downloads">Download fig-a-b: <a href="f/fig-a-b.png" download>PNG</a> ·
    <a href="f/fig-a-b.svg" download>SVG</a> · <a href="f/fig-a-b.pdf" download>PDF</a> ·
    <a href="f/fig-a-b.csv" download>CSV</a> (6.7 × 5.0 in (17.1 × 12.8 cm), PNG at 300 dpi; the CSV is the
    data plotted)</p>
    """
    links = " · ".join(
        f'<a href="{base}/{label}.{extension}" download>{extension.upper()}</a>'
        for extension in FIGURE_FORMATS
    )
    stated = "" if size is None else (f" ({size_text(*size)}, PNG at {PNG_DPI} dpi; the CSV is the data plotted)")
    return f'<p class="figure-downloads">Download {label}: {links}{stated}</p>'


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
    note_text = ("\n" + " " * 13).join(wrap_words(note, width - 17))
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


# Every figure of the book: label, chapter, title. tests/book/test_book_files.py keeps it in sync.
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
