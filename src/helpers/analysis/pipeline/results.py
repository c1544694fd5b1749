"""What a run gives: the typed results of the stages and :class:`Analysis`, which holds them all and
lists the output tables.

One frozen object per run, so that the CLI's output folder, the book's pages and its cache read the same
results, computed once.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, Mapping

import pandas as pd

from helpers import __version__
from helpers.analysis.corpus import Corpus
from helpers.analysis.settings import AnalysisSettings

if TYPE_CHECKING:  # heavy modules, imported when a stage runs
    from helpers.analysis.change import ChangeResult
    from helpers.analysis.cooccurrence import CooccurrenceResult
    from helpers.analysis.pipeline.paper_texts import PaperTexts
    from helpers.analysis.keywords import KeywordMap
    from helpers.analysis.themes.hierarchy import ThemeHierarchy
    from helpers.analysis.themes import ThemeModel
    from helpers.analysis.themes.naming import ThemeNaming

__all__ = ["ThemesResult", "LinkTables", "Analysis"]


@dataclass(frozen=True)
class ThemesResult:
    """The theme model, or why there is none.

    Attributes
    ----------
    model : ThemeModel or None
        ``None`` when the corpus is too small for any theme model.
    message : str
        Why there is no model (``""`` when there is one).
    naming : ThemeNaming or None
        Where the themes' names come from: the rule, or a theme file (applied, or ignored with a warning:
        :mod:`helpers.analysis.themes.naming`); ``None`` without a model.

    Examples
    --------
    >>> result = ThemesResult(None, "themes need at least 4 abstracts; this corpus has 3")
    >>> result.table.columns.tolist()[:3], result.labels
    (['theme', 'label', 'top_terms'], {})
    """

    model: "ThemeModel | None"
    message: str = ""
    naming: "ThemeNaming | None" = None

    @property
    def table(self) -> pd.DataFrame:
        """``theme, label, top_terms, n_papers, coherence, shown_coherence``; empty (with those columns) without
        a model."""
        if self.model is None:
            return pd.DataFrame(columns=["theme", "label", "top_terms", "n_papers", "coherence", "shown_coherence"])
        return self.model.themes

    @property
    def labels(self) -> dict[int, str]:
        """Theme number to label (empty without a model)."""
        return {int(t): str(label) for t, label in zip(self.table["theme"], self.table["label"])}


@dataclass(frozen=True)
class LinkTables:
    """The links analysis (:func:`helpers.analysis.links.states.analyse_links`).

    Attributes
    ----------
    links : DataFrame
        One row per (paper, URL) with its host and kind.
    states : DataFrame
        One row per paper: ``paper_id, link_state, promised_too, n_urls`` (and more columns where
        :func:`helpers.analysis.links.states.analyse_links` documents them).
    statements : DataFrame
        One row per sentence that says something about code or data.

    Examples
    --------
    >>> import pandas as pd
    >>> tables = LinkTables(pd.DataFrame(), pd.DataFrame({"paper_id": ["a"], "link_state": ["none"]}), pd.DataFrame())
    >>> tables.states["link_state"].tolist()
    ['none']
    """

    links: pd.DataFrame
    states: pd.DataFrame
    statements: pd.DataFrame


@dataclass(frozen=True)
class Analysis:
    """Everything the book and the CLI show about one corpus.

    Attributes
    ----------
    corpus : Corpus
        The parsed corpus (papers, blocks, files); its papers table holds each abstract's ``opening``
        (:func:`helpers.analysis.corpus.titles.short_text`) instead of its text.
    settings : AnalysisSettings
    themes : ThemesResult
    cooccurrence : CooccurrenceResult
    links : LinkTables
    papers : DataFrame
        One row per paper: the corpus columns (with ``title, authors, year, venue, doi, url,
        software`` when any input file carries them, ``keywords``, ``subjects`` and ``published_text`` when some paper
        has them, and ``opening``; no ``text``) plus ``theme`` (nullable),
        ``theme_weight``, the two grains' ``second_theme, second_theme_weight, mixed, broad_theme,
        broad_theme_weight`` (:func:`helpers.analysis.themes.hierarchy.paper_grains`), ``link_state``,
        ``promised_too``, ``n_urls``, ``venue_code_field``,
        ``venue_code`` and ``venue_code_url`` where the input has a code field
        (:func:`helpers.analysis.links.states.venue_code_links`), and ``group`` (text; ``"all"`` without grouping).
    timings : Mapping[str, float]
        Seconds per stage, ``parse`` first.
    cache_key : str
        :func:`build_key` of the book build that computed it (``""`` outside the book).
    group_order : tuple of str
        The groups of ``papers["group"]`` in order (years ascending, otherwise sorted names;
        :func:`helpers.analysis.corpus.groups.paper_groups`); one group: nothing is compared.
    group_by : str or None
        What the groups are (``year``, ``venue``, ``file`` or a column); ``None`` for one group.
    group_min_papers : int
        The fewest papers of a period when sparse years were merged (the default grouping by year,
        :func:`helpers.analysis.corpus.groups.merge_years`); 0 when each group is as given.
    change : ChangeResult or None
        What changed between the groups of papers (:func:`analyse_group_change`); ``None`` with one group.
    texts : PaperTexts or None
        The papers' abstract texts in parts, read on demand (:mod:`helpers.analysis.pipeline.paper_texts`).
    hierarchy : ThemeHierarchy or None
        The broad themes and their themes (:func:`helpers.analysis.pipeline.stages.analyse_hierarchy`); ``None``
        without a theme model.
    keywords : KeywordMap or None
        The map of the papers' own keywords (:func:`helpers.analysis.pipeline.stages.analyse_keyword_map`; its
        ``message`` says when no paper has keywords).

    Examples
    --------
    >>> from helpers.analysis.corpus import write_corpus
    >>> from helpers.analysis.pipeline import run_pipeline
    >>> text = ("Cover crops kept more water in the soil of dry fields.\\n\\n"
    ...         "Wheat yield rose where cover crops kept soil water.\\n\\nHens given more light laid heavier eggs.")
    >>> analysis = run_pipeline([write_corpus({"a.txt": text})], n_jobs=1)
    >>> len(analysis.papers), analysis.themes.message, list(analysis.timings)[0]
    (3, 'themes need at least 4 abstracts; this corpus has 3', 'parse')
    >>> sorted(analysis.tables())[:4]
    ['blocks', 'files', 'left_out_terms', 'link_statements']
    """

    corpus: Corpus
    settings: AnalysisSettings
    themes: ThemesResult
    cooccurrence: "CooccurrenceResult"
    links: LinkTables
    papers: pd.DataFrame
    timings: Mapping[str, float]
    cache_key: str = ""
    group_order: tuple[str, ...] = ("all",)
    group_by: str | None = None
    group_min_papers: int = 0
    change: "ChangeResult | None" = None
    texts: "PaperTexts | None" = None
    hierarchy: "ThemeHierarchy | None" = None
    keywords: "KeywordMap | None" = None

    @property
    def summary(self) -> dict[str, Any]:
        """The corpus counts of ``summary.json`` plus the settings and whether themes were fitted (with a model:
        the number of themes, whether it is the largest candidate searched, the fewest papers a theme may hold and
        whether every theme does; with two groups or more, what they are and their papers)."""
        groups: dict[str, object] = {}
        if len(self.group_order) > 1:
            counts = self.papers["group"].value_counts()
            groups = {"group_by": self.group_by,
                      "groups": {name: int(counts.get(name, 0)) for name in self.group_order}}
            if self.group_min_papers:
                groups["min_papers_per_period"] = self.group_min_papers
        model = self.themes.model
        # Whether the number of themes sits at the top of the range searched (then it was not chosen among more).
        fitted: dict[str, Any] = {} if model is None else {
            "themes_k": model.settings.chosen_k, "themes_k_at_top": model.settings.k_at_top,
            "themes_min_theme_papers": model.settings.min_theme_papers,
            "themes_size_floor_met": model.settings.size_floor_met}
        naming = self.themes.naming
        if naming is not None and naming.file is not None:  # the theme file given: applied, or why not
            fitted["theme_names"] = {"file": Path(naming.file).name, "sha256": naming.file_sha256,
                                     "applied": naming.applied, "warning": naming.warning}
        return dict(self.corpus.summary(), settings=self.settings.as_dict(), themes_message=self.themes.message, **fitted,
                    helpers_version=__version__, **groups)

    @property
    def has_keywords(self) -> bool:
        """Whether some paper has keywords of its own (then the keyword map's tables and files are written)."""
        from helpers.analysis.keywords import NO_KEYWORDS  # lazy: at the top it would load scipy and networkx

        return self.keywords is not None and self.keywords.message != NO_KEYWORDS

    @property
    def corpus_label(self) -> str:
        """The short corpus identity printed in figure titles."""
        return f"corpus SHA-256 {self.corpus.sha256[:12]}"

    def paper_parts(self) -> Iterator[pd.DataFrame]:
        """The rows of ``papers.csv`` in the parts of :attr:`texts` (one part's texts in memory at a time):
        :attr:`papers` with each abstract's ``text`` (fourth column) instead of its ``opening``, and without
        the ``group`` column when there is one group."""
        papers = self.papers.drop(columns="opening")
        if len(self.group_order) <= 1:
            papers = papers.drop(columns="group")
        assert self.texts is not None, "an analysis run keeps its papers' texts"
        for index, (start, stop) in enumerate(self.texts.bounds):
            part = papers.iloc[start:stop].copy()
            part.insert(3, "text", pd.Series(self.texts.part(index), index=part.index))
            yield part

    def tables(self, with_papers: bool = True) -> dict[str, pd.DataFrame]:
        """The CSV outputs, by file stem; ``papers`` (every abstract's text: :meth:`paper_parts` joined) only
        ``with_papers``."""
        papers = {"papers": pd.concat(list(self.paper_parts()), ignore_index=True)} if with_papers else {}
        return {
            **papers, "blocks": self.corpus.blocks, "files": self.corpus.files,
            "themes": self.themes.table,
            **({"theme_hierarchy": self.hierarchy.table} if self.hierarchy is not None else {}),
            "terms": self.cooccurrence.terms, "term_pairs": self.cooccurrence.pairs,
            # The keyword map's keywords, pairs and written forms, when some paper has keywords.
            **(self.keywords.tables if self.has_keywords and self.keywords is not None else {}),
            # What the built-in rules leave out, to start a stop-term file or thesaurus from; what the files changed.
            "left_out_terms": self.cooccurrence.left_out,
            **({"vocabulary_changes": self.cooccurrence.vocabulary_changes}
               if self.settings.vocabulary is not None else {}),
            "links": self.links.links, "link_statements": self.links.statements,
            # Records merged into another record of the same paper, when there are any (database exports).
            **({"merges": self.corpus.merges} if len(self.corpus.merges) else {}),
            **(self.change.tables() if self.change is not None else {}),
        }
