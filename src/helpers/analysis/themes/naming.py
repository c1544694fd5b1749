"""Themes the researcher names: a theme file that renames themes and merges two or more into one.

The file is tab-separated text a researcher edits by hand (the themes page offers a starter file,
:func:`starter_text`)::

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
for. A row with an empty name keeps the rule's label; a theme left out keeps it too; themes sharing a name
(case and spacing aside) become one theme, named as the lowest-numbered of them spells it. Columns after the
second are ignored.

The merged model (:func:`apply_theme_names`) numbers its themes 1, 2, ... in the order of each one's lowest
theme number in the model (:data:`NUMBERING_RULE`); ``model_themes`` keeps the model's numbers.
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from helpers.analysis.settings import SettingsError

if TYPE_CHECKING:
    from helpers.analysis.themes.model import ThemeModel

__all__ = ["THEME_FILE_OPTION", "FINGERPRINT_KEYS", "NUMBERING_RULE", "MAX_NAME_CHARS", "ThemeFileError",
           "ThemeFingerprint", "ThemeFile", "ThemeNaming", "read_theme_file", "model_fingerprint",
           "fingerprint_of", "mismatch", "merge_groups", "apply_theme_names", "starter_text", "name_themes_by_file"]

#: How a theme file is given, named in its errors and warnings.
THEME_FILE_OPTION = "--theme-names / BOOK_THEME_NAMES"
#: The header lines that record what a theme file was written for, in the order a starter file writes them.
FINGERPRINT_KEYS = ("corpus", "themes", "seed", "grain", "model")
#: How merged themes are numbered.
NUMBERING_RULE = ("numbered 1, 2, ... in the order of the lowest model theme number each holds, so a theme "
                  "before the first merge keeps its number")
#: The longest theme name read (characters).
MAX_NAME_CHARS = 120
#: The only grain a theme file names (the broad themes follow from the themes).
GRAIN = "themes"

_META = re.compile(r"#\s*([A-Za-z]+)\s*:\s*(.*?)\s*$")


class ThemeFileError(SettingsError):
    """A malformed theme file: one line naming the file and the line."""


@dataclass(frozen=True)
class ThemeFingerprint:
    """What a set of themes is: the corpus SHA-256, the number of themes, the first seed, the grain and the
    model's top terms hashed (:func:`model_fingerprint`)."""

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
    """

    path: str
    sha256: str
    fingerprint: ThemeFingerprint
    names: dict[int, str]


@dataclass(frozen=True)
class ThemeNaming:
    """Where a run's theme names come from (:attr:`helpers.analysis.pipeline.ThemesResult.naming`).

    Attributes
    ----------
    fingerprint : ThemeFingerprint
        The model's, as a theme file records it.
    rule_themes : DataFrame
        The model's themes as the rule named them: ``theme, label, top_terms, n_papers``.
    file : str or None
        The theme file given (``None``: none).
    file_sha256 : str or None
    applied : bool
        Whether the file's names are shown (``False`` with no file, or a file written for other themes).
    warning : str
        One line: why a given file was ignored (``""`` otherwise).
    names : dict of int to str
        The names applied, by the model's theme number (empty unless ``applied``).
    """

    fingerprint: ThemeFingerprint
    rule_themes: pd.DataFrame
    file: str | None = None
    file_sha256: str | None = None
    applied: bool = False
    warning: str = ""
    names: dict[int, str] = dataclasses.field(default_factory=dict)


def _key(name: str) -> str:
    """A name as merges compare it: case and runs of spaces aside.

    Examples
    --------
    >>> _key("  Driver   Behaviour ") == _key("driver behaviour")
    True
    """
    return " ".join(name.split()).casefold()


def read_theme_file(path: str | Path) -> ThemeFile:
    """Read a theme file (the format of this module's docstring).

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
    helpers.analysis.themes.naming.ThemeFileError: --theme-names / BOOK_THEME_NAMES: bad.tsv, line 7: the theme must be a whole number of at least 1, got 'one'
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

    Examples
    --------
    >>> model_fingerprint(pd.DataFrame({"theme": [1, 2], "top_terms": ["crash, injury", "driver, speed"]}))
    'cb676cf775ad'
    """
    text = "\n".join(f"{int(t)}\t{terms}" for t, terms in zip(themes["theme"], themes["top_terms"]))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def fingerprint_of(model: "ThemeModel", corpus_sha256: str, seed: int) -> ThemeFingerprint:
    """The fingerprint a theme file for ``model`` records."""
    return ThemeFingerprint(corpus=corpus_sha256, themes=int(len(model.themes)), seed=int(seed), grain=GRAIN,
                            model=model_fingerprint(model.themes))


def mismatch(file: ThemeFile, fingerprint: ThemeFingerprint) -> str:
    """Why ``file`` does not name the themes of ``fingerprint`` (one line), ``""`` when it does.

    Examples
    --------
    >>> mine = ThemeFingerprint("abc", 8, 0, "themes", "0123")
    >>> file = ThemeFile("names.tsv", "", dataclasses.replace(mine, themes=6), {})
    >>> print(mismatch(file, mine))
    --theme-names / BOOK_THEME_NAMES: names.tsv was written for 6 themes, not these 8; ignored (the rule's labels are shown)
    >>> mismatch(dataclasses.replace(file, fingerprint=mine), mine)
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


def merge_groups(n_themes: int, names: dict[int, str]) -> list[list[int]]:
    """The model's themes (1 to ``n_themes``) in groups, one group per theme shown: themes given the same name
    (case and spacing aside) together, in :data:`NUMBERING_RULE`'s order.

    Examples
    --------
    >>> merge_groups(5, {2: "Risk", 5: "risk", 1: "Roads"})
    [[1], [2, 5], [3], [4]]
    """
    groups: dict[object, list[int]] = {}
    for theme in range(1, n_themes + 1):
        key: object = _key(names[theme]) if theme in names else ("rule", theme)
        groups.setdefault(key, []).append(theme)
    return sorted(groups.values(), key=lambda members: members[0])


def apply_theme_names(model: "ThemeModel", names: dict[int, str]) -> "ThemeModel":
    """``model`` with its themes named by ``names`` (the model's theme number to a name) and the themes sharing
    a name merged into one.

    A merged theme's papers are those whose summed weight on its themes is their strongest (so at least its
    themes' papers: a paper split between them may join it); its term weights and label counts are its themes'
    summed, its top terms the strongest of those. Its coherence is not measured (``NaN``). The themes table gains
    ``name_source`` (``file`` or ``rule``) and ``model_themes`` (the model's theme numbers, ``"2, 5"``).

    Examples
    --------
    >>> from helpers.analysis.themes import ThemeOptions, fit_themes
    >>> texts = pd.Series(["crash injury severity", "crash injury road", "driver speed fatigue",
    ...                    "driver speed phone", "pedestrian crossing signal", "pedestrian signal timing"],
    ...                   index=list("abcdef"))
    >>> model = fit_themes(texts, ThemeOptions(k=3))
    >>> model.themes["n_papers"].tolist()
    [2, 2, 2]
    >>> named = apply_theme_names(model, {1: "Collisions", 3: "collisions"})
    >>> named.themes[["theme", "n_papers", "name_source", "model_themes"]].values.tolist()
    [[1, 4, 'file', '1, 3'], [2, 2, 'rule', '2']]
    >>> named.themes["label"].iloc[0], named.themes["label"].iloc[1] == model.themes["label"].iloc[1]
    ('Collisions', True)
    >>> [c for c in named.weights.columns]
    ['paper_id', 'theme_1', 'theme_2']
    """
    k = len(model.themes)
    groups = merge_groups(k, names)
    new_of = {old: new for new, members in enumerate(groups, start=1) for old in members}
    themes = model.themes.set_index(model.themes["theme"].astype(int))
    merged = any(len(members) > 1 for members in groups)

    old_weights = model.weights.drop(columns="paper_id").to_numpy()
    new_weights = np.column_stack([old_weights[:, [m - 1 for m in members]].sum(axis=1) for members in groups])
    weights = pd.DataFrame(np.round(new_weights, 6), columns=[f"theme_{t}" for t in range(1, len(groups) + 1)])
    weights.insert(0, "paper_id", model.weights["paper_id"].to_numpy())

    paper_themes = model.paper_themes.copy()
    old_theme = paper_themes["theme"]
    mapped = old_theme.map(lambda t: new_of[int(t)] if pd.notna(t) else pd.NA).astype("Int64")
    if merged:
        by_paper = pd.DataFrame(new_weights, index=model.weights["paper_id"].to_numpy())
        rows = by_paper.reindex(paper_themes["paper_id"].to_numpy()).to_numpy()
        strongest = rows.argmax(axis=1) + 1
        changed = old_theme.notna().to_numpy() & (strongest != mapped.fillna(0).to_numpy())
        # A paper's theme changes only where a merged theme's summed weight now leads; its share is the sum's.
        mapped = pd.array(np.where(changed, strongest, mapped.fillna(0).to_numpy()), dtype="Int64")
        mapped[old_theme.isna().to_numpy()] = pd.NA
        in_merged = np.array([pd.notna(t) and len(groups[int(t) - 1]) > 1 for t in mapped])
        shares = rows.max(axis=1)
        paper_themes["theme_weight"] = np.where(in_merged, np.round(shares, 6), paper_themes["theme_weight"])
    paper_themes["theme"] = mapped

    top_rows, labels, top_strings, coherence, shown, sources = [], [], [], [], [], []
    for new, members in enumerate(groups, start=1):
        rows_of = model.top_terms[model.top_terms["theme"].isin(members)]
        n_rows = int(rows_of.groupby("theme").size().max()) if len(rows_of) else 0
        combined = (rows_of.groupby("term", sort=False)["weight"].sum().reset_index()
                    .sort_values(["weight", "term"], ascending=[False, True], kind="stable").head(n_rows))
        for rank, (term, weight) in enumerate(zip(combined["term"], combined["weight"]), start=1):
            top_rows.append(dict(theme=new, rank=rank, term=str(term), weight=round(float(weight), 6)))
        given = names.get(members[0])
        labels.append(given if given is not None else str(themes.loc[members[0], "label"]))
        sources.append("file" if given is not None else "rule")
        n_terms = len(str(themes.loc[members[0], "top_terms"]).split(", "))
        top_strings.append(", ".join(str(t) for t in combined["term"].head(n_terms)))
        single = len(members) == 1
        coherence.append(float(themes.loc[members[0], "coherence"]) if single else float("nan"))
        shown.append(float(themes.loc[members[0], "shown_coherence"]) if single else float("nan"))
    counts = pd.Series(mapped).value_counts()
    table = pd.DataFrame({
        "theme": np.arange(1, len(groups) + 1),
        "label": labels,
        "top_terms": top_strings,
        "n_papers": [int(counts.get(t, 0)) for t in range(1, len(groups) + 1)],
        "coherence": coherence,
        "shown_coherence": shown,
        "name_source": sources,
        "model_themes": [", ".join(map(str, members)) for members in groups],
    })
    label_counts = model.label_counts
    if label_counts is not None:
        label_counts = label_counts.groupby(label_counts.index.map(lambda t: new_of[int(t)])).sum()
    return dataclasses.replace(model, themes=table, paper_themes=paper_themes, weights=weights,
                               top_terms=pd.DataFrame(top_rows, columns=["theme", "rank", "term", "weight"]),
                               label_counts=label_counts)


def starter_text(naming: ThemeNaming) -> str:
    """A theme file for the run's themes: the fingerprint, a few lines on how to edit it, and one row per theme with
    its name (the one applied, else the rule's label) and, in a third column that is not read, the rule's label, its
    papers and top terms.

    Examples
    --------
    >>> naming = ThemeNaming(ThemeFingerprint("abc", 2, 0, "themes", "0123"),
    ...                      pd.DataFrame({"theme": [1, 2], "label": ["crash · injury", "driver · speed"],
    ...                                    "top_terms": ["crash, injury", "driver, speed"], "n_papers": [3, 1]}))
    >>> print(starter_text(naming).splitlines()[-2].replace("\\t", " | "))
    1 | crash · injury | crash · injury (3 papers; crash, injury)
    """
    fp = naming.fingerprint
    lines = [
        "# Theme names: edit the second column, save, and give this file to the book (BOOK_THEME_NAMES=FILE)",
        "# or to the command line (python -m helpers analyse ... --theme-names FILE).",
        "# An empty name keeps the rule's label; themes given the same name become one theme.",
        "# The lines below record the corpus and settings these themes belong to: on another corpus or",
        "# with other settings the file is ignored, with a warning. The third column is not read.",
        f"# corpus: {fp.corpus}", f"# themes: {fp.themes}", f"# seed: {fp.seed}", f"# grain: {fp.grain}",
        f"# model: {fp.model}",
        "theme\tname\trule's label (papers; top terms)",
    ]
    for row in naming.rule_themes.itertuples():
        papers = f"{int(row.n_papers)} paper{'' if int(row.n_papers) == 1 else 's'}"
        terms = ", ".join(str(row.top_terms).split(", ")[:5])
        name = naming.names.get(int(row.theme), str(row.label))
        lines.append(f"{int(row.theme)}\t{_cell(name)}\t{_cell(str(row.label))} ({papers}; {_cell(terms)})")
    return "\n".join(lines) + "\n"


def _cell(text: str) -> str:
    """Text kept on one cell of one line (tabs and line breaks as spaces)."""
    return " ".join(text.split())


def name_themes_by_file(model: "ThemeModel", file: ThemeFile | None, corpus_sha256: str, seed: int
                        ) -> "tuple[ThemeModel, ThemeNaming]":
    """``model`` named by ``file`` when it was written for these themes (:func:`mismatch`), else as it is, and
    where its names come from."""
    fingerprint = fingerprint_of(model, corpus_sha256, seed)
    rule = model.themes[["theme", "label", "top_terms", "n_papers"]].copy()
    if file is None:
        return model, ThemeNaming(fingerprint, rule)
    warning = mismatch(file, fingerprint)
    naming = ThemeNaming(fingerprint, rule, file=file.path, file_sha256=file.sha256, applied=not warning,
                         warning=warning, names={} if warning else dict(file.names))
    return (model if warning else apply_theme_names(model, file.names)), naming
