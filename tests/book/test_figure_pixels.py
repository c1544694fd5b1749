"""The page's picture and the thumbnail come from the very pixels of the saved PNG."""

from __future__ import annotations

import io

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
from PIL import Image  # noqa: E402

from helpers.book.figure_pixels import drawn_pixels, scaled_copies  # noqa: E402
from helpers.book.figures import THUMBNAIL_DIR, save_page_figure  # noqa: E402


def crash_figure():
    figure, axes = plt.subplots(figsize=(4, 2.5))
    axes.bar(["rural", "urban"], [12, 30])
    axes.set_title("Crashes per junction")
    return figure


def decoded(path) -> bytes:
    with Image.open(path) as image:
        return image.convert("RGBA").tobytes()


def test_the_page_picture_and_thumbnail_are_the_saved_png_scaled(tmp_path):
    figure = crash_figure()
    saved = save_page_figure(figure, pd.DataFrame({"n": [12, 30]}), "fig-a-crashes", folder=tmp_path, background=False)
    plt.close(figure)
    with Image.open(saved.files[0]) as png:
        screen, thumbnail = scaled_copies(png.convert("RGBA"))
    page = Image.open(io.BytesIO(saved.screen_png))
    assert page.size == screen.size and page.convert("RGBA").tobytes() == screen.tobytes()
    written = Image.open(tmp_path / THUMBNAIL_DIR / "fig-a-crashes.png")
    assert written.size == thumbnail.size and written.convert("RGBA").tobytes() == thumbnail.tobytes()


def test_pixels_come_from_the_file_when_the_canvas_holds_another_drawing(tmp_path):
    figure = crash_figure()
    path = tmp_path / "fig-a-crashes.png"
    figure.savefig(path, dpi=300, bbox_inches="tight")
    from_canvas = drawn_pixels(figure, path).tobytes()
    figure.canvas.draw()  # the canvas now holds the figure at its own 100 dpi, not the file's size
    from_file = drawn_pixels(figure, path)
    plt.close(figure)
    assert from_canvas == decoded(path) == from_file.tobytes() and from_file.size == Image.open(path).size
