"""Links in abstracts: find them, repair them, say what they point to and what each paper says.

Each paper gets one *link state*, from the availability claims of its sentences
(:mod:`helpers.analysis.links.availability` reads each sentence) and from its URLs:

``linked``
    the abstract gives a usable URL of a kind in :data:`helpers.analysis.links.hosts.LINKED_KINDS` (code,
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

Beside the abstract, a paper's metadata may hold a **code link given to the venue**
(:func:`venue_code_links`): PMLR's ``software`` field, or a ``url`` field on a code host.
It is its own evidence, never mixed into the link state; :func:`venue_code_shares` puts both
shares side by side, over the papers whose input has such a field.

URLs are found and classified by :mod:`helpers.analysis.links.urls`.
"""

from __future__ import annotations

import pandas as pd

from helpers.analysis.links.availability import abstract_verdicts
from helpers.analysis._parallel import map_chunks
from helpers.analysis.statistics import wilson_interval
from helpers.analysis.links.hosts import classify_host
from helpers.analysis.links.urls import find_urls, is_safe_url

__all__ = ["find_links", "analyse_links", "state_shares", "distinct_urls",
           "venue_code_links", "venue_code_shares", "LINK_STATES", "LINKS_COLUMNS", "STATES_COLUMNS",
           "STATEMENTS_COLUMNS", "VENUE_CODE_COLUMNS", "VENUE_SHARE_COLUMNS"]

#: Every link state, in order of precedence.
LINK_STATES = ("linked", "dangling", "promised", "none")

LINKS_COLUMNS = ["paper_id", "source_file", "url", "host", "kind", "owner", "repository", "repaired", "original"]
STATES_COLUMNS = ["paper_id", "link_state", "promised_too", "n_urls", "repaired_urls", "claim_sentence",
                  "claim_class", "claim_reason"]
STATEMENTS_COLUMNS = ["paper_id", "sentence_no", "statement", "sentence", "reason", "promise", "urls"]
VENUE_CODE_COLUMNS = ["paper_id", "venue_code_field", "venue_code", "venue_code_url"]
VENUE_SHARE_COLUMNS = ["group", "n_papers", "n_venue_code", "venue_share", "venue_ci_low", "venue_ci_high",
                       "n_abstract_linked", "abstract_share", "abstract_ci_low", "abstract_ci_high", "n_both",
                       "n_venue_code_only"]


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
    """One row per (paper, URL): ``paper_id, source_file, url, host, kind, owner, repository, repaired,
    original``; ``url`` is the repaired address, ``original`` the text as written, ``kind`` one of
    :data:`~helpers.analysis.links.hosts.HOST_KINDS`.

    Parameters
    ----------
    papers : DataFrame
        ``paper_id, source_file, text``.

    Returns
    -------
    DataFrame
        :data:`LINKS_COLUMNS`, papers in order, each paper's URLs in order of appearance.

    Examples
    --------
    >>> papers = pd.DataFrame({"paper_id": ["p"], "source_file": ["f"], "text": ["Data: zenodo.org/records/1."]})
    >>> find_links(papers)[["url", "kind", "repaired"]].values.tolist()
    [['https://zenodo.org/records/1', 'data', True]]
    """
    rows = []
    for paper_id, source_file, text in zip(papers["paper_id"], papers["source_file"], papers["text"]):
        for found in find_urls(text):
            rows.append(dict(paper_id=paper_id, source_file=source_file, url=found.url,
                             **classify_host(found.url), repaired=found.repaired, original=found.original))
    return pd.DataFrame(rows, columns=LINKS_COLUMNS).astype({"repaired": bool})


def analyse_links(papers: pd.DataFrame, *, n_jobs: int | None = None
                  ) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """The links of every abstract, its link state and the sentences behind it, on several cores for big corpora
    (each abstract's URLs are found once, together with its sentences' verdicts).

    Returns
    -------
    links : DataFrame
        :data:`LINKS_COLUMNS`, as :func:`find_links`.
    states : DataFrame
        :data:`STATES_COLUMNS`: ``paper_id, link_state, promised_too, n_urls``,
        ``repaired_urls`` (how many of its URLs were repaired), and the sentence
        that decided the state: ``claim_sentence, claim_class, claim_reason``
        (empty for ``none``).
    statements : DataFrame
        :data:`STATEMENTS_COLUMNS`: ``paper_id, sentence_no, statement, sentence,
        reason, promise, urls`` (``urls`` joined with spaces) for every sentence
        that is not ``none``.

    The same tables whatever ``n_jobs`` is.

    Parameters
    ----------
    papers : DataFrame
        ``paper_id, source_file, text``.
    n_jobs : int, optional
        Processes to use (``None``: as many as the corpus's size calls for).

    Examples
    --------
    >>> papers = pd.DataFrame({"paper_id": ["p1", "p2"], "source_file": ["f", "f"],
    ...                        "text": ["We win. Code: https//github.com/a/b.", "Our code will be released."]})
    >>> links, states, statements = analyse_links(papers, n_jobs=1)
    >>> states[["link_state", "repaired_urls", "claim_class"]].values.tolist()
    [['linked', 1, 'linked'], ['promised', 0, 'promised']]
    """
    parts = map_chunks(_analyse, papers[["paper_id", "source_file", "text"]], n_jobs=n_jobs)
    links, states, statements = (pd.concat([part[i] for part in parts], ignore_index=True)
                                 for i in range(3))
    return links, states, statements


def state_shares(papers: pd.DataFrame, by: str | None = None) -> pd.DataFrame:
    """Share of papers in each link state, overall or per group, with Wilson 95% intervals: ``group, link_state,
    n_papers, total, share, ci_low, ci_high``.

    Parameters
    ----------
    papers : DataFrame
        ``link_state`` of each paper (and the ``by`` column).
    by : str, optional
        A column to group the papers by; ``None``: one group, ``all papers``.

    Returns
    -------
    DataFrame
        One row per group and state of :data:`LINK_STATES`.

    Examples
    --------
    >>> shares = state_shares(pd.DataFrame({"link_state": ["linked", "none", "none", "none"]}))
    >>> shares.set_index("link_state").loc[["linked", "none"], ["n_papers", "share"]].values.tolist()
    [[1.0, 0.25], [3.0, 0.75]]
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
    """The distinct URLs of a links table, in first-seen order.

    Parameters
    ----------
    links : DataFrame
        With a ``url`` column (:func:`find_links`).

    Returns
    -------
    list of str
        Each URL once.

    Examples
    --------
    >>> distinct_urls(pd.DataFrame({"url": ["https://b.org", "https://a.org", "https://b.org"]}))
    ['https://b.org', 'https://a.org']
    """
    return list(dict.fromkeys(links["url"]))


def _field(papers: pd.DataFrame, column: str) -> pd.Series:
    """A metadata column as text (``""`` where missing or absent)."""
    if column not in papers:
        return pd.Series("", index=papers.index, dtype=object)
    return papers[column].fillna("").astype(str).str.strip()


def venue_code_links(papers: pd.DataFrame) -> pd.DataFrame:
    """The code link each paper gave the venue, read from its metadata, not from its abstract.

    A ``software`` field (PMLR's code link) gives every http(s) URL found in it (a host written without
    a scheme gets ``https://``; PMLR's ``"."`` is no link); a ``url`` field gives its URLs on a code host
    (:func:`helpers.analysis.links.hosts.classify_host` kind ``code``; a proceedings page is not one). A paper's
    source file *has a code field* when one of its papers has a ``software`` value or a ``url`` on a code
    host: its papers are the ones a share of code given to the venue is taken over.

    Returns
    -------
    DataFrame
        :data:`VENUE_CODE_COLUMNS`: ``paper_id``, ``venue_code_field`` (its file has a code field),
        ``venue_code`` (it gave the venue a code link) and ``venue_code_url`` (those URLs, joined with
        spaces); empty when no paper has a code field.

    Parameters
    ----------
    papers : DataFrame
        ``paper_id``, ``source_file`` and, where the input has them, ``software`` and ``url``.

    Examples
    --------
    >>> papers = pd.DataFrame({"paper_id": ["a", "b"], "source_file": ["f.bib", "f.bib"],
    ...                        "software": ["trajan-paper.github.io", "."]})
    >>> venue_code_links(papers).values.tolist()
    [['a', True, True, 'https://trajan-paper.github.io'], ['b', True, False, '']]
    """
    software, url = _field(papers, "software"), _field(papers, "url")
    found = []
    for software_value, url_value in zip(software, url):
        urls = [f.url for f in find_urls(software_value)] if software_value else []
        urls += [f.url for f in find_urls(url_value) if classify_host(f.url)["kind"] == "code"] if url_value else []
        found.append(" ".join(dict.fromkeys(u for u in urls if is_safe_url(u))))
    found = pd.Series(found, index=papers.index, dtype=object)
    has_field = (software != "") | (found != "")
    if not has_field.any():
        return pd.DataFrame({"paper_id": pd.Series(dtype=object), "venue_code_field": pd.Series(dtype=bool),
                             "venue_code": pd.Series(dtype=bool), "venue_code_url": pd.Series(dtype=object)})
    files = papers["source_file"].astype(str) if "source_file" in papers else pd.Series("", index=papers.index)
    with_field = set(files[has_field])
    return pd.DataFrame({"paper_id": papers["paper_id"].to_numpy(),
                         "venue_code_field": files.isin(with_field).to_numpy(dtype=bool),
                         "venue_code": (found != "").to_numpy(dtype=bool), "venue_code_url": found.to_numpy()},
                        columns=VENUE_CODE_COLUMNS)


def venue_code_shares(papers: pd.DataFrame, by: str | None = None) -> pd.DataFrame:
    """Code given to the venue beside links given in the abstract, over the papers whose input has a code
    field (``venue_code_field``), overall or per group of ``by``, each share with its Wilson 95% interval.

    ``n_venue_code`` papers gave the venue a code link; ``n_abstract_linked`` have the link state
    ``linked`` (their abstract links code, data or a project page); ``n_both`` are both;
    ``n_venue_code_only`` gave the venue a code link while their abstract says nothing (state ``none``).
    Groups without a code field are left out; empty (:data:`VENUE_SHARE_COLUMNS`) without one.

    Parameters
    ----------
    papers : DataFrame
        ``venue_code_field``, ``venue_code`` (:func:`venue_code_links`) and ``link_state`` of each paper.
    by : str, optional
        A column to group the papers by; ``None``: one group, ``all papers``.

    Returns
    -------
    DataFrame
        One row per group with a code field, columns :data:`VENUE_SHARE_COLUMNS`.

    Examples
    --------
    >>> papers = pd.DataFrame({"venue_code_field": [True, True, False], "venue_code": [True, False, False],
    ...                        "link_state": ["none", "linked", "linked"]})
    >>> venue_code_shares(papers)[["n_papers", "n_venue_code", "n_abstract_linked", "n_venue_code_only"]].values.tolist()
    [[2, 1, 1, 1]]
    """
    if "venue_code_field" not in papers or not papers["venue_code_field"].astype(bool).any():
        return pd.DataFrame(columns=VENUE_SHARE_COLUMNS)
    covered = papers[papers["venue_code_field"].astype(bool)]
    frame = covered.assign(group="all papers" if by is None else covered[by].astype(str))
    rows = []
    for group, members in frame.groupby("group", sort=True):
        total = len(members)
        venue = members["venue_code"].astype(bool).to_numpy()
        linked = (members["link_state"] == "linked").to_numpy()
        n_venue, n_linked = int(venue.sum()), int(linked.sum())
        venue_low, venue_high = wilson_interval(n_venue, total)
        linked_low, linked_high = wilson_interval(n_linked, total)
        rows.append(dict(group=group, n_papers=total, n_venue_code=n_venue, venue_share=round(n_venue / total, 6),
                         venue_ci_low=round(venue_low, 6), venue_ci_high=round(venue_high, 6),
                         n_abstract_linked=n_linked, abstract_share=round(n_linked / total, 6),
                         abstract_ci_low=round(linked_low, 6), abstract_ci_high=round(linked_high, 6),
                         n_both=int((venue & linked).sum()),
                         n_venue_code_only=int((venue & (members["link_state"] == "none").to_numpy()).sum())))
    return pd.DataFrame(rows, columns=VENUE_SHARE_COLUMNS)
