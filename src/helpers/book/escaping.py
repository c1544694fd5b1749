"""Text from the corpus, escaped for where the book places it outside a cell's own output: MyST Markdown (a
substitution, a ``{glue:md}`` sentence) and HTML templates."""

from __future__ import annotations

import re
import string

from markupsafe import Markup

__all__ = ["html_literal", "myst_literal"]

_PUNCTUATION = re.compile(f"([{re.escape(string.punctuation)}])")


def myst_literal(text: str) -> str:
    r"""``text`` as MyST Markdown that renders as exactly that text on one line: every ASCII punctuation character
    backslash-escaped (CommonMark allows it for all of them), so no HTML, role, substitution, math or link starts.

    Parameters
    ----------
    text
        Text from the corpus (a title, a venue).

    Returns
    -------
    str
        MyST Markdown; runs of white space become one space.

    Examples
    --------
    >>> print(myst_literal("<img src=x onerror=alert(1)> {{ env }}  {raw}`html`"))
    \<img src\=x onerror\=alert\(1\)\> \{\{ env \}\} \{raw\}\`html\`
    """
    return _PUNCTUATION.sub(r"\\\1", " ".join(str(text).split()))


def html_literal(text: str) -> Markup:
    """``text`` escaped for HTML, as :class:`markupsafe.Markup` so that the theme's templates print it as it is
    whether they escape it (``{{ docstitle|e }}``) or not (``{{ docstitle }}``).

    Parameters
    ----------
    text
        Text from the corpus.

    Returns
    -------
    Markup
        Escaped HTML on one line.

    Examples
    --------
    >>> html_literal('<b onclick="x">A & B</b>')
    Markup('&lt;b onclick=&#34;x&#34;&gt;A &amp; B&lt;/b&gt;')
    >>> str(html_literal("ICML 2024")) + " - Home"
    'ICML 2024 - Home'
    """
    return Markup.escape(" ".join(str(text).split()))
