"""A saved figure's pixels and its two smaller copies: the page's picture and the figure index's thumbnail.

A figure is drawn once, at :data:`PNG_DPI`, for the PNG a reader downloads; the page shows that drawing scaled to
:data:`~helpers.book.figure_text.SCREEN_DPI` and the figure index a thumbnail of it. Taking the pixels from the
canvas that has just drawn the file, and scaling the page's copy again for the thumbnail, spares decoding the
file and scaling the large drawing twice (about a second of CPU per book on the seed).
"""

from __future__ import annotations

from pathlib import Path

from helpers.book.figure_text import SCREEN_DPI

__all__ = ["PNG_DPI", "THUMBNAIL_PIXELS", "drawn_pixels", "scaled_copies"]

PNG_DPI = 300  # what journals ask of line art with text (Elsevier, Nature: 300 dpi at least)


def drawn_pixels(figure, png_path: Path):
    """The pixels of the PNG ``figure`` was just saved as (``png_path``), as an RGBA image.

    Saving a PNG draws the figure on its canvas at the file's size and resolution, so the canvas's buffer holds
    the very pixels the file encodes; they are taken from there, which spares decoding the file. Where the canvas
    holds another drawing (a backend that draws elsewhere: its size is not the file's), the file is decoded.

    Parameters
    ----------
    figure : matplotlib.figure.Figure
        The figure, saved as ``png_path`` by its last drawing.
    png_path : Path

    Returns
    -------
    PIL.Image.Image
        RGBA, the file's size.

    Examples
    --------
    >>> import tempfile, matplotlib.pyplot as plt
    >>> from PIL import Image
    >>> figure = plt.figure(figsize=(2, 1))
    >>> path = Path(tempfile.mkdtemp()) / "fig-a-b.png"
    >>> figure.savefig(path, dpi=PNG_DPI)
    >>> drawn_pixels(figure, path).tobytes() == Image.open(path).convert("RGBA").tobytes()
    True
    >>> plt.close(figure)
    """
    from PIL import Image  # lazy: slow to import

    with Image.open(png_path) as image:  # reads the header only
        size = image.size
    renderer = getattr(figure.canvas, "renderer", None)
    if renderer is not None and hasattr(renderer, "buffer_rgba") and (renderer.width, renderer.height) == size:
        return Image.frombuffer("RGBA", size, bytes(renderer.buffer_rgba()), "raw", "RGBA", 0, 1)
    with Image.open(png_path) as image:
        return image.convert("RGBA")


THUMBNAIL_PIXELS = 400  # wide: sharp at the index's 200 CSS pixels on a screen of two device pixels per CSS pixel


def scaled_copies(pixels, *, thumbnail_width: int = THUMBNAIL_PIXELS):
    """The two smaller copies of a figure drawn at :data:`PNG_DPI`: the page's, at
    :data:`~helpers.book.figure_text.SCREEN_DPI`, and the figure index's thumbnail, at most ``thumbnail_width``
    pixels wide.

    Scaling the saved drawing is far cheaper than drawing the figure once more (a figure of 18 panels takes
    seconds to draw), and the page shows what the download link gives. The thumbnail is scaled from the page's
    copy when that is wide enough (a small picture scaled again), else from the drawing itself.

    Parameters
    ----------
    pixels : PIL.Image.Image
        The figure at :data:`PNG_DPI` (:func:`drawn_pixels`).
    thumbnail_width : int

    Returns
    -------
    tuple of PIL.Image.Image
        The page's copy and the thumbnail.

    Examples
    --------
    >>> from PIL import Image
    >>> screen, thumbnail = scaled_copies(Image.new("RGBA", (2400, 900), "white"))
    >>> screen.size, thumbnail.size
    ((800, 300), (400, 150))
    >>> [copy.size for copy in scaled_copies(Image.new("RGBA", (900, 300), "white"))]
    [(300, 100), (400, 133)]
    """
    from PIL import Image  # lazy: slow to import

    def scaled(image, scale: float):
        size = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
        return image.resize(size, Image.Resampling.LANCZOS)

    screen = scaled(pixels, SCREEN_DPI / PNG_DPI)
    source = screen if screen.width >= thumbnail_width else pixels
    return screen, scaled(source, min(1.0, thumbnail_width / source.width))
