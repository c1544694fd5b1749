"""Arrays a page computes slowly from the analysis (the papers' t-SNE map), kept beside the cached analysis.

A page re-run on the same corpus and settings (a notebook's Run All, a rebuilt book) loads the array instead of
computing it again; the key is a digest of everything the array depends on, so any change computes it anew.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
from helpers.book.settings import config


def array_key(parts: Sequence[object]) -> str:
    """A digest of arrays and values (arrays by dtype, shape and bytes; other values by ``repr``).

    Parameters
    ----------
    parts
        Arrays and other values (numbers, strings, tuples of them).

    Returns
    -------
    str
        24 hex digits.

    Examples
    --------
    >>> array_key([np.zeros((2, 2)), 30.0, 0]) == array_key([np.zeros((2, 2)), 30.0, 0])
    True
    >>> array_key([np.zeros((2, 2)), 30.0, 0]) == array_key([np.zeros((2, 2)), 30.0, 1])
    False
    """
    digest = hashlib.sha256()
    for part in parts:
        if isinstance(part, np.ndarray):
            digest.update(f"{part.dtype}{part.shape}".encode())
            digest.update(np.ascontiguousarray(part).tobytes())
        else:
            digest.update(repr(part).encode())
        digest.update(b"\0")
    return digest.hexdigest()[:24]


def cached_array(name: str, parts: Sequence[object], compute: Callable[[], np.ndarray],
                 folder: Path | None = None) -> np.ndarray:
    """``compute()``, or the array it gave before for the same ``parts`` (saved under ``folder``, by default the
    book's analysis cache). Written atomically: an interrupted run leaves no half-written file.

    Parameters
    ----------
    name
        A name for the array's file (a prefix; the key follows it).
    parts
        What the array is computed from (:func:`array_key`).
    compute
        Computes the array when none is saved.
    folder
        Where arrays are saved (default: the book's analysis cache).

    Returns
    -------
    ndarray
        The array.

    Examples
    --------
    >>> folder = Path(tempfile.mkdtemp())
    >>> calls = []
    >>> def compute():
    ...     calls.append(1)
    ...     return np.arange(3.0)
    >>> [cached_array("x", [1], compute, folder).tolist() for _ in range(2)], len(calls)
    ([[0.0, 1.0, 2.0], [0.0, 1.0, 2.0]], 1)
    """
    if folder is None:
        folder = config().cache_dir
    path = Path(folder) / f"{name}-{array_key(parts)}.npy"
    if path.exists():
        return np.load(path, allow_pickle=False)
    result = np.asarray(compute())
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, suffix=".npy.part")
    with os.fdopen(handle, "wb") as stream:
        np.save(stream, result, allow_pickle=False)
    os.replace(temporary, path)
    return result
