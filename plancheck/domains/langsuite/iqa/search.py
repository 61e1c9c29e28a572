"""The native optimum of an IQA evidence problem: A* over (pose, opened containers, facts).

Actions cost one each; ``answer`` ends a plan once the goal facts hold. The heuristic adds the
opens still needed (one per required check whose container is closed) to the moves still needed:
for goals that need every fact, the farthest fact (breadth-first distances on the pose lattice to
the poses that can show it, whatever is open); for goals that need one, the nearest. At the high
level a fact not shown where the agent stands needs at least one ``goto``. Both parts count
different actions, so the sum never overestimates and A* returns a shortest plan.
"""

from __future__ import annotations

import heapq
import itertools
import time
from dataclasses import dataclass

from plancheck.domains.langsuite.iqa.problem import MAX_ACTIONS, Evidence

INF = 10**9


@dataclass(frozen=True)
class Found:
    """A shortest plan (action word, object id) and the search's effort; None: no plan within the limit."""

    plan: tuple[tuple[str, str | None], ...] | None
    expanded: int
    bound: int  # the heuristic at the start (INF: some needed fact can be shown nowhere); when timed out, the
    timed_out: bool = False  # lowest f on the frontier: no plan is shorter


def _fact_poses(problem: Evidence) -> dict[int, set[int]]:
    """For each fact bit, the poses that can show it with some containers open (or open a container
    revealing it)."""
    out: dict[int, set[int]] = {}
    for p in range(len(problem.all_poses())):
        for facts, _ in problem.events(p):
            for b in _bits(facts):
                out.setdefault(b, set()).add(p)
        for c, _ in problem.openers(p):
            for b in _bits(problem.open_facts.get(c, 0)):
                out.setdefault(b, set()).add(p)
    return out


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low)
        mask ^= low
    return out


def _distances(problem: Evidence, seeds: set[int]) -> list[int]:
    """Moves from each lattice pose to the nearest seed (backward breadth-first search)."""
    return problem.lattice.moves_to(seeds)


def solve(problem: Evidence, limit: int = MAX_ACTIONS, deadline: float | None = None) -> Found:
    """A shortest evidence-gathering plan of at most ``limit`` actions, or None; ``deadline`` (a
    ``time.perf_counter()`` value) stops the search there, with the bound it has proven."""
    need_all, need_any = problem.goal
    where = _fact_poses(problem)
    check_bits = {problem.fact_bit[f"checked:{c}"]: problem.container_bit.get(c)
                  for c in problem.required_checks}
    wanted = _bits(need_all) + _bits(need_any)
    if problem.high:
        dist = {b: None for b in wanted}
    else:
        dist = {b: _distances(problem, where.get(b, set())) for b in wanted}

    def moves_to(b: int, p: int) -> int:
        if b not in where:
            return INF
        if problem.high:
            return 0 if p in where[b] else 1
        return dist[b][p]

    def h(p: int, opened: int, facts: int) -> int:
        missing = need_all & ~facts
        opens = sum(1 for b in _bits(missing) if b in check_bits and check_bits[b] is not None
                    and not opened & check_bits[b])
        far = max((moves_to(b, p) for b in _bits(missing)), default=0)
        if need_any and not facts & need_any:
            far = max(far, min(moves_to(b, p) for b in _bits(need_any)))
        return INF if far >= INF else opens + far

    def done(facts: int) -> bool:
        return facts & need_all == need_all and (not need_any or bool(facts & need_any))

    start = (0, 0, problem.start_facts)
    h0 = h(*start)
    if h0 >= INF:
        return Found(None, 0, INF)
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
        p, opened, facts = state
        if done(facts):
            return Found(_unwind(parent, state), expanded, h0)
        if deadline is not None and expanded % 1024 == 0 and time.perf_counter() > deadline:
            return Found(None, expanded, f, timed_out=True)
        expanded += 1
        if g >= limit:
            continue
        for action, nxt in _successors(problem, state):
            ng = g + 1
            if ng < g_of.get(nxt, INF):
                hv = h(*nxt)
                if hv >= INF or ng + hv > limit:
                    continue
                g_of[nxt] = ng
                parent[nxt] = (state, action)
                heapq.heappush(frontier, (ng + hv, -ng, next(counter), nxt))
    return Found(None, expanded, h0)


def _successors(problem: Evidence, state):
    p, opened, facts = state
    for action, q in problem.moves(p):
        yield action, (q, opened, facts | problem.facts_at(q, opened))
    for c, needs in problem.openers(p):
        if not opened & c and needs & opened == needs:
            oid = problem.containers[c.bit_length() - 1]
            yield ("open", oid), (p, opened | c, facts | problem.open_facts[c])


def _unwind(parent, state) -> tuple[tuple[str, str | None], ...]:
    out = []
    while parent[state] is not None:
        state, action = parent[state]
        out.append(action)
    return tuple(reversed(out))
