"""What the chapters share: the book's settings, the cached analysis, glue and display helpers.

Every setting the book reads from the environment is read here, once, by
:meth:`BookConfig.from_environment`:

``BOOK_CORPUS``
    corpus paths, space separated (default ``data/raw``), relative to the book's root;
``THEMES_K``
    number of themes (default: chosen by the selection rule);
``BOOK_SEED``
    first random seed (default 0);
``BOOK_ANALYSIS_CACHE``
    folder of the analysis cache (default ``_build/analysis-cache``);
``BOOK_FIGURE_DIR``
    folder for figure files and data downloads (default ``_build/figures``).
"""

from __future__ import annotations

import html
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping

import numpy as np

from helpers.pipeline import AnalysisSettings, SettingsError

if TYPE_CHECKING:
    from helpers.pipeline import Analysis

DEFAULT_CORPUS = "data/raw"
DEFAULT_CACHE = "_build/analysis-cache"
DEFAULT_FIGURE_DIR = "_build/figures"


def book_root(start: Path | None = None) -> Path:
    """The book's root: the nearest folder at or above ``start`` (default: here) holding ``_config.yml``."""
    here = (start or Path.cwd()).resolve()
    for folder in [here, *here.parents]:
        if (folder / "_config.yml").exists():
            return folder
    return here


def _whole_number(environment: Mapping[str, str], name: str) -> int | None:
    value = environment.get(name, "").strip()
    if not value:
        return None
    try:
        return int(value)
    except ValueError:
        raise SettingsError(f"{name}: must be a whole number, got {value!r}") from None


@dataclass(frozen=True)
class BookConfig:
    """The book's settings: which corpus, which analysis settings, where files go.

    Examples
    --------
    >>> config = BookConfig.from_environment({"THEMES_K": "8", "BOOK_CORPUS": "a b"}, root=Path("/book"))
    >>> config.settings.themes, [p.as_posix() for p in config.corpus_paths]
    (8, ['/book/a', '/book/b'])
    >>> BookConfig.from_environment({"THEMES_K": "eight"})
    Traceback (most recent call last):
    ...
    helpers.pipeline.SettingsError: THEMES_K: must be a whole number, got 'eight'
    """

    root: Path
    corpus_paths: tuple[Path, ...]
    settings: AnalysisSettings = field(default_factory=AnalysisSettings)
    cache_dir: Path = Path(DEFAULT_CACHE)
    figure_dir: Path = Path(DEFAULT_FIGURE_DIR)

    @classmethod
    def from_environment(cls, environment: Mapping[str, str] | None = None, *, root: Path | None = None
                         ) -> "BookConfig":
        """Read the settings from ``environment`` (default ``os.environ``); relative paths start at ``root``."""
        environment = os.environ if environment is None else environment
        root = root or book_root()

        def under_root(value: str) -> Path:
            path = Path(value)
            return path if path.is_absolute() else root / path

        corpus = environment.get("BOOK_CORPUS", "").strip() or DEFAULT_CORPUS
        seed = _whole_number(environment, "BOOK_SEED")
        settings = AnalysisSettings(themes=_whole_number(environment, "THEMES_K"),
                                    **({"seed": seed} if seed is not None else {}))
        return cls(root=root, corpus_paths=tuple(under_root(p) for p in corpus.split()), settings=settings,
                   cache_dir=under_root(environment.get("BOOK_ANALYSIS_CACHE") or DEFAULT_CACHE),
                   figure_dir=under_root(environment.get("BOOK_FIGURE_DIR") or DEFAULT_FIGURE_DIR))


def config() -> BookConfig:
    """The book's settings from the environment (:meth:`BookConfig.from_environment`)."""
    return BookConfig.from_environment()


def analysis(book_config: BookConfig | None = None) -> "Analysis":
    """The analysis of the book's corpus, computed once per build key and cached on disk."""
    from helpers.pipeline import cached_pipeline

    book_config = book_config or config()
    return cached_pipeline(book_config.corpus_paths, book_config.settings, cache_dir=book_config.cache_dir,
                           root=book_config.root)


def plain(value: Any) -> Any:
    """numpy scalars to Python numbers, so ``glue`` shows them as written."""
    if isinstance(value, np.generic):
        return value.item()
    return value


def glue_all(values: Mapping[str, Any]) -> None:
    """``myst_nb.glue`` every value without displaying it."""
    from myst_nb import glue

    for name, value in values.items():
        glue(name, plain(value), display=False)


def glue_name(label: str) -> str:
    """The glue name of a figure label: ``fig-themes-map`` -> ``fig_themes_map``."""
    return label.replace("-", "_")


def publish_figure(label: str, figure, data) -> None:
    """Save a figure's files for citing (PNG, SVG, PDF and the CSV of ``data``), ``glue`` it under
    :func:`glue_name` for a ``{glue:figure}`` directive, then close it."""
    import matplotlib.pyplot as plt
    from myst_nb import glue

    from helpers.figures import save_figure

    save_figure(figure, data, label)
    glue(glue_name(label), figure, display=False)
    plt.close(figure)


def glue_figure(name: str, figure) -> None:
    """``glue`` a matplotlib figure for a ``{glue:figure}`` directive (files saved separately)."""
    from myst_nb import glue

    glue(name, figure, display=False)


def figure_downloads(figure, data, label: str) -> None:
    """Save a figure's files for citing and display the download links under it."""
    from helpers.figures import save_figure

    save_figure(figure, data, label)
    show_downloads(label)


def show_downloads(label: str) -> None:
    """Display the download links of a figure saved by :func:`publish_figure`."""
    from IPython.display import HTML, display

    from helpers.figures import download_links_html

    display(HTML(download_links_html(label)))


def table_html(table, *, precision: int = 3, html_columns: tuple[str, ...] = ()) -> str:
    """A table as HTML, no index, every cell HTML-escaped (abstract text is untrusted).

    ``html_columns`` hold HTML built by :func:`paper_links` (already escaped) and are not escaped again.
    """
    escaped = [c for c in table.columns if c not in html_columns]
    styler = table.style.format(escape="html", precision=precision, subset=escaped)
    if html_columns:
        styler = styler.format(lambda v: v, subset=list(html_columns))
    return styler.hide(axis="index").to_html()


def show_table(table, *, precision: int = 3, html_columns: tuple[str, ...] = ()) -> None:
    """Display :func:`table_html`."""
    from IPython.display import HTML, display

    display(HTML(table_html(table, precision=precision, html_columns=html_columns)))


def paper_links(paper_ids, titles) -> str:
    """Escaped links from each paper to its row in the explorer, joined with ``; ``.

    Examples
    --------
    >>> paper_links(["p1"], ["<b>T</b>"])
    '<a href="explorer.html#paper-p1">&lt;b&gt;T&lt;/b&gt;</a>'
    """
    return "; ".join(
        f'<a href="explorer.html#paper-{html.escape(str(i), quote=True)}">{html.escape(str(t))}</a>'
        for i, t in zip(paper_ids, titles))
