"""A MANGO map as graphs: the walkthrough's map, the evaluation graph, and the map known at a cutoff.

The map is a ``networkx.MultiDiGraph`` over location names; each edge carries its ``action`` and the
release's step labels. It may hold multi-edges (two actions between the same places), self-loops
and nondeterministic moves (one place and action leading to two places).

The *evaluation graph* is the map plus an imputed opposite edge for every edge whose action is one
of the ten directions, unless the map already has that opposite edge between the same two places
(the released evaluator's rule). The *known map* at cutoff ``T`` keeps the edges the walkthrough
prefix of ``T`` steps reveals (``edge_min_step_answerable <= T``); reference routes use it.

:class:`Moves` is the frozen lookup the scorer and the searches use: place -> action -> places.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # networkx is imported where a graph is built (75 ms of start-up otherwise)
    import networkx as nx

NEVER = 9999  # the release's "never seen" step

OPPOSITE: Mapping[str, str] = MappingProxyType({
    "north": "south", "south": "north", "east": "west", "west": "east", "up": "down", "down": "up",
    "northeast": "southwest", "southwest": "northeast", "northwest": "southeast", "southeast": "northwest",
})


def normalize(name: str) -> str:
    """How names are compared: surrounding blanks removed, lowercase."""
    return name.strip().lower()


@dataclass(frozen=True, slots=True)
class Move:
    """One step of a trajectory: from ``before``, ``action`` leads to ``after``."""

    before: str
    action: str
    after: str


@dataclass(frozen=True, slots=True)
class Edge:
    """One move of the map: going ``action`` from ``src`` leads to ``dst``.

    The step labels say when the walkthrough shows the edge (``NEVER`` = not at all): walked forward,
    walked in reverse, and the minimum of the two; the ``*_answerable`` variants count from the step
    at which the destination's name is revealed. Imputed edges carry ``NEVER`` everywhere.
    """

    src: str
    dst: str
    action: str
    seen_in_forward: int = NEVER
    seen_in_reversed: int = NEVER
    edge_min_step: int = NEVER
    seen_in_forward_answerable: int = NEVER
    seen_in_reversed_answerable: int = NEVER
    edge_min_step_answerable: int = NEVER
    imputed: bool = False

    @property
    def triple(self) -> tuple[str, str, str]:
        return self.src, self.action, self.dst


def map_graph(edges: Iterable[Edge]) -> nx.MultiDiGraph:
    """The walkthrough's map: one graph edge per :class:`Edge`, in order, keyed by its action.

    A repeated (src, action, dst) keeps the copy revealed first.
    """
    import networkx as nx

    graph = nx.MultiDiGraph()
    for edge in edges:
        old = graph.get_edge_data(edge.src, edge.dst, key=edge.action)
        if old is None or edge.edge_min_step_answerable < old["edge"].edge_min_step_answerable:
            graph.add_edge(edge.src, edge.dst, key=edge.action, edge=edge)
    return graph


def imputed_edges(edges: Iterable[Edge]) -> tuple[Edge, ...]:
    """The opposite-direction edges the evaluation graph adds, in the order of the edges they mirror.

    >>> e = [Edge("hall", "cellar", "down"), Edge("hall", "attic", "up"), Edge("attic", "hall", "down")]
    >>> [x.triple for x in imputed_edges(e)]
    [('cellar', 'up', 'hall')]
    """
    edges = tuple(edges)
    present = {edge.triple for edge in edges}
    added: list[Edge] = []
    for edge in edges:
        opposite = OPPOSITE.get(edge.action)
        if opposite is None:
            continue
        mirror = Edge(edge.dst, edge.src, opposite, imputed=True)
        if mirror.triple not in present:
            present.add(mirror.triple)
            added.append(mirror)
    return tuple(added)


def evaluation_graph(edges: Iterable[Edge]) -> nx.MultiDiGraph:
    """The map plus its imputed opposite edges: the graph answers are scored on."""
    edges = tuple(edges)
    return map_graph(edges + imputed_edges(edges))


def known_graph(graph: nx.MultiDiGraph, cutoff: int) -> nx.MultiDiGraph:
    """The edges of ``graph`` revealed within the first ``cutoff`` steps (a read-only view)."""
    import networkx as nx

    return nx.subgraph_view(
        graph, filter_edge=lambda u, v, key: graph.edges[u, v, key]["edge"].edge_min_step_answerable <= cutoff)


@dataclass(frozen=True)
class Moves:
    """Where each action leads from each place: ``table[place][action]`` = destinations (sorted).

    Names are :func:`normalize`-d (the release's names already are); so must the names looked up be.
    """

    table: Mapping[str, Mapping[str, tuple[str, ...]]]
    actions: tuple[str, ...]  # every action of the graph, sorted

    @classmethod
    def of(cls, graph: nx.MultiDiGraph) -> Moves:
        """The moves of a graph built by :func:`map_graph` (or a view of one)."""
        return cls._frozen([normalize(node) for node in graph.nodes],
                           [(src, action, dst) for src, dst, action in graph.edges(keys=True)])

    @classmethod
    def of_edges(cls, edges: Iterable[Edge], cutoff: int | None = None) -> Moves:
        """``Moves.of(map_graph(edges))``, or of its :func:`known_graph` at ``cutoff``, without networkx
        (its import alone costs a ``check`` 75 ms). A test keeps the two equal on every game.

        >>> e = [Edge("a", "b", "east", edge_min_step_answerable=3), Edge("b", "c", "up")]
        >>> Moves.of_edges(e, cutoff=5).table["a"], Moves.of_edges(e, cutoff=5).actions
        (mappingproxy({'east': ('b',)}), ('east',))
        """
        edges = tuple(edges)
        places = [normalize(place) for edge in edges for place in (edge.src, edge.dst)]
        return cls._frozen(places, [edge.triple for edge in edges
                                    if cutoff is None or edge.edge_min_step_answerable <= cutoff])

    @classmethod
    def _frozen(cls, places: Iterable[str], triples: Iterable[tuple[str, str, str]]) -> Moves:
        table: dict[str, dict[str, set[str]]] = {place: {} for place in places}
        for src, action, dst in triples:
            table[normalize(src)].setdefault(normalize(action), set()).add(normalize(dst))
        frozen = {node: MappingProxyType({a: tuple(sorted(d)) for a, d in sorted(acts.items())})
                  for node, acts in table.items()}
        actions = tuple(sorted({action for acts in table.values() for action in acts}))
        return cls(MappingProxyType(frozen), actions)

    def successors(self, place: str, action: str) -> tuple[str, ...]:
        return self.table.get(place, {}).get(action, ())

    def has_edge(self, src: str, action: str, dst: str) -> bool:
        return dst in self.successors(src, action)

    def out(self, place: str) -> Iterable[tuple[str, str]]:
        """(action, destination) pairs leaving ``place``, in sorted order."""
        for action, targets in self.table.get(place, {}).items():
            for target in targets:
                yield action, target


def shortest_route(moves: Moves, src: str, dst: str) -> tuple[Move, ...] | None:
    """A shortest route from ``src`` to ``dst`` (None: there is none). Breadth-first search that tries
    the moves of each place in sorted (action, destination) order, so the route is deterministic.

    >>> m = Moves.of(map_graph([Edge("a", "b", "east"), Edge("b", "c", "up"), Edge("a", "c", "in")]))
    >>> shortest_route(m, "a", "c"), shortest_route(m, "c", "a")
    ((Move(before='a', action='in', after='c'),), None)
    """
    src, dst = normalize(src), normalize(dst)
    parents: dict[str, Move | None] = {src: None}
    frontier = deque([src])
    while frontier and dst not in parents:
        place = frontier.popleft()
        for action, target in moves.out(place):
            if target not in parents:
                parents[target] = Move(place, action, target)
                frontier.append(target)
    if dst not in parents:
        return None
    route: list[Move] = []
    while (move := parents[dst]) is not None:
        route.append(move)
        dst = move.before
    return tuple(reversed(route))
