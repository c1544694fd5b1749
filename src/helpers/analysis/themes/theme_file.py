"""The theme file: tab-separated text in which a researcher renames and merges themes, and what it was written for.

The file is text a researcher edits by hand (the themes page offers a starter file,
:func:`helpers.analysis.themes.naming.starter_text`)::

    # corpus: 1f0c...            (the corpus SHA-256 it was written for)
    # themes: 8                  (the number of themes of the model)
    # seed: 0
    # grain: themes
    # model: 3a9b0c1d2e4f        (the model's top terms, hashed: :func:`model_fingerprint`)
    theme	name	rule's label
    1	Crash severity	crash severity · injury
    2	Driver behaviour	driver · distraction
    5	Driver behaviour	speeding · driver

Lines starting with ``#`` are comments; the five ``# key: value`` lines above record what the file was written
for (:class:`ThemeFingerprint`), so that a file written for other themes is never applied to these
(:func:`mismatch`). Columns after the second are ignored. A malformed file is a :class:`ThemeFileError` naming
the file and the line, raised before any analysis.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from helpers.analysis.settings import SettingsError

if TYPE_CHECKING:
    from helpers.analysis.themes.model import ThemeModel

__all__ = ["THEME_FILE_OPTION", "FINGERPRINT_KEYS", "MAX_NAME_CHARS", "ThemeFileError", "ThemeFingerprint",
           "ThemeFile", "read_theme_file", "model_fingerprint", "fingerprint_of", "mismatch"]

#: How a theme file is given, named in its errors and warnings.
THEME_FILE_OPTION = "--theme-names / BOOK_THEME_NAMES"
#: The header lines that record what a theme file was written for, in the order a starter file writes them.
FINGERPRINT_KEYS = ("corpus", "themes", "seed", "grain", "model")
#: The longest theme name read (characters).
MAX_NAME_CHARS = 120
#: The only grain a theme file names (the broad themes follow from the themes).
GRAIN = "themes"

_META = re.compile(r"#\s*([A-Za-z]+)\s*:\s*(.*?)\s*$")


class ThemeFileError(SettingsError):
    """A malformed theme file: one line naming the file and the line (a settings error, raised before any analysis).

    Examples
    --------
    >>> str(ThemeFileError("names.tsv, line 3: theme 9 is above the file's 8 themes")).split(",")[0]
    'names.tsv'
    """


@dataclass(frozen=True)
class ThemeFingerprint:
    """What a set of themes is, as a theme file records it in its ``# key: value`` lines.

    Attributes
    ----------
    corpus : str
        The corpus's SHA-256.
    themes : int
        The number of themes.
    seed : int
        The run's first seed.
    grain : str
        ``themes``.
    model : str
        The model's top terms hashed (:func:`model_fingerprint`).

    Examples
    --------
    >>> ThemeFingerprint("abc", 8, 0, "themes", "0123").themes
    8
    """

    corpus: str
    themes: int
    seed: int
    grain: str
    model: str


@dataclass(frozen=True)
class ThemeFile:
    """A theme file read (:func:`read_theme_file`).

    Attributes
    ----------
    path : str
    sha256 : str
        Of its bytes.
    fingerprint : ThemeFingerprint
        What it was written for.
    names : dict of int to str
        The model's theme number to the name given (never empty: empty names are left out).

    Examples
    --------
    >>> ThemeFile("names.tsv", "", ThemeFingerprint("abc", 2, 0, "themes", "0123"), {2: "Roads"}).names
    {2: 'Roads'}
    """

    path: str
    sha256: str
    fingerprint: ThemeFingerprint
    names: dict[int, str]


def read_theme_file(path: str | Path) -> ThemeFile:
    """Read a theme file (the format of this module's docstring).

    Parameters
    ----------
    path : str or Path
        The theme file.

    Returns
    -------
    ThemeFile
        Its names and what it was written for.

    Raises
    ------
    ThemeFileError
        One line naming the file and line: not readable or not UTF-8, no header row, a theme that is not a whole
        number of at least 1 or above the recorded number of themes, a theme given twice, a name with control
        characters or longer than :data:`MAX_NAME_CHARS`, a recorded value missing or malformed.

    Examples
    --------
    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> head = "# corpus: abc\\n# themes: 3\\n# seed: 0\\n# grain: themes\\n# model: 0123\\ntheme\\tname\\n"
    >>> _ = (folder / "names.tsv").write_text(head + "1\\tRoads\\n2\\t\\n3\\troads\\n")
    >>> read_theme_file(folder / "names.tsv").names
    {1: 'Roads', 3: 'roads'}
    >>> _ = (folder / "bad.tsv").write_text(head + "one\\tRoads\\n")
    >>> read_theme_file(folder / "bad.tsv")
    Traceback (most recent call last):
    ...
    helpers.analysis.themes.theme_file.ThemeFileError: --theme-names / BOOK_THEME_NAMES: bad.tsv, line 7: the theme must be a whole number of at least 1, got 'one'
    """
    path = Path(path)
    where = f"{THEME_FILE_OPTION}: {path.name}"
    try:
        data = path.read_bytes()
    except OSError as error:
        raise ThemeFileError(f"{where}: cannot be read ({error.strerror or error})") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ThemeFileError(f"{where}: not UTF-8 text (byte {error.start + 1})") from None
    meta: dict[str, tuple[str, int]] = {}
    names: dict[int, str] = {}
    seen: dict[int, int] = {}
    header = False
    for number, line in enumerate(text.splitlines(), start=1):
        at = f"{where}, line {number}"
        if not line.strip():
            continue
        if line.lstrip().startswith("#"):
            match = _META.fullmatch(line.strip())
            if match and match.group(1).lower() in FINGERPRINT_KEYS:
                key = match.group(1).lower()
                if key in meta:
                    raise ThemeFileError(f"{at}: '# {key}:' given twice (first on line {meta[key][1]})")
                meta[key] = (match.group(2), number)
            continue
        cells = line.split("\t")
        if not header:
            if [c.strip().casefold() for c in cells[:2]] != ["theme", "name"]:
                raise ThemeFileError(f"{at}: the first row must be the header 'theme<TAB>name', got {line[:40]!r}")
            header = True
            continue
        theme_text = cells[0].strip()
        if not theme_text.isdigit() or int(theme_text) < 1:
            raise ThemeFileError(f"{at}: the theme must be a whole number of at least 1, got {theme_text[:20]!r}")
        theme = int(theme_text)
        if theme in seen:
            raise ThemeFileError(f"{at}: theme {theme} given twice (first on line {seen[theme]})")
        seen[theme] = number
        name = " ".join(cells[1].split()) if len(cells) > 1 else ""
        if any(unicodedata.category(c) in ("Cc", "Cf") for c in name):
            raise ThemeFileError(f"{at}: the name of theme {theme} holds a control character")
        if "$" in name:  # two of them make the figures' text TeX math, which may not parse
            raise ThemeFileError(f"{at}: the name of theme {theme} holds a '$' (figures read it as math); "
                                 "write the currency as a word")
        if len(name) > MAX_NAME_CHARS:
            raise ThemeFileError(f"{at}: the name of theme {theme} is longer than {MAX_NAME_CHARS} characters")
        if name:
            names[theme] = name
    if not header:
        raise ThemeFileError(f"{where}, line 1: no header row 'theme<TAB>name'")
    missing = [key for key in FINGERPRINT_KEYS if key not in meta]
    if missing:
        raise ThemeFileError(f"{where}, line 1: no '# {missing[0]}:' line (a theme file records the corpus and "
                             "settings it was written for: start from the themes page's starter file)")
    values: dict[str, int] = {}
    for key in ("themes", "seed"):
        value, number = meta[key]
        if not value.isdigit() or (key == "themes" and int(value) < 1):
            raise ThemeFileError(f"{where}, line {number}: '# {key}:' must be a whole number, got {value[:20]!r}")
        values[key] = int(value)
    if meta["grain"][0] != GRAIN:
        raise ThemeFileError(f"{where}, line {meta['grain'][1]}: '# grain:' must be {GRAIN} (the broad themes follow "
                             f"from the themes), got {meta['grain'][0][:20]!r}")
    over = [t for t in seen if t > values["themes"]]
    if over:
        raise ThemeFileError(f"{where}, line {seen[over[0]]}: theme {over[0]} is above the file's "
                             f"{values['themes']} themes")
    fingerprint = ThemeFingerprint(corpus=meta["corpus"][0], themes=values["themes"], seed=values["seed"],
                                   grain=GRAIN, model=meta["model"][0])
    return ThemeFile(path=str(path), sha256=hashlib.sha256(data).hexdigest(), fingerprint=fingerprint, names=names)


def model_fingerprint(themes: pd.DataFrame) -> str:
    """12 hex digits of SHA-256 over each theme's number and top terms (``themes``: a model's themes table as the
    rule made it), so a file written for a model whose themes differ is not applied to this one.

    Parameters
    ----------
    themes : DataFrame
        ``theme, top_terms``.

    Returns
    -------
    str
        12 hex digits.

    Examples
    --------
    >>> model_fingerprint(pd.DataFrame({"theme": [1, 2], "top_terms": ["crash, injury", "driver, speed"]}))
    'cb676cf775ad'
    """
    text = "\n".join(f"{int(t)}\t{terms}" for t, terms in zip(themes["theme"], themes["top_terms"]))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def fingerprint_of(model: "ThemeModel", corpus_sha256: str, seed: int) -> ThemeFingerprint:
    """The fingerprint a theme file for ``model`` records.

    Parameters
    ----------
    model : ThemeModel
        A fitted model, as the rule named it.
    corpus_sha256 : str
        The SHA-256 of the corpus the model was fitted on.
    seed : int
        The first seed of the run that fitted it.

    Returns
    -------
    ThemeFingerprint
        What a theme file for these themes records.

    Examples
    --------
    >>> from helpers.analysis.themes import ThemeOptions, fit_themes
    >>> texts = pd.Series(["crash injury severity", "crash injury road", "driver speed fatigue", "driver speed phone"],
    ...                   index=list("abcd"))
    >>> fingerprint = fingerprint_of(fit_themes(texts, ThemeOptions(k=2)), "abc", 0)
    >>> fingerprint.themes, fingerprint.grain, len(fingerprint.model)
    (2, 'themes', 12)
    """
    return ThemeFingerprint(corpus=corpus_sha256, themes=int(len(model.themes)), seed=int(seed), grain=GRAIN,
                            model=model_fingerprint(model.themes))


def mismatch(file: ThemeFile, fingerprint: ThemeFingerprint) -> str:
    """Why ``file`` does not name the themes of ``fingerprint`` (one line), ``""`` when it does.

    Parameters
    ----------
    file : ThemeFile
        A theme file read.
    fingerprint : ThemeFingerprint
        The run's themes.

    Returns
    -------
    str
        A one-line warning, or ``""``.

    Examples
    --------
    >>> mine = ThemeFingerprint("abc", 8, 0, "themes", "0123")
    >>> from dataclasses import replace
    >>> file = ThemeFile("names.tsv", "", replace(mine, themes=6), {})
    >>> print(mismatch(file, mine))
    --theme-names / BOOK_THEME_NAMES: names.tsv was written for 6 themes, not these 8; ignored (the rule's labels are shown)
    >>> mismatch(replace(file, fingerprint=mine), mine)
    ''
    """
    written, now = file.fingerprint, fingerprint
    if written.corpus != now.corpus:
        why = f"another corpus (SHA-256 {written.corpus[:12]}, not {now.corpus[:12]})"
    elif written.themes != now.themes:
        why = f"{written.themes} themes, not these {now.themes}"
    elif written.seed != now.seed:
        why = f"seed {written.seed}, not {now.seed}"
    elif written.model != now.model:
        why = f"other themes (model {written.model[:12]}, not {now.model})"
    else:
        return ""
    return f"{THEME_FILE_OPTION}: {Path(file.path).name} was written for {why}; ignored (the rule's labels are shown)"

