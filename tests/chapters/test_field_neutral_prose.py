"""The chapters' own prose takes no example from machine learning: examples are the corpus's own terms (glued) or
neutral. Validation and Performance measure the package on its ICML benchmark corpora and may name them."""

from __future__ import annotations

import re

import pytest

from tests.support import ROOT

#: Wording of machine learning that a chemistry, traffic-safety or poultry corpus never uses.
ML_WORDING = re.compile(r"neural|reinforcement|RLHF|language model\b|bandit|NeurIPS|machine learning|fine-tun|"
                        r"retrieval-augmented|\bGNNs?\b|mixture of experts|PMLR|\bLLMs?\b", re.IGNORECASE)
#: The pages that measure the package itself, on its benchmark corpora.
PACKAGE_PAGES = ("validation.md", "performance.md")
CODE_CELL = re.compile(r"^```\{code-cell\}.*?^```$", re.MULTILINE | re.DOTALL)


def prose(text: str) -> str:
    """A chapter's prose: no code cells, and nothing from its reference list on (titles of cited works)."""
    return CODE_CELL.sub("", text).split("\n## References\n")[0]


@pytest.mark.parametrize("page", [ROOT / "intro.md", *sorted((ROOT / "chapters").glob("*.md"))], ids=lambda p: p.stem)
def test_the_prose_names_no_machine_learning_example(page):
    if page.name in PACKAGE_PAGES:
        assert "measures the package on its own benchmark corpora" in page.read_text(encoding="utf-8")
        return
    assert ML_WORDING.findall(prose(page.read_text(encoding="utf-8"))) == [], page.name


def test_the_check_finds_what_the_method_text_used_to_say():
    old = ("A term is a **noun phrase** (`graph neural network`, `offline reinforcement learning`); "
           '"reinforcement learning from human feedback (RLHF)"; so broad in machine learning.')
    assert ML_WORDING.findall(prose(old)) == ["neural", "reinforcement", "reinforcement", "RLHF", "machine learning"]
