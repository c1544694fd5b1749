"""Links in abstracts: find them, repair them, say what they point to and what each paper says.

Each paper gets one *link state*, from the availability claims of its sentences
(:mod:`helpers.analysis.availability` reads each sentence) and from its URLs:

``linked``
    the abstract gives a usable URL of a kind in :data:`helpers.analysis.urls.LINKED_KINDS` (code,
    data or a project page), anywhere; or an availability claim gives any
    non-paper URL (``other`` too: a claim makes a lab's own domain its
    artefact's address), in the claim or elsewhere in the abstract for a claim
    that points to it ("on our project page");
``dangling``
    an availability claim with no usable link ("our code is publicly available",
    "released on GitHub", "available at this URL", an anonymised link never restored);
``promised``
    a future or conditional claim with no usable link ("will be released upon acceptance");
``none``
    no claim and no link to code, data or a project page.

Order of precedence: ``linked`` > ``dangling`` > ``promised`` > ``none``. A
``linked`` paper that also promises more has ``promised_too``.

URLs are found and classified by :mod:`helpers.analysis.urls`.
"""

from __future__ import annotations

import pandas as pd

from helpers.analysis.availability import abstract_verdicts
from helpers.analysis.parallel import map_chunks
from helpers.analysis.urls import classify_host, find_urls

__all__ = ["paper_link_states", "find_links", "analyse_links", "wilson_interval", "state_shares", "distinct_urls",
           "LINK_STATES", "LINKS_COLUMNS", "STATES_COLUMNS", "STATEMENTS_COLUMNS"]

#: Every link state, in order of precedence.
LINK_STATES = ("linked", "dangling", "promised", "none")

LINKS_COLUMNS = ["paper_id", "source_file", "url", "host", "kind", "owner", "repository", "repaired", "original"]
STATES_COLUMNS = ["paper_id", "link_state", "promised_too", "n_urls", "repaired_urls", "claim_sentence",
                  "claim_class", "claim_reason"]
STATEMENTS_COLUMNS = ["paper_id", "sentence_no", "statement", "sentence", "reason", "promise", "urls"]


def paper_link_states(papers: pd.DataFrame, links: pd.DataFrame | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Per-paper link state and the sentences behind it.

    ``links`` is accepted for compatibility and not needed: each abstract's
    URLs are found once, together with its sentences' verdicts.

    Returns
    -------
    states : DataFrame
        :data:`STATES_COLUMNS`: ``paper_id, link_state, promised_too, n_urls``,
        ``repaired_urls`` (how many of its URLs were repaired), and the sentence
        that decided the state: ``claim_sentence, claim_class, claim_reason``
        (empty for ``none``).
    statements : DataFrame
        :data:`STATEMENTS_COLUMNS`: ``paper_id, sentence_no, statement, sentence,
        reason, promise, urls`` (``urls`` joined with spaces) for every sentence
        that is not ``none``.

    Examples
    --------
    >>> papers = pd.DataFrame({"paper_id": ["p1", "p2"], "source_file": ["f", "f"],
    ...                        "text": ["We win. Code: https//github.com/a/b.", "Our code will be released."]})
    >>> states, statements = paper_link_states(papers)
    >>> states[["link_state", "repaired_urls", "claim_class"]].values.tolist()
    [['linked', 1, 'linked'], ['promised', 0, 'promised']]
    """
    return _analyse(papers)[1:]


def _analyse(papers: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """Links, states and statements in one pass (each abstract's URLs are found once)."""
    link_rows, state_rows, statement_rows = [], [], []
    sources = papers["source_file"] if "source_file" in papers else [""] * len(papers)
    for paper_id, source_file, text in zip(papers["paper_id"], sources, papers["text"]):
        urls = find_urls(text)
        for found in urls:
            link_rows.append(dict(paper_id=paper_id, source_file=source_file, url=found.url,
                                  **classify_host(found.url), repaired=found.repaired, original=found.original))
        best: tuple[tuple[int, bool], str, str, str] | None = None
        promised = False
        for number, sentence, verdict in abstract_verdicts(text, urls):
            promised = promised or verdict.promise
            statement_rows.append(dict(paper_id=paper_id, sentence_no=number, statement=verdict.statement,
                                       sentence=sentence, reason=verdict.reason, promise=verdict.promise,
                                       urls=" ".join(verdict.urls)))
            # A linked promise ("will be released", linked by a URL elsewhere) yields to a present linked claim.
            rank = (LINK_STATES.index(verdict.statement), verdict.promise)
            if best is None or rank < best[0]:
                best = (rank, sentence, verdict.statement, verdict.reason)
        state = LINK_STATES[best[0][0]] if best else "none"
        state_rows.append(dict(paper_id=paper_id, link_state=state, promised_too=state == "linked" and promised,
                               n_urls=len(urls), repaired_urls=sum(found.repaired for found in urls),
                               claim_sentence=best[1] if best else "", claim_class=best[2] if best else "",
                               claim_reason=best[3] if best else ""))
    return (pd.DataFrame(link_rows, columns=LINKS_COLUMNS).astype({"repaired": bool}),
            pd.DataFrame(state_rows, columns=STATES_COLUMNS),
            pd.DataFrame(statement_rows, columns=STATEMENTS_COLUMNS))


def find_links(papers: pd.DataFrame) -> pd.DataFrame:
    """One row per (paper, URL): :data:`LINKS_COLUMNS`.

    ``paper_id, source_file, url, host, kind, owner, repository, repaired, original``:
    ``url`` is the repaired address, ``original`` the text as written,
    ``kind`` one of :data:`HOST_KINDS`.
    """
    rows = []
    for paper_id, source_file, text in zip(papers["paper_id"], papers["source_file"], papers["text"]):
        for found in find_urls(text):
            rows.append(dict(paper_id=paper_id, source_file=source_file, url=found.url,
                             **classify_host(found.url), repaired=found.repaired, original=found.original))
    return pd.DataFrame(rows, columns=LINKS_COLUMNS).astype({"repaired": bool})


def analyse_links(papers: pd.DataFrame, *, n_jobs: int | None = None
                  ) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """:func:`find_links` and :func:`paper_link_states` together, on several cores for big corpora.

    Returns ``(links, states, statements)`` with :data:`LINKS_COLUMNS`,
    :data:`STATES_COLUMNS` and :data:`STATEMENTS_COLUMNS`; the same tables whatever ``n_jobs`` is.
    """
    parts = map_chunks(_links_and_states, papers[["paper_id", "source_file", "text"]], n_jobs=n_jobs)
    links, states, statements = (pd.concat([part[i] for part in parts], ignore_index=True)
                                 for i in range(3))
    return links, states, statements


def _links_and_states(papers: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    return _analyse(papers)


def wilson_interval(successes: int, trials: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for a proportion (scipy's ``binomtest(...).proportion_ci``).

    Examples
    --------
    >>> [round(v, 4) for v in wilson_interval(16, 57)]
    [0.1808, 0.4083]
    >>> wilson_interval(0, 0)
    (nan, nan)
    """
    if trials == 0:
        return float("nan"), float("nan")
    from scipy.stats import binomtest

    interval = binomtest(successes, trials).proportion_ci(confidence_level=confidence, method="wilson")
    return float(interval.low), float(interval.high)


def state_shares(papers: pd.DataFrame, by: str | None = None) -> pd.DataFrame:
    """Share of papers in each link state, overall or per group, with Wilson 95% intervals.

    Columns: ``group, link_state, n_papers, total, share, ci_low, ci_high``.
    """
    frame = papers.assign(group="all papers" if by is None else papers[by].astype(str))
    rows = []
    for group, members in frame.groupby("group", sort=True):
        total = len(members)
        for state in LINK_STATES:
            count = int((members["link_state"] == state).sum())
            low, high = wilson_interval(count, total)
            rows.append(dict(group=group, link_state=state, n_papers=count, total=total,
                             share=round(count / total, 6), ci_low=round(low, 6), ci_high=round(high, 6)))
    return pd.DataFrame(rows)


def distinct_urls(links: pd.DataFrame) -> list[str]:
    """The distinct URLs of a links table, in first-seen order."""
    return list(dict.fromkeys(links["url"]))
