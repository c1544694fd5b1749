"""The term network in the files VOSviewer and Gephi read (JSON, map and network text, GraphML, GEXF), so a
researcher can open the book's map in the tools of the field and go on from there."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Callable

import networkx as nx
import pandas as pd

from helpers.analysis.cooccurrence.result import CooccurrenceResult


def network_writers(result: CooccurrenceResult) -> dict[str, Callable[[Path], None]]:
    """The network export files, by name, each with the function that writes it.

    Parameters
    ----------
    result : CooccurrenceResult
        The term map, or the keyword map's network (written under names the caller prefixes).

    Returns
    -------
    dict of str to callable
        File name -> a function writing that file at the path it is given.

    Examples
    --------
    >>> from helpers.analysis.cooccurrence import example_term_map
    >>> sorted(network_writers(example_term_map()))
    ['network.gexf', 'network.graphml', 'network.json', 'vosviewer_map.txt', 'vosviewer_network.txt']
    """
    return {
        "network.json": lambda path: write_vosviewer_json(result, path),
        "network.graphml": lambda path: nx.write_graphml(result.export_graph(), path),
        "network.gexf": lambda path: nx.write_gexf(result.export_graph(), path),
        "vosviewer_map.txt": lambda path: _write_vosviewer_map(result, path),
        "vosviewer_network.txt": lambda path: _write_vosviewer_network(result, path),
    }


def write_vosviewer_json(result: CooccurrenceResult, path: Path) -> None:
    """VOSviewer JSON (map and network in one file; VOSviewer 1.6.16 and later read it).

    Parameters
    ----------
    result : CooccurrenceResult
        The term map (or the keyword map's network).
    path : pathlib.Path
        The file to write.

    Returns
    -------
    None

    Examples
    --------
    >>> import json, tempfile
    >>> from helpers.analysis.cooccurrence import example_term_map
    >>> path = Path(tempfile.mkdtemp()) / "network.json"
    >>> write_vosviewer_json(example_term_map(), path)
    >>> len(json.loads(path.read_text(encoding="utf-8"))["network"]["links"])
    2
    """
    path.write_text(json.dumps(vosviewer_document(result), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def vosviewer_document(result: CooccurrenceResult) -> dict:
    """The VOSviewer JSON document of the term map (what :func:`write_vosviewer_json` writes).

    Parameters
    ----------
    result : CooccurrenceResult
        A map with terms placed and links drawn.

    Returns
    -------
    dict
        ``network`` (``items``: each term with its position, cluster and weights; ``links``) and ``config``.

    Examples
    --------
    >>> from helpers.analysis.cooccurrence import example_term_map
    >>> document = vosviewer_document(example_term_map())
    >>> [item["label"] for item in document["network"]["items"]], document["network"]["links"][0]
    (['broiler', 'feed intake', 'heat stress'], {'source_id': 1, 'target_id': 3, 'strength': 1.666667})
    """
    ids = _vosviewer_ids(result)
    items = [
        {"id": ids[row.term], "label": row.term, "x": row.x, "y": row.y, "cluster": int(row.community),
         "weights": {"Links": int(row.degree), "Total link strength": float(row.link_strength),
                     "Occurrences": int(row.n_papers)}}
        for row in result.terms.itertuples(index=False)
    ]
    links = [
        {"source_id": ids[u], "target_id": ids[v], "strength": round(float(data["weight"]), 6)}
        for u, v, data in sorted(result.graph.edges(data=True), key=lambda e: (ids[e[0]], ids[e[1]]))
    ]
    document = {"network": {"items": items, "links": links}, "config": {
        "terminology": {"item": "Term", "items": "Terms", "link": "Co-occurrence link",
                        "links": "Co-occurrence links", "link_strength": "Association strength",
                        "total_link_strength": "Total link strength"}}}
    return document


def _vosviewer_ids(result: CooccurrenceResult) -> dict[str, int]:
    """VOSviewer's item id of each term: its row in ``result.terms``, from 1."""
    return {term: number for number, term in enumerate(result.terms["term"], start=1)}


def _write_vosviewer_map(result: CooccurrenceResult, path: Path) -> None:
    """VOSviewer's tab-separated map file (``id, label, x, y, cluster, weight<Occurrences>``)."""
    ids = _vosviewer_ids(result)
    map_table = pd.DataFrame({
        "id": [ids[t] for t in result.terms["term"]], "label": result.terms["term"],
        "x": result.terms["x"], "y": result.terms["y"], "cluster": result.terms["community"],
        "weight<Occurrences>": result.terms["n_papers"],
    })
    map_table.to_csv(path, sep="\t", index=False, lineterminator="\n")


def _write_vosviewer_network(result: CooccurrenceResult, path: Path) -> None:
    """VOSviewer's three-column network file (``id id strength``), one line per drawn link."""
    ids = _vosviewer_ids(result)
    with path.open("w", encoding="utf-8") as handle:
        for u, v, data in sorted(result.graph.edges(data=True), key=lambda e: (ids[e[0]], ids[e[1]])):
            a, b = sorted((ids[u], ids[v]))
            handle.write(f"{a}\t{b}\t{data['weight']:.6f}\n")
