"""What the Reproduce and How to cite pages show: the command that rebuilds this book, its corpus files with their
SHA-256, its settings, the installed versions of the pinned distributions, and the book's own citation."""

from __future__ import annotations

import html
import platform
import re
import shlex
from dataclasses import fields
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Sequence

import pandas as pd

from helpers import __version__
from helpers.analysis.settings import AnalysisSettings
from helpers.book.build.citation import BASE_URL_UNSET, book_bibtex, read_citation
from helpers.book.display import MISSING, markdown_cell
from helpers.book.page_tables import table_html, table_markdown
from helpers.book.inputs import page_input
from helpers.book.settings import ENVIRONMENT_NAMES

if TYPE_CHECKING:
    from helpers.analysis.pipeline import Analysis
    from helpers.book.settings import BookConfig

#: The environment variable (a ``make`` variable too) that sets each analysis setting of the book; the engine's
#: settings (``BOOK_ENGINE``, ...) change no result, so the command leaves them out.
SETTING_VARIABLES = {name: variable for name, variable in ENVIRONMENT_NAMES.items()
                     if name in {setting.name for setting in fields(AnalysisSettings)}}
REQUIREMENTS_FILE = "requirements.txt"
_PIN = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?\s*==\s*([^\s;#]+)")


def rebuild_command(book_config: "BookConfig", *, default_corpus: str = "data/raw") -> str:
    """The ``make book`` command that rebuilds this book: the corpus and every setting that differs from its default.

    Examples
    --------
    >>> from pathlib import Path
    >>> from dataclasses import replace
    >>> from helpers.book.settings import BookConfig
    >>> config = BookConfig.from_environment({}, root=Path("/book"))
    >>> rebuild_command(config)
    'make book'
    >>> config = BookConfig.from_environment({"BOOK_CORPUS": "../corpora/icml my files", "THEMES_K": "8",
    ...                                       "BOOK_BASE_URL": "https://example.org/b"}, root=Path("/book"))
    >>> print(rebuild_command(config))
    make book CORPUS='../corpora/icml my files' THEMES_K=8 BOOK_BASE_URL=https://example.org/b/
    >>> rebuild_command(BookConfig.from_environment({"BOOK_CORPUS": "/data/exports/wos.txt"}, root=Path("/book")))
    'make book CORPUS=/data/exports/wos.txt'
    """
    corpus = " ".join(given_path(path, book_config.root) for path in book_config.corpus_paths)
    words = ["make", "book"] + ([f"CORPUS={shlex.quote(corpus)}"] if corpus != default_corpus else [])
    defaults = AnalysisSettings()
    for name, variable in SETTING_VARIABLES.items():
        value = getattr(book_config.settings, name)
        if value != getattr(defaults, name):
            value = given_path(Path(value), book_config.root) if name == "theme_names" else value
            words.append(f"{variable}={shlex.quote(str(value))}")
    for source in vocabulary_files(book_config.settings):
        variable = "BOOK_THESAURUS" if source["kind"] == "thesaurus" else "BOOK_STOP_TERMS"
        words.append(f"{variable}={shlex.quote(given_path(Path(source['file']), book_config.root))}")
    if book_config.base_url:
        words.append(f"BOOK_BASE_URL={shlex.quote(book_config.base_url)}")
    return " ".join(words)


def vocabulary_files(settings: AnalysisSettings) -> list[dict[str, str]]:
    """The researcher's thesaurus and stop-term files of the settings: ``kind, file, sha256`` each.

    Examples
    --------
    >>> from helpers.analysis.text.vocabulary import EditFile, VocabularyEdits
    >>> edits = VocabularyEdits(frozenset({"study"}), {}, (EditFile("stop terms", "stop.txt", "ab12", frozenset()),))
    >>> vocabulary_files(AnalysisSettings(vocabulary=edits)), vocabulary_files(AnalysisSettings())
    ([{'kind': 'stop terms', 'file': 'stop.txt', 'sha256': 'ab12'}], [])
    """
    return settings.vocabulary.as_dict() if settings.vocabulary is not None else []


def given_path(path: Path, root: Path) -> str:
    """A corpus path as the user gave it: relative to the book's root where it was given so (the settings put it
    under the root), an absolute path as it is (never rewritten as ``../../..`` from the root).

    Examples
    --------
    >>> from pathlib import Path
    >>> given_path(Path("/book/data/raw"), Path("/book")), given_path(Path("/book/../shared/a.txt"), Path("/book"))
    ('data/raw', '../shared/a.txt')
    >>> given_path(Path("/work/shared/exports/wos.txt"), Path("/work/book"))
    '/work/shared/exports/wos.txt'
    """
    return path.relative_to(root).as_posix() if path.is_relative_to(root) else path.as_posix()


def command_block(command: str) -> tuple[str, str]:
    """A shell command as HTML (a code block, escaped) and as Markdown, for :func:`helpers.book.show_html`.

    Examples
    --------
    >>> print(command_block("make book CORPUS='<a>'")[0].split("<pre")[1])
     style="white-space: pre-wrap">make book CORPUS=&#x27;&lt;a&gt;&#x27;</pre></div></div>
    """
    as_html = (f'<div class="highlight-bash notranslate"><div class="highlight"><pre style="white-space: pre-wrap">'
               f'{html.escape(command)}</pre></div></div>')
    return as_html, f"```bash\n{command}\n```"


def corpus_files(analysis: "Analysis") -> pd.DataFrame:
    """The corpus files read, in reading order: ``file``, ``blocks`` (entries), ``abstracts`` and ``SHA-256``;
    the counts as text with thousands separators."""
    corpus = analysis.corpus
    read = corpus.files[corpus.files["status"] == "ok"]
    kinds = corpus.blocks[corpus.blocks["kind"].isin(["abstract", "duplicate"])]
    abstracts = kinds.groupby("source_file").size()
    return pd.DataFrame({"file": read["source_file"].astype(str),
                         "blocks": [f"{int(n):,}" for n in read["n_blocks"]],
                         "abstracts": [f"{int(abstracts.get(name, 0)):,}" for name in read["source_file"]],
                         "SHA-256": read["sha256"].astype(str)}).reset_index(drop=True)


def corpus_files_html(table: pd.DataFrame) -> tuple[str, str]:
    """:func:`corpus_files` as HTML, its SHA-256 column in monospace and wrapped within the column, and as
    Markdown, for :func:`helpers.book.show_html`."""
    style = ("<style>.corpus-files td:last-child { font-family: var(--pst-font-family-monospace); "
             "word-break: break-all; min-width: 12rem; }</style>")
    return f'{style}<div class="corpus-files">{table_html(table)}</div>', table_markdown(table)


def setting_text(value: Any) -> str:
    """A setting's value as the page prints it: thousands separators, words for booleans, a dash for none.

    Examples
    --------
    >>> [setting_text(v) for v in (12000, 0.6, True, None, [3, 4, 5], "combined")]
    ['12,000', '0.6', 'yes', '—', '3, 4, 5', 'combined']
    """
    if value is None:
        return MISSING
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        return f"{value:,.6g}"
    if isinstance(value, (list, tuple)):
        return ", ".join(setting_text(item) for item in value)
    return str(value)


def settings_table(analysis: "Analysis") -> pd.DataFrame:
    """Every setting of this build, one row each: ``part``, ``setting``, ``value`` (text)."""
    given = analysis.settings.as_dict()
    given.setdefault("group_by", f"{analysis.group_by or 'none'} (from the corpus)")
    naming = analysis.themes.naming
    if "theme_names" in given and naming is not None and naming.file is not None:
        # The theme file by name and SHA-256, and whether its names are shown.
        given["theme_names"] = (f"{Path(naming.file).name} (SHA-256 {naming.file_sha256}; "
                                f"{'applied' if naming.applied else 'ignored: written for other themes'})")
    given.pop("vocabulary", None)
    rows = [("analysis", name, value) for name, value in given.items()]
    # The researcher's own vocabulary: each file by name and SHA-256 (its contents are in the build key).
    rows += [("analysis", source["kind"], f"{Path(source['file']).name}, SHA-256 {source['sha256']}")
             for source in vocabulary_files(analysis.settings)]
    if analysis.themes.model is not None:
        rows += [("themes", name, value) for name, value in analysis.themes.model.settings.as_dict().items()]
    rows += [("co-occurrence", name, value) for name, value in analysis.cooccurrence.settings.as_dict().items()]
    rows += [("figures", "word cloud random_state", 0), ("figures", "paper map (t-SNE) random_state",
                                                          analysis.settings.seed)]
    return pd.DataFrame([(part, name, setting_text(value)) for part, name, value in rows],
                        columns=["part", "setting", "value"])


def pinned(requirements_text: str) -> list[tuple[str, str]]:
    """The ``name==version`` pins of a requirements file, in its order.

    Examples
    --------
    >>> pinned("# tools\\nnumpy==2.4.6  # arrays\\ndask[distributed]==2026.8.0\\nloose>=1\\n")
    [('numpy', '2.4.6'), ('dask', '2026.8.0')]
    """
    return [(match.group(1), match.group(2)) for line in requirements_text.splitlines()
            if (match := _PIN.match(line))]


def _installed(name: str) -> str | None:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def distributions(requirements_text: str, *, installed: Callable[[str], str | None] = _installed) -> pd.DataFrame:
    """Each pinned distribution with the version installed in this environment: ``package, pinned, installed``.

    Examples
    --------
    >>> distributions("numpy==2.4.6\\nmissing==1.0\\n", installed={"numpy": "2.4.6"}.get).values.tolist()
    [['numpy', '2.4.6', '2.4.6'], ['missing', '1.0', 'not installed']]
    """
    return pd.DataFrame([(name, version, installed(name) or "not installed")
                         for name, version in pinned(requirements_text)],
                        columns=["package", "pinned", "installed"])


def environment_values(table: pd.DataFrame) -> dict[str, str]:
    """Glue values of the environment: Python's and the helpers' versions, and how many pins the installed
    versions match."""
    matching = int((table["pinned"] == table["installed"]).sum())
    return {"reproduce_python": platform.python_version(), "reproduce_helpers": __version__,
            "reproduce_pins": f"{len(table):,}", "reproduce_pins_matching": f"{matching:,}"}


def read_requirements(root=None) -> str:
    """The text of the book's ``requirements.txt`` (a page input)."""
    path = page_input(REQUIREMENTS_FILE, root=root)
    return path.read_text(encoding="utf-8") if path.is_file() else ""


def cite_blocks(analysis: "Analysis", book_config: "BookConfig", *, title: str | None = None) -> tuple[str, str]:
    """The book's BibTeX entry (:func:`helpers.book.build.citation.book_bibtex`) as HTML and Markdown, for
    :func:`helpers.book.show_html`."""
    entry = book_bibtex(read_citation(book_config.root), corpus_sha256=analysis.corpus.sha256,
                        base_url=book_config.base_url, title=title)
    return (f'<pre class="bibtex" style="white-space: pre-wrap">{html.escape(entry)}</pre>',
            f"```bibtex\n{entry}\n```")


def cite_values(analysis: "Analysis", book_config: "BookConfig", *, title: str | None = None) -> dict[str, str]:
    """Markdown sentences for the How to cite page (``{glue:md}``), escaped: the authors, version and release
    from ``CITATION.cff``, the corpus hash, and where figure addresses point."""
    citation = read_citation(book_config.root)
    names = citation.author_names
    authors = ", ".join(names[:-1]) + f" and {names[-1]}" if len(names) > 1 else names[0]
    address = (f"Figure citations give absolute addresses under {markdown_cell(book_config.base_url)} "
               f"(`BOOK_BASE_URL`)." if book_config.base_url else BASE_URL_UNSET)
    return {"cite_authors": markdown_cell(authors), "cite_version": markdown_cell(citation.version),
            "cite_released": markdown_cell(citation.date_released), "cite_sha": analysis.corpus.sha256,
            "cite_title": markdown_cell(title or citation.title), "cite_address": address,
            "cite_launch": launch_sentence(citation.repository_code)}


def launch_sentence(repository_code: str) -> str:
    """The How to cite page's sentence on re-running a chapter online: the launch button when ``CITATION.cff``
    gives the repository's address (``repository-code``), else how to set one.

    Examples
    --------
    >>> launch_sentence("https://github.com/owner/book")
    'Each chapter has a launch button (the rocket at the top of the page) that opens it as a notebook on Binder, from the repository https://github.com/owner/book named in `CITATION.cff`.'
    >>> print(launch_sentence(""))
    This build has no launch buttons: `CITATION.cff` names no repository. Add its address as `repository-code: https://github.com/OWNER/REPO` (or a GitLab address) to `CITATION.cff` and rebuild: each chapter then has a button that opens it as a notebook on Binder.
    """
    if repository_code:
        return ("Each chapter has a launch button (the rocket at the top of the page) that opens it as a notebook "
                f"on Binder, from the repository {markdown_cell(repository_code)} named in `CITATION.cff`.")
    return ("This build has no launch buttons: `CITATION.cff` names no repository. Add its address as "
            "`repository-code: https://github.com/OWNER/REPO` (or a GitLab address) to `CITATION.cff` and rebuild: "
            "each chapter then has a button that opens it as a notebook on Binder.")


def vocabulary_sentence(settings: AnalysisSettings, changed: Sequence[int]) -> str:
    """What the researcher's files did to one analysis's terms, as a sentence part (plain text): each file by name
    with the number of this corpus's terms it changed (``changed``, in the files' order).

    Examples
    --------
    >>> from helpers.analysis.text.vocabulary import EditFile, VocabularyEdits
    >>> files = (EditFile("thesaurus", "/b/my thesaurus.txt", "ab", frozenset()),
    ...          EditFile("stop terms", "stop.txt", "cd", frozenset()))
    >>> vocabulary_sentence(AnalysisSettings(vocabulary=VocabularyEdits(sources=files)), [3, 1])
    'the thesaurus my thesaurus.txt merged or removed 3 terms of these abstracts, and the stop-term file stop.txt removed 1 term'
    >>> vocabulary_sentence(AnalysisSettings(), [])
    'no thesaurus or stop-term file was given (--thesaurus and --stop-terms, or BOOK_THESAURUS and BOOK_STOP_TERMS)'
    """
    from helpers.book.formatting import count  # lazy: keeps this module's import light

    files = vocabulary_files(settings)
    if not files:
        return "no thesaurus or stop-term file was given (--thesaurus and --stop-terms, or BOOK_THESAURUS and BOOK_STOP_TERMS)"
    parts = []
    for source, n in zip(files, changed):
        name = Path(source["file"]).name
        if source["kind"] == "thesaurus":
            parts.append(f"the thesaurus {name} merged or removed {count(n, 'term')} of these abstracts")
        else:
            parts.append(f"the stop-term file {name} removed {count(n, 'term')}")
    return ", and ".join(parts)
