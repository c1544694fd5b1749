"""The term map's options: one frozen object, checked where it is built, passed through every step; and one piece
of code (``map_network``) that makes kept terms a network for the term map and the keyword map alike."""

import dataclasses

import numpy as np
import pandas as pd
import pytest
from scipy import sparse

from helpers.analysis.cooccurrence import TermMapOptions, analyse_cooccurrence
from helpers.analysis.cooccurrence.network import map_network
from helpers.analysis.keywords import analyse_keywords
from helpers.analysis.settings import AnalysisSettings, SettingsError
from helpers.analysis.text.cleaning import analysis_text

POULTRY = pd.Series({
    "p1": "Heat stress lowers feed intake in broilers.",
    "p2": "Heat stress and feed intake of laying hens.",
    "p3": "Broilers under heat stress show lower feed intake.",
    "p4": "Litter quality and footpad dermatitis in broilers.",
})


def test_a_bad_option_fails_where_the_options_are_built_before_any_count():
    with pytest.raises(ValueError) as raised:
        TermMapOptions(ranking="tfidf")
    assert str(raised.value) == "ranking must be one of combined, relevance, frequency, got 'tfidf'"
    with pytest.raises(SettingsError, match="must be a whole number of at least 1, got 0"):
        TermMapOptions(min_occurrences=0)


def test_the_options_are_frozen_and_their_defaults_are_the_analysis_settings():
    options = TermMapOptions()
    with pytest.raises(dataclasses.FrozenInstanceError):
        options.min_occurrences = 2  # type: ignore[misc]
    settings = AnalysisSettings()
    assert (options.seed, options.min_occurrences, options.relevant_share) == (
        settings.seed, settings.min_occurrences, settings.relevant_share) == (0, None, 0.6)


def test_the_options_of_an_analysis_are_built_from_its_settings_in_one_place(tmp_path):
    from helpers.analysis.text.vocabulary_files import VocabularyFiles

    stop_file = tmp_path / "stop.txt"
    stop_file.write_text("feed intake\n", encoding="utf-8")
    settings = AnalysisSettings(seed=4, min_occurrences=3, relevant_share=0.8, themes=5,
                                vocabulary=VocabularyFiles.check(None, stop_file))
    options = TermMapOptions.from_settings(settings)
    assert (options.seed, options.min_occurrences, options.relevant_share) == (4, 3, 0.8)
    assert options.edits is not None and options.edits.stop == frozenset({"feed intake"})
    assert TermMapOptions.from_settings(AnalysisSettings()) == TermMapOptions()


def test_every_option_reaches_the_map_it_makes():
    options = TermMapOptions(min_occurrences=2, relevant_share=1.0, ranking="frequency", min_pair_papers=3, seed=4,
                             resolution=1.5, thesaurus={"laying hen": "broiler"})
    result = analyse_cooccurrence(POULTRY, POULTRY.map(analysis_text), options)
    made = result.settings
    assert (made.min_occurrences, made.relevant_share, made.ranking, made.min_pair_papers, made.louvain_seed,
            made.resolution) == (2, 1.0, "frequency", 3, 4, 1.5)
    assert sorted(result.terms["term"]) == ["broiler", "feed intake", "heat stress"]
    assert result.merges.values.tolist() == [["laying hen", "broiler", "thesaurus"]]
    assert sorted(result.graph.edges) == [("feed intake", "heat stress")]  # the one pair in 3 abstracts


def test_the_keyword_map_is_the_term_maps_network_of_its_keywords():
    cells = ["Broilers; Heat stress; Feed intake", "Heat stress; Feed intake", "broiler; heat-stress", "Litter"]
    keyword_map = analyse_keywords(["p1", "p2", "p3", "p4"], cells, min_occurrences=2, seed=3)
    names = ["broiler", "feed intake", "heat stress"]
    binary = sparse.csr_matrix(np.array([[1, 1, 1], [0, 1, 1], [1, 0, 1], [0, 0, 0]]))
    kept = pd.DataFrame({"term": names, "n_papers": [2, 2, 3], "relevance": 0.0, "score": [2.0, 2.0, 3.0]})
    drawn = map_network(kept, (binary.T @ binary).tocsr(), min_pair_papers=None, seed=3,
                        resolution=keyword_map.network.settings.resolution, skip_contained=False)
    pd.testing.assert_frame_equal(keyword_map.network.terms, drawn.terms)
    pd.testing.assert_frame_equal(keyword_map.network.pairs, drawn.pairs)
    assert keyword_map.network.settings.min_pair_papers == drawn.min_pair_papers == 2
    assert keyword_map.network.modularity == drawn.modularity
