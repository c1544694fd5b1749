"""Word lists: the stop words no term or theme word is made of, and the project's lists behind them.

:func:`stop_words` is scikit-learn's English stop words plus :func:`boilerplate_words`, the words of abstracts
in every field that say nothing of their subject ("propose", "novel", "study", "result"). The lists are text
files in ``helpers/analysis/resources/``, one word a line.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

__all__ = ["stop_words", "boilerplate_words"]


def _read_word_list(name: str) -> frozenset[str]:
    content = resources.files("helpers.analysis").joinpath("resources", name).read_text(encoding="utf-8")
    return frozenset(
        line.strip().lower() for line in content.splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    )


@lru_cache(maxsize=None)
def boilerplate_words() -> frozenset[str]:
    """The project's list of abstract boilerplate (``resources/boilerplate_stopwords.txt``).

    Returns
    -------
    frozenset of str
        Lower-case words of ``boilerplate_stopwords.txt``.

    Examples
    --------
    >>> {"propose", "novel"} <= boilerplate_words(), "the" in boilerplate_words()
    (True, False)
    """
    return _read_word_list("boilerplate_stopwords.txt")


@lru_cache(maxsize=None)
def stop_words() -> frozenset[str]:
    """scikit-learn's English stop words plus the boilerplate list.

    Returns
    -------
    frozenset of str
        Lower-case words, scikit-learn's and the project's.

    Examples
    --------
    >>> {"the", "we", "propose", "novel"} <= stop_words()
    True
    >>> "transformer" in stop_words()
    False
    """
    # Imported here: scikit-learn takes over a second to import, and pages that only read results never need it.
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    return frozenset(ENGLISH_STOP_WORDS) | boilerplate_words()
