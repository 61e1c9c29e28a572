"""The native optimum of a Household reference problem: A* over (scene state, pose).

Moves and turns follow the pose lattice (a move is blocked where a box that is a root in that scene
state meets it); a manipulation moves to another scene state where LangSuitE accepts it; the plan
ends with ``stop`` in a scene state (and, for ``look_at_obj_in_light``, at a pose) that LangSuitE scores a
success. The heuristic is the least number of manipulations from the scene state to a goal state
(breadth-first on the scene-state graph backwards, to the states where ``stop`` can succeed from some
pose): every manipulation costs one action, so it never overestimates.
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


def manipulations_left(problem: Problem) -> list[int]:
    n = len(problem.nodes)
    back: list[list[int]] = [[] for _ in range(n)]
    for i, edges in enumerate(problem.edges):
        for e in edges:
            back[e.target].append(i)
    dist = [INF] * n
    queue = deque()
    for i in range(n):
        if problem.may_end(i):
            dist[i] = 0
            queue.append(i)
    while queue:
        j = queue.popleft()
        for i in back[j]:
            if dist[i] == INF:
                dist[i] = dist[j] + 1
                queue.append(i)
    return dist


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
        moves = [(Act("TurnLeft"), (i, lat.left[p])), (Act("TurnRight"), (i, lat.right[p]))]
        if lat.ahead[p] >= 0 and p not in blocked[i]:
            moves.append((Act("MoveAhead"), (i, lat.ahead[p])))
        for edge in problem.edges[i]:
            if p in edge.poses:
                moves.append((edge.act, (edge.target, p)))
        for act, nxt in moves:
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
