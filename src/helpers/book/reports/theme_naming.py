"""The themes page's names: which are the researcher's (a theme file) and which the rule's, the one-line warning
when a theme file was written for other themes, and the starter file to download
(:mod:`helpers.analysis.themes.naming`)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from helpers.analysis.themes.naming import starter_text
from helpers.analysis.themes.theme_file import THEME_FILE_OPTION
from helpers.book.display import markdown_cell as md
from helpers.book.formatting import count

if TYPE_CHECKING:
    from helpers.analysis.pipeline import Analysis

__all__ = ["STARTER_FILE", "names_warning", "names_note", "write_starter", "names_html"]

#: The starter theme file the themes page offers, beside the figures' files.
STARTER_FILE = "theme_names.tsv"


def names_warning(analysis: "Analysis") -> str:
    """One line of Markdown when the theme file given was ignored (written for another corpus or settings);
    ``""`` otherwise.

    Parameters
    ----------
    analysis : Analysis
        The corpus analysed: the theme file it was given, if any.

    Returns
    -------
    str
        Markdown, or ``""``.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> names_warning(SimpleNamespace(themes=SimpleNamespace(naming=None)))
    ''
    """
    naming = analysis.themes.naming
    if naming is None or not naming.warning:
        return ""
    # The option as code: the page's typography would turn its "--" into a dash.
    rest = naming.warning.removeprefix(f"{THEME_FILE_OPTION}: ")
    return f"**Warning:** `--theme-names` / `BOOK_THEME_NAMES`: {md(rest)}."


def names_note(analysis: "Analysis") -> str:
    """Where the themes' names come from, in a sentence or two of Markdown: the rule's; or the theme file's (which
    themes, which merged), the others the rule's; ``""`` without themes.

    Parameters
    ----------
    analysis : Analysis
        The corpus analysed: its themes and where their names come from.

    Returns
    -------
    str
        Markdown, or ``""`` without themes.

    Examples
    --------
    >>> import pandas as pd
    >>> from types import SimpleNamespace
    >>> themes = pd.DataFrame({"theme": [1, 2, 3], "label": ["Crash risk", "driver · speed", "Roads"],
    ...                        "name_source": ["file", "rule", "file"], "model_themes": ["1, 4", "2", "3"]})
    >>> naming = SimpleNamespace(file="/x/names.tsv", applied=True, warning="")
    >>> analysis = SimpleNamespace(themes=SimpleNamespace(model=SimpleNamespace(themes=themes), naming=naming))
    >>> print(names_note(analysis))
    2 of the 3 themes carry your names, from `names.tsv`; the other keeps the rule's label. Theme 1 (*Crash risk*) merges the model's themes 1 and 4.
    """
    model, naming = analysis.themes.model, analysis.themes.naming
    if model is None or naming is None:
        return ""
    if not naming.applied:
        return ("All labels are the rule's. To name the themes yourself, download the starter theme file below, "
                "write a name beside each theme (give two or more themes the same name to merge them into one) "
                "and rebuild with `BOOK_THEME_NAMES=FILE`.")
    table = model.themes
    mine, n_themes = int((table["name_source"] == "file").sum()), len(table)
    source = f"`{md(Path(str(naming.file)).name)}`"
    verb = "carries your name" if mine == 1 else "carry your names"
    if mine == n_themes:
        sentence = (f"The one theme {verb}, from {source}." if n_themes == 1 else
                    f"All {count(n_themes, 'theme')} {verb}, from {source}.")
    else:
        others = "the other keeps the rule's label" if n_themes - mine == 1 else "the others keep the rule's labels"
        sentence = f"{mine} of the {count(n_themes, 'theme')} {verb}, from {source}; {others}."
    merges = [(int(t), str(label), str(members).split(", "))
              for t, label, members in zip(table["theme"], table["label"], table["model_themes"])
              if "," in str(members)]
    for theme, label, members in merges:
        listed = ", ".join(members[:-1]) + " and " + members[-1]
        sentence += f" Theme {theme} (*{md(label)}*) merges the model's themes {listed}."
    return sentence


def write_starter(analysis: "Analysis", folder: Path) -> Path | None:
    """The starter theme file (:func:`helpers.analysis.themes.naming.starter_text`) written as
    :data:`STARTER_FILE` in ``folder``; ``None`` without themes.

    Parameters
    ----------
    analysis : Analysis
        The corpus analysed: its themes' naming (the rule's labels and any names given).
    folder : Path
        Created when missing.

    Returns
    -------
    Path or None
        The file written.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> write_starter(SimpleNamespace(themes=SimpleNamespace(naming=None)), Path("/nonexistent")) is None
    True
    """
    naming = analysis.themes.naming
    if naming is None:
        return None
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / STARTER_FILE
    path.write_text(starter_text(naming), encoding="utf-8")
    return path


def names_html(analysis: "Analysis") -> tuple[str, str]:
    """The names note and the starter file's download link, as HTML and as Markdown (for
    :func:`helpers.book.show_html`); empty without themes.

    Parameters
    ----------
    analysis : Analysis
        The corpus analysed: its themes' names and the theme file.

    Returns
    -------
    html, markdown : str
        Both empty without themes.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> names_html(SimpleNamespace(themes=SimpleNamespace(model=None, naming=None)))
    ('', '')
    """
    note, naming = names_note(analysis), analysis.themes.naming
    if not note or naming is None:
        return "", ""
    from markdown_it import MarkdownIt  # lazy: Jupyter Book's own Markdown parser

    names = "your names and the rule's labels" if naming.applied else "the rule's labels"
    link = (f'<p class="table-download">Theme file of these themes ({names}, the corpus SHA-256 and settings they '
            f'belong to): <a href="../figures/{STARTER_FILE}" download>{STARTER_FILE}</a></p>')
    rendered = MarkdownIt("commonmark", {"html": False}).render(note)
    return rendered + link, f"{note} Theme file of these themes: `figures/{STARTER_FILE}` in the web book."
