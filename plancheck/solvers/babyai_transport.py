"""A lower bound from what must be carried, one object at a time.

*Lemma.* An object that travels from cell ``a`` to cell ``b`` costs at least ``d(a, b)`` actions
(``d``: the walls-only cell distance, every door passable): it moves only while carried, one cell
per carried move, and each carried stretch begins with a pickup and ends with a drop (or the toggle
that unlocks a door with it), each of which reaches one cell beyond the agent. The agent has one
hand, so the carried moves of different objects are different actions, and so are their pickups,
drops and toggles; the moves the agent makes before it first picks any of them up are different
actions again. Summing over *transport tasks* that involve pairwise disjoint objects is therefore
a lower bound on the actions still needed:

* a locked door the mission cannot do without (something a pending instruction needs lies on its
  far side, or an "open" instruction names only it): a key of its colour goes from where it lies to
  the door, ``min over keys d(key, door)`` (held: ``d(agent, door)``);
* a pending "put next to" whose moved and fixed objects are different: the moved object ends next
  to where the fixed one ends, ``max(2, min d(move, fixed) - 1)`` (held: ``max(1, d(agent, fixed) - 1)``;
  the fixed one held: ``max(3, d(agent, move) - 2)``);
* plus, when the agent holds none of these objects, the walk to the first of them, ``d - 1``;
* plus one toggle per closed (or other locked) door that every way between a task's two ends, or
  between the agent and the first object, passes: an object or the agent must go through it.

This counts what the route estimate of :mod:`plancheck.solvers.babyai_heuristic` misses: there the
agent may carry a key and a ball at once, here it pays for every round trip a second object costs.
Turns, other door toggles and detours round obstacles are left out (they only add).
"""

from __future__ import annotations

from collections import deque
from itertools import combinations

from plancheck.domains.babyai.instance import LOCKED, OPEN
from plancheck.domains.babyai.mission import RUNNING, GoTo, Open, Pickup, PutNext, door_index, pending_leaves
from plancheck.solvers.babyai_search import INF, Config, Model

KEPT_VALUES = 1 << 20  # values kept per (configuration, cell); all are dropped when full
HELD = -1  # the position of an object the agent carries (or that rides in a box it carries)


class TransportBound:
    """``bound(cid, pose)``: the lower bound described in the module docstring, from families of at
    least ``fewest_tasks`` tasks (0 otherwise: with one object to carry the route estimate, which
    counts turns too, usually says as much, and skipping it saves time)."""

    def __init__(self, model: Model, fewest_tasks: int = 1):
        self.model = model
        self.fewest_tasks = fewest_tasks
        inst = model.rules.instance
        self.instance = inst
        self.width = inst.width
        self.door_cells = [model.cell(*d.pos) for d in inst.doors]
        self.box_of: list[int | None] = [None] * len(inst.things)
        for b, thing in enumerate(inst.things):
            if thing.contains is not None:
                self.box_of[thing.contains] = b
        self.keys_of = [tuple(i for i, t in enumerate(inst.things) if t.kind == "key" and t.color == door.color)
                        for door in inst.doors]
        self.distances: dict[int, list[int]] = {}
        self.sides: dict[int, list[int]] = {}
        self.plans: dict[int, list[tuple]] = {}
        self.values: dict[int, int] = {}  # per configuration and agent cell

    def rebind(self, model: Model) -> TransportBound:
        """Bound the states of ``model``, another model of the same map, keeping the distance tables."""
        self.model = model
        self.plans, self.values = {}, {}
        return self

    def __call__(self, cid: int, pose: int) -> int:
        plans = self.plans.get(cid)
        if plans is None:
            plans = self.plans[cid] = self._plans(self.model.configs[cid])
        if not plans:
            return 0
        key = cid * self.model.cells + (pose >> 2)
        value = self.values.get(key)
        if value is None:
            if len(self.values) >= KEPT_VALUES:
                self.values.clear()
            value = self.values[key] = max((self._value(plan, pose >> 2) for plan in plans), default=0)
        return value

    def _plans(self, config: Config) -> list[tuple]:
        """Per family of disjoint tasks, what does not depend on where the agent is: (cost, doors
        crossed, tasks involving a carried object, the first objects' cells and the doors that may
        separate the agent from them (None when one is carried), doors that may still count)."""
        shut = [d for d, status in enumerate(config.doors) if status != OPEN]
        plans = []
        for family in _families(self._tasks(config)):
            if len(family) < self.fewest_tasks:
                continue
            unlocked = {b[0] for kind, _, _, b in family if kind == "key"}  # their toggles are counted
            doors = tuple(d for d in shut if self.door_cells[d] not in unlocked)
            cost, crossed, carried, starts = 0, set(), [], []
            for task in family:
                kind, _, a, b = task
                if HELD in a or HELD in b:
                    carried.append(task)
                    continue
                cost += _task_cost(kind, a, b, None, self.distance)
                starts.extend(a if kind == "key" else a + b)
                crossed.update(d for d in doors if self.separates(d, list(a), list(b)))
            # the doors the walk to the first object may have to pass: (door, its sides, the objects' sides)
            walls = tuple((d, self.side(d), frozenset(self.side(d)[c] for c in starts)) for d in doors
                          if d not in crossed and all(self.side(d)[c] >= 0 for c in starts))
            carried = tuple((kind, a, b, self._checks(a, b, doors, crossed)) for kind, _, a, b in carried)
            plans.append((cost, frozenset(crossed), carried, None if carried else (tuple(starts), walls)))
        return plans

    def _checks(self, a: tuple, b: tuple, doors: tuple, crossed: set) -> tuple:
        """For a task with a carried object, the doors that may separate its ends once the agent's
        cell stands for HELD: (door, its sides, sides of a's other cells, a carried?, same for b)."""
        checks = []
        for d in doors:
            side = self.side(d)
            these, those = [side[c] for c in a if c != HELD], [side[c] for c in b if c != HELD]
            if d not in crossed and -1 not in these and -1 not in those:
                checks.append((d, side, frozenset(these), HELD in a, frozenset(those), HELD in b))
        return tuple(checks)

    def _value(self, plan: tuple, cell: int) -> int:
        cost, crossed, carried, first = plan
        here = self.distance(cell)
        extra = set()
        for kind, a, b, checks in carried:
            cost += _task_cost(kind, a, b, here, self.distance)
            for d, side, these, a_held, those, b_held in checks:
                mine = side[cell]
                if mine < 0:
                    continue
                these, those = these | {mine} if a_held else these, those | {mine} if b_held else those
                if not these & those:
                    extra.add(d)
        if first:  # the agent holds none of the objects: the walk to the first
            starts, walls = first
            cost += max(0, min(here[c] for c in starts) - 1)
            extra.update(d for d, side, theirs in walls if side[cell] >= 0 and side[cell] not in theirs)
        return cost + len(crossed) + len(extra)

    def separates(self, d: int, these: list[int], those: list[int]) -> bool:
        """Whether every way from any of ``these`` cells to any of ``those`` passes door ``d``."""
        side = self.side(d)
        mine = {side[c] for c in these}
        theirs = {side[c] for c in those}
        return -1 not in mine and -1 not in theirs and not mine & theirs

    def distance(self, cell: int) -> list[int]:
        """Walls-only cell distances from ``cell`` (doors passable)."""
        table = self.distances.get(cell)
        if table is None:
            table = self.distances[cell] = self._bfs(cell, blocked=-1)
        return table

    # -- the tasks of one configuration --------------------------------------------------------
    def _tasks(self, config: Config) -> tuple:
        """(kind, objects involved, cells of one side, cells of the other) per task; cells are
        cell indices or HELD."""
        progress = config.progress
        if progress.result != RUNNING:  # done or failed: nothing to carry (a dead end is the route estimate's)
            return ()
        mission = self.instance.mission
        leaves: list = []
        pending_leaves(mission.root, progress.done, leaves)
        tasks = []
        for leaf in leaves:
            if isinstance(leaf, PutNext):
                move = tuple(t for t in mission.descs[leaf.move].targets if t >= 0)
                fixed = mission.descs[leaf.fixed].targets
                if set(move) & set(fixed) or not move:
                    continue
                moved = tuple(self._where(config, t) for t in move)
                spots = [self._where(config, t) for t in fixed] + [self.model.cell(x, y)
                                                                  for x, y in progress.poss[leaf.fixed]]
                moved, spots = tuple(c for c in moved if c is not None), tuple(c for c in spots if c is not None)
                if moved and spots:
                    objects = frozenset(move) | {t for t in fixed if t >= 0} | self._boxes(move + tuple(fixed))
                    tasks.append(("next", objects, moved, spots))
        for d, status in enumerate(config.doors):
            if status == LOCKED and self._required(config, d, leaves):
                keys = tuple(self._where(config, k) for k in self.keys_of[d])
                keys = tuple(c for c in keys if c is not None)
                if keys:
                    objects = frozenset(self.keys_of[d]) | self._boxes(self.keys_of[d])
                    tasks.append(("key", objects, keys, (self.door_cells[d],)))
        return tuple(tasks)

    def _where(self, config: Config, ref: int) -> int | None:
        """The cell an object (or door reference) is at, HELD, or None (gone)."""
        if ref < 0:
            return self.door_cells[door_index(ref)]
        cell = config.objects[ref]
        if cell is not None:
            return self.model.cell(*cell)
        if config.carrying == ref:
            return HELD
        box = self.box_of[ref]
        if box is not None:
            return self._where(config, box)
        return None

    def _boxes(self, refs: tuple[int, ...]) -> frozenset[int]:
        found, todo = set(), [r for r in refs if r >= 0]
        while todo:
            box = self.box_of[todo.pop()]
            if box is not None and box not in found:
                found.add(box)
                todo.append(box)
        return frozenset(found)

    def _required(self, config: Config, d: int, leaves: list) -> bool:
        """Whether locked door ``d`` must be opened: a pending instruction needs only its far side
        (the agent has been on the start's side ever since: the door was never open), or an "open"
        instruction names only it."""
        side, door = self.side(d), self.door_cells[d]
        near = side[self.model.cell(*self.instance.start.pos)]
        mission, poss = self.instance.mission, config.progress.poss

        def cells(desc: int, remembered: bool) -> list:
            found = [self._where(config, t) for t in mission.descs[desc].targets]
            return found + [self.model.cell(x, y) for x, y in poss[desc]] if remembered else found

        for leaf in leaves:
            if isinstance(leaf, Open) and all(t < 0 and door_index(t) == d for t in mission.descs[leaf.desc].targets):
                return True
            if isinstance(leaf, (GoTo, Pickup, Open)):
                if _side(cells(leaf.desc, isinstance(leaf, GoTo)), side, door) not in (None, near):
                    return True
            elif isinstance(leaf, PutNext):
                moved, fixed = _side(cells(leaf.move, False), side, door), _side(cells(leaf.fixed, True), side, door)
                if moved is not None and fixed is not None and moved != fixed:
                    return True
        return False

    def side(self, d: int) -> list[int]:
        """The component of every cell with door ``d`` shut and every other door passable (-1: walls, the door)."""
        table = self.sides.get(d)
        if table is None:
            table = self.sides[d] = self._components(self.door_cells[d])
        return table

    # -- grids ------------------------------------------------------------------------------------
    def _bfs(self, source: int, blocked: int) -> list[int]:
        model, width = self.model, self.width
        dist = [INF] * model.cells
        dist[source] = 0
        queue = deque([source])
        walls = model.walls
        while queue:
            cell = queue.popleft()
            for other in (cell - 1, cell + 1, cell - width, cell + width):
                if 0 <= other < model.cells and not walls[other] and other != blocked and dist[other] == INF:
                    dist[other] = dist[cell] + 1
                    queue.append(other)
        return dist

    def _components(self, blocked: int) -> list[int]:
        model = self.model
        side = [-1] * model.cells
        count = 0
        for cell in range(model.cells):
            if side[cell] < 0 and not model.walls[cell] and cell != blocked:
                for other, d in enumerate(self._bfs(cell, blocked)):
                    if d < INF:
                        side[other] = count
                count += 1
        return side


def _side(cells: list, side: list[int], door: int) -> int | None:
    """The one side of ``door`` all ``cells`` lie on, or None (none, several, carried, gone or the door)."""
    if not cells or any(c is None or c == HELD or c == door for c in cells):
        return None
    sides = {side[c] for c in cells}
    return sides.pop() if len(sides) == 1 else None


def _task_cost(kind: str, a: tuple, b: tuple, here: list[int] | None, distance) -> int:
    """The least actions a task still needs (``here``: distances from the agent's cell, needed only
    when one of its objects is carried)."""
    lying, spots = [c for c in a if c != HELD], [c for c in b if c != HELD]
    options = []
    if kind == "key":  # a: the keys, b: the door
        door = b[0]
        if HELD in a:
            options.append(here[door])
        options += [distance(k)[door] for k in lying]
        return min(options)
    if HELD in a and spots:  # the moved object is carried
        options.append(max(1, min(here[f] for f in spots) - 1))
    if HELD in b and lying:  # the fixed one is carried
        options.append(max(3, min(here[m] for m in lying) - 2))
    if lying and spots:
        options.append(max(2, min(distance(m)[f] for m in lying for f in spots) - 1))
    return min(options, default=0)


def _families(tasks: tuple) -> list[tuple]:
    """Every largest family of tasks with pairwise disjoint objects (all of them when they are)."""
    if not tasks:
        return []
    if all(not (x[1] & y[1]) for x, y in combinations(tasks, 2)):
        return [tasks]
    for size in range(len(tasks) - 1, 0, -1):
        found = [family for family in combinations(tasks, size)
                 if all(not (x[1] & y[1]) for x, y in combinations(family, 2))]
        if found:
            return found
    return []
