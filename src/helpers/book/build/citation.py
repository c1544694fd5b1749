"""The book's own citation, read from ``CITATION.cff`` (a page input): its authors, version, title and BibTeX entry.

``CITATION.cff`` is the one place the authors and the version are written; the How to cite page, every
page's footer (:mod:`helpers.book.build.sphinx_ext`) and the BibTeX entry read them from it.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping
from helpers.book.inputs import page_input

__all__ = ["Citation", "read_citation", "parse_citation", "author_name", "bibtex_author", "book_bibtex",
           "BASE_URL_UNSET", "wrap_words", "launch_options", "BINDER_URL"]

CITATION_FILE = "CITATION.cff"

#: The cite page's sentence when ``BOOK_BASE_URL`` is not set.
BASE_URL_UNSET = ("This build was made without a web address (`BOOK_BASE_URL` is not set), so a figure's "
                  "citation names its page relative to the book's root and its BibTeX entry gives no URL; "
                  "build with `make book BOOK_BASE_URL=https://.../` for absolute addresses.")


#: Where a chapter's launch button re-runs it (Binder builds the repository's ``requirements.txt`` and ``postBuild``).
BINDER_URL = "https://mybinder.org"
#: Code hosts whose repositories Binder launches by owner and name.
_CODE_HOST = re.compile(r"^https://(github\.com|gitlab\.com)/[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+/?$")


@dataclass(frozen=True)
class Citation:
    """What ``CITATION.cff`` says about the book.

    Attributes
    ----------
    title, version, date_released, license : str
    authors : tuple of Mapping
        The file's author entries as written: a person (``family-names``, ``given-names``) or an
        entity (``name``).
    repository_code : str
        The repository's address (``repository-code``), empty when the file gives none.

    Examples
    --------
    >>> citation = Citation("A book", "1.0.0", "2026-12-02", "MIT", ({"name": "The B team"},))
    >>> citation.author_names, citation.year
    (['The B team'], '2026')
    """

    title: str
    version: str
    date_released: str
    license: str
    authors: tuple[Mapping[str, Any], ...]
    repository_code: str = ""

    @property
    def author_names(self) -> list[str]:
        """The authors as a reader writes them: ``Given Family`` or the entity's name."""
        return [author_name(author) for author in self.authors]

    @property
    def year(self) -> str:
        """The year of ``date-released``."""
        return self.date_released[:4]


def parse_citation(text: str) -> Citation:
    """A :class:`Citation` from the text of a ``CITATION.cff`` file.

    Raises
    ------
    ValueError
        When the file has no title, version or authors, naming what is missing.

    Parameters
    ----------
    text
        The file's YAML.

    Returns
    -------
    Citation
        What the file says.

    Examples
    --------
    >>> cff = 'title: "A book"\\nversion: 1.2.0\\ndate-released: 2026-12-02\\nauthors:\\n  - name: "The B team"\\n'
    >>> citation = parse_citation(cff)
    >>> citation.author_names, citation.version, citation.year
    (['The B team'], '1.2.0', '2026')
    >>> parse_citation("title: x\\n")
    Traceback (most recent call last):
    ...
    ValueError: CITATION.cff: missing version, authors
    """
    import yaml  # lazy: only where a YAML file is read

    data = yaml.safe_load(text) or {}
    missing = [key for key in ("title", "version", "authors") if not data.get(key)]
    if missing:
        raise ValueError(f"{CITATION_FILE}: missing {', '.join(missing)}")
    return Citation(title=str(data["title"]), version=str(data["version"]),
                    date_released=str(data.get("date-released", "")), license=str(data.get("license", "")),
                    authors=tuple(data["authors"]), repository_code=str(data.get("repository-code") or "").strip())


def launch_options(repository_code: str) -> dict[str, Any]:
    """sphinx-book-theme's options for a launch button on every chapter (Binder, JupyterLab, the default branch),
    from ``CITATION.cff``'s ``repository-code``; empty (no button) when it is unset or not a GitHub or GitLab
    repository's address.

    Raises
    ------
    ValueError
        When ``repository-code`` is set but is no repository address Binder can launch, naming it.

    Parameters
    ----------
    repository_code
        ``CITATION.cff``'s ``repository-code`` (empty when unset).

    Returns
    -------
    dict
        The theme's ``html_theme_options`` to add.

    Examples
    --------
    >>> launch_options("")
    {}
    >>> options = launch_options("https://github.com/owner/abstracts-book")
    >>> options["repository_url"], options["repository_branch"], options["launch_buttons"]["binderhub_url"]
    ('https://github.com/owner/abstracts-book', 'HEAD', 'https://mybinder.org')
    >>> launch_options("git@github.com:owner/book.git")
    Traceback (most recent call last):
    ...
    ValueError: CITATION.cff: repository-code must be a https://github.com/OWNER/REPO or https://gitlab.com/OWNER/REPO address, got 'git@github.com:owner/book.git'
    """
    if not repository_code:
        return {}
    if not _CODE_HOST.match(repository_code):
        raise ValueError(f"{CITATION_FILE}: repository-code must be a https://github.com/OWNER/REPO or "
                         f"https://gitlab.com/OWNER/REPO address, got {repository_code!r}")
    return {"repository_url": repository_code.rstrip("/").removesuffix(".git"), "repository_branch": "HEAD",
            "launch_buttons": {"binderhub_url": BINDER_URL, "notebook_interface": "jupyterlab"}}


def read_citation(root: Path | None = None) -> Citation:
    """The book's ``CITATION.cff`` (through :func:`helpers.book.inputs.page_input`) as a :class:`Citation`.

    Parameters
    ----------
    root
        The book's root (default: found from here).

    Returns
    -------
    Citation
        What the book's file says.

    Examples
    --------
    >>> citation = read_citation()
    >>> bool(citation.title), bool(citation.author_names)
    (True, True)
    """
    return parse_citation(page_input(CITATION_FILE, root=root).read_text(encoding="utf-8"))


def author_name(author: Mapping[str, Any]) -> str:
    """One author as a reader writes it.

    Parameters
    ----------
    author
        One entry of ``CITATION.cff``'s ``authors``.

    Returns
    -------
    str
        Given names, particle, family names and suffix; an entity's name.

    Examples
    --------
    >>> author_name({"given-names": "Ada", "family-names": "Lovelace"}), author_name({"name": "The B team"})
    ('Ada Lovelace', 'The B team')
    """
    person = _person(author)
    if person is None:
        return str(author.get("name", "")).strip()
    return " ".join(part for part in person if part)


def _person(author: Mapping[str, Any]) -> tuple[str, str, str] | None:
    """A person's given names, family names (with their particle) and suffix; ``None`` for an entity."""
    if not author.get("family-names"):
        return None
    family = " ".join(str(part) for part in (author.get("name-particle"), author["family-names"]) if part)
    return str(author.get("given-names") or ""), family, str(author.get("name-suffix") or "")


def wrap_words(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` characters, broken only at spaces: never inside a word, a hyphenated
    one ("co-occurring") or one longer than ``width`` (a URL, a hash) either.

    Parameters
    ----------
    text
        One paragraph.
    width
        The longest line, in characters (a longer word stays whole, on a line of its own).

    Returns
    -------
    list of str
        The lines.

    Examples
    --------
    >>> wrap_words("terms that co-occur in road-safety abstracts", 14)
    ['terms that', 'co-occur in', 'road-safety', 'abstracts']
    """
    return textwrap.wrap(text, width=width, break_on_hyphens=False, break_long_words=False)


def _bibtex_text(text: str) -> str:
    """``text`` safe inside a braced BibTeX field: LaTeX's special characters escaped, braces dropped."""
    special = {"\\": r"\textbackslash{}", "{": "", "}": "", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
               "_": r"\_", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}
    return "".join(special.get(character, character) for character in text)


def bibtex_author(author: Mapping[str, Any]) -> str:
    """One author for BibTeX's ``author`` field: ``Family, Given`` for a person, an entity in braces (kept whole).

    Parameters
    ----------
    author
        An author, as :func:`author_name` takes it.

    Returns
    -------
    str
        The author as BibTeX reads it, LaTeX's special characters escaped.

    Examples
    --------
    >>> bibtex_author({"given-names": "Ada", "family-names": "Lovelace"}), bibtex_author({"name": "The B & C team"})
    ('Lovelace, Ada', '{The B \\\\& C team}')
    """
    person = _person(author)
    if person is None:
        return "{" + _bibtex_text(author_name(author)) + "}"
    given, family, _ = person
    return _bibtex_text(f"{family}, {given}" if given else family)


def book_bibtex(citation: Citation, *, corpus_sha256: str, base_url: str | None = None, title: str | None = None,
                width: int = 72) -> str:
    """A BibTeX ``@software`` entry for the book: authors, title and version from ``CITATION.cff``, the corpus
    SHA-256 in a note, and the book's address when ``base_url`` is given; no line longer than ``width`` (a
    continuation line is indented by four spaces, so the whole hash fits).

    Parameters
    ----------
    citation : Citation
    corpus_sha256 : str
        The corpus this build analysed (its full SHA-256).
    base_url : str, optional
        Where the book is published (``BOOK_BASE_URL``); without it the entry has no ``url``.
    title : str, optional
        The book's title (default: ``CITATION.cff``'s).

    Returns
    -------
    str
        The entry, its lines at most ``width`` long.

    Examples
    --------
    >>> citation = parse_citation("title: A book\\nversion: 1.0\\ndate-released: 2026-12-02\\nauthors:\\n  - name: T")
    >>> print(book_bibtex(citation, corpus_sha256="ab" * 32, base_url="https://example.org/book/", width=60))
    @software{a_book_1_0,
      author  = {{T}},
      title   = {{A book}},
      version = {1.0},
      year    = {2026},
      url     = {https://example.org/book/},
      note    = {Built on the corpus with SHA-256
        abababababababababababababababababababababababababababababababab}
    }
    """
    book_title = title or citation.title
    key = re.sub(r"[^a-z0-9]+", "_", f"{' '.join(book_title.lower().split()[:2])} {citation.version}").strip("_")
    def wrapped(text: str) -> str:  # continuation lines indented by four, so the whole hash fits in width
        return "\n    ".join(wrap_words(text, width - 13))

    fields = [("author", wrapped(" and ".join(bibtex_author(author) for author in citation.authors))),
              ("title", wrapped("{" + _bibtex_text(book_title) + "}")), ("version", _bibtex_text(citation.version)),
              ("year", citation.year)]
    fields += [("url", base_url)] if base_url else []
    fields += [("note", f"Built on the corpus with SHA-256\n    {corpus_sha256}")]
    return "\n".join([f"@software{{{key},", ",\n".join(f"  {name:<7} = {{{value}}}" for name, value in fields), "}"])
