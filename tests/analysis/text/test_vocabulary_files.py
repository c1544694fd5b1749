"""The researcher's thesaurus and stop-term files (helpers.analysis.text.vocabulary): read, normalised, applied."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from scipy import sparse

from helpers.analysis.text.vocabulary import VocabularyEdits, VocabularyError, combine, normalise_terms
from helpers.analysis.text.vocabulary_files import read_stop_terms, read_thesaurus, read_vocabulary


def write(path: Path, text: str | bytes) -> Path:
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8", newline="")
    return path


def test_vosviewer_thesaurus_is_read_unchanged(tmp_path):
    # As VOSviewer's manual writes it (and Excel saves it): a BOM, CRLF line ends, a tab-separated header.
    thesaurus = write(tmp_path / "thesaurus_terms.txt",
                      "\ufefflabel\treplace by\r\nBacteriophages\tphage\r\nstudy\t\r\n"
                      "Circular Economies\tcircular economy\r\nroad traffic crash\troad crash\r\n")
    edits = read_thesaurus(thesaurus)
    assert edits.stop == frozenset({"study"})
    assert dict(edits.replace) == {"bacteriophage": "phage", "road traffic crash": "road crash"}
    assert edits.sources[0].kind == "thesaurus" and edits.sources[0].name == str(thesaurus)
    assert len(edits.sources[0].sha256) == 64
    # "Circular Economies -> circular economy" is one term already: no edit.
    assert edits.sources[0].labels == frozenset({"bacteriophage", "study", "road traffic crash"})


def test_terms_are_spelled_as_the_analysis_spells_them():
    assert normalise_terms(["Bacteriophages", "Road Traffic Accidents", "decision-making", "LLMs", "PDMS",
                            "Multi-Criteria Decision Analysis", "  spaced   out  words "]) == [
        "bacteriophage", "road traffic accident", "decision-making", "llm", "pdms",
        "multi-criterion decision analysis", "spaced out word"]


def test_stop_terms_skip_comments_and_blank_lines(tmp_path):
    stop = write(tmp_path / "stop.txt", "# generic words\n\nStudies\n  case study  \nResults\n")
    edits = read_stop_terms(stop)
    assert edits.stop == frozenset({"study", "case study", "result"}) and not edits.replace
    assert edits.sources[0].kind == "stop terms"


def test_chains_are_followed_and_a_stopped_target_removes(tmp_path):
    thesaurus = write(tmp_path / "t.txt", "label\treplace by\na\tb\nb\tc\nd\te\ne\t\n")
    edits = read_thesaurus(thesaurus)
    assert dict(edits.replace) == {"a": "c", "b": "c"} and edits.stop == frozenset({"d", "e"})
    both = combine(edits, VocabularyEdits(frozenset({"c"}), {}))
    assert [both.apply(t) for t in ["a", "b", "c", "f"]] == [None, None, None, "f"]


def test_edit_columns_drops_stopped_and_sums_merged_columns():
    edits = VocabularyEdits(frozenset({"study"}), {"bacteriophage": "phage", "virus": "phage"})
    counts = sparse.csr_matrix(np.array([[1, 2, 1, 0, 4], [0, 1, 3, 2, 0], [0, 0, 5, 0, 1]]))
    edited, terms = edits.edit_columns(counts, np.array(["bacteriophage", "phage", "study", "virus", "water"],
                                                        dtype=object))
    assert terms.tolist() == ["phage", "water"]
    assert edited.toarray().tolist() == [[3, 4], [3, 0], [0, 1]]


def test_changed_terms_per_file(tmp_path):
    edits = read_vocabulary(write(tmp_path / "t.txt", "label\treplace by\nbacteriophage\tphage\nunused\tx\n"),
                            write(tmp_path / "s.txt", "study\nabsent term\n"))
    assert edits is not None
    assert edits.changed(["bacteriophage", "study", "phage", "water"]) == {"bacteriophage": "phage", "study": None}
    assert edits.changed_by_file(["bacteriophage", "study", "phage", "water"]) == [1, 1]
    assert [s["kind"] for s in edits.as_dict()] == ["thesaurus", "stop terms"]
    assert read_vocabulary(None, None) is None


@pytest.mark.parametrize(("text", "message"), [
    (b"", "t.txt: line 1: empty thesaurus"),
    (b"label,replace by\nstudy,\n", "t.txt: line 1: expected the header 'label<TAB>replace by' (tab-separated, not commas)"),
    (b"label\treplace by\nstudy\n", "t.txt: line 2: no tab between label and replace by"),
    (b"label\treplace by\n\n# c\na\tb\tc\n", "t.txt: line 4: more than two columns"),
    (b"label\treplace by\n\tb\n", "t.txt: line 2: empty label"),
    (b"label\treplace by\nphages\tphage\nPhage\tvirus\nphage\tvirion\n", "t.txt: line 4: 'phage' is given another"),
    (b"label\treplace by\nstudy\t\nstudies\tresearch\n", "t.txt: line 3: 'study' is given another"),
    (b"label\treplace by\na\tb\nb\ta\n", "t.txt: line 2: replacements go round in a circle (a -> b -> a)"),
    (b"label\treplace by\nok\tfine\n\xff\tx\n", "t.txt: line 3: not UTF-8 text"),
])
def test_malformed_thesaurus_names_file_and_line(tmp_path, text, message):
    path = write(tmp_path / "t.txt", text)
    with pytest.raises(VocabularyError) as error:
        read_thesaurus(path)
    assert str(error.value).startswith(str(tmp_path / message.split(":")[0]) + ":" + message.split(":", 1)[1])
    assert "\n" not in str(error.value)


def test_malformed_stop_terms_name_file_and_line(tmp_path):
    with pytest.raises(VocabularyError, match=r"s\.txt: line 2: a tab in a stop-term file"):
        read_stop_terms(write(tmp_path / "s.txt", "study\nlabel\treplace by\n"))
    with pytest.raises(VocabularyError, match=r"missing\.txt: no such stop-term file"):
        read_stop_terms(tmp_path / "missing.txt")
