"""Host kinds: what a URL points to (code, data, a project page, a paper), defined once for the whole book.

A paper is ``linked`` when its abstract gives a URL of one of :data:`LINKED_KINDS`, wherever it stands; the
kind comes from the host alone (and, for Hugging Face and DOIs, the start of the path), so that a corpus of any
field is read with the same table: :func:`classify_host`.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

__all__ = ["HOST_KINDS", "LINKED_KINDS", "classify_host"]

#: Every host kind :func:`classify_host` gives.
HOST_KINDS = ("code", "data", "project page", "paper", "other")
#: The one definition of a link to an artefact: a URL of one of these kinds makes a paper ``linked``
#: wherever it stands. An ``other`` URL counts only inside an availability claim; ``paper`` never does.
LINKED_KINDS = ("code", "data", "project page")


# Host kinds, defined once. Hugging Face is split by path: Spaces are runnable code, the rest
# (datasets and model weights) is data.
_CODE_HOSTS = {"github.com", "gitlab.com", "bitbucket.org", "codeberg.org", "sourceforge.net",
               "anonymous.4open.science", "gist.github.com", "git.io", "pypi.org", "colab.research.google.com"}
_DATA_HOSTS = {"huggingface.co", "hf.co", "zenodo.org", "kaggle.com", "figshare.com", "osf.io",
               "dataverse.harvard.edu", "dataverse.org", "openml.org", "drive.google.com", "physionet.org",
               "data.mendeley.com", "datadryad.org"}
# DOIs of data repositories: Zenodo, figshare, Dataverse, OSF, Mendeley Data, Dryad.
_DATA_DOI_PREFIXES = ("10.5281/", "10.6084/", "10.7910/", "10.17605/", "10.17632/", "10.5061/")
_PAPER_HOSTS = {"arxiv.org", "doi.org", "dx.doi.org", "openreview.net", "proceedings.mlr.press",
                "aclanthology.org", "papers.nips.cc", "proceedings.neurips.cc", "ieeexplore.ieee.org",
                "dl.acm.org", "link.springer.com", "biorxiv.org", "medrxiv.org", "ssrn.com",
                "semanticscholar.org", "jmlr.org"}
_PAGE_SUFFIXES = (".github.io", ".gitlab.io", ".netlify.app", ".vercel.app", ".pages.dev", ".readthedocs.io",
                  ".edu")
_PAGE_HOSTS = {"sites.google.com"}
_REPOSITORY_HOSTS = {"github.com", "gitlab.com", "bitbucket.org", "codeberg.org"}


def _host_kind(bare: str, path: list[str]) -> str:
    if bare in ("huggingface.co", "hf.co") and path[:1] == ["spaces"]:
        return "code"
    if bare in _CODE_HOSTS or bare.endswith(".sourceforge.net"):
        return "code"
    if bare in _DATA_HOSTS or bare.endswith((".zenodo.org", ".figshare.com", ".dataverse.org")):
        return "data"
    if bare in ("doi.org", "dx.doi.org") and "/".join(path[:2]).startswith(_DATA_DOI_PREFIXES):
        return "data"
    if bare in _PAPER_HOSTS or bare.endswith((".arxiv.org", ".semanticscholar.org")):
        return "paper"
    if bare.endswith(_PAGE_SUFFIXES) or bare in _PAGE_HOSTS or re.search(r"\.(?:ac|edu)\.[a-z]{2}$", bare):
        return "project page"
    return "other"


def classify_host(url: str) -> dict[str, str]:
    """Host, kind and (for code hosts) owner and repository of a URL.

    Kinds (:data:`HOST_KINDS`): ``code`` (GitHub, GitLab, Bitbucket, Codeberg,
    SourceForge, anonymous.4open.science, Hugging Face Spaces, ...), ``data``
    (Hugging Face datasets and models, Zenodo, Kaggle, OSF, figshare,
    Dataverse, OpenML, data DOIs such as ``10.5281/zenodo.*``, ...), ``project
    page`` (``*.github.io``, ``sites.google.com``, university pages, ...),
    ``paper`` (arXiv, other DOIs, OpenReview, proceedings) and ``other``.
    :data:`LINKED_KINDS` says which of them make a paper ``linked``.

    Parameters
    ----------
    url : str
        A cleaned URL (:func:`helpers.analysis.links.urls.clean_url`).

    Returns
    -------
    dict of str to str
        ``host`` (without ``www.``), ``kind``, ``owner`` and ``repository`` (``""`` where the host has none).

    Examples
    --------
    >>> classify_host("https://github.com/team-approx-bayes/ivon")
    {'host': 'github.com', 'kind': 'code', 'owner': 'team-approx-bayes', 'repository': 'ivon'}
    >>> classify_host("https://fed-3r.github.io/")["kind"], classify_host("https://arxiv.org/abs/1")["kind"]
    ('project page', 'paper')
    >>> classify_host("https://huggingface.co/spaces/a/b")["kind"], classify_host("https://hf.co/datasets/a")["kind"]
    ('code', 'data')
    >>> classify_host("https://doi.org/10.5281/zenodo.1")["kind"]
    'data'
    """
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    bare = host[4:] if host.startswith("www.") else host
    path = [p for p in parts.path.split("/") if p]
    owner = repository = ""
    kind = _host_kind(bare, path)
    if bare == "anonymous.4open.science" and len(path) >= 2:
        owner, repository = "anonymous", path[1]
    elif bare in _REPOSITORY_HOSTS and path:
        owner = path[0]
        repository = path[1].removesuffix(".git") if len(path) > 1 else ""
    return {"host": bare, "kind": kind, "owner": owner, "repository": repository}
