"""Links in abstracts: find them, clean them, say what they point to and what each paper says.

Each paper gets one *link state*:

``linked``
    a URL to code, data or a project page is given;
``dangling``
    the text points to a link that is not there ("available here."), a link
    lost when the abstract was flattened to plain text;
``promised``
    code or data is announced for later ("will be released") with no URL;
``none``
    nothing said.

A paper that both promises and links is ``linked`` with ``promised_too``.
The sentence patterns live in ``resources/link_patterns.csv``.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from urllib.parse import urlsplit, urlunsplit

import pandas as pd

__all__ = [
    "extract_urls",
    "clean_url",
    "classify_host",
    "split_sentences",
    "sentence_classes",
    "paper_link_states",
    "find_links",
    "analyse_links",
    "wilson_interval",
    "state_shares",
    "LINK_STATES",
    "is_safe_url",
]

LINK_STATES = ("linked", "dangling", "promised", "none")
LINKED_KINDS = ("code", "model/data hub", "project page")

_TRAILING = ".,;:!?'\"*’”»"
_CLOSERS = {")": "(", "]": "[", ">": "<", "}": "{"}
_KNOWN_HOSTS = r"(?:github\.com|gitlab\.com|bitbucket\.org|codeberg\.org|huggingface\.co|gist\.github\.com)"
_PATTERNS = [
    ("markdown", re.compile(r"\[[^\]]*\]\(\s*(https?://[^\s]+?)\s*\)(?=[\s.,;:!?)\]]|$)", re.I)),
    ("angle", re.compile(r"<(https?://[^\s<>]+)>", re.I)),
    ("url", re.compile(r"https?://[^\s<>\"]+", re.I)),
    ("www", re.compile(r"(?<![\w/.@-])www\.[\w-]+(?:\.[\w-]+)+[^\s<>\"]*", re.I)),
    ("doi", re.compile(r"\bdoi:\s*(10\.\d{4,9}/[^\s<>\"]+)", re.I)),
    ("arxiv", re.compile(r"\barxiv:\s*(\d{4}\.\d{4,5}(?:v\d+)?)", re.I)),
    ("schemeless", re.compile(
        rf"(?<![\w/.@:-])((?:www\.)?{_KNOWN_HOSTS}/[^\s<>\"]+|[\w-]+\.github\.io(?:/[^\s<>\"]*)?)", re.I)),
]
# Text every match of each pattern contains (lower case): a pattern is only run where it can match.
_PATTERN_HINTS = {
    "markdown": ("](",), "angle": ("<http",), "url": ("http",), "www": ("www.",), "doi": ("doi:",),
    "arxiv": ("arxiv:",),
    "schemeless": ("github.com", "gitlab.com", "bitbucket.org", "codeberg.org", "huggingface.co", ".github.io"),
}


def clean_url(url: str) -> str:
    """Tidy a URL found in running text.

    Trailing punctuation and quotes go; a closing ``)``, ``]`` or ``>`` goes
    only when it is unbalanced inside the URL; the host is lower-cased.

    Examples
    --------
    >>> clean_url("https://github.com/a/b).")
    'https://github.com/a/b'
    >>> clean_url("https://en.wikipedia.org/wiki/Path_(x)")
    'https://en.wikipedia.org/wiki/Path_(x)'
    >>> clean_url("HTTPS://GitHub.COM/Owner/Repo,")
    'https://github.com/Owner/Repo'
    """
    url = re.split(r"[\s<]", url, maxsplit=1)[0]
    while url:
        last = url[-1]
        if last in _TRAILING:
            url = url[:-1]
        elif last in _CLOSERS and url.count(last) > url.count(_CLOSERS[last]):
            url = url[:-1]
        else:
            break
    try:
        parts = urlsplit(url)
    except ValueError:
        return url
    return urlunsplit((parts.scheme.lower(), parts.netloc.lower(), parts.path, parts.query, parts.fragment))


def is_safe_url(url: str) -> bool:
    """Only ``http`` and ``https`` URLs with a host may ever become links.

    Examples
    --------
    >>> is_safe_url("https://x.org"), is_safe_url("javascript:alert(1)"), is_safe_url("data:text/html,x")
    (True, False, False)
    """
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return False
    return parts.scheme.lower() in ("http", "https") and bool(parts.netloc)


def extract_urls(text: str) -> list[str]:
    """Every link in a text, cleaned, in order of appearance, without duplicates.

    Finds ``http(s)://`` URLs, ``www.`` addresses, Markdown link targets,
    ``<url>``, ``doi:`` and ``arXiv:`` identifiers (as canonical URLs) and
    scheme-less links to well-known hosts (stored with ``https://``).
    ``javascript:``, ``data:`` and other schemes are never links.

    Examples
    --------
    >>> extract_urls("See [code](https://github.com/a/b), doi:10.1000/xyz and arXiv:2401.12345.")
    ['https://github.com/a/b', 'https://doi.org/10.1000/xyz', 'https://arxiv.org/abs/2401.12345']
    >>> extract_urls("Code: github.com/owner/repo and www.lab.org/page. [x](javascript:alert(1))")
    ['https://github.com/owner/repo', 'https://www.lab.org/page']
    """
    taken: list[tuple[int, int]] = []
    found: list[tuple[int, str]] = []
    lower = text.lower()
    for name, pattern in _PATTERNS:
        if not any(hint in lower for hint in _PATTERN_HINTS[name]):
            continue
        for match in pattern.finditer(text):
            start, end = match.span()
            if any(start < t_end and t_start < end for t_start, t_end in taken):
                continue
            raw = match.group(1) if pattern.groups else match.group(0)
            if name == "doi":
                url = "https://doi.org/" + clean_url(raw)
            elif name == "arxiv":
                url = "https://arxiv.org/abs/" + raw
            elif name in ("www", "schemeless"):
                url = clean_url("https://" + raw)
            else:
                url = clean_url(raw)
            if not is_safe_url(url):
                continue
            taken.append((start, end))
            found.append((start, url))
    unique: list[str] = []
    for _, url in sorted(found):
        if url not in unique:
            unique.append(url)
    return unique


_CODE_HOSTS = {"github.com", "gitlab.com", "bitbucket.org", "codeberg.org", "sourceforge.net",
               "anonymous.4open.science", "gist.github.com", "git.io"}
_HUB_HOSTS = {"huggingface.co", "zenodo.org", "kaggle.com", "figshare.com", "osf.io", "dataverse.harvard.edu",
              "openml.org", "drive.google.com"}
_PAPER_HOSTS = {"arxiv.org", "doi.org", "dx.doi.org", "openreview.net", "proceedings.mlr.press",
                "aclanthology.org", "papers.nips.cc", "proceedings.neurips.cc", "ieeexplore.ieee.org",
                "dl.acm.org", "link.springer.com"}
_PAGE_SUFFIXES = (".github.io", ".gitlab.io", ".netlify.app", ".vercel.app", ".pages.dev", ".readthedocs.io",
                  ".edu")
_PAGE_HOSTS = {"sites.google.com"}


def classify_host(url: str) -> dict[str, str]:
    """Host, kind and (for code hosts) owner and repository of a URL.

    Kinds: ``code``, ``model/data hub``, ``project page``, ``paper``, ``other``.

    Examples
    --------
    >>> classify_host("https://github.com/team-approx-bayes/ivon")
    {'host': 'github.com', 'kind': 'code', 'owner': 'team-approx-bayes', 'repository': 'ivon'}
    >>> classify_host("https://fed-3r.github.io/")["kind"], classify_host("https://arxiv.org/abs/1")["kind"]
    ('project page', 'paper')
    """
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    bare = host[4:] if host.startswith("www.") else host
    path = [p for p in parts.path.split("/") if p]
    owner = repository = ""
    if bare in _CODE_HOSTS or bare.endswith(".sourceforge.net"):
        kind = "code"
        if bare == "anonymous.4open.science" and len(path) >= 2:
            owner, repository = "anonymous", path[1]
        elif bare in {"github.com", "gitlab.com", "bitbucket.org", "codeberg.org"} and path:
            owner = path[0]
            repository = path[1].removesuffix(".git") if len(path) > 1 else ""
    elif bare in _HUB_HOSTS or bare.endswith(".zenodo.org"):
        kind = "model/data hub"
    elif bare in _PAPER_HOSTS:
        kind = "paper"
    elif bare.endswith(_PAGE_SUFFIXES) or bare in _PAGE_HOSTS or re.search(r"\.ac\.[a-z]{2}$", bare):
        kind = "project page"
    else:
        kind = "other"
    return {"host": bare, "kind": kind, "owner": owner, "repository": repository}


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\[(*_\"'“])")


def split_sentences(text: str) -> list[str]:
    """Split an abstract into sentences (a period inside a URL does not end one).

    Examples
    --------
    >>> split_sentences("We win. Code is at https://x.org/a.b. Thanks!")
    ['We win.', 'Code is at https://x.org/a.b.', 'Thanks!']
    """
    return [s.strip() for s in _SENTENCE_END.split(text) if s.strip()]


@dataclass(frozen=True)
class LinkPattern:
    statement: str
    pattern: re.Pattern
    example: str
    meaning: str


@lru_cache(maxsize=None)
def link_patterns() -> tuple[LinkPattern, ...]:
    """The dangling and promised patterns of ``resources/link_patterns.csv``.

    Patterns are matched against the lower-cased sentence (several times faster
    than case-insensitive matching), so a pattern may not hold upper-case letters
    other than in escapes such as ``\\S``.
    """
    content = resources.files("helpers").joinpath("resources", "link_patterns.csv").read_text("utf-8")
    rules = []
    for line, row in enumerate(csv.DictReader(content.splitlines()), start=2):
        if re.search(r"(?<!\\)[A-Z]", row["pattern"]):
            raise ValueError(f"link_patterns.csv: line {line}: patterns are matched in lower case; "
                             f"write {row['pattern']!r} in lower case")
        rules.append(LinkPattern(row["class"], re.compile(row["pattern"]), row["example"], row["meaning"]))
    return tuple(rules)


# Cheap pre-checks (the same rules, tried only where they can match), for speed on big corpora.
# All of these run on lower-cased text.
_MAYBE_URL = re.compile(r"https?:|www\.|doi:|arxiv:|\.(?:com|org|io|co|net|edu|science)\b")


@lru_cache(maxsize=None)
def _any_pattern() -> re.Pattern:
    return re.compile("|".join(f"(?:{rule.pattern.pattern})" for rule in link_patterns()))


_ARTIFACT = re.compile(
    r"\b(?:code|codes|data|datasets?|models?|implementations?|benchmarks?|checkpoints?|weights|software|"
    r"library|toolkit|toolbox|repository|resources|source|package|tools?|demo|project)\b")


def sentence_classes(sentence: str) -> tuple[str, str]:
    """The statement a sentence makes about links, and the pattern that said so.

    ``linked`` when it holds a URL to code, data or a project page; else
    ``dangling`` or ``promised`` when a pattern matches (a promise must also
    name an artifact: code, data, models, ...); else ``none``.

    Examples
    --------
    >>> sentence_classes("Our code can be found here.")[0]
    'dangling'
    >>> sentence_classes("The code will be released soon.")[0]
    'promised'
    >>> sentence_classes("Energy will be released as heat.")[0]
    'none'
    """
    lower = sentence.lower()
    urls = extract_urls(sentence) if _MAYBE_URL.search(lower) else []
    if any(classify_host(u)["kind"] != "paper" for u in urls):
        return "linked", "url"
    if not _any_pattern().search(lower):
        return "none", ""
    for rule in link_patterns():
        if rule.pattern.search(lower):
            if rule.statement == "promised" and not _ARTIFACT.search(lower):
                continue
            return rule.statement, rule.pattern.pattern
    return "none", ""


def makes_promise(sentence: str) -> bool:
    """Whether a sentence announces a future release of code or data (URL or not).

    Examples
    --------
    >>> makes_promise("Code and models will be made publicly available at https://github.com/a/b.")
    True
    """
    lower = sentence.lower()
    return _ARTIFACT.search(lower) is not None and any(
        rule.statement == "promised" and rule.pattern.search(lower) for rule in link_patterns())


def paper_link_states(papers: pd.DataFrame, links: pd.DataFrame | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Per-paper link state and the sentences behind it.

    ``links`` (from :func:`find_links` on the same papers) saves extracting
    each paper's URLs a second time for ``n_urls``.

    Returns
    -------
    states : DataFrame
        ``paper_id, link_state, promised_too, n_urls``.
    statements : DataFrame
        ``paper_id, sentence_no, statement, sentence, pattern`` for every
        sentence that is not ``none``.
    """
    links = find_links(papers) if links is None else links
    urls_per_paper = links.groupby("paper_id").size().to_dict()
    state_rows, statement_rows = [], []
    for paper_id, text in zip(papers["paper_id"], papers["text"]):
        classes = set()
        for number, sentence in enumerate(split_sentences(text), start=1):
            statement, pattern = sentence_classes(sentence)
            if statement == "linked" and makes_promise(sentence):
                classes.add("promised")
            if statement != "none":
                classes.add(statement)
                statement_rows.append(dict(paper_id=paper_id, sentence_no=number, statement=statement,
                                           sentence=sentence, pattern=pattern))
        state = next((s for s in LINK_STATES[:3] if s in classes), "none")
        state_rows.append(dict(paper_id=paper_id, link_state=state,
                               promised_too=state == "linked" and "promised" in classes,
                               n_urls=int(urls_per_paper.get(paper_id, 0))))
    states = pd.DataFrame(state_rows, columns=["paper_id", "link_state", "promised_too", "n_urls"])
    statements = pd.DataFrame(statement_rows,
                              columns=["paper_id", "sentence_no", "statement", "sentence", "pattern"])
    return states, statements


def find_links(papers: pd.DataFrame) -> pd.DataFrame:
    """One row per (paper, URL): ``paper_id, source_file, url, host, kind, owner, repository``."""
    rows = []
    for paper_id, source_file, text in zip(papers["paper_id"], papers["source_file"], papers["text"]):
        for url in extract_urls(text):
            rows.append(dict(paper_id=paper_id, source_file=source_file, url=url, **classify_host(url)))
    return pd.DataFrame(rows, columns=["paper_id", "source_file", "url", "host", "kind", "owner", "repository"])


def analyse_links(papers: pd.DataFrame, *, n_jobs: int | None = None
                  ) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """:func:`find_links` and :func:`paper_link_states` together, on several cores for big corpora.

    Returns ``(links, states, statements)``; the same tables whatever ``n_jobs`` is.
    """
    from helpers.parallel import map_chunks

    parts = map_chunks(_links_and_states, papers[["paper_id", "source_file", "text"]], n_jobs=n_jobs)
    links, states, statements = (pd.concat([part[i] for part in parts], ignore_index=True)
                                 for i in range(3))
    return links, states, statements


def _links_and_states(papers: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    links = find_links(papers)
    return (links, *paper_link_states(papers, links))


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
