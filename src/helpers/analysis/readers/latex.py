"""LaTeX in titles, names and abstracts, decoded for display with pylatexenc (bibtexparser's own dependency).

Text-mode markup becomes Unicode (``{B}ayesian`` -> Bayesian, ``\\emph{x}`` -> x, ``\\"{o}`` -> ö,
``--`` -> en dash); math (``$...$``, ``\\(...\\)``) is kept exactly as written, for MathJax and the text
analysis. What PMLR leaves unescaped is protected first: a bare ``%`` (a LaTeX comment) or ``&``, and
URLs (``~``, ``%20``, ``_``), which are never decoded.
"""

from __future__ import annotations

import re
from functools import lru_cache

__all__ = ["latex_to_text", "scripts_as_unicode", "math_as_text"]

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

    Parameters
    ----------
    text : str
        A title, author list or abstract as a file writes it.

    Returns
    -------
    str
        The text to show and analyse.

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


# Unicode's superscript and subscript forms (Latin letters only where Unicode has one: no superscript q, C, F,
# Q, S, X, Y, Z; subscripts of a few lower-case letters), and the macros that have one.
_SUPERSCRIPTS = dict(zip("0123456789+-=()abcdefghijklmnoprstuvwxyzABDEGHIJKLMNOPRTUVW*",
                         "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻᴬᴮᴰᴱᴳᴴᴵᴶᴷᴸᴹᴺᴼᴾᴿᵀᵁⱽᵂ*"))
_SUBSCRIPTS = dict(zip("0123456789+-=()aehijklmnoprstuvx", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ"))
_SUPERSCRIPT_MACROS = {"top": "ᵀ", "prime": "′", "ast": "*", "dagger": "†", "circ": "°"}
# In math: ^ or _ and one token: a group, \text-like{...}, a macro or one character (as TeX reads it).
_MATH_SCRIPT = re.compile(r"([\^_])\s*(?:\{\s*([^{}]*?)\s*\}"
                          r"|\\(?:text|textrm|textit|textbf|mathrm|mathit|mathbf|mathsf)\s*\{\s*([^{}]*?)\s*\}"
                          r"|\\([A-Za-z]+)|([A-Za-z0-9*]))")
# Outside math, only what reads as a script: after a letter, digit or ")", ^ with a group, digits or one
# letter, and _ with a group (a bare "_" is a snake_case name).
_TEXT_SCRIPT = re.compile(r"(?<=[A-Za-z0-9)])(?:(\^)(?:\{([^{}]*)\}|(\d+)|([A-Za-z*])(?![A-Za-z]))|(_)\{([^{}]*)\})")
# A font macro whose braces were lost ("\mathcalO"): pylatexenc reads an unknown macro and drops the letter.
_BARE_FONT = re.compile(r"\\(mathcal|mathbb|mathfrak|mathscr|mathrm|mathbf|mathit|mathsf)([A-Za-z])(?![A-Za-z])")


def _script(mark: str, content: str) -> str | None:
    """``content`` (characters and macros) as Unicode super- (``^``) or subscripts; ``None`` when one has no form."""
    forms = _SUPERSCRIPTS if mark == "^" else _SUBSCRIPTS
    macros = _SUPERSCRIPT_MACROS if mark == "^" else {}
    pieces = []
    for macro, char in re.findall(r"\\([A-Za-z]+)\s*|(\S)", content):
        form = macros.get(macro) if macro else forms.get(char)
        if form is None:
            return None
        pieces.append(form)
    return "".join(pieces) or None


def _math_scripts(math: str) -> str:
    """The TeX source of one math piece with its scripts as Unicode (:func:`_script`) where each has a form."""
    def replace(match: re.Match) -> str:
        mark, group, styled, macro, char = match.groups()
        content = group if group is not None else styled if styled is not None else \
            ("\\" + macro if macro else char)
        return _script(mark, content) or match.group()

    return _MATH_SCRIPT.sub(replace, _BARE_FONT.sub(r"\\\1{\2}", math))


def scripts_as_unicode(text: str) -> str:
    """Plain text (no math delimiters) with its TeX-like scripts as Unicode where every character has a form.

    Parameters
    ----------
    text : str
        Text outside math.

    Returns
    -------
    str
        The text, ``^{3}`` as ³, ``_{2}`` as ₂ where each character has a form.

    Examples
    --------
    >>> scripts_as_unicode("H_{2}O at 10^{3} K")
    'H₂O at 10³ K'

    Examples
    --------
    >>> scripts_as_unicode("I^2SB, NA^2Q, x_{i}, O(n^{-1}) and c^{1.5}, snake_case")
    'I²SB, NA²Q, xᵢ, O(n⁻¹) and c^{1.5}, snake_case'
    """
    if "^" not in text and "_{" not in text:
        return text

    def replace(match: re.Match) -> str:
        caret, group, digits, letter, _, sub_group = match.groups()
        if caret:
            return _script("^", group if group is not None else digits or letter) or match.group()
        return _script("_", sub_group) or match.group()

    return _TEXT_SCRIPT.sub(replace, text)


def _math_piece_text(math: str) -> str:
    math = _math_scripts(math)
    try:
        return _converter("text").latex_to_text(math).strip()
    except Exception:  # anything pylatexenc refuses is shown without its delimiters
        return math.strip("$").removeprefix("\\(").removesuffix("\\)").removeprefix("\\[").removesuffix("\\]")


def math_as_text(text: str) -> str:
    r"""``text`` (already decoded by :func:`latex_to_text`) with its math written as plain text, for titles.

    One rule for every place a title is shown (book tables, the explorer, the PDF): the ``$`` delimiters
    go, macros become Unicode (``\alpha`` -> α, ``\mathcal{H}`` -> ℋ), ``\text{}`` and group braces are
    unwrapped, and a superscript or subscript becomes Unicode's form (``I$^2$SB`` -> I²SB, ``$D^T$`` -> Dᵀ,
    ``$x_{i}$`` -> xᵢ) when each of its characters has one, else keeps its ``^`` or ``_`` (``n^1.5``).
    Outside math only scripts that read as such are decoded (:func:`scripts_as_unicode`); the rest is left
    as it is (HTML escaping is the caller's, as for all untrusted text). The input's own title is never
    changed: this is the displayed form only.

    Parameters
    ----------
    text : str
        A title, decoded.

    Returns
    -------
    str
        The title as plain text.

    Examples
    --------
    >>> [math_as_text(title) for title in (r"A Graph is Worth $K$ Words", "costs $5 <b>only</b>")]
    ['A Graph is Worth K Words', 'costs $5 <b>only</b>']
    >>> math_as_text(r"N$\text{{A}}^\text{2}$Q and the $n^{1.5}$ barrier, $\alpha$-nets")
    'NA²Q and the n^1.5 barrier, α-nets'
    """
    if "$" not in text and "\\" not in text:
        return scripts_as_unicode(text)
    pieces, last = [], 0
    for match in _MATH.finditer(text):
        pieces += [scripts_as_unicode(text[last:match.start()]), _math_piece_text(match.group())]
        last = match.end()
    return "".join(pieces) + scripts_as_unicode(text[last:])
