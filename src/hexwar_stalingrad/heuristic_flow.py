"""The heuristic bot's ring query (S11.1): a minimum vertex cut by maximum flow.

:func:`min_vertex_cut` on labels, :func:`index_cut` on cell indices (the map's own
graph, no relabelling). Unit vertex capacities on the split graph (each hex an ``in`` and
an ``out`` node; sources uncuttable); the maximum flow by breadth-first augmenting
paths. The cut nearest the sources (the hexes the sources still reach in the residual graph end
just before it) and the cut nearest the sinks are the same for *every* maximum flow, so
they do not depend on the order the paths are found in.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import Final

__all__ = ["FLOW_LIMIT", "index_cut", "min_vertex_cut"]

#: Most disjoint escape paths the ring query follows before giving up (it never nears it).
FLOW_LIMIT: Final = 400


def min_vertex_cut(
    neighbors: Mapping[str, Sequence[str]],
    open_cells: AbstractSet[str],
    sources: AbstractSet[str],
    sinks: AbstractSet[str],
    limit: int = FLOW_LIMIT,
    *,
    near_sources: bool = False,
) -> tuple[set[str], set[str]] | None:
    """A minimum set of hexes whose removal separates ``sources`` from ``sinks``.

    Unit vertex capacities (sources uncuttable) on the graph induced by ``open_cells``;
    a maximum flow on the split graph (each hex an ``in`` and an ``out`` node), then the
    cut nearest the sinks (``near_sources``: nearest the sources). Returns ``(cut,
    outside)`` — ``outside``: the open hexes beyond the cut, on the sinks' side — or
    ``None`` at ``limit`` disjoint paths.

    >>> nb = {"a": ("b",), "b": ("a", "c", "d"), "c": ("b",), "d": ("b",)}
    >>> cut, outside = min_vertex_cut(nb, {"a", "b", "c", "d"}, {"a"}, {"c", "d"})
    >>> sorted(cut), sorted(outside)
    (['b'], ['c', 'd'])
    >>> line = {"a": ("b",), "b": ("a", "c"), "c": ("b", "d"), "d": ("c",)}
    >>> [sorted(min_vertex_cut(line, set(line), {"a"}, {"d"}, near_sources=n)[0])
    ...  for n in (False, True)]
    [['d'], ['b']]
    """
    labels = sorted(neighbors)
    index = {lab: i for i, lab in enumerate(labels)}
    graph = tuple(tuple(index[n] for n in neighbors[lab] if n in index) for lab in labels)
    found = index_cut(
        graph,
        [lab in open_cells for lab in labels],
        sorted(index[s] for s in sources if s in index),
        [lab in sinks for lab in labels],
        limit,
        near_sources,
    )
    if found is None:
        return None
    cut, outside = found
    return {labels[i] for i in cut}, {labels[i] for i in outside}


def index_cut(
    graph: Sequence[Sequence[int]],
    is_open: list[bool],
    sources: Sequence[int],
    is_sink: list[bool],
    limit: int,
    near_sources: bool,
    paths: list[list[int]] | None = None,
) -> tuple[list[int], list[int]] | None:
    """:func:`min_vertex_cut` on cell indices: ``graph[v]`` the neighbours of ``v``
    (``is_open`` gains the sources).

    ``paths``: disjoint source-to-sink paths (cell indices) to start from, those of
    them that are still paths of this graph (an earlier query's, whose graph differs by a
    few blocked hexes); replaced by the paths of the maximum flow found. They change how
    much searching is left, never the answer (the cuts nearest the sources and the sinks
    are those of every maximum flow).

    Split-graph nodes: ``2 v`` is ``in(v)``, ``2 v + 1`` is ``out(v)``. ``used[v]``: ``v``
    carries a path; ``flow[u * n + v]``: the flow on the arc ``out(u) -> in(v)`` (each
    direction its own arc); ``into[v]``: the ``u`` with positive flow into ``v``. One
    breadth-first augmenting path at a time (the paths of a ring differ in length, so a
    level graph holds about one each); the search that finds none marks what the sources
    still reach, which is the side of the cut nearest them. A hex carrying no path has
    no flow into it, so its ``in`` node leads only to its ``out`` node: the search takes
    both at once.
    """
    n = len(graph)
    is_source = [False] * n
    for s in sources:
        is_source[s] = True
        is_open[s] = True
    used = [False] * n
    flow: dict[int, int] = {}
    into: dict[int, list[int]] = {}  # sorted
    kept = _start(paths or (), graph, is_open, is_source, is_sink, used, flow, into)
    for _ in range(limit - kept):
        parent = [-2] * (2 * n)
        queue: deque[int] = deque()
        for s in sources:
            parent[2 * s + 1] = -1
            queue.append(2 * s + 1)
        found = -1
        pop, push = queue.popleft, queue.append
        while queue:
            node = pop()
            v = node >> 1
            if node & 1:  # out(v) -> in(w); out(v) -> in(v) back along a used hex
                if is_sink[v] and not is_source[v]:
                    found = node
                    break
                for w in graph[v]:
                    k = 2 * w
                    if parent[k] == -2 and is_open[w]:
                        parent[k] = node
                        if used[w] or is_source[w]:
                            push(k)
                        elif parent[k + 1] == -2:  # in(w) leads only to out(w): go on
                            parent[k + 1] = k
                            push(k + 1)
                if used[v] and not is_source[v] and parent[node - 1] == -2:
                    parent[node - 1] = node
                    push(node - 1)
            else:  # in(v) -> out(v) if free; in(v) -> out(u) back along flow u -> v
                if (is_source[v] or not used[v]) and parent[node + 1] == -2:
                    parent[node + 1] = node
                    push(node + 1)
                if v in into:
                    for u in into[v]:
                        k = 2 * u + 1
                        if parent[k] == -2:
                            parent[k] = node
                            push(k)
        if found < 0:
            if paths is not None:
                paths[:] = _paths(sources, is_sink, is_source, flow, n)
            if near_sources:
                return _source_side(is_open, sources, parent)
            return _sink_side(graph, is_open, is_source, is_sink, used, flow)
        node, prev = found, parent[found]
        while prev >= 0:
            a, b = prev >> 1, node >> 1
            if a == b:
                used[a] = not prev & 1  # in(a) -> out(a) takes the hex; back frees it
            elif prev & 1:  # out(a) -> in(b): flow on that arc
                f = flow[a * n + b] = flow.get(a * n + b, 0) + 1
                _set_flow(into, a, b, f > 0)
            else:  # in(a) -> out(b): cancelling flow on the arc out(b) -> in(a)
                f = flow[b * n + a] = flow.get(b * n + a, 0) - 1
                _set_flow(into, b, a, f > 0)
            node, prev = prev, parent[prev]
    return None


def _start(
    paths: Sequence[Sequence[int]],
    graph: Sequence[Sequence[int]],
    is_open: list[bool],
    is_source: list[bool],
    is_sink: list[bool],
    used: list[bool],
    flow: dict[int, int],
    into: dict[int, list[int]],
) -> int:
    """Put one unit of flow on each of ``paths`` that is, from its last source to the
    first sink after it, a path of this graph (through open hexes that are neither
    sources nor sinks, disjoint from the paths taken before it); how many were taken."""
    n = len(used)
    taken = 0
    for whole in paths:
        # from its last source to the first sink after it (the units may have moved)
        first = max((i for i, v in enumerate(whole) if is_source[v]), default=-1)
        last = next((j for j in range(first + 1, len(whole)) if is_sink[whole[j]]), len(whole))
        path = whole[first : last + 1] if first >= 0 and last < len(whole) else ()
        inner = path[1:]
        if (
            not inner
            or any(used[v] or not is_open[v] or is_source[v] for v in inner)
            or any(b not in graph[a] for a, b in zip(path, inner, strict=False))
        ):
            continue
        for a, b in zip(path, inner, strict=False):
            flow[a * n + b] = 1
            _set_flow(into, a, b, True)
        for v in inner:
            used[v] = True
        taken += 1
    return taken


def _paths(
    sources: Sequence[int], is_sink: list[bool], is_source: list[bool], flow: dict[int, int], n: int
) -> list[list[int]]:
    """The source-to-sink paths of a flow (cell indices; a cycle of flow is left out)."""
    succ: dict[int, list[int]] = {}
    for arc, f in sorted(flow.items()):
        if f > 0:
            succ.setdefault(arc // n, []).append(arc % n)
    out = []
    for s in sources:
        for first in succ.get(s, ()):
            path, v = [s, first], first
            while not (is_sink[v] and not is_source[v]) and len(path) <= n:
                after = succ.get(v)
                if not after:
                    break
                v = after[0]  # a hex carrying a path passes it on to one hex
                path.append(v)
            if is_sink[v] and not is_source[v]:
                out.append(path)
    return out


def _source_side(
    is_open: list[bool], sources: Sequence[int], parent: list[int]
) -> tuple[list[int], list[int]]:
    """After a maximum flow: the cut nearest the sources, from the search that found no
    path (``parent[k] != -2``: the sources' ``out`` nodes reach ``k``; their ``in`` nodes
    reach no more, no flow enters a source), and every open hex beyond it."""
    reach = [p != -2 for p in parent]
    for s in sources:
        reach[2 * s] = True
    n = len(is_open)
    cut = [v for v in range(n) if reach[2 * v] and not reach[2 * v + 1]]
    outside = [v for v in range(n) if is_open[v] and not reach[2 * v] and not reach[2 * v + 1]]
    return cut, outside


def _set_flow(into: dict[int, list[int]], x: int, y: int, positive: bool) -> None:
    """Record whether the flow ``x -> y`` is positive in ``into[y]`` (kept sorted)."""
    found = into.get(y)
    if positive:
        if found is None:
            into[y] = [x]
        elif x not in found:
            found.append(x)
            found.sort()
    elif found is not None and x in found:
        found.remove(x)
        if not found:
            del into[y]


def _sink_side(
    graph: Sequence[Sequence[int]],
    is_open: list[bool],
    is_source: list[bool],
    is_sink: list[bool],
    used: list[bool],
    flow: dict[int, int],
) -> tuple[list[int], list[int]]:
    """After a maximum flow: the nodes that still reach a sink in the residual graph."""
    n = len(graph)
    ahead: dict[int, list[int]] = {}  # v -> the u with positive flow v -> u
    for arc, f in flow.items():
        if f > 0:
            ahead.setdefault(arc // n, []).append(arc % n)
    reach = [False] * (2 * n)
    queue = [2 * v + 1 for v in range(n) if is_sink[v] and is_open[v] and not is_source[v]]
    for k in queue:
        reach[k] = True
    for node in queue:  # grows while it is read: a breadth-first search
        v = node >> 1
        if node & 1:  # arcs into out(v): in(v) -> out(v); in(u) -> out(v) if flow v -> u
            k = node - 1
            if (is_source[v] or not used[v]) and not reach[k]:
                reach[k] = True
                queue.append(k)
            for u in ahead.get(v, ()):
                k = 2 * u
                if not reach[k]:
                    reach[k] = True
                    queue.append(k)
        else:  # arcs into in(v): out(u) -> in(v); out(v) -> in(v) if v carries a path
            for u in graph[v]:
                k = 2 * u + 1
                if not reach[k] and is_open[u]:
                    reach[k] = True
                    queue.append(k)
            k = node + 1
            if used[v] and not is_source[v] and not reach[k]:
                reach[k] = True
                queue.append(k)
    cut = [v for v in range(n) if reach[2 * v + 1] and not reach[2 * v]]
    outside = [v for v in range(n) if reach[2 * v]]  # reached, and not a cut hex
    return cut, outside
