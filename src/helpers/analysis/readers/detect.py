"""The one place that decides a corpus file's format: by its name's extension, then by its content.

- ``.bib`` BibTeX, ``.ris`` RIS, ``.nbib`` MEDLINE, ``.csv``/``.tsv`` tables (the header then chooses the
  database's column map, :mod:`.columns`), ``.jsonl``/``.json`` (optionally ``.gz``) JSON.
- Any other file (``.txt``) by its first line: Web of Science plain text (``FN``/``VR``/``PT``),
  MEDLINE (``PMID-``) or RIS (``TY  -``); otherwise the seed format (abstracts as text blocks).
- Seed-format text whose blocks look like a tagged export is not prose: :func:`tagged_export_name`
  names the format, and the reader stops with that name rather than analyse tags as words.
"""

from __future__ import annotations

import re
from pathlib import Path

__all__ = ["FORMAT_NAMES", "SUFFIX_FORMATS", "corpus_suffix", "file_format", "format_of_file", "tagged_export_name"]

#: Each format's name as errors and the README say it.
FORMAT_NAMES = {
    "seed": "abstracts as text blocks", "bibtex": "BibTeX", "ris": "RIS", "csv": "CSV", "tsv": "TSV",
    "jsonl": "JSON Lines", "json": "JSON", "wos": "Web of Science plain text", "medline": "PubMed MEDLINE",
}
#: Formats known by the extension alone (lower case; ``.gz`` compressed JSON too).
SUFFIX_FORMATS = {
    ".bib": "bibtex", ".ris": "ris", ".nbib": "medline", ".csv": "csv", ".tsv": "tsv", ".jsonl": "jsonl",
    ".json": "json", ".jsonl.gz": "jsonl", ".json.gz": "json",
}
_FIRST_LINES = (
    ("wos", re.compile(r"^(?:FN |VR \d|PT [A-Z]\s*$)")),
    ("medline", re.compile(r"^PMID- ?\d")),
    ("ris", re.compile(r"^TY  - ")),
)
_WOS_LINE = re.compile(r"^(?:PT|AU|AF|TI|SO|AB|PY|DI|UT|ER|DE|C1|CR) ", re.MULTILINE)
_MEDLINE_LINE = re.compile(r"^(?:PMID|TI  |AB  |FAU |AU  |DP  |JT  |OWN |STAT)- ", re.MULTILINE)
_RIS_LINE = re.compile(r"^(?:TY|TI|T1|AU|AB|PY|ER)  - ", re.MULTILINE)


def corpus_suffix(path: str | Path) -> str:
    """A file's extension in lower case, ``.jsonl.gz`` and ``.json.gz`` as one.

    Parameters
    ----------
    path : str or Path
        A file's name or path.

    Returns
    -------
    str
        Its extension, with the dot.

    Examples
    --------
    >>> corpus_suffix("works.JSONL.gz"), corpus_suffix("a.txt"), corpus_suffix("b.tar.gz")
    ('.jsonl.gz', '.txt', '.gz')
    """
    name = Path(path).name.lower()
    for compound in (".jsonl.gz", ".json.gz"):
        if name.endswith(compound):
            return compound
    return Path(name).suffix


def file_format(path: str | Path, head: str) -> str:
    """The format of a file named ``path`` whose text starts with ``head`` (a few lines are enough).

    Parameters
    ----------
    path : str or Path
        The file's name (its extension decides first).
    head : str
        The start of its text.

    Returns
    -------
    str
        A key of :data:`FORMAT_NAMES`.

    Examples
    --------
    >>> file_format("savedrecs.txt", "FN Clarivate Analytics Web of Science\\nVR 1.0\\n")
    'wos'
    >>> file_format("pubmed.txt", "\\nPMID- 35757629\\nOWN - NLM\\n"), file_format("x.nbib", "")
    ('medline', 'medline')
    >>> file_format("a.txt", "ICML 2024\\n\\nWe study things."), file_format("a.csv", "title,abstract")
    ('seed', 'csv')
    """
    known = SUFFIX_FORMATS.get(corpus_suffix(path))
    if known is not None:
        return known
    first = next((line for line in head.split("\n") if line.strip()), "")
    for name, pattern in _FIRST_LINES:
        if pattern.match(first):
            return name
    return "seed"


def format_of_file(path: str | Path) -> str:
    """:func:`file_format` of a file on disk, from its name and its first 4 KiB (a ``.gz`` file by its name).

    Parameters
    ----------
    path : str or Path
        A corpus file.

    Returns
    -------
    str
        Its format, named as :data:`FORMAT_NAMES` keys them.

    Examples
    --------
    >>> import tempfile
    >>> path = Path(tempfile.mkdtemp()) / "savedrecs.txt"
    >>> _ = path.write_text("FN Clarivate Analytics Web of Science\\nVR 1.0\\n")
    >>> format_of_file(path)
    'wos'
    """
    path = Path(path)
    if corpus_suffix(path) in SUFFIX_FORMATS:
        return SUFFIX_FORMATS[corpus_suffix(path)]
    with path.open("rb") as handle:
        head = handle.read(4096).decode("utf-8", errors="replace").lstrip("\ufeff")
    return file_format(path, head)


def tagged_export_name(text: str) -> str | None:
    """The tagged export a text looks like (``wos``, ``medline``, ``ris``) when read as the seed format,
    judged on its first 200 lines: five lines or more with one format's field tags; else ``None``.

    Parameters
    ----------
    text : str
        A seed-format file's text.

    Returns
    -------
    str or None
        ``wos``, ``medline`` or ``ris``, else ``None``.

    Examples
    --------
    >>> tagged_export_name("Title\\n\\nPT J\\nAU Doe, J\\nTI A paper\\nSO J X\\nAB Text.\\nER\\n")
    'wos'
    >>> tagged_export_name("We study PT and AU in a paper.\\n\\nTI is titanium.")
    """
    head = "\n".join(text.split("\n", 200)[:200])
    for name, pattern in (("wos", _WOS_LINE), ("medline", _MEDLINE_LINE), ("ris", _RIS_LINE)):
        if len(pattern.findall(head)) >= 5:
            return name
    return None
