"""A figure's SVG and PDF written by a forked child (helpers.book.figure_writers): the same bytes as written in the
page's own process, every failure raised where the build waits, nothing left of the staging folder."""

import filecmp

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from helpers.book import figures  # noqa: E402
from helpers.book.figure_writers import WRITING_DIR, FigureWriteError, wait_for_writers  # noqa: E402


def _figure():
    figure, axis = plt.subplots(figsize=(4, 3))
    axis.bar(["phage", "poultry", "Salmonella"], [7, 5, 3])
    axis.set_title("Papers per term")
    return figure


def test_background_files_are_the_bytes_written_in_the_page_process(tmp_path):
    inline, background = tmp_path / "inline", tmp_path / "background"
    data = pd.DataFrame({"term": ["phage"], "papers": [7]})
    for folder, in_background in ((inline, False), (background, True)):
        figure = _figure()
        written = figures.save_figure(figure, data, "fig-a-bars", folder=folder, background=in_background)
        plt.close(figure)
    wait_for_writers(background)
    assert [path.name for path in written] == ["fig-a-bars.png", "fig-a-bars.svg", "fig-a-bars.pdf", "fig-a-bars.csv"]
    names = ["fig-a-bars.png", "fig-a-bars.svg", "fig-a-bars.pdf", "fig-a-bars.csv", "sizes/fig-a-bars.json",
             "thumbnails/fig-a-bars.png"]
    assert filecmp.cmpfiles(inline, background, names, shallow=False) == (names, [], [])
    assert sorted(path.name for path in background.iterdir()) == sorted(path.name for path in inline.iterdir())
    assert not (background / WRITING_DIR).exists()


def test_a_child_that_fails_is_raised_at_the_wait_naming_the_figure(tmp_path, monkeypatch):
    def fail(figure, folder, label, extensions):
        if "svg" in extensions:
            raise OSError("No space left on device")
        return original(figure, folder, label, extensions)

    original = figures._save_formats
    monkeypatch.setattr(figures, "_save_formats", fail)  # the forked child has the same memory
    figure = _figure()
    figures.save_figure(figure, pd.DataFrame({"x": [1]}), "fig-a-bars", folder=tmp_path, background=True)
    plt.close(figure)
    assert (tmp_path / "fig-a-bars.png").exists()
    with pytest.raises(FigureWriteError, match=r"^fig-a-bars: OSError: No space left on device$"):
        wait_for_writers(tmp_path)
    assert not (tmp_path / "fig-a-bars.svg").exists() and not (tmp_path / WRITING_DIR).exists()


def test_the_book_setting_turns_background_writing_on(tmp_path, monkeypatch):
    from helpers.book.settings import BookConfig

    assert BookConfig.from_environment({}).figures_in_background is False
    assert BookConfig.from_environment({"BOOK_FIGURES_IN_BACKGROUND": "1"}).figures_in_background is True
    monkeypatch.setenv("BOOK_FIGURES_IN_BACKGROUND", "1")
    monkeypatch.setenv("BOOK_FIGURE_DIR", str(tmp_path))
    figure = _figure()
    figures.save_figure(figure, pd.DataFrame({"x": [1]}), "fig-a-bars")
    plt.close(figure)
    assert (tmp_path / WRITING_DIR).is_dir()  # written in the background: the build's end waits for it
    from helpers.book.build.sphinx_ext import _wait_for_figures

    _wait_for_figures(None, None)
    assert (tmp_path / "fig-a-bars.svg").exists() and (tmp_path / "fig-a-bars.pdf").exists()
    assert not (tmp_path / WRITING_DIR).exists()


def test_a_writer_is_no_child_of_the_page_kernel(tmp_path):
    """A kernel ends its own children when it shuts down (ipykernel interrupts, then kills them): a writer still
    writing then would lose its files. Forked twice, the writer is no child of the process that started it."""
    import os
    import time
    from pathlib import Path

    from helpers.book.figure_writers import write_in_background

    if not Path("/proc/self/status").exists():
        pytest.skip("needs /proc (Linux) to list a process's children")

    def slow(staging):
        time.sleep(1.0)
        (staging / "fig-a-b.svg").write_text("<svg/>")

    def children() -> list[str]:
        found = []
        for status in Path("/proc").glob("[0-9]*/status"):
            try:
                fields = dict(line.split(":\t", 1) for line in status.read_text().splitlines() if ":\t" in line)
            except OSError:
                continue
            if fields.get("PPid", "").strip() == str(os.getpid()):
                found.append(status.parent.name)
        return found

    before = children()
    write_in_background(slow, tmp_path, "fig-a-b")
    assert children() == before and not (tmp_path / "fig-a-b.svg").exists()  # still writing, nobody's child here
    wait_for_writers(tmp_path)
    assert (tmp_path / "fig-a-b.svg").read_text() == "<svg/>"
