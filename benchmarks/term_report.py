"""Term-map report for issue 13: terms, multi-word share, most relevant terms, the cut, modularity.

Usage: ``python benchmarks/term_report.py CORPUS [CORPUS ...]`` (each a file or folder of abstracts).
Prints, per corpus, the numbers the co-occurrence chapter describes, plus the seconds of each step.
"""

from __future__ import annotations

import sys
import time

from helpers.analysis.cooccurrence import analyse_cooccurrence
from helpers.analysis.corpus import read_corpus
from helpers.analysis.text.tokens import tokenize_corpus


def report(path: str) -> str:
    papers = read_corpus([path]).papers
    start = time.perf_counter()
    tokens = tokenize_corpus(papers["text"].tolist(), papers["paper_id"], clean=True)
    tokenized = time.perf_counter()
    result = analyse_cooccurrence(papers["text"], tokens)
    analysed = time.perf_counter()
    terms = result.terms
    multi = terms["term"].str.contains(" ").mean() if len(terms) else 0.0
    top = terms.sort_values(["relevance", "n_papers", "term"], ascending=[False, False, True]).head(20)
    settings = result.settings
    lines = [
        f"## {path}",
        f"abstracts {settings.n_papers}; min occurrences {settings.min_occurrences}; "
        f"eligible {settings.n_eligible}; kept {len(terms)} ({settings.relevant_share:.0%}); "
        f"multi-word {multi:.0%}; drawn links {result.graph.number_of_edges()} (pairs >= {settings.min_pair_papers}); "
        f"communities {terms['community'].nunique() if len(terms) else 0}; modularity {result.modularity:.3f}",
        f"acronyms {len(result.acronyms)} ({(result.acronyms['scope'] == 'corpus').sum()} corpus-wide)",
        "20 most relevant: " + "; ".join(f"{r.term} ({r.n_papers})" for r in top.itertuples()),
        "10 below the cut: " + "; ".join(f"{r.term} ({r.n_papers})" for r in result.below_cut.itertuples()),
        f"seconds: tokenise {tokenized - start:.2f}, co-occurrence {analysed - tokenized:.2f}",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    for corpus in sys.argv[1:]:
        print(report(corpus), flush=True)
        print()
