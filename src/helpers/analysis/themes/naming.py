"""Themes the researcher names: the names of a theme file applied, themes sharing a name merged into one.

The file itself (its format, reading it, what it was written for) is :mod:`.theme_file`. A row with an empty
name keeps the rule's label; a theme left out keeps it too; themes sharing a name (case and spacing aside) become
one theme, named as the lowest-numbered of them spells it. A file written for other themes is ignored with a
one-line warning (:func:`name_themes_by_file`), and :func:`starter_text` writes a file for the run's themes.

The merged model (:func:`apply_theme_names`) numbers its themes 1, 2, ... in the order of each one's lowest
theme number in the model (:data:`NUMBERING_RULE`); ``model_themes`` keeps the model's numbers.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from helpers.analysis.themes.theme_file import ThemeFile, ThemeFingerprint, fingerprint_of, mismatch

if TYPE_CHECKING:
    from helpers.analysis.themes.model import ThemeModel

__all__ = ["NUMBERING_RULE", "ThemeNaming", "merge_groups", "apply_theme_names", "starter_text", "name_themes_by_file"]

#: How merged themes are numbered.
NUMBERING_RULE = ("numbered 1, 2, ... in the order of the lowest model theme number each holds, so a theme "
                  "before the first merge keeps its number")


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

    Examples
    --------
    >>> rule = pd.DataFrame({"theme": [1], "label": ["crash · injury"], "top_terms": ["crash, injury"], "n_papers": [2]})
    >>> ThemeNaming(ThemeFingerprint("abc", 1, 0, "themes", "0123"), rule).applied
    False
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



def merge_groups(n_themes: int, names: dict[int, str]) -> list[list[int]]:
    """The model's themes (1 to ``n_themes``) in groups, one group per theme shown: themes given the same name
    (case and spacing aside) together, in :data:`NUMBERING_RULE`'s order.

    Parameters
    ----------
    n_themes : int
        The model's number of themes.
    names : dict of int to str
        The file's names, by the model's theme number.

    Returns
    -------
    list of list of int
        The model's theme numbers of each theme shown, in its new number's order.

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

    Parameters
    ----------
    model : ThemeModel
        The model as the rule named it.
    names : dict of int to str
        The model's theme number to its name (themes left out keep the rule's label).

    Returns
    -------
    ThemeModel
        The model renamed, its merged themes renumbered by :data:`NUMBERING_RULE`.

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

    Parameters
    ----------
    naming : ThemeNaming
        Where the run's names come from.

    Returns
    -------
    str
        The file's text.

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
    where its names come from.

    Parameters
    ----------
    model : ThemeModel
        The model as the rule named it.
    file : ThemeFile or None
        The researcher's theme file, if one was given.
    corpus_sha256 : str
        The corpus's SHA-256.
    seed : int
        The run's first seed.

    Returns
    -------
    model : ThemeModel
        ``model``, named by the file when it applies.
    naming : ThemeNaming
        Where the names come from, and why a given file was ignored.

    Examples
    --------
    >>> from helpers.analysis.themes import ThemeOptions, fit_themes
    >>> texts = pd.Series(["crash injury severity", "crash injury road", "driver speed fatigue", "driver speed phone"],
    ...                   index=list("abcd"))
    >>> model, naming = name_themes_by_file(fit_themes(texts, ThemeOptions(k=2)), None, "abc", 0)
    >>> naming.applied, naming.fingerprint.themes
    (False, 2)
    """
    fingerprint = fingerprint_of(model, corpus_sha256, seed)
    rule = model.themes[["theme", "label", "top_terms", "n_papers"]].copy()
    if file is None:
        return model, ThemeNaming(fingerprint, rule)
    warning = mismatch(file, fingerprint)
    naming = ThemeNaming(fingerprint, rule, file=file.path, file_sha256=file.sha256, applied=not warning,
                         warning=warning, names={} if warning else dict(file.names))
    return (model if warning else apply_theme_names(model, file.names)), naming
