"""Themes: TF-IDF + NMF topic models, with the number of themes chosen by a stated rule.

The steps of :func:`fit_themes` (:mod:`.model`, ``start_themes(...).result()``), one module a job:

1. :mod:`.vocabulary`, :func:`theme_counts`: the words and word pairs of each abstract
   (:func:`theme_terms`), a noun in its singular as the term map spells it, stop words left out.
2. :mod:`.counting`: those counts per partition, summed by term into the corpus's vocabulary (one reducer
   per bucket) and left where they were counted; their sublinear TF-IDF.
3. :mod:`.selection`, :func:`choose_k`: for each candidate number of themes (:func:`candidate_ks`), NMF
   fits with several seeds on a sample of abstracts, each scored by :mod:`.scores` (coherence
   :func:`npmi_coherence`, :func:`topic_diversity`, :func:`stability`); the number chosen by
   :data:`SELECTION_RULE`.
4. :mod:`.model`, :func:`start_themes` (its options a :class:`ThemeOptions`): the chosen number fitted once more in a background thread
   (:class:`PendingThemes`), every abstract weighted in blocks (:mod:`.counting`), the tables of
   :class:`ThemeModel`.
5. :mod:`.labels`, :func:`theme_labels`: each theme's shown top terms (:func:`shown_terms`, a noun phrase in
   place of its words) and its label, two concepts (:mod:`.concepts`, :func:`same_concept`), each shown as the
   abstracts write it (:mod:`.written_forms`, :func:`written_label`).
6. :mod:`.hierarchy`, :func:`theme_hierarchy`: the themes grouped into a few broad themes, and each paper's
   two grains (:func:`paper_grains`), called by the pipeline after the model.

:mod:`.theme_file` reads the researcher's theme file (:func:`read_theme_file`), and :mod:`.naming` applies it: it
renames themes and merges two or more into one (:func:`apply_theme_names`) when it was written for these themes; the pipeline applies it before the
broad themes are made.

:mod:`.comparison` fits a scikit-learn LDA beside the NMF at the chosen number of themes
(:func:`compare_with_lda`, :attr:`ThemeModel.comparison`, computed when first asked for: the command line
never needs it).
"""

from helpers.analysis.themes.broad_labels import N_POOLED_TERMS, broad_labels
from helpers.analysis.themes.comparison import LDA_MAX_ITER, compare_with_lda
from helpers.analysis.themes.counting import MAX_DF, MAX_TERMS, MIN_DOCUMENTS, TRANSFORM_BLOCK
from helpers.analysis.themes.hierarchy import (
                                                HIERARCHY_RULE,
                                                MIXED_SHARE,
                                                ThemeHierarchy,
                                                broad_groups,
                                                broad_ids,
                                                n_broad_themes,
                                                paper_grains,
                                                theme_hierarchy,
                                                theme_profiles,
)
from helpers.analysis.themes.concepts import Concept, concept_share, is_acronym_of, same_concept, share_stem, theme_concepts
from helpers.analysis.themes.labels import GENERAL_SUFFIX, MIN_LABEL_SHARE, label_parts, shown_terms, theme_labels
from helpers.analysis.themes.fit_settings import ThemeOptions, ThemeSettings
from helpers.analysis.themes.naming import NUMBERING_RULE, ThemeNaming, apply_theme_names, starter_text
from helpers.analysis.themes.model import (
                                                FINAL_FIT_THREAD,
                                                FINAL_SAMPLE,
                                                MIXED_THRESHOLD,
                                                PendingThemes,
                                                ThemeModel,
                                                fit_themes,
                                                start_partitioned_themes,
                                                start_themes,
)
from helpers.analysis.themes.scores import (
                                                N_COHERENCE_TERMS,
                                                N_DIVERSITY_TERMS,
                                                npmi_coherence,
                                                npmi_of_counts,
                                                stability,
                                                topic_diversity,
)
from helpers.analysis.themes.k_range import MAX_CANDIDATES, candidate_ks
from helpers.analysis.themes.selection import (
                                                FINAL_TOL,
                                                MIN_DIVERSITY,
                                                MIN_STABILITY,
                                                N_SEEDS,
                                                SELECTION_RULE,
                                                SELECTION_SAMPLE,
                                                SELECTION_TOL,
                                                choose_k,
                                                model_fitting,
)
from helpers.analysis.themes.theme_file import ThemeFile, ThemeFileError, read_theme_file
from helpers.analysis.themes.vocabulary import (
                                                KOutOfRange,
                                                ThemesError,
                                                alphabetical_top_terms,
                                                theme_counts,
                                                theme_terms,
)

from helpers.analysis.themes.written_forms import written_forms, written_label

__all__ = [
    "theme_terms", "theme_counts", "alphabetical_top_terms", "ThemesError", "KOutOfRange",
    "MIN_DOCUMENTS", "MAX_DF", "MAX_TERMS", "TRANSFORM_BLOCK",
    "N_COHERENCE_TERMS", "N_DIVERSITY_TERMS", "npmi_coherence", "npmi_of_counts", "topic_diversity", "stability",
    "N_SEEDS", "SELECTION_TOL", "FINAL_TOL", "MAX_CANDIDATES", "SELECTION_SAMPLE", "MIN_STABILITY", "MIN_DIVERSITY",
    "SELECTION_RULE", "candidate_ks", "choose_k", "model_fitting",
    "FINAL_SAMPLE", "FINAL_FIT_THREAD", "MIXED_THRESHOLD", "ThemeModel", "ThemeOptions", "ThemeSettings", "PendingThemes",
    "start_themes", "start_partitioned_themes", "fit_themes",
    "MIN_LABEL_SHARE", "GENERAL_SUFFIX", "label_parts", "written_forms", "written_label", "Concept", "same_concept", "is_acronym_of", "share_stem",
    "theme_concepts", "concept_share", "theme_labels", "shown_terms",
    "HIERARCHY_RULE", "MIXED_SHARE", "N_POOLED_TERMS", "ThemeHierarchy", "n_broad_themes",
    "broad_ids", "theme_profiles", "broad_groups", "broad_labels", "theme_hierarchy", "paper_grains",
    "LDA_MAX_ITER", "compare_with_lda",
    "NUMBERING_RULE", "ThemeFile", "ThemeFileError", "ThemeNaming", "read_theme_file", "apply_theme_names", "starter_text",
]
