"""A lower bound from what must be carried, one object at a time.

*Lemma.* Moving an object costs at least its *carry distance*: the shortest path in the carry
graph, whose nodes are "the agent at pose q holds it" and "it lies at cell x", and whose edges are
single actions in the walls-only map (every door passable, other objects ignored): turns and moves
while holding it, a drop onto the free cell in front (not a door), a pickup from any pose facing
it. Every stretch of the object's journey is such a path (between its stretches the agent may do
anything else: the graph lets it reappear at any pose facing the object for free), so turns count
where the way turns. The agent has one hand, so the actions that move different objects are
different actions, and so are the toggles that unlock doors with keys; the moves and turns the
agent makes before it first picks any of them up are different actions again. Summing over
*transport tasks* that involve pairwise disjoint objects is therefore a lower bound on the actions
still needed:

* a locked door the mission cannot do without (something a pending instruction needs lies on its
  far side, or an "open" instruction names only it): a key of its colour, from where it lies (or
  from the agent's hand), held facing the door, plus the toggle;
* a pending "put next to" whose moved and fixed objects are different: the moved object dropped
  next to where the fixed one lies or is remembered, or next to a cell the fixed one is carried to
  first (both objects' carry distances); when the agent holds the fixed one, it drops it somewhere
  first;
* plus, when the agent holds none of these objects, the walk (moves and turns) to face the first;
* plus one toggle per closed (or other locked) door that every way between a task's two ends, or
  between the agent and the first object, passes: an object or the agent must go through it.

This counts what the route estimate of :mod:`plancheck.domains.babyai.search.heuristic` misses: there the
agent may carry a key and a ball at once, here it pays for every object's own journey. The walks
between tasks, other door toggles and detours round obstacles are left out (they only add).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from itertools import combinations

from plancheck.domains.babyai.instance import LOCKED, OPEN
from plancheck.domains.babyai.mission import RUNNING, GoTo, Open, Pickup, PutNext, door_index, pending_leaves
from plancheck.domains.babyai.search.astar import INF, Config, Model

KEPT_VALUES = 1 << 20  # values kept per (configuration, pose); all are dropped when full
KEPT_TABLES = 4096  # distance tables kept toward targets (16-20 kB each); all are dropped when full
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
        self.sides: dict[int, list[int]] = {}
        self.plans: dict[int, list[tuple]] = {}
        self.values: dict[int, int] = {}  # per configuration and agent pose
        self.door_set = frozenset(self.door_cells)
        self.facing: list[list[int]] = [[] for _ in range(model.cells)]  # the poses facing each cell
        for q in range(model.poses):
            if not model.walls[q >> 2]:
                self.facing[model.front[q]].append(q)
        self.carry_graph = self._carry_graph()
        self.reverse_graph: list[list[int]] = [[] for _ in self.carry_graph]
        for node, edges in enumerate(self.carry_graph):
            for other in edges:
                self.reverse_graph[other].append(node)
        self.carries: dict[int, list[int]] = {}
        self.pairs: dict[tuple, int] = {}
        self.toward: dict[tuple, list[int]] = {}

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
        key = cid * self.model.poses + pose
        value = self.values.get(key)
        if value is None:
            if len(self.values) >= KEPT_VALUES:
                self.values.clear()
            value = self.values[key] = max((self._value(plan, pose) for plan in plans), default=0)
        return value

    def unlock(self, cid: int, pose: int, door: int) -> int:
        """A lower bound on the actions that unlock ``door`` (0 unless locked): the walk to face a
        key of its colour, the key's carry distance to face the door, the toggle (INF: no key left)."""
        config = self.model.configs[cid]
        if config.doors[door] != LOCKED:
            return 0
        cell = self.door_cells[door]
        options = []
        for key in self.keys_of[door]:
            where = self._where(config, key)
            if where == HELD:
                options.append(self._held_key(cell)[pose] + 1)
            elif where is not None:
                options.append(self._walk((where,))[pose] + self._key_cost(where, cell))
        return min(options, default=INF)

    def _plans(self, config: Config) -> list[tuple]:
        """Per family of disjoint tasks, what does not depend on where the agent is: (cost, doors
        crossed, tasks involving a carried object, the first objects' cells and the doors that may
        separate the agent from them (None when one is carried), doors that may still count)."""
        shut = [d for d, status in enumerate(config.doors) if status != OPEN]
        plans = []
        for family in _families(self._tasks(config)):
            if len(family) < self.fewest_tasks:
                continue
            unlocked = {task[3][0] for task in family if task[0] == "key"}  # their toggles are counted
            doors = tuple(d for d in shut if self.door_cells[d] not in unlocked)
            cost, crossed, carried, starts = 0, set(), [], []
            for task in family:
                kind, _, a, b, movable = task
                if HELD in a or HELD in b:
                    carried.append(task)
                    continue
                cost += self._carry_cost(kind, a, b, movable)
                starts.extend(a if kind == "key" else a + b)
                crossed.update(d for d in doors if self.separates(d, list(a), list(b)))
            # the doors the walk to the first object may have to pass: (door, its sides, the objects' sides)
            walls = tuple((d, self.side(d), frozenset(self.side(d)[c] for c in starts)) for d in doors
                          if d not in crossed and all(self.side(d)[c] >= 0 for c in starts))
            carried = tuple((kind, a, b, movable, self._checks(a, b, doors, crossed))
                            for kind, _, a, b, movable in carried)
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

    def _value(self, plan: tuple, pose: int) -> int:
        cost, crossed, carried, first = plan
        cell = pose >> 2
        extra = set()
        for kind, a, b, movable, checks in carried:
            cost += self._held_cost(kind, a, b, movable, pose)
            for d, side, these, a_held, those, b_held in checks:
                mine = side[cell]
                if mine < 0:
                    continue
                these, those = these | {mine} if a_held else these, those | {mine} if b_held else those
                if not these & those:
                    extra.add(d)
        if first:  # the agent holds none of the objects: the walk to the first
            starts, walls = first
            cost += self._walk(starts)[pose]
            extra.update(d for d, side, theirs in walls if side[cell] >= 0 and side[cell] not in theirs)
        return cost + len(crossed) + len(extra)

    def _carry_cost(self, kind: str, a: tuple, b: tuple, movable: tuple) -> int:
        """The least actions a task needs when none of its objects is carried (carry distances)."""
        if kind == "key":
            return min(self._key_cost(k, b[0]) for k in a)
        return min(self._meet(m, f, f in movable) for m in a for f in b)

    def _key_cost(self, key: int, door: int) -> int:
        """A key lying at cell ``key`` carried to face cell ``door``, then the toggle."""
        return min(self.carry(key)[q] for q in self.facing[door]) + 1

    def _held_key(self, door: int) -> list[int]:
        """From every pose, the least actions to face cell ``door`` with the key in hand (toggle not included)."""
        return self._toward(("door", door), lambda: dict.fromkeys(self.facing[door], 0))

    def _held_cost(self, kind: str, a: tuple, b: tuple, movable: tuple, pose: int) -> int:
        """The least actions a task needs when the agent, at ``pose``, carries one of its objects."""
        lying, spots = [c for c in a if c != HELD], [c for c in b if c != HELD]
        options = [self._carry_cost(kind, tuple(lying), tuple(spots), movable)] if lying and spots else []
        if kind == "key":  # the carried key to face the door, then the toggle
            options.append(self._held_key(b[0])[pose] + 1)
        elif HELD in a:  # the moved object, dropped next to a fixed one where it lies or where it is moved
            spots = tuple(spots)
            options.append(self._toward(("move", spots, movable), lambda: self._drop_spots(spots, movable))[pose])
        else:  # the fixed object: dropped somewhere, then the moved one dropped next to it
            lying = tuple(lying)
            options.append(self._toward(("fixed", lying), lambda: self._fixed_drops(lying))[pose])
            options += [1 + self._meet(m, f, False) for m in lying for f in spots if f not in movable]
        return min(options)

    def _fixed_drops(self, lying: tuple) -> dict[int, int]:
        """Where a carried fixed object may be dropped, with what dropping a moved one next to it costs."""
        poses = self.model.poses
        seeds: dict[int, int] = {}
        for m in lying:
            for c, value in enumerate(self._near(m)):
                if value < seeds.get(poses + c, INF):
                    seeds[poses + c] = value
        return seeds

    def _drop_spots(self, spots: tuple, movable: tuple) -> dict[int, int]:
        """Where a carried object may be dropped to lie next to a fixed one, with what moving that
        fixed one there costs (nothing where it lies or is remembered)."""
        poses = self.model.poses
        seeds: dict[int, int] = {}
        for f in spots:
            moves = self.carry(f) if f in movable else None
            for c in range(self.model.cells) if moves is not None else (f,):
                cost = 0 if moves is None else moves[poses + c]
                if cost < INF:
                    for y in self._around(c):
                        if cost < seeds.get(poses + y, INF):
                            seeds[poses + y] = cost
        return seeds

    def _toward(self, key: tuple, seeds: Callable[[], dict[int, int]]) -> list[int]:
        """Least actions from every node of the carry graph to one of the ``seeds()`` nodes plus its value."""
        table = self.toward.get(key)
        if table is None:
            self._make_room()
            table = self.toward[key] = _spread(self.reverse_graph, seeds(), len(self.carry_graph))
        return table

    def _walk(self, starts: tuple) -> list[int]:
        """Least moves and turns from every pose to face one of ``starts`` (the agent's hands empty)."""
        key = ("walk", frozenset(starts))
        table = self.toward.get(key)
        if table is None:  # pose nodes only: nothing is held
            self._make_room()
            seeds = {q: 0 for c in set(starts) for q in self.facing[c]}
            table = self.toward[key] = _spread(self.reverse_graph, seeds, self.model.poses)
        return table

    def _make_room(self) -> None:
        if len(self.toward) >= KEPT_TABLES:
            self.toward.clear()

    def _near(self, m: int) -> list[int]:
        """Per cell, the least actions that leave the object at cell ``m`` dropped next to it."""
        key = ("near", m)
        table = self.toward.get(key)
        if table is None:
            self._make_room()
            poses, carry_m = self.model.poses, self.carry(m)
            dropped = [carry_m[poses + y] if y != m else 2 for y in range(self.model.cells)]
            table = self.toward[key] = [min((dropped[y] for y in self._around(c)), default=INF)
                                        for c in range(self.model.cells)]
        return table

    def _meet(self, m: int, f: int, movable: bool) -> int:
        """The least actions that leave the object at cell ``m`` dropped next to the one at ``f``
        (carried there first, if ``movable``): at least a pickup and a drop."""
        key = (m, f if movable else -1 - f)
        value = self.pairs.get(key)
        if value is None:
            model, poses = self.model, self.model.poses
            near = self._near(m)
            if movable:
                carry_f = self.carry(f)
                value = min(carry_f[poses + c] + near[c] for c in range(model.cells) if carry_f[poses + c] < INF)
            else:
                value = near[f]
            self.pairs[key] = value
        return value

    def _around(self, cell: int) -> list[int]:
        """The cells next to ``cell`` an object may lie on."""
        width, walls = self.width, self.model.walls
        return [c for c in (cell - 1, cell + 1, cell - width, cell + width)
                if 0 <= c < self.model.cells and not walls[c] and c not in self.door_set]

    def carry(self, cell: int) -> list[int]:
        """Least actions from an object lying at ``cell`` to every node of the carry graph."""
        table = self.carries.get(cell)
        if table is None:
            graph = self.carry_graph
            table = self.carries[cell] = _spread(graph, {self.model.poses + cell: 0}, len(graph))
        return table

    def _carry_graph(self) -> list[tuple[int, ...]]:
        """Nodes: the agent at pose q holding the object (q), or the object lying at cell x (poses + x).
        Edges, one action each: turns and moves in the walls-only map, a drop on the free cell in
        front (not a door), a pickup from any pose facing it."""
        model = self.model
        poses, walls, front, doors = model.poses, model.walls, model.front, self.door_set
        graph: list[tuple[int, ...]] = []
        for q in range(poses):
            if walls[q >> 2]:
                graph.append(())
                continue
            ahead = front[q]
            edges = [q - q % 4 + (q + 3) % 4, q - q % 4 + (q + 1) % 4]
            if not walls[ahead]:
                edges.append(ahead * 4 + q % 4)
                if ahead not in doors:
                    edges.append(poses + ahead)
            graph.append(tuple(edges))
        for x in range(model.cells):
            graph.append(() if walls[x] or x in doors else tuple(self.facing[x]))
        return graph

    def separates(self, d: int, these: list[int], those: list[int]) -> bool:
        """Whether every way from any of ``these`` cells to any of ``those`` passes door ``d``."""
        side = self.side(d)
        mine = {side[c] for c in these}
        theirs = {side[c] for c in those}
        return -1 not in mine and -1 not in theirs and not mine & theirs

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
                    movable = tuple(c for c in (self._where(config, t) for t in fixed if t >= 0)
                                    if c is not None and c != HELD)
                    tasks.append(("next", objects, moved, spots, movable))
        for d, status in enumerate(config.doors):
            if status == LOCKED and self._required(config, d, leaves):
                keys = tuple(self._where(config, k) for k in self.keys_of[d])
                keys = tuple(c for c in keys if c is not None)
                if keys:
                    objects = frozenset(self.keys_of[d]) | self._boxes(self.keys_of[d])
                    tasks.append(("key", objects, keys, (self.door_cells[d],), ()))
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
        (the agent, and what it carries, has been on the start's side ever since: the door was never
        open), or an "open" instruction names only it."""
        side, door = self.side(d), self.door_cells[d]
        start = self.model.cell(*self.instance.start.pos)  # where a carried object is, as far as sides go
        near = side[start]
        mission, poss = self.instance.mission, config.progress.poss

        def cells(desc: int, remembered: bool) -> list:
            found = [start if c == HELD else c for c in (self._where(config, t) for t in mission.descs[desc].targets)]
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
    """The one side of ``door`` all ``cells`` lie on, or None (none, several, gone or the door; a
    carried object's cell is the agent's side, given by the caller)."""
    if not cells or any(c is None or c == door for c in cells):
        return None
    sides = {side[c] for c in cells}
    return sides.pop() if len(sides) == 1 else None


def _spread(graph: list, seeds: dict[int, int], size: int) -> list[int]:
    """Least cost from ``seeds`` (node -> starting cost) to every node below ``size`` along ``graph``'s
    edges, one action each (larger nodes are left out)."""
    table = [INF] * size
    buckets: dict[int, list[int]] = {}
    for node, value in seeds.items():
        buckets.setdefault(value, []).append(node)
    value, top = 0, max(buckets, default=-1)
    while value <= top:
        for node in buckets.pop(value, ()):
            if table[node] <= value:
                continue
            table[node] = value
            for other in graph[node]:
                if other < size and table[other] > value + 1:
                    buckets.setdefault(value + 1, []).append(other)
                    top = value + 1
        value += 1
    return table


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
