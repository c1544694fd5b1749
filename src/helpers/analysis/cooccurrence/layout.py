"""Where each term sits on the map: VOS mapping for the main component, a ring of small components around it.

Every layout is seeded and reads its nodes and edges in sorted order, so the same terms and pairs give the same
map in every process.
"""

from __future__ import annotations

import math
from typing import Iterable

import networkx as nx
import numpy as np

#: Iterations of the spring layout of each small component.
LAYOUT_ITERATIONS = 100
#: VOS mapping's most steps; beyond ``VOS_FULL_TERMS`` terms fewer (never below ``VOS_MIN_ITERATIONS``), as each
#: step costs the square of the terms.
VOS_ITERATIONS = 300
VOS_FULL_TERMS, VOS_MIN_ITERATIONS = 250, 75
# The layout has converged when no step longer than this lowers its energy (the map spans about 2).
VOS_MIN_STEP = 1e-3


def map_layout(graph: nx.Graph, seed: int, similarity: nx.Graph | None = None) -> dict[str, tuple[float, float]]:
    """Seeded layout: the largest linked component fills [-1, 1]; smaller ones and lone terms ring it.

    The largest component is laid out by :func:`vos_layout` on the association strengths of
    ``similarity`` (every pair counted, drawn or not; default: the drawn links); the small
    components by a spring layout.

    A spring layout of the whole graph pushes small components far out and
    squeezes the main one into the centre, so each component is laid out on
    its own and the small ones sit on a ring around the main one.
    """
    components = sorted((sorted(c) for c in nx.connected_components(graph) if len(c) > 1),
                        key=lambda c: (-len(c), c[0]))
    alone = [n for n in sorted(graph.nodes) if graph.degree(n) == 0]
    positions: dict[str, tuple[float, float]] = {}
    if components:
        main = components[0]
        strengths = similarity if similarity is not None else ordered_subgraph(graph, main)
        positions.update(vos_layout(ordered_subgraph(strengths, main), main, seed=seed))
    satellites = [c for c in components[1:]] + [[n] for n in alone]
    ring = 1.25 if components else 1.0
    for members, angle in zip(satellites, np.linspace(0, 2 * np.pi, len(satellites), endpoint=False)):
        centre = np.array([ring * np.cos(angle), ring * np.sin(angle)])
        if len(members) == 1:
            positions[members[0]] = (round(float(centre[0]), 9), round(float(centre[1]), 9))
            continue
        local = _spring(ordered_subgraph(graph, members), seed, members, radius=0.04 * math.sqrt(len(members)))
        positions.update({n: (float(centre[0] + x), float(centre[1] + y)) for n, (x, y) in local.items()})
    return positions


def vos_layout(similarity: nx.Graph, nodes: list[str], *, seed: int,
               iterations: int = VOS_ITERATIONS) -> dict[str, tuple[float, float]]:
    """VOS mapping (van Eck et al. 2010), seeded: distance on the map reflects association strength.

    Minimises ``V = sum_{i<j} s_ij d_ij**2 - sum_{i<j} d_ij`` (VOSviewer's attraction 2,
    repulsion 1) over positions, ``s_ij`` the association strength (edge ``weight``,
    divided by its mean) and ``d_ij`` the distance: strongly associated terms sit close,
    every pair repels a little. Gradient descent from seeded random positions, with a
    step that grows while ``V`` falls and halves when it does not (at most ``iterations``
    steps, until no step of ``VOS_MIN_STEP`` lowers ``V``); the result is centred and
    scaled into [-1, 1].

    References
    ----------
    van Eck, N. J., Waltman, L., Dekker, R., and van den Berg, J. (2010). A comparison of two
    techniques for bibliometric mapping: Multidimensional scaling and VOS. Journal of the
    American Society for Information Science and Technology, 61(12), 2405-2416.

    Examples
    --------
    >>> g = nx.Graph([("a", "b", {"weight": 9.0}), ("b", "c", {"weight": 0.1}), ("a", "c", {"weight": 0.1})])
    >>> p = vos_layout(g, ["a", "b", "c"], seed=0)
    >>> d = lambda u, v: float(np.hypot(p[u][0] - p[v][0], p[u][1] - p[v][1]))
    >>> d("a", "b") < d("a", "c") and d("a", "b") < d("b", "c")
    True
    """
    n = len(nodes)
    if n == 1:
        return {nodes[0]: (0.0, 0.0)}
    # Each step costs n**2: beyond VOS_FULL_TERMS terms the steps shrink so the time stays about the same.
    iterations = max(VOS_MIN_ITERATIONS, int(iterations * min(1.0, (VOS_FULL_TERMS / n) ** 2)))
    index = {node: i for i, node in enumerate(nodes)}
    s = np.zeros((n, n))
    for u, v, data in similarity.edges(data=True):
        if u in index and v in index and u != v:
            s[index[u], index[v]] = s[index[v], index[u]] = float(data.get("weight", 1.0))
    positive = s[s > 0]
    s /= positive.mean() if len(positive) else 1.0

    def energy_and_gradient(x: np.ndarray) -> tuple[float, np.ndarray]:
        dx = x[:, 0, None] - x[None, :, 0]
        dy = x[:, 1, None] - x[None, :, 1]
        distance = np.hypot(dx, dy)
        np.fill_diagonal(distance, 1.0)
        energy = 0.5 * float((s * distance * distance).sum() - (distance.sum() - n))
        pull = 2 * s - 1 / distance
        np.fill_diagonal(pull, 0.0)
        return energy, np.column_stack([(pull * dx).sum(axis=1), (pull * dy).sum(axis=1)])

    x = np.random.default_rng(seed).normal(size=(n, 2))
    energy, gradient = energy_and_gradient(x)
    step = 1.0
    for _ in range(iterations):
        norm = float(np.sqrt((gradient ** 2).sum()))
        if norm < 1e-9:
            break
        candidate = x - step * gradient / norm
        new_energy, new_gradient = energy_and_gradient(candidate)
        if new_energy < energy:
            x, energy, gradient, step = candidate, new_energy, new_gradient, step * 1.1
        else:
            step *= 0.5
            if step < VOS_MIN_STEP:  # no step that lowers V is longer than this: converged
                break
    x -= x.mean(axis=0)
    x /= max(float(np.abs(x).max()), 1e-12)
    return {node: (float(a), float(b)) for node, (a, b) in zip(nodes, x)}


def ordered_subgraph(graph: nx.Graph, nodes: Iterable[str]) -> nx.Graph:
    """A copy of the subgraph on ``nodes`` with nodes and edges in sorted order.

    ``graph.subgraph`` iterates its nodes in the order of a Python set, which
    changes from one process to the next (string hashing is randomised), and a
    seeded layout depends on node order: this keeps layouts byte-identical.
    """
    members = sorted(set(nodes))
    keep = set(members)
    ordered = nx.Graph()
    ordered.add_nodes_from((n, graph.nodes[n]) for n in members)
    ordered.add_edges_from(sorted((min(u, v), max(u, v), d) for u, v, d in graph.edges(members, data=True)
                                  if u in keep and v in keep))
    return ordered


def _spring(graph: nx.Graph, seed: int, nodes: list[str], *, radius: float) -> dict[str, tuple[float, float]]:
    """Seeded spring layout of a connected graph, centred and scaled to ``radius``."""
    raw = nx.spring_layout(graph, weight="weight", seed=seed, k=2.0 / math.sqrt(len(nodes)),
                           iterations=LAYOUT_ITERATIONS, method="force")
    coordinates = np.array([raw[n] for n in nodes])
    coordinates -= coordinates.mean(axis=0)
    coordinates *= radius / max(np.abs(coordinates).max(), 1e-12)
    return {n: (float(x), float(y)) for n, (x, y) in zip(nodes, coordinates)}

