"""How many papers must give a link before the book compares linked shares: one rule for the links chapter and
What changed (:func:`few_links`), kept apart so both pages can read it without importing each other."""

from __future__ import annotations

import pandas as pd

__all__ = ["MIN_LINKED_PAPERS", "few_links"]

#: Fewer papers than this giving a link (state ``linked``), and the chapter shows no shares, tables or figures of
#: them, only one paragraph: comparing the linked share of two groups wants about 5 linked papers expected in
#: each (Cochran, 1954), so with fewer than 10 in all no two groups of the corpus can be compared.
MIN_LINKED_PAPERS = 10


def few_links(papers: pd.DataFrame) -> bool:
    """Whether fewer than :data:`MIN_LINKED_PAPERS` papers give a link (the chapter then says so in one paragraph).

    Parameters
    ----------
    papers : DataFrame
        The papers (``link_state``).

    Returns
    -------
    bool

    Examples
    --------
    >>> few_links(pd.DataFrame({"link_state": ["linked"] * 9 + ["none"]})), few_links(pd.DataFrame({"link_state": ["linked"] * 10}))
    (True, False)
    """
    return int((papers["link_state"] == "linked").sum()) < MIN_LINKED_PAPERS
