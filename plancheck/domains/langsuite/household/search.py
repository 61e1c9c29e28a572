"""The native optimum of a Household reference problem: A* over (scene state, pose).

Moves and turns follow the pose lattice (a move is blocked where a box that is a root in that scene
state meets it); a manipulation moves to another scene state where LangSuitE accepts it; the plan
ends with ``stop`` in a scene state (and, for ``look_at_obj_in_light``, at a pose) that LangSuitE scores a
success. The heuristic is the least number of manipulations from the scene state to a goal state
(breadth-first on the scene-state graph backwards, to the states where ``stop`` can succeed from some
pose): every manipulation costs one action, so it never overestimates.

A graph cut at :data:`~.problem.MAX_NODES` scene states gets :func:`solve_cut`: A* that expands the scene
states beyond the cut as it reaches them, with a bound that stays admissible without the whole graph.
"""

from __future__ import annotations

import heapq
import itertools
from collections import deque
from dataclasses import dataclass

from plancheck.domains.langsuite.engine.actions import Act
from plancheck.domains.langsuite.household.problem import MAX_ACTIONS, Problem

INF = 10**9
WORDS = {"PickUp": "pick_up", "Put": "put", "Open": "open", "ToggleOn": "toggle_on", "Slice": "slice"}


@dataclass(frozen=True)
class Found:
    """A shortest plan (the actions, ``stop`` not included) and the search's effort; None: no plan."""

    plan: tuple[Act, ...] | None
    expanded: int
    bound: int
    complete: bool = True  # False: the search stopped at its budget, so a plan found is not proven shortest


def manipulations_left(problem: Problem) -> list[int]:
    """The least number of manipulations from each scene state to one where ``stop`` can succeed (INF: none)."""
    return _manipulations_to_end(problem, frontier=False)


def solve(problem: Problem, limit: int = MAX_ACTIONS) -> Found:
    """A shortest plan of at most ``limit`` actions, or None."""
    lat = problem.lattice
    left = manipulations_left(problem)
    h0 = left[0]
    if h0 >= INF:
        return Found(None, 0, INF)
    blocked = [problem.blocked(node) for node in problem.nodes]
    start = (0, 0)
    counter = itertools.count()
    frontier = [(h0, 0, next(counter), start)]
    parent: dict[tuple[int, int], tuple | None] = {start: None}
    g_of = {start: 0}
    expanded = 0
    while frontier:
        _, neg_g, _, state = heapq.heappop(frontier)
        g = -neg_g
        if g != g_of.get(state):
            continue
        i, p = state
        if problem.ends(i, p):
            return Found(_unwind(parent, state), expanded, h0)
        expanded += 1
        if g >= limit:
            continue
        for act, nxt in _moves(problem, lat, blocked[i], i, p):
            ng = g + 1
            if ng < g_of.get(nxt, INF) and ng + left[nxt[0]] <= limit:
                g_of[nxt] = ng
                parent[nxt] = (state, act)
                heapq.heappush(frontier, (ng + left[nxt[0]], -ng, next(counter), nxt))
    return Found(None, expanded, h0)


def _unwind(parent, state) -> tuple[Act, ...]:
    out = []
    while parent[state] is not None:
        state, act = parent[state]
        out.append(act)
    return tuple(reversed(out))


MAX_OPEN_NODES = 150_000  # scene states :func:`solve_cut` may add beyond the cut graph's
MAX_OPEN_EXPANDED = 4_000_000  # (scene state, pose) expansions of :func:`solve_cut`


def manipulations_bound(problem: Problem) -> list[int]:
    """A lower bound on the manipulations left from each scene state of a cut graph: the least number to a state
    where ``stop`` can succeed, or to a scene state not yet expanded (plus one when ``stop`` cannot succeed there),
    whichever comes first. A path to success either stays among expanded states or reaches an unexpanded one."""
    return _manipulations_to_end(problem, frontier=True)


def _manipulations_to_end(problem: Problem, frontier: bool) -> list[int]:
    """Backward 0-1 breadth-first search over the scene-state graph from the states where ``stop`` can succeed
    (distance 0) and, with ``frontier``, the states not yet expanded (distance 1)."""
    n = len(problem.nodes)
    back: list[list[int]] = [[] for _ in range(n)]
    for i, edges in enumerate(problem.edges):
        for e in edges:
            back[e.target].append(i)
    dist = [INF] * n
    zero, one = [], []
    for i in range(n):
        if problem.may_end(i):
            dist[i] = 0
            zero.append(i)
        elif frontier and not problem.expanded(i):
            dist[i] = 1
            one.append(i)
    queue = deque(zero)  # every edge costs one; the unexpanded states start at one
    pending = deque(one)
    while queue or pending:
        if not queue or (pending and dist[pending[0]] <= dist[queue[0]]):
            j = pending.popleft()
        else:
            j = queue.popleft()
        for i in back[j]:
            if dist[j] + 1 < dist[i]:
                dist[i] = dist[j] + 1
                queue.append(i)
    return dist


def solve_cut(problem: Problem, limit: int = MAX_ACTIONS, max_nodes: int | None = None,
              max_expanded: int | None = None) -> Found:
    """A shortest plan of at most ``limit`` actions on a graph cut at ``MAX_NODES`` scene states, proven shortest
    over the whole reference class unless the budget runs out (``complete=False``).

    A* over (scene state, pose); a scene state is expanded when the search first reaches it. The bound is
    ``h(i, p) = m(i) + d(p, U_i)`` where ``stop`` cannot succeed in ``i`` (else 0): ``m`` the manipulations left
    (:func:`manipulations_bound` on the states known at the start, at least one for the others), ``U_i`` the poses
    where some manipulation of ``i`` is accepted (the next action that is no move or turn happens there) and ``d``
    the moves and turns to reach ``U_i`` on the pose lattice with no box that a scene state adds: a path to a
    success makes at least that many of each, so ``h`` never overestimates. It is evaluated when a state is taken
    from the queue (put back if it raises its priority), so states are reopened when a shorter path shows up.
    """
    max_nodes = MAX_OPEN_NODES if max_nodes is None else max_nodes
    max_expanded = MAX_OPEN_EXPANDED if max_expanded is None else max_expanded
    lat = problem.lattice
    known = manipulations_bound(problem)
    n_known = len(known)
    reach: dict[frozenset[int], list[int]] = {}

    def distances(targets: frozenset[int]) -> list[int]:
        if targets not in reach:
            reach[targets] = lat.moves_to(targets)
        return reach[targets]

    m_of: list[int] = []
    u_of: dict[int, list[int]] = {}

    def m(i: int) -> int:
        while len(m_of) <= i:
            k = len(m_of)
            m_of.append(0 if problem.may_end(k) else (known[k] if k < n_known else 1))
        return m_of[i]

    def h(i: int, p: int) -> int:
        if m(i) == 0:
            return 0
        if i not in u_of:
            problem.expand(i)
            u_of[i] = distances(frozenset().union(*(e.poses for e in problem.edges[i])))
        return m(i) + u_of[i][p]

    blocked: dict[int, frozenset[int]] = {}
    start = (0, 0)
    counter = itertools.count()
    h0 = h(0, 0)
    if h0 >= INF:
        return Found(None, 0, INF)
    frontier = [(h0, 0, next(counter), start, True)]
    parent: dict[tuple[int, int], tuple | None] = {start: None}
    g_of = {start: 0}
    expanded = 0
    n_start = len(problem.nodes)
    while frontier:
        f, neg_g, _, state, exact = heapq.heappop(frontier)
        g = -neg_g
        if g != g_of.get(state):
            continue
        i, p = state
        if problem.ends(i, p):
            return Found(_unwind(parent, state), expanded, h0)
        if not exact:
            hi = h(i, p)
            if g + hi > f:
                if g + hi <= limit:
                    heapq.heappush(frontier, (g + hi, neg_g, next(counter), state, True))
                continue
        if expanded >= max_expanded or len(problem.nodes) - n_start >= max_nodes:
            return Found(None, expanded, h0, complete=False)
        expanded += 1
        if g >= limit:
            continue
        problem.expand(i)
        if i not in blocked:
            blocked[i] = problem.blocked(problem.nodes[i])
        for act, nxt in _moves(problem, lat, blocked[i], i, p):
            ng = g + 1
            if ng < g_of.get(nxt, INF) and ng + m(nxt[0]) <= limit:
                g_of[nxt] = ng
                parent[nxt] = (state, act)
                heapq.heappush(frontier, (ng + m(nxt[0]), -ng, next(counter), nxt, False))
    return Found(None, expanded, h0)


def _moves(problem: Problem, lat, blocked: frozenset[int], i: int, p: int) -> list[tuple[Act, tuple[int, int]]]:
    """The actions from pose ``p`` in scene state ``i`` and the (state, pose) each leads to: the two turns, a
    step ahead unless blocked, and the manipulations possible at ``p``."""
    moves = [(Act("TurnLeft"), (i, lat.left[p])), (Act("TurnRight"), (i, lat.right[p]))]
    if lat.ahead[p] >= 0 and p not in blocked:
        moves.append((Act("MoveAhead"), (i, lat.ahead[p])))
    for edge in problem.edges[i]:
        if p in edge.poses:
            moves.append((edge.act, (edge.target, p)))
    return moves
