"""What makes two records the same paper: a normalised DOI, else a normalised title and year.

Databases write one DOI in several ways (``{10.1016/J.X}``, ``https://doi.org/10.1016/j.x``,
``doi:10.1016/j.x``); :func:`normalise_doi` gives the one form the papers table shows and duplicates
are found by. Titles differ in case, punctuation, LaTeX braces and accents between databases;
:func:`title_key` keeps only their letters and digits.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["normalise_doi", "title_key"]

_DOI_PREFIX = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi\s*:\s*|doi\s+)", re.IGNORECASE)
_DOI = re.compile(r"10\.\d+(?:\.\d+)*/\S+")


def normalise_doi(value: str | None) -> str:
    """A DOI as ``10.prefix/suffix`` in lower case: no braces, quotes, resolver or ``doi:`` prefix,
    URL-escaped slashes decoded, trailing punctuation left out; ``""`` when there is none.

    Parameters
    ----------
    value : str or None
        A DOI as a file writes it (``https://doi.org/10.1/X``, ``{10.1/x}``, ``doi:10.1/x``).

    Returns
    -------
    str
        The DOI, or ``""``.

    Examples
    --------
    >>> normalise_doi("{{10.1016/J.EJOR.2021.05.017}}")
    '10.1016/j.ejor.2021.05.017'
    >>> normalise_doi("https://doi.org/10.5555/ABC.1"), normalise_doi("doi: 10.1234/x."), normalise_doi("n/a")
    ('10.5555/abc.1', '10.1234/x', '')
    >>> normalise_doi("10.1016/j.respol.2021.104221 [doi]"), normalise_doi("10.1016%2fj.x")
    ('10.1016/j.respol.2021.104221', '10.1016/j.x')
    """
    if not value:
        return ""
    text = " ".join(str(value).split()).strip().strip("{}\"' ")
    text = _DOI_PREFIX.sub("", text).replace("%2F", "/").replace("%2f", "/")
    match = _DOI.search(text)
    if match is None:
        return ""
    return match.group().rstrip(".,;:}]").casefold()


def title_key(title: str | None) -> str:
    """A title's letters and digits in lower case, accents and LaTeX braces dropped, one space between words.

    Parameters
    ----------
    title : str or None
        A title as a file writes it.

    Returns
    -------
    str
        The key two records of one paper share.

    Examples
    --------
    >>> title_key("ELECTRE-SCORE : A first method") == title_key("ELECTRE-SCORE: A First Method")
    True
    >>> title_key("{ELECTRE-SCORE}: A first outranking based method")
    'electre score a first outranking based method'
    >>> title_key("Mémoire sur les élections"), title_key("")
    ('memoire sur les elections', '')
    """
    if not title:
        return ""
    text = unicodedata.normalize("NFKD", str(title))
    text = "".join(c for c in text if not unicodedata.combining(c))
    return " ".join(re.sub(r"[\W_]+", " ", text.casefold()).split())
