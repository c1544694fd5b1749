"""Authors' keywords as a map of their own, beside the term map of the abstracts.

1. :mod:`.normalise`: each paper's keywords (the ``keywords`` column of ``papers.csv``) split, written as the
   term map writes terms (case, plural, hyphen and space variants merged: :func:`keyword_table`), then the
   researcher's thesaurus and stop terms (:class:`TermEdits`).
2. :mod:`.keyword_map`, :func:`analyse_keywords`: keywords counted once per paper, kept from a minimum of
   papers, paired with VOSviewer's association strength, grouped into Louvain communities and laid out by the
   term map's own code, so the term map's figure, interactive view and VOSviewer/Gephi exports apply to it.
"""

from helpers.analysis.keywords.keyword_map import NO_KEYWORDS, KeywordMap, analyse_keywords
from helpers.analysis.keywords.normalise import TermEdits, edit_function, keyword_form, keyword_table, split_keywords

__all__ = ["NO_KEYWORDS", "KeywordMap", "analyse_keywords", "TermEdits", "edit_function", "keyword_form",
           "keyword_table", "split_keywords"]
