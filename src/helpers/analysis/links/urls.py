"""URLs in abstract text: find them (repairing broken ones), clean them, and split sentences around them.

The leaf of the links analysis: it imports nothing of the project, so the text stage (which removes
exactly the spans found here from the analysed text), the availability grammar and the per-paper
link states (:mod:`helpers.analysis.links.states`) share one URL finder.

Malformed URLs that a reader can still repair (``https//``, ``http:/``,
``https: //``, a stray space inside the address, a missing scheme, a trailing
backtick or doubled punctuation) are repaired and flagged: :class:`FoundUrl` has
``repaired`` and ``original`` (the text as written). So is a hub named as the
place with ``owner/name`` identifiers ("available on Hugging Face (org/model)",
"released on GitHub: owner/repo"): the identifiers become
``https://huggingface.co/org/model`` and ``https://github.com/owner/repo``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

__all__ = ["FoundUrl", "find_urls", "find_url_spans", "clean_url", "is_safe_url", "split_sentences"]

_TRAILING = ".,;:!?'\"*’”»`"
_CLOSERS = {")": "(", "]": "[", ">": "<", "}": "{"}
_SCHEMELESS_HOSTS = ("gist.github.com", "github.com", "gitlab.com", "bitbucket.org", "codeberg.org",
                     "huggingface.co", "zenodo.org", "kaggle.com", "osf.io", "figshare.com", "sites.google.com")
_KNOWN_HOSTS = "(?:" + "|".join(re.escape(h) for h in _SCHEMELESS_HOSTS) + ")"
# A scheme as written: "://", or one of the broken forms "https//", "http:/", "https: //".
_SCHEME = r"(?P<scheme>https?)(?P<sep>://|:\s{1,2}//|:/\s?/|//|:/)"
_PATTERNS = [
    # One level of parentheses inside the address: [x](https://en.wikipedia.org/wiki/A_(b)).
    ("markdown", re.compile(r"\[(?P<text>[^\]]*)\]\(\s*(?P<address>https?://(?:[^\s()]|\([^\s()]*\))+)\s*\)", re.I)),
    ("angle", re.compile(r"<(https?://[^\s<>]+)>", re.I)),
    ("url", re.compile(r"(?<![\w.-])" + _SCHEME + r"(?P<rest>[^\s<>\"]+)", re.I)),
    ("www", re.compile(r"(?<![\w/.@-])www\.[\w-]+(?:\.[\w-]+)+[^\s<>\"]*", re.I)),
    ("doi", re.compile(r"\bdoi:\s*(10\.\d{4,9}/[^\s<>\"]+)", re.I)),
    ("arxiv", re.compile(r"\barxiv:\s*(\d{4}\.\d{4,5}(?:v\d+)?)", re.I)),
    ("schemeless", re.compile(
        rf"(?<![\w/.@:-])((?:www\.)?{_KNOWN_HOSTS}/[^\s<>\"]*|[\w-]+\.github\.io(?:/[^\s<>\"]*)?)", re.I)),
]
# Text every match of each pattern contains (lower case): a pattern is only run where it can match.
_PATTERN_HINTS = {
    "markdown": ("](",), "angle": ("<http",), "url": ("http",), "www": ("www.",), "doi": ("doi:",),
    "arxiv": ("arxiv:",), "schemeless": (*_SCHEMELESS_HOSTS, ".github.io"),
}
# Text one of the hints above contains (every schemeless host holds ".co", ".org" or ".io"): most abstracts
# hold none, and a few substring tests settle them (the analysed text asks this of every abstract).
_ANY_HINT = ("](", "http", "www.", "doi:", "arxiv:", ".co", ".org", ".io")
# The next word continues an address cut by a stray space: "github.com/ owner/repo", "github. com/x".
_AFTER_SLASH = re.compile(r"[\w.-]+/[^\s<>\"]*|\w+[-_][\w-]*[^\s<>\"]*|/[^\s<>\"]*")
_AFTER_DOT = re.compile(r"(?:com|org|io|net|edu|ai|co|dev|app|science)(?:/[^\s<>\"]*)?[.,;:)]?")
_NEXT_WORD = re.compile(r"\s{1,2}([^\s<>\"]+)")
# A hub named as the place with repository identifiers after it: "available on Hugging Face
# (org/model-a, org/model-b)", "released on GitHub: owner/repo". The identifiers are the address.
_HUB_BASES = {"github": "https://github.com/", "gitlab": "https://gitlab.com/",
              "huggingface": "https://huggingface.co/"}
_HUB_ID = r"[A-Za-z0-9][A-Za-z0-9_-]{0,38}/[A-Za-z0-9_](?:[\w.-]*\w)?"
# Read on lower-case text: a hub's name (not a domain such as "github.com"), a preposition before it.
_HUB_NAME = re.compile(r"(?P<hub>git(?:hub|lab)|hugging\s?face)(?!\.\w|\w)")
_PLACE_BEFORE = re.compile(r"\b(?:on|at|via|from|in|to|through|under)\s+(?:the\s+)?(?:our\s+)?$")
_HUB_REFERENCE = re.compile(
    r"(?P<hub>git(?:hub|lab)|hugging\s?face)"
    r"(?:\s+(?:hub|repositor(?:y|ies)|repos?|organi[sz]ation|page|account))?"
    rf"(?:\s*\(\s*(?P<inner>{_HUB_ID}(?:\s*(?:,|;|and|&)\s*{_HUB_ID})*)\s*\)"
    rf"|\s*(?::|\s(?:at|under|as))\s*(?P<after>{_HUB_ID}(?:\s*(?:,|;|and|&)\s*{_HUB_ID})*)(?=[\s.,;)]|$))",
    re.I)
_HUB_ID_LIST = re.compile(rf"\(\s*(?P<ids>{_HUB_ID}(?:\s*(?:,|;|and|&)\s*{_HUB_ID})*)\s*\)")
_SENTENCE_BREAK = re.compile(r"[.!?]\s")
# What may follow an address in running prose without being a fault: closing quotes or brackets and one
# sentence mark. More than that (a backtick, "..", ".,") is a repair.
_ORDINARY_TAIL = re.compile(r"[)\]>}'\"*’”»]*[.,;:!?]?[)\]>}'\"*’”»]*")


def clean_url(url: str) -> str:
    """Tidy a URL found in running text.

    Trailing punctuation, quotes and backticks go; a closing ``)``, ``]`` or
    ``>`` goes only when it is unbalanced inside the URL; the host is lower-cased.

    Parameters
    ----------
    url : str
        The address as found, possibly with the sentence's punctuation after it.

    Returns
    -------
    str
        The address alone, its scheme and host in lower case.

    Examples
    --------
    >>> clean_url("https://github.com/a/b).")
    'https://github.com/a/b'
    >>> clean_url("https://en.wikipedia.org/wiki/Path_(x)")
    'https://en.wikipedia.org/wiki/Path_(x)'
    >>> clean_url("HTTPS://GitHub.COM/Owner/Repo,")
    'https://github.com/Owner/Repo'
    >>> clean_url("`https://github.com/a/b`.")
    'https://github.com/a/b'
    """
    url = re.split(r"[\s<]", url.lstrip("`'\"*"), maxsplit=1)[0]
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

    Parameters
    ----------
    url : str
        An address from an untrusted text.

    Returns
    -------
    bool
        Whether it may be written as a link.

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


@dataclass(frozen=True)
class FoundUrl:
    """One address found in a text (:func:`find_urls`).

    Attributes
    ----------
    url : str
        The cleaned, repaired URL.
    original : str
        The address as written (without the sentence punctuation after it).
    repaired : bool
        Whether the written form was broken (a scheme without its colon or slashes, a space inside, no scheme at
        all, a backtick or doubled punctuation after it).
    start, end : int
        The offsets of the whole match in the text.
    link_text : str
        The visible text of a Markdown link (``[text](url)``, prose that the analysed text keeps), empty for
        every other kind.

    Examples
    --------
    >>> found = find_urls("See [the code](https://github.com/a/b).")[0]
    >>> found.url, found.link_text, found.repaired
    ('https://github.com/a/b', 'the code', False)
    """

    url: str
    original: str
    repaired: bool
    start: int
    end: int
    link_text: str = ""


def _join_continuations(text: str, end: int) -> int:
    """The end of an address that a stray space cut ("github.com/ owner/repo", "github. com/x")."""
    while True:
        following = _NEXT_WORD.match(text, end)
        if not following:
            return end
        word, previous = following.group(1), text[end - 1]
        if previous == "/" and _AFTER_SLASH.fullmatch(word) or (
                previous == "." and _AFTER_DOT.fullmatch(word)) or word.startswith("/"):
            end = following.end()
        else:
            return end


def find_urls(text: str) -> list[FoundUrl]:
    """Every address in a text, repaired where broken, in order of appearance, without duplicates.

    Finds ``http(s)://`` URLs (also with a broken scheme: ``https//``,
    ``http:/``, ``https: //``), ``www.`` addresses, Markdown link targets (with
    parentheses inside), ``<url>``, ``doi:`` and ``arXiv:`` identifiers (as
    canonical URLs) and scheme-less links to well-known hosts (stored with
    ``https://``). A space inside an address is closed when the next word
    plainly continues it. A hub named as the place with ``owner/name``
    identifiers ("on Hugging Face (org/model)") gives repaired URLs too
    (:func:`_hub_references`). ``javascript:``, ``data:`` and other schemes are never links.

    Parameters
    ----------
    text : str
        An abstract or any running text.

    Returns
    -------
    list of FoundUrl
        The first occurrence of each distinct URL.

    Examples
    --------
    >>> [(u.url, u.original, u.repaired) for u in find_urls("Code: https//github.com/a/b. See https://x.org.")]
    [('https://github.com/a/b', 'https//github.com/a/b', True), ('https://x.org', 'https://x.org', False)]
    >>> find_urls("at https: //lab.github.io and github.com/ o/r.")[1].url
    'https://github.com/o/r'
    >>> [(u.url, u.original) for u in find_urls("Weights are available on GitHub (lab/net).")]
    [('https://github.com/lab/net', 'GitHub (lab/net')]
    """
    unique: dict[str, FoundUrl] = {}
    for item in find_url_spans(text):
        unique.setdefault(item.url, item)
    return list(unique.values())


def find_url_spans(text: str) -> list[FoundUrl]:
    """Every address :func:`find_urls` finds, each occurrence (a URL given twice is there twice), by position.

    The spans the analysed text removes (:func:`helpers.analysis.text.cleaning.analysis_text`). A hub's
    identifier may be found twice (in brackets and after the hub's name), with the same span.

    Parameters
    ----------
    text : str
        The text the analysis will read, URLs and all.

    Returns
    -------
    list of FoundUrl
        Every occurrence, with its offsets in ``text``.

    Examples
    --------
    >>> [(u.start, u.end) for u in find_url_spans("See https://x.org and https://x.org.")]
    [(4, 17), (22, 36)]
    >>> [(u.url, u.link_text) for u in find_url_spans("[our code](https://x.org/c)")]
    [('https://x.org/c', 'our code')]
    """
    taken: list[tuple[int, int]] = []
    found: list[FoundUrl] = []
    lower = text.lower()
    hub = "/" in text and ("git" in lower or "hugging" in lower)
    if not hub and not any(hint in lower for hint in _ANY_HINT):
        return found
    for name, pattern in _PATTERNS:
        if not any(hint in lower for hint in _PATTERN_HINTS[name]):
            continue
        for match in pattern.finditer(text):
            start, end = match.span()
            if any(start < t_end and t_start < end for t_start, t_end in taken):
                continue
            group: int | str = "address" if name == "markdown" else 1 if pattern.groups and name != "url" else 0
            raw_start = match.start(group)
            repaired = False
            if name in ("url", "www", "schemeless"):
                joined = _join_continuations(text, end)
                repaired = joined != end
                end = joined
            raw = text[raw_start:end] if name in ("url", "www", "schemeless") else match.group(group)
            if repaired:
                raw_joined = re.sub(r"\s+", "", raw)
            else:
                raw_joined = raw
            if name == "doi":
                url = "https://doi.org/" + clean_url(raw)
            elif name == "arxiv":
                url = "https://arxiv.org/abs/" + raw
            elif name in ("www", "schemeless"):
                url = clean_url("https://" + raw_joined)
                repaired = True
            else:
                if name == "url":
                    repaired = repaired or match.group("sep") != "://"
                    raw_joined = re.sub(r"^(https?)(?::\s*/\s*/|//|:/)", r"\1://", raw_joined, flags=re.I)
                url = clean_url(raw_joined)
            if not is_safe_url(url):
                continue
            if name in ("doi", "arxiv"):
                original = text[start:end].rstrip(_TRAILING)
            elif name in ("markdown", "angle"):
                original = raw
            else:
                kept = len(raw.rstrip(_TRAILING + ")]>}"))
                balanced = clean_url(raw_joined) if name == "url" else ""
                if "`" in raw or not _ORDINARY_TAIL.fullmatch(raw[kept:]):
                    repaired, original = True, raw
                else:
                    # Keep a closing bracket that belongs to the address: ".../Path_(x)".
                    original = raw[:kept] + ")" * (raw[kept:kept + 1] == ")" and balanced.endswith(")"))
            taken.append((start, end))
            found.append(FoundUrl(url, original, repaired, start, end,
                                  match.group("text") if name == "markdown" else ""))
    if hub:
        found.extend(item for item in _hub_references(text, lower) if not any(
            item.start < t_end and t_start < item.end for t_start, t_end in taken))
    return sorted(found, key=lambda f: f.start)


def _hub_references(text: str, lower: str | None = None) -> list[FoundUrl]:
    """Addresses built from a hub named as the place and ``owner/name`` identifiers after it (repaired).

    ``original`` is the text as written from the hub's name to the identifier;
    ``start`` and ``end`` span the identifier alone.

    Examples
    --------
    >>> [u.url for u in _hub_references("Weights are on Hugging Face (acme/m-1, acme/m-2).")]
    ['https://huggingface.co/acme/m-1', 'https://huggingface.co/acme/m-2']
    >>> _hub_references("Code: on GitHub: lab/tool.")[0].original
    'GitHub: lab/tool'
    >>> _hub_references("Code is on GitHub (and/or by e-mail)."), _hub_references("Data from GitHub (2021/2022).")
    ([], [])
    """
    found: list[FoundUrl] = []
    lower = text.lower() if lower is None or len(lower) != len(text) else lower
    places = [hub for hub in _HUB_NAME.finditer(lower) if _PLACE_BEFORE.search(lower, max(0, hub.start() - 20),
                                                                                 hub.start())]
    if not places:
        return found
    for listed in _HUB_ID_LIST.finditer(text):
        # "Models (org/a) and data (org/b) are available on Hugging Face": the nearest hub named as the place
        # in the same sentence (no sentence end between them) is theirs.
        same = [p for p in places if not _SENTENCE_BREAK.search(
            text[min(p.end(), listed.start()):max(p.start(), listed.end())])]
        if not same or any(p.end() <= listed.start() and not text[p.end():listed.start()].strip(" :")
                           for p in same):
            continue  # none in the sentence, or right after a hub: _HUB_REFERENCE reads it
        place = min(same, key=lambda p: abs(p.start() - listed.start()))
        base = _HUB_BASES[re.sub(r"\s", "", place.group("hub").lower())]
        for identifier in re.finditer(_HUB_ID, listed.group("ids")):
            if not re.search(r"[A-Za-z]", identifier.group(0)):
                continue
            start, end = listed.start("ids") + identifier.start(), listed.start("ids") + identifier.end()
            span = (min(listed.start(), place.start("hub")), max(listed.end(), place.end("hub")))
            found.append(FoundUrl(base + identifier.group(0), text[span[0]:span[1]], True, start, end))
    for place in places:
        match = _HUB_REFERENCE.match(text, place.start())
        if match is None:
            continue
        base = _HUB_BASES[re.sub(r"\s", "", match.group("hub").lower())]
        group = "inner" if match.group("inner") else "after"
        offset = match.start(group)
        for identifier in re.finditer(_HUB_ID, match.group(group)):
            if not re.search(r"[A-Za-z]", identifier.group(0)):
                continue  # "2021/2022" is a span of years, not a repository
            start, end = offset + identifier.start(), offset + identifier.end()
            found.append(FoundUrl(base + identifier.group(0), text[match.start("hub"):end], True, start, end))
    return found


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\[(*_\"'“])")


def split_sentences(text: str) -> list[str]:
    """Split an abstract into sentences (a period inside a URL does not end one).

    Parameters
    ----------
    text : str
        An abstract, its URLs as written.

    Returns
    -------
    list of str
        Its sentences, stripped, empty ones left out.

    Examples
    --------
    >>> split_sentences("We win. Code is at https://x.org/a.b. Thanks!")
    ['We win.', 'Code is at https://x.org/a.b.', 'Thanks!']
    """
    return [s.strip() for s in _SENTENCE_END.split(text) if s.strip()]
