"""The GRASP exact solver as it was before its speed-up (commit 47f6789, plancheck/domains/grasp/exact.py), kept
unchanged as the reference of tests/grasp/test_exact_differential.py: the faster solver must find the same value
and the same plan (the same tie-breaks) on every environment. Not used by plancheck itself.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction

from plancheck.domains.grasp.geometry import UNREACHABLE, Geometry, geometry
from plancheck.domains.grasp.instance import Environment
from plancheck.domains.grasp.rules import Action
from plancheck.domains.grasp.scoring import RULES

TAKE, DROP, GOTO = "take", "drop", "goto"
Op = tuple[str, int]


@dataclass(frozen=True, slots=True)
class Optimum:
    """An optimal plan for one environment and rule; ``value`` is exact (see ``fraction``)."""

    rule: str
    fraction: Fraction
    plan: tuple[Action, ...]
    nodes: int
    seconds: float

    @property
    def value(self) -> float:
        return round(float(self.fraction), 9)


@dataclass(slots=True)
class _Best:
    """The best plan found so far (value in units of ``1 / den``) as operations."""

    value: int
    ops: list[Op]


@dataclass(frozen=True, slots=True)
class _Task:
    """What one search needs: the geometry, the limits, and the step cost as ``num / den``."""

    geo: Geometry
    horizon: int
    capacity: int
    num: int
    den: int


def _order(geo: Geometry, cell: int, orders: dict[int, tuple]) -> tuple[tuple[int, int, int], ...]:
    """Energy cells by distance from ``cell``: (distance, bit, cell), reachable ones only (memoised)."""
    order = orders.get(cell)
    if order is None:
        dist = geo.distances(cell)
        order = orders[cell] = tuple(sorted((dist[e], bit, e) for bit, e in enumerate(geo.energy)
                                            if e != cell and dist[e] < UNREACHABLE))
    return order


def _fixed_depot(task: _Task, depot: int, bonus: int, walk_home: bool, best: _Best) -> int:
    """Search the plans whose drops are all at ``depot``; returns the number of nodes expanded.

    ``walk_home``: the plan must end on the depot (``paper``); otherwise it may end anywhere.
    ``bonus``: units counted on the depot besides the dropped ones.
    """
    geo, horizon, capacity, num, den = task.geo, task.horizon, task.capacity, task.num, task.den
    energy = geo.energy
    home = [geo.distances(e)[depot] if e != depot else UNREACHABLE for e in energy]
    dist_home = {e: home[bit] for bit, e in enumerate(energy)}
    dist_home[geo.start] = geo.distances(geo.start)[depot]
    dist_home[depot] = 0
    orders: dict[int, tuple] = {}
    ellipses: dict[int, list[int]] = {}
    seen: dict[tuple[int, int, int], int] = {}
    ops: list[Op] = []
    expanded = 0

    def ellipse(cell: int) -> list[int]:
        dist = geo.distances(cell)
        row = [0] * (horizon + 1)
        for bit, e in enumerate(energy):
            w = dist[e] + home[bit]
            if w <= horizon:
                row[w] |= 1 << bit
        for m in range(1, horizon + 1):
            row[m] |= row[m - 1]
        ellipses[cell] = row
        return row

    def bound(cell: int, used: int, mask: int, carried: int, delivered: int) -> int:
        # the search's hottest loop: comparisons, not max() (a sixth of the solver's time)
        left = horizon - used
        to_home = dist_home[cell]
        top = (delivered + bonus) * den - num * (used + (to_home if walk_home else 0))
        if carried and to_home + 1 <= left:
            value = (delivered + carried + bonus) * den - num * (used + to_home + 1)
            if value > top:
                top = value
        row = ellipses.get(cell) or ellipse(cell)
        free = ~mask
        m = to_home
        for u in range(1, left):
            drops = -(-(carried + u) // capacity)
            if u + drops > m:
                m = u + drops
            while m + u + drops <= left and (row[m] & free).bit_count() < u:
                m += 1
            if m + u + drops > left:
                break
            value = (delivered + carried + u + bonus) * den - num * (used + m + u + drops)
            if value > top:
                top = value
        return top

    def visit(cell: int, used: int, mask: int, carried: int, delivered: int) -> None:
        nonlocal expanded
        key = (cell, mask, carried)
        if seen.get(key, horizon + 1) <= used:
            return
        seen[key] = used
        expanded += 1
        to_home = dist_home[cell]
        if not carried:
            steps = used + (to_home if walk_home else 0)
            value = (delivered + bonus) * den - num * steps
            if steps <= horizon and value > best.value:
                best.value = value
                best.ops = ops + ([(GOTO, depot)] if walk_home and cell != depot else [])
        if bound(cell, used, mask, carried, delivered) <= best.value:
            return
        if carried and used + to_home + 1 <= horizon:
            ops.append((DROP, depot))
            visit(depot, used + to_home + 1, mask, 0, delivered + carried)
            ops.pop()
        if carried < capacity:
            for d, bit, e in _order(geo, cell, orders):
                if mask >> bit & 1 or used + d + home[bit] + 2 > horizon:
                    continue
                ops.append((TAKE, e))
                visit(e, used + d + 1, mask | 1 << bit, carried + 1, delivered)
                ops.pop()

    visit(geo.start, 0, 0, 0, 0)
    return expanded


def _open_end(task: _Task, best: _Best) -> int:
    """``paper`` with no binding carry limit: one walk that takes units and drops them at its end.

    The end is the last cell taken (drop there) or the nearest untaken energy cell (walk there,
    drop, and its own unit counts too). Returns the number of nodes expanded.
    """
    geo, horizon, num, den = task.geo, task.horizon, task.num, task.den
    energy = geo.energy
    orders: dict[int, tuple] = {}
    reaches: dict[int, list[int]] = {}
    seen: dict[tuple[int, int], int] = {}
    ops: list[Op] = []
    expanded = 0

    def reach(cell: int) -> list[int]:
        dist = geo.distances(cell)
        row = [0] * (horizon + 1)
        for bit, e in enumerate(energy):
            if e != cell and dist[e] <= horizon:
                row[dist[e]] |= 1 << bit
        for m in range(1, horizon + 1):
            row[m] |= row[m - 1]
        reaches[cell] = row
        return row

    def bound(cell: int, used: int, mask: int, carried: int) -> int:
        left = horizon - used
        top = carried * den - num * (used + 1) if carried else 0
        value = den - num * (used + 1)  # walk to a unit and stop without dropping
        if value > top:
            top = value
        row = reaches.get(cell) or reach(cell)
        free = ~mask
        m = 0
        for x in range(1, left + 1):  # x new units counted: x - 1 takes and the final cell's own
            drops = 1 if carried + x - 1 else 0
            if x > m:
                m = x
            while m + x - 1 + drops <= left and (row[m] & free).bit_count() < x:
                m += 1
            if m + x - 1 + drops > left:
                break
            value = (carried + x) * den - num * (used + m + x - 1 + drops)
            if value > top:
                top = value
        return top

    def visit(cell: int, used: int, mask: int, carried: int) -> None:
        nonlocal expanded
        key = (cell, mask)
        if seen.get(key, horizon + 1) <= used:
            return
        seen[key] = used
        expanded += 1
        order = _order(geo, cell, orders)
        if carried and used + 1 <= horizon and carried * den - num * (used + 1) > best.value:
            best.value, best.ops = carried * den - num * (used + 1), ops + [(DROP, cell)]
        drop = 1 if carried else 0
        nearest = next(((d, e) for d, bit, e in order if not mask >> bit & 1), None)
        if nearest is not None and used + nearest[0] + drop <= horizon:
            value = (carried + 1) * den - num * (used + nearest[0] + drop)
            if value > best.value:
                best.value = value
                best.ops = ops + [(GOTO, nearest[1])] + ([(DROP, nearest[1])] if carried else [])
        if bound(cell, used, mask, carried) <= best.value:
            return
        for d, bit, e in order:
            if mask >> bit & 1 or used + d + 2 > horizon:
                continue
            ops.append((TAKE, e))
            visit(e, used + d + 1, mask | 1 << bit, carried + 1)
            ops.pop()

    visit(geo.start, 0, 0, 0)
    return expanded


def _depot_bound(task: _Task, depot: int, bonus: int) -> int:
    """An optimistic value of ``paper`` with its final cell (and every drop) at ``depot``."""
    geo, horizon, capacity, num, den = task.geo, task.horizon, task.capacity, task.num, task.den
    from_start = geo.distances(geo.start)
    to_depot = from_start[depot]
    near = sorted(from_start[e] + geo.distances(e)[depot] for e in geo.energy if e != depot)
    top = bonus * den - num * to_depot
    m = to_depot
    for u in range(1, horizon):
        drops = -(-u // capacity)
        m = max(m, u + drops)
        if u > len(near):
            break
        m = max(m, near[u - 1])
        if m + u + drops > horizon:
            break
        top = max(top, (u + bonus) * den - num * (m + u + drops))
    return top


def _paper_with_limit(task: _Task, best: _Best) -> int:
    geo = task.geo
    from_start = geo.distances(geo.start)
    energy = set(geo.energy)
    depots = [(_depot_bound(task, cell, int(cell in energy)), -from_start[cell], cell)
              for cell in range(geo.cells) if from_start[cell] <= task.horizon]
    expanded = 0
    for top, _, depot in sorted(depots, reverse=True):
        if top <= best.value:
            break
        expanded += _fixed_depot(task, depot, int(depot in energy), True, best)
    return expanded


def _actions(geo: Geometry, ops: list[Op]) -> tuple[Action, ...]:
    plan: list[Action] = []
    cell = geo.start
    for op, target in ops:
        plan += geo.path(cell, target)
        cell = target
        if op == TAKE:
            plan.append(Action.TAKE)
        elif op == DROP:
            plan.append(Action.DROP)
    return tuple(plan)


def solve_exact(env: Environment, rule: str) -> Optimum:
    """The optimum of ``env`` under ``rule`` (``paper`` or ``delivered``) and a plan achieving it (the reference)."""
    if rule not in RULES:
        raise ValueError(f"unknown scoring rule {rule!r}; known: {', '.join(RULES)}")
    started = time.perf_counter()
    cost = Fraction(str(env.setting.step_cost))
    geo = geometry(env.grid, env.setting.directions)
    horizon = env.step_limit
    task = _Task(geo, horizon, min(env.setting.capacity, horizon), cost.numerator, cost.denominator)
    best = _Best(0, [])
    if rule == "delivered":
        expanded = _fixed_depot(task, geo.start, 0, False, best)
    elif task.capacity >= horizon:
        expanded = _open_end(task, best)
    else:
        expanded = _paper_with_limit(task, best)
    return Optimum(rule, Fraction(best.value, cost.denominator), _actions(geo, best.ops), expanded,
                   time.perf_counter() - started)

