"""The links chapter's context: what studies of whole papers found, the works it cites, and its pointer to What
changed.

Context from machine learning studies (NeurIPS 2019, code sharing at machine learning venues) is given only where
most papers come from such venues (:func:`ml_venue`), so a chemistry or traffic-safety corpus reads only what
holds for any field. The chapter's own values are in :mod:`helpers.book.reports.links`.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pandas as pd

from helpers.book.reports.link_threshold import few_links

if TYPE_CHECKING:
    from helpers.analysis.pipeline import Analysis

__all__ = ["REFERENCES", "ml_venue", "context_paragraph", "change_pointer", "change_context", "references"]


#: Venue names (or files' headers) of machine learning, where the NeurIPS 2019 figure is context: acronyms as
#: written, names in any case.
_ML_ACRONYMS = re.compile(r"\b(?:ICML|NeurIPS|NIPS|ICLR|AISTATS|COLT|UAI|CoRL|MLSys|JMLR|TMLR|PMLR|ECML|ACML)\b")


_ML_NAMES = re.compile(r"machine learning|neural information processing|learning representations", re.IGNORECASE)


def ml_venue(analysis: "Analysis") -> bool:
    """Whether most papers come from machine learning venues (by their venue, else their file's header), where
    figures measured at NeurIPS are context for the reader.

    Parameters
    ----------
    analysis : Analysis
        Its papers' venues, else their files' headers.

    Returns
    -------
    bool

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> def at(*venues):
    ...     papers = pd.DataFrame({"venue": list(venues), "source_file": "a.bib"})
    ...     return ml_venue(SimpleNamespace(papers=papers, corpus=SimpleNamespace(headers={"a.bib": None})))
    >>> at("ICML 2024", "Proceedings of the 41st International Conference on Machine Learning", "Nature")
    True
    >>> at("ACCIDENT ANALYSIS AND PREVENTION", "Poultry Science", "ICML 2024")
    False
    """
    papers, headers = analysis.papers, analysis.corpus.headers
    venues = papers["venue"].fillna("").astype(str) if "venue" in papers else pd.Series("", index=papers.index)
    names = [v or (headers.get(f) or "") for v, f in zip(venues, papers["source_file"].astype(str))]
    if not names:
        return False
    return sum(bool(_ML_ACRONYMS.search(n) or _ML_NAMES.search(n)) for n in names) > len(names) / 2


def context_paragraph(analysis: "Analysis") -> str:
    """The "In context" paragraph: what studies of whole papers found, NeurIPS 2019 only at machine learning
    venues (:func:`ml_venue`); and its references, as Markdown (glued as ``links_context`` and
    ``links_references``).

    Parameters
    ----------
    analysis : Analysis
        Its papers' venues decide whether NeurIPS 2019 is context.

    Returns
    -------
    str
        Markdown, glued as ``links_context``.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> papers = pd.DataFrame({"venue": ["Poultry Science"], "source_file": ["a.bib"]})
    >>> context_paragraph(SimpleNamespace(papers=papers, corpus=SimpleNamespace(headers={})))[:43]
    'In the full text of arXiv papers of 2021, a'
    """
    neurips = ("At NeurIPS 2019, about 75% of accepted papers linked their code at camera-ready time (Pineau et al., "
               "2021). " if ml_venue(analysis) else "")
    return (f"{neurips}In the full text of arXiv papers of 2021, about one in five contains a GitHub URI (Escamilla et "
            "al., 2022), and of such URIs about 94% still resolved when checked (Escamilla et al., 2024). Those "
            "studies read whole papers; **an abstract is a lower bound** on what the paper itself links, since many "
            "papers link code and data only in the body.")


def change_pointer(analysis: "Analysis") -> str:
    """The line pointing to What changed's test of the linked share per group; ``""`` with one group, or when
    :func:`few_links` (no share per group to compare: the chapter's paragraph says so).

    Parameters
    ----------
    analysis : Analysis
        Its papers' link states and its groups.

    Returns
    -------
    str
        A MyST line, glued as ``links_change_pointer``.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> change_pointer(SimpleNamespace(papers=pd.DataFrame({"link_state": ["linked"]}), change=None))
    ''
    """
    from helpers.book.reports.change import pointer  # lazy: at the top it would load scipy

    return "" if few_links(analysis.papers) else pointer(analysis, "links")


def change_context(analysis: "Analysis") -> dict[str, str]:
    """What changed's context on code sharing over the years and its reference, at machine learning venues only
    (:func:`ml_venue`; else both ``""``), by glue name.

    Parameters
    ----------
    analysis : Analysis
        Its papers' venues: the context is for machine learning venues only.

    Returns
    -------
    dict
        ``change_links_context``, ``change_links_context_reference``.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> papers = pd.DataFrame({"venue": ["Accident Analysis and Prevention"], "source_file": ["a.bib"]})
    >>> change_context(SimpleNamespace(papers=papers, corpus=SimpleNamespace(headers={})))["change_links_context"]
    ''
    """
    if not ml_venue(analysis):
        return {"change_links_context": "", "change_links_context_reference": ""}
    return {"change_links_context": "For code sharing at machine learning venues from 2014 to 2024 measured on the "
                                    "papers themselves, see Coakley et al. (2026); this book cites that study for "
                                    "context only and takes no figure from it.",
            "change_links_context_reference": "Coakley et al. (2026). arXiv:2606.16974 (code sharing at machine "
                                              "learning venues, 2014–2024)."}


REFERENCES = {
    "Cochran": "Cochran, W. G. (1954). Some methods for strengthening the common χ² tests. *Biometrics*, 10(4), "
               "417–451.",
    "Escamilla 2022": "Escamilla, E., et al. (2022). arXiv:2208.04895 (GitHub URIs in the full text of arXiv papers).",
    "Escamilla 2024": "Escamilla, E., et al. (2024). arXiv:2401.04887 (how many of those URIs are still live).",
    "Pineau": "Pineau, J., Vincent-Lamarre, P., Sinha, K., Larivière, V., Beygelzimer, A., d'Alché-Buc, F., Fox, "
              "E., and Larochelle, H. (2021). Improving reproducibility in machine learning research (a report from "
              "the NeurIPS 2019 reproducibility program). *Journal of Machine Learning Research*, 22(164), 1–20.",
}


def references(analysis: "Analysis") -> str:
    """The chapter's references, each a paragraph: only the works its text cites for this corpus.

    Parameters
    ----------
    analysis : Analysis
        Its papers' venues and link states decide which works the text cites.

    Returns
    -------
    str
        Markdown, one paragraph a work.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> papers = pd.DataFrame({"venue": ["Poultry Science"], "source_file": ["a.bib"], "link_state": ["none"]})
    >>> print(references(SimpleNamespace(papers=papers, corpus=SimpleNamespace(headers={})))[:39])
    Cochran, W. G. (1954). Some methods for
    """
    cited = ["Escamilla 2022", "Escamilla 2024"]
    if few_links(analysis.papers):
        cited.insert(0, "Cochran")
    if ml_venue(analysis):
        cited.append("Pineau")
    return "\n\n".join(REFERENCES[name] for name in cited)
