"""The exact optimum of a GRASP environment under a scoring rule, with a certified plan.

The objective is the benchmark's: the best score of any action sequence of length 0..20 (the
empty plan scores 0), where ``paper`` counts the energy on the final cell and ``delivered`` the
energy on the start cell, minus the step cost per action.

**Abstraction.** Some optimal plan has a simple shape, so the search only enumerates plans of
that shape (the tests compare it with an exhaustive search over the full rules):

* every action has an effect (a no-op only adds cost);
* every TAKE takes an original unit from an energy cell, and every DROP happens on the *depot*
  ``T`` (the start cell for ``delivered``; for ``paper`` the final cell, where the depot's own
  unit, if any, is never taken and counts as a bonus);
* between two operations the agent walks a shortest path, so a plan is a sequence of
  operations ``take e`` / ``drop at T`` whose cost is the walking distance plus one per
  operation. A carry limit ``C`` splits it into trips of at most ``C`` takes; with no limit
  (``C`` at least the step limit) there is one drop, at the end.

**Search.** Depth-first branch and bound over operation sequences, nearest cells first, with
(a) memoisation of (cell, taken set, carried) by the fewest steps used, and (b) an admissible
bound: ``u`` more units need ``u`` distinct untaken cells within the ellipse
``d(p, e) + d(e, T) <= m`` of the ``m`` remaining moves, ``m >= u + drops`` and
``m + u + drops`` steps; and, trip by trip (:func:`_trips`), the moves and drops of every way to
split the units into trips back to ``T`` (on 4-direction grids with the parity of each walk).
The ordered energy cells and the ellipse rows are shared by the searches of one grid
(:class:`_Tables`). ``paper`` with no carry limit decides the final cell at the end (the
nearest untaken energy cell or the last cell); with a carry limit, every possible final cell is
tried in order of its bound until no bound beats the best found. Values are exact (integers in
units of the step cost's denominator). :func:`plancheck.domains.grasp.certify.certify` replays
the plan on the full rules.

>>> from plancheck.domains.grasp.grid import Grid
>>> from plancheck.domains.grasp.instance import Environment, GridInfo, Setting
>>> env = Environment(Grid(1, 4, " EE ", (0, 0)), Setting(4, None, 0.3), GridInfo("doc", 0, "random", "free", "inner"))
>>> best = solve_exact(env, "paper")
>>> best.value, [str(a) for a in best.plan]
(0.8, ['RIGHT', 'TAKE', 'RIGHT', 'DROP'])
>>> solve_exact(env, "delivered").value  # bringing a unit home takes 4 steps, worth 1 - 1.2
0.0
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

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
    bipartite: bool  # 4 directions: every walk between two cells has the parity of their distance


class _Tables:
    """What every search on one geometry and horizon can share (each a pure function of both, memoised): the
    energy cells in order of distance from a cell, and the ellipse rows of a cell for a depot. Settings that
    differ only in step cost or carry limit, and the many depots of one search, reuse them."""

    __slots__ = ("geo", "horizon", "orders", "ellipses", "reaches", "bits")

    def __init__(self, geo: Geometry, horizon: int):
        self.geo, self.horizon = geo, horizon
        self.orders: dict[int, tuple[tuple[int, int, int], ...]] = {}
        self.ellipses: dict[int, dict[int, list[int]]] = {}  # depot -> cell -> row (of _fixed_depot)
        self.reaches: dict[int, list[int]] = {}  # cell -> row (of _open_end)
        self.bits = [1 << bit for bit in range(len(geo.energy))]

    def order(self, cell: int) -> tuple[tuple[int, int, int], ...]:
        """Energy cells by distance from ``cell``: (distance, bit, cell), reachable ones only."""
        order = self.orders.get(cell)
        if order is None:
            dist = self.geo.distances(cell)
            order = self.orders[cell] = tuple(sorted((dist[e], bit, e) for bit, e in enumerate(self.geo.energy)
                                                     if e != cell and dist[e] < UNREACHABLE))
        return order


@lru_cache(maxsize=8)  # a bulk run solves the settings and rules of one grid one after another
def _tables(geo: Geometry, horizon: int) -> _Tables:
    return _Tables(geo, horizon)


@lru_cache(maxsize=1024)
def _trips(capacity: int, horizon: int, bipartite: bool, carried: int, to_home: int) -> tuple[int, ...]:
    """Lower bounds on the moves plus drops needed to bring ``u`` more units to the depot (index ``u``), from
    a cell ``to_home`` moves from it while carrying ``carried``, over every way of splitting the units
    into trips.

    The walk to the first drop takes ``a`` units (at most ``capacity - carried``): at least ``a + 1``
    moves when ``a > 0`` (the cells are distinct, and none is the depot) and at least ``to_home``; every
    later trip leaves the depot and comes back, at least ``k + 1`` moves for ``k`` units. On a
    4-direction grid (bipartite) a walk's length has the parity of the distance between its ends, so a
    trip's is even and the first walk's has the parity of ``to_home``. Each walk ends with one drop.
    The bounds are made nondecreasing in ``u`` (more units never need fewer steps).
    """
    never = 1 << 20

    def closed(k: int) -> int:  # the moves of a trip that takes k units
        return k + 1 + ((k + 1) & 1 if bipartite else 0)

    later = [0] + [never] * horizon  # later[v]: moves + drops of trips from the depot taking v units
    for v in range(1, horizon + 1):
        later[v] = min(later[v - k] + closed(k) + 1 for k in range(1, min(capacity, v) + 1))
    bounds = [0] * (horizon + 1)
    for u in range(1, horizon + 1):
        if not carried and not to_home:
            best = later[u]
        else:
            best = never
            for a in range(0 if carried else 1, min(capacity - carried, u) + 1):
                first = to_home if a == 0 else max(to_home, a + 1)
                if bipartite and (first - to_home) & 1:
                    first += 1
                best = min(best, first + 1 + later[u - a])
        bounds[u] = max(best, bounds[u - 1])
    return tuple(bounds)


def _fixed_depot(task: _Task, depot: int, bonus: int, walk_home: bool, best: _Best) -> int:
    """Search the plans whose drops are all at ``depot``; returns the number of nodes expanded.

    ``walk_home``: the plan must end on the depot (``paper``); otherwise it may end anywhere.
    ``bonus``: units counted on the depot besides the dropped ones.
    """
    geo, horizon, capacity, num, den = task.geo, task.horizon, task.capacity, task.num, task.den
    bipartite = task.bipartite
    tables = _tables(geo, horizon)
    energy, bits = geo.energy, tables.bits
    to_depot = geo.distances(depot)
    home = [to_depot[e] if e != depot else UNREACHABLE for e in energy]
    dist_home = {e: home[bit] for bit, e in enumerate(energy)}
    dist_home[geo.start] = to_depot[geo.start]
    dist_home[depot] = 0
    order_of = tables.order
    ellipses = tables.ellipses.get(depot)
    if ellipses is None:
        ellipses = tables.ellipses[depot] = {}
    seen: dict[tuple[int, int, int], int] = {}
    ops: list[Op] = []
    expanded = 0

    def ellipse(cell: int) -> list[int]:
        # row[m]: the energy cells e (as bits) with d(cell, e) + d(e, depot) <= m
        dist = geo.distances(cell)
        row = [0] * (horizon + 1)
        for e, back, bit in zip(energy, home, bits):
            w = dist[e] + back
            if w <= horizon:
                row[w] |= bit
        for m in range(1, horizon + 1):
            row[m] |= row[m - 1]
        ellipses[cell] = row
        return row

    def beats(cell: int, used: int, mask: int, carried: int, delivered: int, floor: int) -> bool:
        """Whether the bound of the node exceeds ``floor`` (the best value so far): the bound's loop stops at
        the first term that does. The search's hottest loop: comparisons, not max()."""
        left = horizon - used
        to_home = dist_home[cell]
        if (delivered + bonus) * den - num * (used + (to_home if walk_home else 0)) > floor:
            return True
        if carried and to_home + 1 <= left and \
                (delivered + carried + bonus) * den - num * (used + to_home + 1) > floor:
            return True
        row = ellipses.get(cell) or ellipse(cell)
        trips = _trips(capacity, horizon, bipartite, carried, to_home)
        free = ~mask
        m = to_home  # moves: every unit's cell e has d(cell, e) + d(e, depot) <= m
        for u in range(1, left):
            drops = -(-(carried + u) // capacity)
            if u + drops > m:
                m = u + drops
            while m + u + drops <= left and (row[m] & free).bit_count() < u:
                m += 1
            if bipartite and (m - to_home) & 1:
                m += 1
            steps = trips[u] + u  # moves + drops + takes
            if m + u + drops > steps:
                steps = m + u + drops
            if steps > left:
                return False
            if (delivered + carried + u + bonus) * den - num * (used + steps) > floor:
                return True
        return False

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
        if not beats(cell, used, mask, carried, delivered, best.value):
            return
        if carried and used + to_home + 1 <= horizon:
            ops.append((DROP, depot))
            visit(depot, used + to_home + 1, mask, 0, delivered + carried)
            ops.pop()
        if carried < capacity:
            slack = horizon - used - 2
            for d, bit, e in order_of(cell):
                if mask >> bit & 1 or d + home[bit] > slack:
                    continue
                ops.append((TAKE, e))
                visit(e, used + d + 1, mask | bits[bit], carried + 1, delivered)
                ops.pop()

    visit(geo.start, 0, 0, 0, 0)
    return expanded


def _open_end(task: _Task, best: _Best) -> int:
    """``paper`` with no binding carry limit: one walk that takes units and drops them at its end.

    The end is the last cell taken (drop there) or the nearest untaken energy cell (walk there,
    drop, and its own unit counts too). Returns the number of nodes expanded.
    """
    geo, horizon, num, den = task.geo, task.horizon, task.num, task.den
    tables = _tables(geo, horizon)
    energy, bits = geo.energy, tables.bits
    order_of, reaches = tables.order, tables.reaches
    seen: dict[tuple[int, int], int] = {}
    ops: list[Op] = []
    expanded = 0

    def reach(cell: int) -> list[int]:
        # row[m]: the energy cells other than ``cell`` (as bits) within m moves of it
        dist = geo.distances(cell)
        row = [0] * (horizon + 1)
        for e, bit in zip(energy, bits):
            if e != cell and dist[e] <= horizon:
                row[dist[e]] |= bit
        for m in range(1, horizon + 1):
            row[m] |= row[m - 1]
        reaches[cell] = row
        return row

    def beats(cell: int, used: int, mask: int, carried: int, floor: int) -> bool:
        """Whether the node's bound exceeds ``floor``; the loop stops at the first term that does."""
        left = horizon - used
        if carried and carried * den - num * (used + 1) > floor:
            return True
        if not carried and floor < 0:
            return True
        if den - num * (used + 1) > floor:  # walk to a unit and stop without dropping
            return True
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
                return False
            if (carried + x) * den - num * (used + m + x - 1 + drops) > floor:
                return True
        return False

    def visit(cell: int, used: int, mask: int, carried: int) -> None:
        nonlocal expanded
        key = (cell, mask)
        if seen.get(key, horizon + 1) <= used:
            return
        seen[key] = used
        expanded += 1
        order = order_of(cell)
        if carried and used + 1 <= horizon and carried * den - num * (used + 1) > best.value:
            best.value, best.ops = carried * den - num * (used + 1), ops + [(DROP, cell)]
        drop = 1 if carried else 0
        nearest = next(((d, e) for d, bit, e in order if not mask >> bit & 1), None)
        if nearest is not None and used + nearest[0] + drop <= horizon:
            value = (carried + 1) * den - num * (used + nearest[0] + drop)
            if value > best.value:
                best.value = value
                best.ops = ops + [(GOTO, nearest[1])] + ([(DROP, nearest[1])] if carried else [])
        if not beats(cell, used, mask, carried, best.value):
            return
        slack = horizon - used - 2
        for d, bit, e in order:
            if mask >> bit & 1 or d > slack:
                continue
            ops.append((TAKE, e))
            visit(e, used + d + 1, mask | bits[bit], carried + 1)
            ops.pop()

    visit(geo.start, 0, 0, 0)
    return expanded


def _depot_bound(task: _Task, depot: int, bonus: int) -> int:
    """An optimistic value of ``paper`` with its final cell (and every drop) at ``depot``."""
    geo, horizon, capacity, num, den = task.geo, task.horizon, task.capacity, task.num, task.den
    from_start = geo.distances(geo.start)
    to_depot = from_start[depot]
    to = geo.distances(depot)  # distances are symmetric
    near = sorted(from_start[e] + to[e] for e in geo.energy if e != depot)
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
    """The optimum of ``env`` under ``rule`` (``paper`` or ``delivered``) and a plan achieving it."""
    if rule not in RULES:
        raise ValueError(f"unknown scoring rule {rule!r}; known: {', '.join(RULES)}")
    started = time.perf_counter()
    cost = Fraction(str(env.setting.step_cost))
    geo = geometry(env.grid, env.setting.directions)
    horizon = env.step_limit
    task = _Task(geo, horizon, min(env.setting.capacity, horizon), cost.numerator, cost.denominator,
                 env.setting.directions == 4)
    best = _Best(0, [])
    if rule == "delivered":
        expanded = _fixed_depot(task, geo.start, 0, False, best)
    elif task.capacity >= horizon:
        expanded = _open_end(task, best)
    else:
        expanded = _paper_with_limit(task, best)
    return Optimum(rule, Fraction(best.value, cost.denominator), _actions(geo, best.ops), expanded,
                   time.perf_counter() - started)

