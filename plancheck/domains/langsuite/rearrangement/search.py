"""The native optimum of a Rearrangement episode's reference problem: A* with an exact relaxed cost-to-go.

State: the pose, each mover's status (at its start, held, or placed from pose q), and the open
state of the containers the plans may touch. Moves are blocked by walls, unmoved roots, movers
still at their start (when roots) and placed movers (their boxes where the drop put them).

Heuristic: the cost-to-go of the relaxation in which movers never block moves and containers cost
nothing, computed exactly by dynamic programming over subsets of movers on the pose lattice
(backward breadth-first passes from the pick-up and drop poses), plus one action for every
container still to open or close. It never overestimates, so A* returns a shortest plan.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from plancheck.domains.langsuite.rearrangement.problem import MAX_ACTIONS, Problem

INF = 10**9
AT_START, HELD = -1, -2  # a placed mover's status is the pose it was dropped from (>= 0)


@dataclass(frozen=True)
class Found:
    """A shortest plan (as action words with objects) and the search's effort."""

    plan: tuple[tuple[str, str | None], ...] | None  # None: no plan within the limit
    length: int | None
    expanded: int
    bound: int  # the relaxed lower bound at the start


def _backward(pred: Sequence[Sequence[int]], seeds: dict[int, int], n: int) -> list[int]:
    """Least ``seed[s] + distance(p, s)`` over the seeds, for every pose p (unit steps, bucket queue)."""
    dist = [INF] * n
    buckets: dict[int, list[int]] = {}
    for s, c in seeds.items():
        if c < dist[s]:
            dist[s] = c
            buckets.setdefault(c, []).append(s)
    if not buckets:
        return dist
    cost = min(buckets)
    top = max(buckets)
    while cost <= top:
        frontier = buckets.pop(cost, None)
        if frontier:
            nxt = cost + 1
            for q in frontier:
                if dist[q] != cost:
                    continue
                for p in pred[q]:
                    if dist[p] > nxt:
                        dist[p] = nxt
                        buckets.setdefault(nxt, []).append(p)
                        if nxt > top:
                            top = nxt
        cost += 1
    return dist


Table = dict[frozenset[int], list[int]]
HeldTable = dict[tuple[frozenset[int], int], list[int]]


def relaxed_table(problem: Problem) -> tuple[Table, HeldTable]:
    """C[S][p]: relaxed cost to finish the movers in S from pose p with a free hand;
    H[(S, o)][p]: the same while holding mover o (S excludes o)."""
    lat = problem.lattice
    n = len(lat)
    pred = problem.lattice.predecessors
    k = len(problem.movers)
    pick = [problem.sees[problem.anchor[o]] for o in problem.movers]
    drop = [problem.drops[o] for o in problem.movers]
    free: dict[frozenset[int], list[int]] = {frozenset(): [0] * n}
    held: dict[tuple[frozenset[int], int], list[int]] = {}
    for size in range(0, k + 1):
        for rest in itertools.combinations(range(k), size):
            rest_set = frozenset(rest)
            if size > 0:
                best = [INF] * n
                for o in rest:
                    after = held[(rest_set - {o}, o)]
                    seeds = {q: 1 + after[q] for q in pick[o] if after[q] < INF}
                    via = _backward(pred, seeds, n)
                    best = [min(a, b) for a, b in zip(best, via)]
                free[rest_set] = best
            if size < k:
                table = free[rest_set]
                for o in range(k):
                    if o in rest_set:
                        continue
                    seeds = {r: 1 + table[r] for r in drop[o] if table[r] < INF}
                    held[(rest_set, o)] = _backward(pred, seeds, n)
    return free, held


def solve(problem: Problem, limit: int = MAX_ACTIONS) -> Found:
    """A shortest plan of at most ``limit`` actions in the reference class, or None."""
    lat = problem.lattice
    movers = problem.movers
    k = len(movers)
    free, held_table = relaxed_table(problem)
    containers = problem.containers
    goal_open = tuple(problem.goal_open(c) for c in containers)
    start_open = tuple(problem.start.thing(c).is_open for c in containers)
    anchor_index = {o: containers.index(problem.anchor[o]) if problem.anchor[o] in containers else -1
                    for o in movers}
    root_mover = [problem.is_root(o) for o in movers]
    blockers = lat.blockers

    def h(pose: int, status: tuple[int, ...], opened: tuple[bool, ...]) -> int:
        rest = frozenset(i for i, s in enumerate(status) if s == AT_START)
        holding = next((i for i, s in enumerate(status) if s == HELD), None)
        base = free[rest][pose] if holding is None else held_table[(rest, holding)][pose]
        extra = 0
        for c, now in enumerate(opened):
            needs_open = any(status[i] == AT_START and anchor_index[movers[i]] == c for i in range(k))
            if needs_open and not now:
                extra += 2 if not goal_open[c] else 1
            elif now != goal_open[c]:
                extra += 1
        return base + extra

    start = (0, tuple([AT_START] * k), start_open)
    h0 = h(*start)
    if h0 >= INF:
        return Found(None, None, 0, h0)
    counter = itertools.count()
    frontier = [(h0, 0, next(counter), start)]
    parent: dict[tuple, tuple | None] = {start: None}
    g_of = {start: 0}
    expanded = 0
    while frontier:
        f, neg_g, _, state = heapq.heappop(frontier)
        g = -neg_g
        if g != g_of.get(state):
            continue
        pose, status, opened = state
        if all(s >= 0 for s in status) and opened == goal_open:
            return Found(_unwind(parent, state), g, expanded, h0)
        expanded += 1
        if g >= limit:
            continue
        for action, nxt in _successors(problem, state, blockers, root_mover, anchor_index):
            ng = g + 1
            if ng < g_of.get(nxt, INF):
                hv = h(*nxt)
                if hv >= INF or ng + hv > limit:
                    continue
                g_of[nxt] = ng
                parent[nxt] = (state, action)
                heapq.heappush(frontier, (ng + hv, -ng, next(counter), nxt))
    return Found(None, None, expanded, h0)


def _successors(problem: Problem, state, blockers, root_mover, anchor_index):
    lat = problem.lattice
    movers = problem.movers
    pose, status, opened = state
    yield ("turn_left", None), (lat.left[pose], status, opened)
    yield ("turn_right", None), (lat.right[pose], status, opened)
    nxt = lat.ahead[pose]
    if nxt >= 0:
        free = True
        stop = blockers.get(pose)
        for i, s in enumerate(status):
            if s == AT_START:
                if root_mover[i] and stop and movers[i] in stop:
                    free = False
                    break
            elif s >= 0 and pose in problem.blocks(movers[i], s):
                free = False
                break
        if free:
            yield ("move_ahead", None), (nxt, status, opened)
    holding = any(s == HELD for s in status)
    if holding:
        i = status.index(HELD)
        if pose in problem.drops[movers[i]]:
            yield ("drop", movers[i]), (pose, status[:i] + (pose,) + status[i + 1:], opened)
    else:
        for i, s in enumerate(status):
            if s != AT_START:
                continue
            o = movers[i]
            c = anchor_index[o]
            if pose in problem.sees[problem.anchor[o]] and (c < 0 or opened[c] or root_mover[i]):
                yield ("pick_up", o), (pose, status[:i] + (HELD,) + status[i + 1:], opened)
    for c, oid in enumerate(problem.containers):
        if problem.container_visible(oid, pose):
            flipped = opened[:c] + (not opened[c],) + opened[c + 1:]
            yield ("close" if opened[c] else "open", oid), (pose, status, flipped)


def _unwind(parent, state) -> tuple[tuple[str, str | None], ...]:
    out = []
    while parent[state] is not None:
        state, action = parent[state]
        out.append(action)
    return tuple(reversed(out))
