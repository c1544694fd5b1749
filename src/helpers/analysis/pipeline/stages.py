"""The stages of a run, each a function of the previous stages' results, and the two engines that run them:
:class:`LocalStages` (this process and its workers) and :class:`DaskStages` (a Dask cluster)."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, Callable, Collection, Protocol, Sequence

import pandas as pd

from helpers.analysis.corpus import Corpus, read_corpus
from helpers.analysis._parallel import ForkedCall, LocalPartitions, chunk_count, map_chunks, partition_bounds
from helpers.analysis.pipeline.paper_texts import PaperTexts
from helpers.analysis.pipeline.results import LinkTables, ThemesResult
from helpers.analysis.settings import AnalysisSettings, SettingsError

if TYPE_CHECKING:  # heavy modules, imported when a stage runs
    from pathlib import Path

    from helpers.analysis.change import ChangeResult
    from helpers.analysis.cooccurrence import CooccurrenceResult
    from helpers.analysis.pipeline.dask_engine import ClusterStages
    from helpers.analysis._parallel import PartitionRunner
    from helpers.analysis.pipeline.paper_texts import PaperTexts
    from helpers.analysis.corpus.groups import Groups
    from helpers.analysis.keywords import KeywordMap
    from helpers.analysis.text.tokens import TokenPartitions, TokenizedCorpus
    from helpers.analysis.themes.hierarchy import ThemeHierarchy
    from helpers.analysis.themes import PendingThemes
    from helpers.analysis.themes.written_forms import WrittenTokens
    from helpers.analysis.themes.theme_file import ThemeFile

# The run's steps, called by helpers.analysis.pipeline.run: none is public (run_pipeline is, and each stage's
# package has its own public function: tokenize_corpus, analyse_links, analyse_change, ...).
__all__: list[str] = []


def analyse_text(corpus: Corpus, n_jobs: int | None = None) -> "TokenizedCorpus":
    from helpers.analysis.text.tokens import tokenize_corpus  # lazy: keeps this module's import light

    papers = corpus.papers
    return tokenize_corpus(papers["text"].tolist(), papers["paper_id"], clean=True, n_jobs=n_jobs)


def _openings(texts: Sequence[str]) -> list[str]:
    from helpers.analysis.corpus.titles import short_text  # lazy: keeps this module's import light

    return [short_text(text) for text in texts]


def detach_texts(corpus: Corpus, n_jobs: int | None = None) -> tuple[Corpus, "PaperTexts"]:
    """The corpus with each abstract's ``opening`` (last column) instead of its ``text``, and the texts apart,
    as the dask engine's parse gives them (:func:`helpers.analysis.corpus.without_texts`)."""
    papers = corpus.papers
    texts = papers["text"].tolist()
    openings = [opening for chunk in map_chunks(_openings, texts, n_jobs=n_jobs) for opening in chunk]
    light = papers.drop(columns="text").assign(opening=pd.Series(openings, index=papers.index))
    return dataclasses.replace(corpus, papers=light), PaperTexts.in_memory(papers["paper_id"].tolist(), texts)


def local_token_partitions(tokens: "TokenizedCorpus") -> "TokenPartitions":
    """The local engine's partitions of the word ids: consecutive papers, at most
    :data:`helpers.analysis._parallel.MAX_CHUNK_ITEMS` each (each made when a stage asks for it)."""
    from helpers.analysis.text.tokens import TokenPartitions  # lazy: keeps this module's import light

    return TokenPartitions(tokens, partition_bounds(len(tokens), chunk_count(len(tokens), 1, 1)))


class ThemeStage:
    """The theme stage started by :func:`start_theme_stage`: call it for its :class:`ThemesResult`.

    :meth:`wait` waits for the final fit's thread without taking its result, so that a pipeline
    whose later stage failed leaves no fit running.
    """

    def __init__(self, pending: "PendingThemes | None", message: str = "") -> None:
        self._pending, self._message = pending, message

    def __call__(self) -> ThemesResult:
        if self._pending is None:
            return ThemesResult(None, self._message)
        return ThemesResult(self._pending.result())

    def wait(self) -> None:
        """Wait until the final fit's thread (if any) has ended."""
        if self._pending is not None:
            self._pending.wait()

    def done(self) -> bool:
        """Whether calling the stage would not wait."""
        return self._pending is None or self._pending.done()


def start_theme_stage(runner: "PartitionRunner", token_parts: Sequence[Any], settings: AnalysisSettings,
                      n_jobs: int | None = None) -> ThemeStage:
    """Start the theme model on the word ids in partitions (``token_parts``, handles on ``runner``:
    :func:`helpers.analysis.themes.start_partitioned_themes`); call the returned stage for its result (a
    corpus too small for any theme model gives a result with a message, not an error).

    The final model fit runs in a background thread meanwhile (with ``n_jobs=1`` it runs before this
    returns); every abstract is weighted on ``runner`` when the result is asked for.

    Raises
    ------
    SettingsError
        When ``settings.themes`` is larger than the corpus allows.
    """
    # Lazy: at the top it would load scipy and networkx.
    from helpers.analysis.themes import KOutOfRange, ThemeOptions, ThemesError, start_partitioned_themes
    from helpers.analysis.text.vocabulary_files import edits_of

    # Call inside helpers.analysis.themes.model_fitting(), as run_pipeline does.
    try:
        pending = start_partitioned_themes(runner, token_parts,
                                           ThemeOptions(k=settings.themes, seed=settings.seed, n_jobs=n_jobs,
                                                        edits=edits_of(settings.vocabulary)))
    except KOutOfRange as error:
        raise SettingsError(str(error), setting="themes") from None
    except ThemesError as error:
        return ThemeStage(None, str(error))
    return ThemeStage(pending)


def analyse_terms(corpus: Corpus, tokens: "TokenizedCorpus", settings: AnalysisSettings
                  ) -> "CooccurrenceResult":
    """The term map, counted in partitions of at most :data:`helpers.analysis._parallel.MAX_CHUNK_ITEMS`
    papers as on the dask engine (:func:`helpers.analysis.cooccurrence.analyse_partitions`)."""
    # Lazy: at the top it would load scipy and networkx.
    from helpers.analysis.cooccurrence import TermMapOptions, analyse_partitions
    parts = local_token_partitions(tokens)
    texts = corpus.papers["text"]
    return analyse_partitions(LocalPartitions(), parts, [texts.iloc[start:stop].tolist() for start, stop in parts.bounds],
                              TermMapOptions.from_settings(settings))


def analyse_keyword_map(corpus: Corpus, settings: AnalysisSettings) -> "KeywordMap":
    """The map of the papers' own keywords (the ``keywords`` column; none without it):
    :func:`helpers.analysis.keywords.analyse_keywords`, with the term map's seed and the researcher's thesaurus
    and stop terms (``settings.vocabulary``)."""
    # Lazy: at the top it would load scipy and networkx.
    from helpers.analysis.keywords import TermEdits, analyse_keywords

    papers = corpus.papers
    cells = papers["keywords"].tolist() if "keywords" in papers.columns else [None] * len(papers)
    edits = settings.vocabulary
    return analyse_keywords(papers["paper_id"].astype(str).tolist(), cells, seed=settings.seed,
                            vocabulary=edits if isinstance(edits, TermEdits) else None)


def analyse_link_tables(corpus: Corpus, n_jobs: int | None = None) -> LinkTables:
    from helpers.analysis.links.states import analyse_links  # lazy: keeps this module's import light

    return LinkTables(*analyse_links(corpus.papers, n_jobs=n_jobs))


def analyse_hierarchy(themes: ThemesResult, cooccurrence: "CooccurrenceResult | None" = None,
                      same_thing: "Collection[frozenset[str]]" = ()) -> "ThemeHierarchy | None":
    """The broad themes of the theme model (:func:`helpers.analysis.themes.hierarchy.theme_hierarchy`, the
    themes' profiles over the term map's terms); ``None`` without a model."""
    from helpers.analysis.themes.hierarchy import theme_hierarchy  # lazy: at the top it would load scipy and networkx

    model = themes.model
    if model is None:
        return None
    paper_ids = list(cooccurrence.paper_ids) if cooccurrence is not None else []
    paper_terms = cooccurrence.paper_terms if cooccurrence is not None else None
    return theme_hierarchy(model.themes, model.top_terms, model.weights, paper_ids, paper_terms, same_thing)


#: The papers per theme (its strongest) whose texts give its labels' written forms and defined abbreviations.
LABEL_TEXTS = 200


def name_themes(themes: ThemesResult, cooccurrence: "CooccurrenceResult | None", texts: "PaperTexts",
                theme_file: "ThemeFile | None" = None, corpus_sha256: str = "", seed: int = 0,
                cut: "dict[str, WrittenTokens] | None" = None) -> "tuple[ThemesResult, ThemeHierarchy | None]":
    """The themes labelled at both grains in the abstracts' own words, and the broad themes
    (:func:`analyse_hierarchy`).

    A term and the abbreviation the abstracts define for it (the term map's acronyms, and chemical elements by
    their symbols: :func:`helpers.analysis.cooccurrence.acronyms.abbreviation_pairs`) are one concept in a label
    (:func:`helpers.analysis.themes.model.relabel`); then each label part is written as the theme's papers (at
    most :data:`LABEL_TEXTS`, its strongest; a broad theme's, those of its themes) most often write it
    (:func:`helpers.analysis.themes.written_forms.written_label`). ``texts`` are the papers' abstracts (:func:`detach_texts`).
    Then the researcher's ``theme_file`` renames and merges the themes when it was written for them (the corpus
    ``corpus_sha256``, this ``seed`` and model: :func:`helpers.analysis.themes.naming.name_themes_by_file`), before
    the broad themes are made of them. ``cut``: texts already cut into their tokens (:func:`cut_while`), by text.
    """
    # Lazy: at the top they would load scipy and networkx.
    from helpers.analysis.cooccurrence.acronyms import abbreviation_pairs, acronym_table
    from helpers.analysis.themes.labels import label_parts
    from helpers.analysis.themes.written_forms import written_forms_of_tokens, written_label, written_tokens
    from helpers.analysis.themes.model import relabel
    from helpers.analysis.themes.naming import name_themes_by_file

    model = themes.model
    if model is None:
        return themes, None
    assigned = model.paper_themes.dropna(subset=["theme"]).sort_values(["theme_weight", "paper_id"],
                                                                         ascending=[False, True], kind="stable")
    chosen = {int(theme): [str(p) for p in group["paper_id"].head(LABEL_TEXTS)]
              for theme, group in assigned.groupby("theme", sort=True)}
    wanted = [p for ids in chosen.values() for p in ids]
    text_of = dict(zip(wanted, texts.take(wanted)))
    sample = {theme: [text_of[p] for p in ids] for theme, ids in chosen.items()}
    acronyms = cooccurrence.acronyms if cooccurrence is not None else acronym_table(pd.DataFrame(
        {"row": pd.Series(dtype="int64"), "acronym": pd.Series(dtype=object), "long_form": pd.Series(dtype=object)}))
    same_thing = abbreviation_pairs(acronyms, (text for texts in sample.values() for text in texts))
    model = relabel(model, same_thing)
    unwritten = model

    # Each text cut into tokens once: a theme's label and its broad theme's read the same texts.
    cut = {} if cut is None else cut

    def tokens_of(text: str) -> "WrittenTokens":
        if text not in cut:
            cut[text] = written_tokens(text)
        return cut[text]

    def written(label: str, numbers: "Sequence[int]") -> str:
        texts = [tokens_of(text) for number in numbers for text in sample.get(int(number), [])]
        return written_label(label, written_forms_of_tokens(label_parts(label), texts))

    labels = [written(str(label), [int(t)]) for t, label in zip(model.themes["theme"], model.themes["label"])]
    model = dataclasses.replace(model, themes=model.themes.assign(label=labels))
    model, naming = name_themes_by_file(model, theme_file, corpus_sha256, seed)
    if naming.applied:  # each theme shown holds its model themes' sample texts, for the broad labels
        sample = {int(t): [text for m in str(members).split(", ") for text in sample.get(int(m), [])]
                  for t, members in zip(model.themes["theme"], model.themes["model_themes"])}
        # The broad themes are made of the themes shown, the rule's labels as they were before being written.
        rule_label = dict(zip(unwritten.themes["theme"].astype(int), unwritten.themes["label"]))
        unwritten = dataclasses.replace(model, themes=model.themes.assign(label=[
            label if source == "file" else rule_label[int(members)]
            for label, source, members in zip(model.themes["label"], model.themes["name_source"],
                                              model.themes["model_themes"])]))
    labels = model.themes["label"].tolist()
    hierarchy = analyse_hierarchy(ThemesResult(unwritten, themes.message), cooccurrence, same_thing)
    if hierarchy is not None:
        table = hierarchy.table
        members = table.groupby("broad_theme", sort=False)["theme"].apply(list).to_dict()
        broad = {b: written(str(label), members[b]) for b, label in zip(table["broad_theme"], table["broad_label"])}
        label_of = dict(zip(model.themes["theme"].astype(int), labels))
        table = table.assign(broad_label=table["broad_theme"].map(broad), label=table["theme"].astype(int).map(label_of))
        hierarchy = dataclasses.replace(hierarchy, table=table)
    return ThemesResult(model, themes.message, naming), hierarchy


#: At most this many texts are cut into their written tokens while the run waits for the themes (:func:`cut_while`):
#: the labels read at most :data:`LABEL_TEXTS` texts per theme, unknown until the themes are.
MAX_TEXTS_CUT_AHEAD = 2_000


def cut_while(texts: Sequence[str], waiting: Callable[[], bool], limit: int = MAX_TEXTS_CUT_AHEAD
              ) -> "dict[str, WrittenTokens]":
    """The first ``texts`` (at most ``limit``) cut into the tokens the themes' labels are written from
    (:func:`helpers.analysis.themes.written_forms.written_tokens`), one after another while ``waiting()`` is true:
    work for the time the run would otherwise wait for the themes, which :func:`name_themes` then does not do again.

    Parameters
    ----------
    texts : sequence of str
        The abstracts, as :func:`name_themes` reads them.
    waiting : callable
        Whether to go on (checked before each text).
    limit : int
        The most texts cut.

    Returns
    -------
    dict
        Each text cut, by its text.

    Examples
    --------
    >>> cut = cut_while(["Hens walk.", "Hens peck.", "Cows graze."], lambda: True, limit=2)
    >>> list(cut), cut["Hens walk."]
    (['Hens walk.', 'Hens peck.'], [[(('hen',), 'Hens'), (('walk',), 'walk')], []])
    >>> cut_while(["Hens walk."], lambda: False)
    {}
    """
    from helpers.analysis.themes.written_forms import written_tokens  # lazy: keeps this module's import light

    cut: "dict[str, WrittenTokens]" = {}
    for text in texts[:limit]:
        if not waiting():
            break
        if text not in cut:
            cut[text] = written_tokens(text)
    return cut


def paper_table(corpus: Corpus, themes: ThemesResult, links: LinkTables, groups: "Groups | None" = None,
                hierarchy: "ThemeHierarchy | None" = None) -> pd.DataFrame:
    """One row per paper: the corpus columns, the strongest theme, the two grains (the second theme, mixed or
    not, the broad theme: :func:`helpers.analysis.themes.hierarchy.paper_grains`), the link state, the code link
    given to the venue (``venue_code_field, venue_code, venue_code_url`` where the input has a code field:
    :func:`helpers.analysis.links.states.venue_code_links`) and the group."""
    # Lazy: keeps this module's import light.
    from helpers.analysis.links.states import VENUE_CODE_COLUMNS, venue_code_links
    from helpers.analysis.themes.hierarchy import paper_grains  # lazy: at the top it would load scipy and networkx

    papers = corpus.papers.copy()
    if themes.model is None:
        papers["theme"] = pd.array([pd.NA] * len(papers), dtype="Int64")
        papers["theme_weight"] = 0.0
    else:
        merged = papers[["paper_id"]].merge(themes.model.paper_themes, on="paper_id", how="left")
        papers["theme"] = merged["theme"].astype("Int64").to_numpy()
        papers["theme_weight"] = merged["theme_weight"].to_numpy()
        if hierarchy is not None:
            grains = papers[["paper_id"]].merge(
                paper_grains(themes.model.weights, hierarchy.broad_of, themes.model.settings.mixed_threshold),
                on="paper_id", how="left")
            papers["second_theme"] = grains["second_theme"].astype("Int64").to_numpy()
            papers["second_theme_weight"] = grains["second_theme_weight"].fillna(0.0).to_numpy()
            papers["mixed"] = grains["mixed"].fillna(False).astype(bool).to_numpy()
            papers["broad_theme"] = grains["broad_theme"].fillna("").astype(str).to_numpy()
            papers["broad_theme_weight"] = grains["broad_theme_weight"].fillna(0.0).to_numpy()
    states = papers[["paper_id"]].merge(links.states, on="paper_id", how="left")
    for column in ("link_state", "promised_too", "n_urls"):
        papers[column] = states[column].to_numpy()
    # The code link given to the venue (software field, url on a code host): beside the state, never in it.
    venue = venue_code_links(corpus.papers)
    if len(venue):
        for column in VENUE_CODE_COLUMNS[1:]:
            papers[column] = venue[column].to_numpy()
    papers["group"] = groups.names.to_numpy() if groups is not None else "all"
    return papers


def analyse_group_change(papers: pd.DataFrame, groups: Sequence[str], themes: ThemesResult,
                         cooccurrence: "CooccurrenceResult", links: LinkTables, settings: AnalysisSettings
                         ) -> "ChangeResult":
    """:func:`helpers.analysis.change.analyse_change` on the stages' results (two groups or more)."""
    from helpers.analysis.change import analyse_change  # lazy: at the top it would load scipy

    return analyse_change(papers, groups, themes.labels, terms=cooccurrence.terms["term"].tolist(),
                          paper_terms=cooccurrence.paper_terms, paper_ids=cooccurrence.paper_ids,
                          links=links.links, seed=settings.seed)




class StageEngine(Protocol):
    """Where a run's stages run (:func:`helpers.analysis.pipeline.run.run_pipeline` calls them in this order)."""

    #: The seconds of the stages done ahead, while this process did other work (parse, text), by stage.
    seconds_ahead: dict[str, float]

    def read_corpus(self, paths: Sequence[str | Path], skip_bad: bool) -> Corpus:
        """The parsed corpus."""

    def tokenize(self, corpus: Corpus) -> tuple["PartitionRunner", Sequence[Any]]:
        """The abstracts' word ids, in partitions: the runner that holds them and a handle per partition."""

    def cooccurrence(self, settings: AnalysisSettings) -> "CooccurrenceResult":
        """The term map of the tokenised corpus."""

    def links(self) -> LinkTables:
        """The links analysis of the corpus."""

    def detach_texts(self, corpus: Corpus) -> tuple[Corpus, "PaperTexts"]:
        """The corpus without its abstracts' texts (an ``opening`` instead), and the texts apart."""


class LocalStages:
    """The local engine: every stage in this process and its worker processes (``n_jobs``)."""

    _corpus: Corpus  # set by tokenize, the stage before those that read them
    _tokens: "TokenizedCorpus"

    def __init__(self, n_jobs: int | None = None, reading: "ForkedCall | None" = None) -> None:
        self.n_jobs = n_jobs
        self._reading = reading  # the corpus read ahead (helpers.analysis.pipeline.run.read_ahead)
        self._tokens_ahead: "TokenizedCorpus | None" = None
        self.seconds_ahead: dict[str, float] = {}

    def read_corpus(self, paths: Sequence[str | Path], skip_bad: bool) -> Corpus:
        if self._reading is not None:
            corpus, self._tokens_ahead, self.seconds_ahead = self._reading.result()
            return corpus
        return read_corpus(paths, skip_bad=skip_bad)

    def tokenize(self, corpus: Corpus) -> tuple["PartitionRunner", Sequence[Any]]:
        tokens, self._tokens_ahead = self._tokens_ahead, None
        self._corpus, self._tokens = corpus, tokens if tokens is not None else analyse_text(corpus, self.n_jobs)
        return LocalPartitions(), local_token_partitions(self._tokens)

    def cooccurrence(self, settings: AnalysisSettings) -> "CooccurrenceResult":
        return analyse_terms(self._corpus, self._tokens, settings)

    def links(self) -> LinkTables:
        return analyse_link_tables(self._corpus, self.n_jobs)

    def detach_texts(self, corpus: Corpus) -> tuple[Corpus, "PaperTexts"]:
        return detach_texts(corpus, self.n_jobs)


class DaskStages:
    """The dask engine: the stages of :class:`helpers.analysis.pipeline.dask_engine.ClusterStages`, per partition
    on the cluster's workers."""

    seconds_ahead: dict[str, float] = {}  # nothing is done ahead: the cluster reads while this process waits

    def __init__(self, cluster: "ClusterStages") -> None:
        self.cluster = cluster

    def read_corpus(self, paths: Sequence[str | Path], skip_bad: bool) -> Corpus:
        return self.cluster.read_corpus(paths, skip_bad)

    def tokenize(self, corpus: Corpus) -> tuple["PartitionRunner", Sequence[Any]]:
        self.cluster.start(corpus)  # the links are found on the workers while themes and terms run here
        self.cluster.wait_for_tokens()
        return self.cluster.runner(), self.cluster.token_parts

    def cooccurrence(self, settings: AnalysisSettings) -> "CooccurrenceResult":
        return self.cluster.cooccurrence(settings)

    def links(self) -> LinkTables:
        return LinkTables(*self.cluster.links())

    def detach_texts(self, corpus: Corpus) -> tuple[Corpus, "PaperTexts"]:
        # Each part of the texts from the workers to a folder, one at a time; the corpus came without them.
        return corpus, self.cluster.texts(corpus.papers["paper_id"].tolist())
