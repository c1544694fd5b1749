"""How large a figure's text is where a reader sees it: on the page at 1280 (or 800) CSS px, and in the PDF.

A saved figure's SVG (:func:`helpers.book.figures.save_figure`) holds each text's font size: matplotlib
draws a text as glyphs under one ``<g id="text_N">`` group scaled by ``size / 100`` (``svg.fonttype`` "path").
The page shows the figure's PNG at :data:`SCREEN_DPI` (one image pixel per CSS pixel), shrunk to the width of
its space when wider (:data:`SHOWN_PX`); the PDF book includes the same PNG at its own size, shrunk to the text
width (:data:`PRINT_WIDTH_IN`). So a text's size where it is read is its drawn size times that shrinking.

Where the widths come from (measured, not assumed):

- the text column: Chromium at a 1280 px window shows a figure's ``<img>`` 672 CSS px wide, at 800 px
  720 px wide (the navigation folds away); a figure in the theme's full-width layout (``:figclass: full-width``,
  136% of the content at 992 px and wider, ``static/book.css``) shows its image 919 px wide at 1280 and, as the
  layout applies only from 992 px, 720 px at 800;
- print: Sphinx's LaTeX writer uses letter paper with 1 in margins (``hmargin``/``vmargin`` defaults of
  ``sphinx.sty``), so ``\\linewidth`` is 6.5 in and ``\\textheight`` 9 in, and ``\\sphinxincludegraphics``
  shrinks an image only when it is larger than these.

:func:`figure_size` is the one way a figure module sizes a figure for its space; it applies the book's text
sizes (:data:`FIGURE_RC`) so the axis, legend and title text of every figure starts at a size that reads.
"""

from __future__ import annotations

import re
import statistics
import textwrap
from dataclasses import dataclass
from typing import Any
from pathlib import Path
from xml.etree import ElementTree

__all__ = [
    "SPACES", "SHOWN_PX", "SCREEN_DPI", "PRINT_WIDTH_IN", "PRINT_HEIGHT_IN", "MIN_PX", "MIN_MEDIAN_PX", "MIN_PRINT_PT",
    "FIGURE_RC", "SIZE_DIR", "TextSizes", "figure_size", "folder_text_sizes", "use_figure_style", "shown_px",
    "svg_texts", "text_sizes", "wrap_to_width",
]

#: Where a figure is shown: the text column, or the theme's full page width (a ``full-width`` figure).
SPACES = ("column", "wide")
#: CSS pixels a figure may take, per space and window width (Chromium, sphinx-book-theme 1.3).
SHOWN_PX: dict[tuple[str, int], float] = {("column", 1280): 672.0, ("column", 800): 720.0,
                                          ("wide", 1280): 919.0, ("wide", 800): 720.0}
SCREEN_DPI = 100  # the page's PNG: one image pixel per CSS pixel (helpers.book.figures.scaled_copies)
PRINT_WIDTH_IN, PRINT_HEIGHT_IN = 6.5, 9.0  # letter paper less Sphinx's 1 in margins
#: What a reader must get (issue 48): smallest text, median text at a 1280 px window; smallest text printed.
MIN_PX, MIN_MEDIAN_PX, MIN_PRINT_PT = 8.0, 10.0, 6.0

#: The book's text sizes in points, whatever a reader's own matplotlib settings: at the column's 6.72 in
#: (:func:`figure_size`), 1 pt is 1.39 CSS px on the page and 0.97 pt in print, so 10 pt tick labels read as 13.9 px
#: and 9.7 pt. None is smaller than matplotlib's default, so a figure not yet drawn for its space loses nothing; a
#: label drawn smaller by hand (a crowded map's) should stay at 7.5 pt or more (10.4 px, 7.3 pt printed).
FIGURE_RC: dict[str, Any] = {
    "font.size": 10.0, "axes.titlesize": 12.0, "axes.labelsize": 10.0, "xtick.labelsize": 10.0,
    "ytick.labelsize": 10.0, "legend.fontsize": 10.0, "legend.title_fontsize": 10.0, "figure.titlesize": 12.0,
    "svg.fonttype": "path", "svg.hashsalt": "abstracts-book",
}


def use_figure_style() -> None:
    """Set matplotlib's text sizes to :data:`FIGURE_RC` (idempotent; :func:`figure_size` calls it).

    Returns
    -------
    None
        matplotlib's settings are changed in place.

    Examples
    --------
    >>> import matplotlib
    >>> use_figure_style()
    >>> matplotlib.rcParams["figure.titlesize"] == FIGURE_RC["figure.titlesize"]
    True
    """
    import matplotlib  # lazy: slow to import

    matplotlib.rcParams.update(FIGURE_RC)  # type: ignore[arg-type]


def shown_px(space: str = "column", window: int = 1280) -> float:
    """The CSS pixels a figure of ``space`` may take at a ``window`` px wide window (:data:`SHOWN_PX`).

    Parameters
    ----------
    space
        ``column`` or ``wide`` (:data:`SPACES`).
    window
        The window's width in CSS pixels (a measured one: :data:`SHOWN_PX`).

    Returns
    -------
    float
        The figure's width on the page, in CSS pixels.

    Examples
    --------
    >>> shown_px(), shown_px("wide", 800)
    (672.0, 720.0)
    """
    if (space, window) not in SHOWN_PX:
        known = sorted({s for s, _ in SHOWN_PX}), sorted({w for _, w in SHOWN_PX})
        raise ValueError(f"no measured width for space {space!r} at window {window!r}: spaces {known[0]}, "
                         f"windows {known[1]}")
    return SHOWN_PX[(space, window)]


def figure_size(width: str = "column", height_ratio: float = 0.75, *, height_in: float | None = None
                ) -> tuple[float, float]:
    """The size in inches to draw a figure at so the page shows it at its own size (no shrinking) at 1280 px.

    ``width`` is the space (:data:`SPACES`); the height is ``height_ratio`` times the width, or ``height_in``.
    Also applies the book's text sizes (:func:`use_figure_style`), so ``plt.subplots(figsize=figure_size())``
    draws every figure by the same rule.

    Parameters
    ----------
    width
        The space the figure fills.
    height_ratio
        The height as a share of the width.
    height_in
        The height in inches, instead.

    Returns
    -------
    tuple of float
        Width and height in inches, rounded to 0.01.

    Examples
    --------
    >>> figure_size(), figure_size("wide", height_in=4.0)
    ((6.72, 5.04), (9.19, 4.0))
    """
    if width not in SPACES:
        raise ValueError(f"figure width must be one of {SPACES}, got {width!r}")
    if height_in is None and not height_ratio > 0:
        raise ValueError(f"height_ratio must be positive, got {height_ratio!r}")
    use_figure_style()
    inches = shown_px(width) / SCREEN_DPI
    return round(inches, 2), round(height_in if height_in is not None else inches * height_ratio, 2)


#: DejaVu Sans (matplotlib's font) averages about this many ems a character in English words and numbers.
CHARACTER_EM = 0.58


def wrap_to_width(text: str, width_in: float, size_pt: float, *, max_lines: int | None = None) -> str:
    """``text`` broken between words into lines that fit ``width_in`` inches at ``size_pt`` points, so a long title
    (a corpus named by its subject) never widens the figure beyond its space; with ``max_lines``, the rest is cut
    with an ellipsis. Words are never split, not even at a hyphen.

    Parameters
    ----------
    text
        A title or a label.
    width_in
        The width the text may take, in inches.
    size_pt
        The text's size in points.
    max_lines
        The most lines kept (default: every line).

    Returns
    -------
    str
        The lines, joined by newlines.

    Examples
    --------
    >>> print(wrap_to_width("Term map: the 120 connected terms of 300, Transportation Science and Technology", 3, 10))
    Term map: the 120 connected terms of
    300, Transportation Science and
    Technology
    >>> wrap_to_width("co-occurring terms of poultry science", 1.5, 10, max_lines=1)
    'co-occurring…'
    """
    characters = max(8, int(width_in * 72 / (size_pt * CHARACTER_EM)))
    lines = textwrap.wrap(text, characters, break_long_words=False, break_on_hyphens=False) or [""]
    if max_lines is not None and len(lines) > max_lines:
        lines, words = lines[:max_lines], lines[max_lines - 1].split()
        while len(words) > 1 and len(" ".join(words)) + 1 > characters:
            words.pop()
        lines[-1] = " ".join(words) + "…"
    return "\n".join(lines)


_SCALE = re.compile(r"scale\(\s*([-0-9.e]+)(?:[\s,]+([-0-9.e]+))?\s*\)")
_LENGTH = re.compile(r"^\s*([0-9.e+-]+)\s*(pt|px|in)?\s*$")
_SVG = "{http://www.w3.org/2000/svg}"
_FONT_SCALE = 100.0  # matplotlib's text-as-path glyph scale (matplotlib.textpath.TextToPath.FONT_SCALE)
_UNITS_PT = {"pt": 1.0, None: 1.0, "px": 0.75, "in": 72.0}


def _points(length: str | None, what: str, source: str) -> float:
    match = _LENGTH.match(length or "")
    if not match:
        raise ValueError(f"{source}: the SVG's {what} {length!r} is not a length in pt, px or in")
    return float(match.group(1)) * _UNITS_PT[match.group(2)]


def svg_texts(svg: str | Path) -> tuple[float, float, list[tuple[str, float]], int]:
    """The texts a matplotlib SVG draws: ``(width_pt, height_pt, [(text, size_pt), ...], n_unsized)``.

    A text's size is the font size it was drawn at (sub- and superscripts of mathematical text are not counted
    apart). A text drawn with path effects (an outline) is written as plain paths without its size: it is
    counted in ``n_unsized``, never left out silently. ``svg`` is a path or the SVG text itself.

    Parameters
    ----------
    svg
        A saved figure's path, or its SVG text.

    Returns
    -------
    tuple
        The drawing's width and height in points, each text with its size, and the texts without a size.

    Examples
    --------
    >>> svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="144pt" height="72pt"><g id="text_1"><!-- Hi -->'
    ...        '<g transform="translate(1 2) scale(0.08 -0.08)"><use/></g></g><g id="text_2"><path/></g></svg>')
    >>> svg_texts(svg)
    (144.0, 72.0, [('Hi', 8.0)], 1)
    """
    source = str(svg) if isinstance(svg, Path) else "SVG text"
    text = svg.read_text(encoding="utf-8") if isinstance(svg, Path) else svg
    parser = ElementTree.XMLParser(target=ElementTree.TreeBuilder(insert_comments=True))
    try:
        root = ElementTree.fromstring(text, parser=parser)
    except ElementTree.ParseError as error:
        raise ValueError(f"{source}: not an SVG file ({error})") from None
    width, height = _points(root.get("width"), "width", source), _points(root.get("height"), "height", source)
    texts: list[tuple[str, float]] = []
    unsized = 0
    for group in root.iter(f"{_SVG}g"):
        if not re.fullmatch(r"text_\d+", group.get("id") or ""):
            continue
        words = next((str(node.text).strip() for node in group if node.tag is ElementTree.Comment), "")
        scaled = [g for g in group.iter(f"{_SVG}g") if _SCALE.search(g.get("transform") or "")]
        if not scaled:
            if any(node.tag == f"{_SVG}path" for node in group.iter()):
                unsized += 1
            continue
        if not words or not any(node.tag == f"{_SVG}use" for node in scaled[0].iter()):
            continue  # only spaces: nothing drawn
        match = _SCALE.search(scaled[0].get("transform") or "")
        assert match is not None
        texts.append((words, round(abs(float(match.group(1))) * _FONT_SCALE, 4)))
    return width, height, texts, unsized


@dataclass(frozen=True)
class TextSizes:
    """A figure's text sizes where it is read (:func:`text_sizes`).

    Attributes
    ----------
    space, width_in, height_in
        The space the figure fills and its drawn size.
    n_texts, n_unsized
        Its texts, and those whose size the SVG does not give.
    smallest_text
        The smallest text's words.
    smallest_pt, median_pt
        Text sizes as drawn.
    smallest_px, median_px
        On the page, at the window asked for.
    smallest_print_pt, median_print_pt
        In the PDF book.

    Examples
    --------
    >>> sizes = text_sizes('<svg xmlns="http://www.w3.org/2000/svg" width="432pt" height="288pt"></svg>')
    >>> sizes.n_texts, sizes.problems()
    (0, [])
    """

    space: str
    width_in: float
    height_in: float
    n_texts: int
    n_unsized: int
    smallest_text: str
    smallest_pt: float  # as drawn
    median_pt: float
    smallest_px: float  # on the page at the window asked for
    median_px: float
    smallest_print_pt: float  # in the PDF book
    median_print_pt: float

    def problems(self) -> list[str]:
        """What falls short of :data:`MIN_PX`, :data:`MIN_MEDIAN_PX` and :data:`MIN_PRINT_PT` (empty: none)."""
        found = []
        if self.n_unsized:
            found.append(f"{self.n_unsized} text(s) drawn with path effects, whose size the SVG does not give")
        if self.n_texts and self.smallest_px < MIN_PX:
            found.append(f"smallest text {self.smallest_px:.1f} px < {MIN_PX:g} ({self.smallest_text!r})")
        if self.n_texts and self.median_px < MIN_MEDIAN_PX:
            found.append(f"median text {self.median_px:.1f} px < {MIN_MEDIAN_PX:g}")
        if self.n_texts and self.smallest_print_pt < MIN_PRINT_PT:
            found.append(f"smallest printed text {self.smallest_print_pt:.1f} pt < {MIN_PRINT_PT:g}")
        return found


def text_sizes(svg: str | Path, *, space: str = "column", window: int = 1280) -> TextSizes:
    """The smallest and median text of a saved figure on the page (CSS px) and in the PDF book (pt).

    On the page the figure is ``width_in * SCREEN_DPI`` px wide, shrunk to :func:`shown_px` when wider; in print
    it is ``width_in`` wide, shrunk to :data:`PRINT_WIDTH_IN` (and :data:`PRINT_HEIGHT_IN`) when larger.

    Parameters
    ----------
    svg
        A saved figure's path, or its SVG text.
    space
        The space the figure fills.
    window
        The window's width in CSS pixels.

    Returns
    -------
    TextSizes
        Its text sizes where it is read.

    Examples
    --------
    A figure 13.44 in wide (twice the column) with 8 pt and 10 pt text is shown at half size:

    >>> svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="967.68pt" height="360pt">'
    ...        '<g id="text_1"><!-- a --><g transform="scale(0.08 -0.08)"><use/></g></g>'
    ...        '<g id="text_2"><!-- b --><g transform="scale(0.1 -0.1)"><use/></g></g></svg>')
    >>> sizes = text_sizes(svg)
    >>> sizes.smallest_px, sizes.median_px, sizes.smallest_print_pt
    (5.56, 6.25, 3.87)
    >>> sizes.problems()[0]
    "smallest text 5.6 px < 8 ('a')"
    """
    width_pt, height_pt, texts, unsized = svg_texts(svg)
    width_in, height_in = width_pt / 72, height_pt / 72
    screen = min(1.0, shown_px(space, window) / max(width_in * SCREEN_DPI, 1e-9)) * SCREEN_DPI / 72
    printed = min(1.0, PRINT_WIDTH_IN / max(width_in, 1e-9), PRINT_HEIGHT_IN / max(height_in, 1e-9))
    sizes = [size for _, size in texts]
    smallest = min(sizes) if sizes else 0.0
    median = float(statistics.median(sizes)) if sizes else 0.0
    return TextSizes(
        space=space, width_in=round(width_in, 3), height_in=round(height_in, 3), n_texts=len(texts),
        n_unsized=unsized, smallest_text=next((words for words, size in texts if size == smallest), ""),
        smallest_pt=round(smallest, 2), median_pt=round(median, 2),
        smallest_px=round(smallest * screen, 2), median_px=round(median * screen, 2),
        smallest_print_pt=round(smallest * printed, 2), median_print_pt=round(median * printed, 2))


SIZE_DIR = "sizes"  # helpers.book.figures.save_figure records each figure's space here, as <label>.json


def folder_text_sizes(folder: Path, *, window: int = 1280) -> dict[str, TextSizes]:
    """The text sizes of every figure saved in ``folder`` (``fig-*.svg``), label -> :class:`TextSizes`, in the space
    :func:`helpers.book.figures.save_figure` recorded for it (``sizes/<label>.json``; a figure saved without a
    record, by an older version, is taken as a column figure).

    Parameters
    ----------
    folder
        A book's figures folder.
    window
        The window's width in CSS pixels.

    Returns
    -------
    dict of str to TextSizes
        By figure label, in name order.

    Examples
    --------
    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "fig-corpus-lengths.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="484pt" '
    ...                                                     'height="363pt"></svg>')
    >>> {label: sizes.space for label, sizes in folder_text_sizes(folder).items()}
    {'fig-corpus-lengths': 'column'}
    """
    import json

    measured = {}
    for svg in sorted(Path(folder).glob("fig-*.svg")):
        record = Path(folder) / SIZE_DIR / f"{svg.stem}.json"
        space = json.loads(record.read_text(encoding="utf-8"))["space"] if record.exists() else "column"
        measured[svg.stem] = text_sizes(svg, space=space, window=window)
    return measured
