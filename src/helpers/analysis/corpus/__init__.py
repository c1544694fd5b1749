"""Read a corpus of abstracts into tidy tables.

The seed format (``.txt``, :mod:`helpers.analysis.readers.seed`) is plain UTF-8 text: an optional
one-line header, then one abstract per block, blocks separated by blank lines. Bibliographic files and
database exports are read by their reader (:mod:`helpers.analysis.readers`: BibTeX, RIS, CSV/TSV by the
database's column names, JSON and JSON Lines with OpenAlex works, Web of Science plain text, MEDLINE), the
format decided in one place (:func:`helpers.analysis.readers.file_format`), one block per entry. Publisher
boilerplate is left out of the analysed texts of entries (:mod:`helpers.analysis.readers.boilerplate`; an entry
that is nothing else is a ``boilerplate-only`` block), a proceedings volume's own record is a ``proceedings``
block (:mod:`helpers.analysis.readers.front_matter`), and the same paper from two records is one paper (by abstract, DOI, or title and year). Every non-blank
block (every entry) of every file ends up as one row of
:attr:`Corpus.blocks`, so nothing is dropped without a row saying why; unique abstracts become
rows of :attr:`Corpus.papers`, with the entries' metadata (:data:`METADATA_COLUMNS`) when any
file is bibliographic.

One module a job, in the order a corpus is read:

1. :mod:`.files`, :func:`expand_paths`: which files (a directory's corpus files in name order) and their names.
2. :mod:`.decoding`, :func:`parse_file`: one file's bytes decoded and read into its header and block rows,
   after :mod:`helpers.analysis.text.normalise` (:func:`normalise_text`: line ends, Unicode spaces, invisible characters).
3. :mod:`.one_file`, :func:`read_one_file`: a file read on its own, whole or in pieces, as one task of a run;
   :mod:`.file_pieces`, :func:`split_file`: a large file cut where no block can straddle, its pieces' blocks joined
   back in file order (:func:`join_pieces`), the same as read whole.
4. :mod:`.assembly`, :func:`read_corpus` and :func:`assemble_corpus`: the files' rows joined, duplicates found
   across files (same abstract, DOI, or title and year), the :class:`Corpus` tables (:mod:`.tables`).
5. :mod:`.hashes`: a paper's id and facts from its text (:func:`abstract_facts`), the corpus's SHA-256.
6. :mod:`.report`, :func:`parse_report`: per file, its blocks by kind, for the book.
"""

from helpers.analysis.corpus.assembly import assemble_corpus, read_corpus
from helpers.analysis.corpus.decoding import decode_file, parse_file, parse_records_file, record_row
from helpers.analysis.corpus.files import directory_files, expand_paths, read_file_bytes, source_names, write_corpus
from helpers.analysis.corpus.hashes import abstract_facts, corpus_sha256
from helpers.analysis.text.normalise import dedup_key, normalise_text
from helpers.analysis.corpus.file_pieces import (PIECE_BYTES, FilePiece, ParsedPiece, file_sha256, join_pieces,
                                                piece_bytes, split_file)
from helpers.analysis.corpus.one_file import (light_piece, light_rows, read_one_file, read_piece, read_whole_file,
                                             without_texts)
from helpers.analysis.corpus.report import papers_per_header, parse_report
from helpers.analysis.corpus.tables import (BLOCK_COLUMNS, BLOCK_KINDS, CLEANING_COLUMNS, CORPUS_SUFFIXES, FILE_COLUMNS,
                                          MERGE_COLUMNS, METADATA_COLUMNS, MIN_ABSTRACT_WORDS, PAPER_COLUMNS,
                                          RECORD_KINDS, Corpus, CorpusError)
from helpers.analysis.readers.seed import MAX_HEADER_WORDS, split_blocks

__all__ = [
    "Corpus", "CorpusError", "read_corpus", "assemble_corpus", "read_one_file", "read_whole_file", "read_piece",
    "read_file_bytes", "light_rows", "light_piece", "without_texts", "parse_file", "parse_records_file", "decode_file", "record_row",
    "expand_paths", "directory_files", "source_names", "normalise_text", "dedup_key",
    "split_blocks", "abstract_facts", "corpus_sha256", "parse_report", "papers_per_header",
    "MIN_ABSTRACT_WORDS", "MAX_HEADER_WORDS", "BLOCK_KINDS", "RECORD_KINDS", "METADATA_COLUMNS", "CORPUS_SUFFIXES",
    "PAPER_COLUMNS", "BLOCK_COLUMNS", "FILE_COLUMNS", "MERGE_COLUMNS", "CLEANING_COLUMNS",
]
__all__ += ["write_corpus", "PIECE_BYTES", "FilePiece", "ParsedPiece", "split_file", "piece_bytes", "join_pieces",
            "file_sha256"]
