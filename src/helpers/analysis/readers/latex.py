"""LaTeX in titles, names and abstracts, decoded for display with pylatexenc (bibtexparser's own dependency).

Text-mode markup becomes Unicode (``{B}ayesian`` -> Bayesian, ``\\emph{x}`` -> x, ``\\"{o}`` -> ö,
``--`` -> en dash); math (``$...$``, ``\\(...\\)``) is kept exactly as written, for MathJax and the text
analysis. What PMLR leaves unescaped is protected first: a bare ``%`` (a LaTeX comment) or ``&``, and
URLs (``~``, ``%20``, ``_``), which are never decoded.
"""

from __future__ import annotations

import re
from functools import lru_cache

# Only text with one of these can change; everything else is returned as it is (the fast path).
_MARKUP = re.compile(r"[\\{}~]|--|``|''")
# Math, display first so "$$" is not read as an empty "$...$".
_MATH = re.compile(r"\$\$.+?\$\$|\$[^$]+\$|\\\(.+?\\\)|\\\[.+?\\\]", re.DOTALL)
# Kept as written by latex_to_text: URLs, and math.
_VERBATIM = re.compile(r"https?://[^\s{}]+|" + _MATH.pattern, re.IGNORECASE | re.DOTALL)
_BARE = re.compile(r"(?<!\\)([%&#])")
# Text without a backslash needs only these (what pylatexenc does with them), much faster.
_SIMPLE = [("---", "\u2014"), ("--", "\u2013"), ("``", "\u201c"), ("''", "\u201d"), ("~", " "), ("{", ""),
           ("}", "")]


@lru_cache(maxsize=2)
def _converter(math_mode: str = "verbatim"):
    """pylatexenc's converter: math kept as written (``verbatim``) or written as text (``text``)."""
    from pylatexenc.latex2text import LatexNodes2Text

    return LatexNodes2Text(math_mode=math_mode, keep_comments=False, strict_latex_spaces=False)


def _decode_piece(text: str) -> str:
    if not _MARKUP.search(text):
        return text
    if "\\" not in text:
        for mark, replacement in _SIMPLE:
            text = text.replace(mark, replacement)
        return text
    try:
        return _converter().latex_to_text(_BARE.sub(r"\\\1", text))
    except Exception:  # pylatexenc is tolerant; anything it still refuses is shown as written
        return text


def latex_to_text(text: str) -> str:
    r"""``text`` with its text-mode LaTeX decoded, math and URLs kept, white space runs made one space.

    Examples
    --------
    >>> latex_to_text(r"{B}ayesian \emph{deep} nets, Mitrovi\'{c} and D\'{e}j\`{a}Vu, pages 1--18")
    'Bayesian deep nets, Mitrović and DéjàVu, pages 1–18'
    >>> latex_to_text(r"within 10% of $\tilde{O}(n^2)$ & R&D, see https://x.org/~a_b%20c")
    'within 10% of $\\tilde{O}(n^2)$ & R&D, see https://x.org/~a_b%20c'
    >>> latex_to_text(r"a ``fool'' --- {L}eman \textit{et al.} \(x\) $$y$$")
    'a “fool” — Leman et al. \\(x\\) $$y$$'
    >>> latex_to_text("plain text stays as it is")
    'plain text stays as it is'
    """
    if not _MARKUP.search(text):
        return " ".join(text.split())
    pieces, last = [], 0
    for match in _VERBATIM.finditer(text):
        pieces.append(_decode_piece(text[last:match.start()]))
        pieces.append(match.group())
        last = match.end()
    pieces.append(_decode_piece(text[last:]))
    return " ".join("".join(pieces).split())


def _math_piece_text(math: str) -> str:
    try:
        return _converter("text").latex_to_text(math).strip()
    except Exception:  # anything pylatexenc refuses is shown without its delimiters
        return math.strip("$").removeprefix("\\(").removesuffix("\\)").removeprefix("\\[").removesuffix("\\]")


def math_as_text(text: str) -> str:
    r"""``text`` (already decoded by :func:`latex_to_text`) with its math written as plain text, for titles.

    One rule for every place a title is shown (book tables, the explorer, the PDF): the ``$`` delimiters
    go, macros become Unicode (``\alpha`` -> α, ``\mathcal{H}`` -> ℋ), ``\text{}`` and group braces are
    unwrapped, ``^`` and ``_`` are kept. Everything outside math is left as it is (HTML escaping is the
    caller's, as for all untrusted text).

    Examples
    --------
    >>> math_as_text(r"A Graph is Worth $K$ Words")
    'A Graph is Worth K Words'
    >>> math_as_text(r"N$\text{{A}}^\text{2}$Q and the $n^{1.5}$ barrier, $\alpha$-nets")
    'NA^2Q and the n^1.5 barrier, α-nets'
    >>> math_as_text("costs $5 <b>only</b>")
    'costs $5 <b>only</b>'
    """
    if "$" not in text and "\\" not in text:
        return text
    return _MATH.sub(lambda match: _math_piece_text(match.group()), text)
