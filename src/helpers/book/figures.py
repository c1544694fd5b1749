"""Save figures for citing: PNG (200 dpi), SVG and PDF, with the CSV of the data plotted.

Chapters draw with matplotlib/seaborn, then call :func:`save_figure` so every
figure of the book can be downloaded in three formats next to its data.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib
import pandas as pd
from helpers.analysis.spreadsheet import write_csv

FIGURE_DIR_ENV = "BOOK_FIGURE_DIR"
FIGURE_FORMATS = ("png", "svg", "pdf", "csv")
PNG_DPI = 200
SCREEN_DPI = 100  # the page shows figures at the resolution of matplotlib's inline backend

# Fixed SVG ids and no timestamps, so the same data gives byte-identical files.
matplotlib.rcParams["svg.hashsalt"] = "abstracts-book"
_METADATA = {"svg": {"Date": None}, "pdf": {"CreationDate": None, "ModDate": None}, "png": {}}


def figure_dir() -> Path:
    """Where figure files go: the book setting ``BOOK_FIGURE_DIR`` (:class:`helpers.book.BookConfig`)."""
    from helpers.book.settings import config

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
        The four files written, in :data:`FIGURE_FORMATS` order.
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
    return written


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


def figure_citation(label: str, chapter: str, *, version: str, corpus_sha256: str) -> str:
    """The citation that ends a figure's caption, after its number.

    Examples
    --------
    >>> figure_citation("fig-themes-map", "themes", version="0.2.0", corpus_sha256="ab" * 32)
    'What conference abstracts say: themes, co-occurring terms and link availability, version 0.2.0, \
corpus SHA-256 abababababab, chapters/themes.html#fig-themes-map'
    """
    return f"{BOOK_TITLE}, version {version}, corpus SHA-256 {corpus_sha256[:12]}, {figure_page(chapter)}#{label}"


def figure_bibtex(label: str, chapter: str, title: str, *, version: str, corpus_sha256: str, year: str,
                  width: int = 72) -> str:
    r"""A BibTeX entry for one figure, no line longer than ``width`` characters.

    Examples
    --------
    >>> print(figure_bibtex("fig-a-b", "a", "A title", version="1", corpus_sha256="0" * 64, year="2026", width=60))
    @misc{fig_a_b,
      title   = {A title},
      note    = {Figure fig-a-b of ``What conference
                 abstracts say: themes, co-occurring terms
                 and link availability'', version 1, corpus
                 SHA-256 000000000000},
      howpublished = {chapters/a.html\#fig-a-b},
      year    = {2026}
    }
    """
    import textwrap

    note = (f"Figure {label} of ``{BOOK_TITLE}'', version {version}, "
            f"corpus SHA-256 {corpus_sha256[:12]}")
    lines = textwrap.wrap(note, width=width - 17)
    note_text = ("\n" + " " * 13).join(lines)
    anchor = f"{figure_page(chapter)}\\#{label}"
    return "\n".join([
        "@misc{" + label.replace("-", "_") + ",",
        f"  title   = {{{title}}},",
        f"  note    = {{{note_text}}},",
        f"  howpublished = {{{anchor}}},",
        f"  year    = {{{year}}}",
        "}",
    ])


# Every figure of the book: label, chapter, title. tests/test_book_files.py keeps it in sync.
FIGURES = [
    ('fig-intro-overview', 'intro', 'The corpus at a glance: largest themes and link states'),
    ('fig-corpus-lengths', 'corpus', 'Abstract length'),
    ('fig-themes-model-selection', 'themes', 'Model selection: coherence, diversity and stability per k'),
    ('fig-themes-top-terms', 'themes', 'Top terms per theme'),
    ('fig-themes-wordclouds', 'themes', 'Word clouds per theme'),
    ('fig-themes-map', 'themes', 'Map of the papers by theme weights'),
    ('fig-themes-by-source', 'themes', 'Themes by source file'),
    ('fig-cooccurrence-network', 'cooccurrence', 'Co-occurrence network of terms'),
    ('fig-cooccurrence-density', 'cooccurrence', 'Density view of the term map'),
    ('fig-cooccurrence-ego', 'cooccurrence', 'Ego networks of the most connected terms'),
    ('fig-cooccurrence-themes', 'cooccurrence', 'Term communities by theme'),
    ('fig-links-shares', 'links', 'Share of papers giving a link, with Wilson intervals'),
    ('fig-links-host-kinds', 'links', 'Links by host kind'),
    ('fig-performance-stages', 'performance', 'Time per stage against corpus size'),
]
#: The figures of "What changed", drawn only when the papers form two groups or more (one group: none).
GROUP_FIGURES = [
    ('fig-change-prevalence', 'change', 'Theme shares per group, with bootstrap intervals'),
    ('fig-change-thematic-map', 'change', 'Thematic map per group: centrality and density of each theme'),
    ('fig-change-overlay', 'change', 'Term map coloured by the mean year of each term\'s papers'),
    ('fig-change-links', 'change', 'Papers giving a link per group, with Wilson intervals'),
]


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
    import io

    from PIL import Image

    with Image.open(png_path) as image:
        scale = SCREEN_DPI / PNG_DPI
        size = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
        smaller = image.convert("RGBA").resize(size, Image.Resampling.LANCZOS)
    buffer = io.BytesIO()
    smaller.save(buffer, format="PNG", dpi=(SCREEN_DPI, SCREEN_DPI))
    return buffer.getvalue()
