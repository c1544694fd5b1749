"""OpenAlex works (the API's ``results`` or a snapshot's JSON Lines): one :class:`Record` per work.

OpenAlex does not ship abstracts as text: ``abstract_inverted_index`` maps each word to its positions,
and :func:`abstract_from_index` writes the words back in order. Read: ``title`` (else ``display_name``),
``authorships[].author.display_name``, ``publication_year``, the venue (``primary_location.source.display_name``,
else ``host_venue.display_name``), ``doi``, ``keywords[].display_name``, ``id`` as the key.
"""

from __future__ import annotations

from typing import Any, Mapping

from helpers.analysis.readers.identity import normalise_doi
from helpers.analysis.readers.records import Record, ReaderError, clean_field, json_type, parse_year, text_value

__all__ = ["abstract_from_index", "is_openalex_work", "openalex_record"]


def abstract_from_index(index: Mapping[str, Any] | None) -> str | None:
    """The abstract written back from OpenAlex's inverted index (``None`` without one).

    Parameters
    ----------
    index : mapping or None
        A work's ``abstract_inverted_index``: each word to its positions.

    Returns
    -------
    str or None
        The words in position order, one space between them.

    Raises
    ------
    ReaderError
        When the index is no object, or a word's positions are no array of whole numbers from 0.

    Examples
    --------
    >>> abstract_from_index({"We": [0], "rank": [1, 4], "and": [3], "things": [2], ".": [5]})
    'We rank things and rank .'
    >>> abstract_from_index(None), abstract_from_index({})
    (None, None)
    >>> abstract_from_index({"We": "0"})
    Traceback (most recent call last):
    ...
    helpers.analysis.readers.records.ReaderError: abstract_inverted_index: the positions of 'We' are text, \
expected an array of whole numbers
    """
    if not index:
        return None
    if not isinstance(index, Mapping):
        raise ReaderError(f"abstract_inverted_index is {json_type(index)}, expected an object")
    placed = []
    for word, positions in index.items():
        if positions is None:
            continue
        if not isinstance(positions, list):
            raise ReaderError(f"abstract_inverted_index: the positions of {str(word)!r} are {json_type(positions)},"
                              " expected an array of whole numbers")
        for position in positions:
            if not isinstance(position, int) or isinstance(position, bool) or position < 0:
                what = "a negative number" if isinstance(position, int) and position < 0 else json_type(position)
                raise ReaderError(f"abstract_inverted_index: a position of {str(word)!r} is {what}, expected a"
                                  " whole number from 0")
            placed.append((position, str(word)))
    placed.sort()
    return " ".join(word for _, word in placed) or None


def is_openalex_work(value: Mapping[str, Any]) -> bool:
    """Whether a JSON object is an OpenAlex work (its id is an OpenAlex URL, or it has an inverted abstract).

    Parameters
    ----------
    value : mapping
        A JSON object of a file.

    Returns
    -------
    bool
        Whether to read it as an OpenAlex work.

    Examples
    --------
    >>> is_openalex_work({"id": "https://openalex.org/W1"}), is_openalex_work({"abstract": "x"})
    (True, False)
    """
    return str(value.get("id", "")).startswith("https://openalex.org/") or "abstract_inverted_index" in value


def _venue(work: Mapping[str, Any]) -> str:
    location = work.get("primary_location") or {}
    source = location.get("source") or {} if isinstance(location, Mapping) else {}
    venue = source.get("display_name") if isinstance(source, Mapping) else None
    if not venue:
        host = work.get("host_venue") or {}
        venue = host.get("display_name") if isinstance(host, Mapping) else None
    return clean_field(text_value(venue, "primary_location.source.display_name"))


def _array(work: Mapping[str, Any], name: str) -> list:
    """The array ``work[name]`` (empty when missing or null); anything else is a :class:`ReaderError`."""
    value = work.get(name)
    if value is None:
        return []
    if not isinstance(value, list):
        raise ReaderError(f"field '{name}' is {json_type(value)}, expected an array")
    return value


def openalex_record(work: Mapping[str, Any], first: int, last: int) -> Record:
    """One OpenAlex work as a record, on lines ``first`` to ``last`` of its file.

    Parameters
    ----------
    work : mapping
        An OpenAlex work.
    first, last : int
        Its lines in the file (1-based).

    Returns
    -------
    Record
        The work's fields as a record.

    Examples
    --------
    >>> record = openalex_record({"id": "https://openalex.org/W2", "doi": "https://doi.org/10.1234/ABC",
    ...     "title": "A Title", "publication_year": 2023, "authorships": [{"author": {"display_name": "Jane Doe"}}],
    ...     "primary_location": {"source": {"display_name": "Journal of X"}},
    ...     "abstract_inverted_index": {"One": [0], "two": [1]}, "keywords": [{"display_name": "alpha"}]}, 1, 1)
    >>> record.key, record.doi, record.title, record.year, record.authors, record.venue
    ('https://openalex.org/W2', '10.1234/abc', 'A Title', 2023, 'Jane Doe', 'Journal of X')
    >>> record.abstract, record.keywords
    ('One two', 'alpha')
    """
    authors = []
    for authorship in _array(work, "authorships"):
        author = authorship.get("author") if isinstance(authorship, Mapping) else None
        name = (author or {}).get("display_name") if isinstance(author, Mapping) else None
        if name:
            authors.append(clean_field(text_value(name, "authorships.author.display_name")))
    keywords = [clean_field(text_value(k.get("display_name") if isinstance(k, Mapping) else k, "keywords"))
                for k in _array(work, "keywords")]
    for name in ("id", "title", "display_name", "doi", "publication_year"):
        text_value(work.get(name), name)
    abstract = abstract_from_index(work.get("abstract_inverted_index"))
    if abstract is None and isinstance(work.get("abstract"), str) and work["abstract"].strip():
        abstract = work["abstract"]
    return Record(
        first_line=first, last_line=last, key=clean_field(work.get("id")), abstract=abstract,
        title=clean_field(work.get("title") or work.get("display_name")), authors="; ".join(authors),
        year=parse_year(work.get("publication_year")), venue=_venue(work), doi=normalise_doi(work.get("doi")),
        keywords="; ".join(k for k in keywords if k),
        fields={name: clean_field(work.get(name)) for name in ("type", "language") if work.get(name)},
    )
