"""An admissible estimate of the actions a BabyAI mission still needs.

*Visits.* Every pending instruction needs the agent to face, at some future step, a cell of a set:
go to: the description's remembered target positions or its targets' current cells (a target
moved first must be picked up where it lies); pick up: a target's cell; open: a target door; put
next: the object to move, and a cell next to (or on, if it is moved first) a fixed target. A
carried target needs no visit; an empty set makes the state a dead end. Each visit happens no
later than its instruction completes; a visit to a door (which never moves) for an instruction
that comes after others ("then", "after you") happens no earlier than those complete.

*Estimate.* Movement: the cheapest order of visits respecting those precedences, the first leg
measured with the current doors (entering a closed door that no "open" instruction targets costs
a toggle) and later legs in the map with walls only. Plus the pickups, toggles and drops that
cannot share a step: per action kind, the largest family of instructions with pairwise disjoint
targets (and a key pickup for a locked target door, a toggle to close an open target door, a
drop to free the hands). Movement and these actions are disjoint, each counted from below, so the
sum never exceeds the true cost.
"""

from __future__ import annotations

from collections import deque
from itertools import combinations

from plancheck.domains.babyai.instance import DIR_VEC, LOCKED, OPEN
from plancheck.domains.babyai.mission import SUCCESS, GoTo, Open, Pickup, PutNext, Seq, door_index
from plancheck.solvers.babyai_search import INF, Config, Model

MAX_ORDERED = 7  # up to this many visits the best order is computed exactly (beyond: first leg only)


class FaceTables:
    """Distances from every pose to facing a set of cells; closed doors may cost an extra toggle."""

    def __init__(self, model: Model):
        self.model = model
        self.steps = [dx + dy * model.width for dx, dy in DIR_VEC]
        self.tables: dict[tuple, list[int]] = {}

    def __call__(self, cells: frozenset[int], toll: frozenset[int] = frozenset()) -> list[int]:
        """Entering a cell in ``toll`` costs 2 (toggle, then forward) instead of 1."""
        key = (cells, toll)
        table = self.tables.get(key)
        if table is None:
            table = self.tables[key] = self._compute(cells, toll)
        return table

    def _compute(self, cells: frozenset[int], toll: frozenset[int]) -> list[int]:
        model = self.model
        walls, front, steps = model.walls, model.front, self.steps
        dist = [INF] * model.poses
        buckets: list[deque[int]] = [deque()]
        for pose in range(model.poses):
            if not walls[pose >> 2] and front[pose] in cells:
                dist[pose] = 0
                buckets[0].append(pose)
        level = 0
        while level < len(buckets):
            queue = buckets[level]
            while queue:
                pose = queue.popleft()
                if dist[pose] != level:
                    continue
                cell, direction = divmod(pose, 4)
                base = cell * 4
                moves = [(base + (direction + 1) % 4, 1), (base + (direction + 3) % 4, 1)]
                back = cell - steps[direction]
                if 0 <= back < model.cells and not walls[back]:
                    moves.append((back * 4 + direction, 2 if cell in toll else 1))
                for prev, cost in moves:
                    nd = level + cost
                    if nd < dist[prev]:
                        dist[prev] = nd
                        while len(buckets) <= nd:
                            buckets.append(deque())
                        buckets[nd].append(prev)
            level += 1
        return dist


class MissionHeuristic:
    """``h(cid, pose)``: the admissible estimate described in the module docstring."""

    def __init__(self, model: Model):
        self.model = model
        self.face = FaceTables(model)
        inst = model.rules.instance
        self.instance = inst
        self.door_cells = [model.cell(*d.pos) for d in inst.doors]
        self.by_config: list[list[int] | None] = []
        self.by_needs: dict[tuple, list[int]] = {}

    def __call__(self, cid: int, pose: int) -> int:
        by_config = self.by_config
        if cid >= len(by_config):
            by_config.extend([None] * (cid + 1 - len(by_config)))
        table = by_config[cid]
        if table is None:
            needs = self.needs(self.model.configs[cid])
            table = self.by_needs.get(needs)
            if table is None:
                table = self.by_needs[needs] = self._combine(needs)
            by_config[cid] = table
        return table[pose]

    # -- what remains to be done ---------------------------------------------------------------
    def needs(self, config: Config) -> tuple:
        """(visits, precedences, interactions, door tolls) or ('dead',); equal needs share a table."""
        progress = config.progress
        if progress.result == SUCCESS:
            return ((), (), 0, frozenset())
        if progress.result != 0:
            return ("dead",)
        mission = self.instance.mission
        leaves: list = []
        before: set[tuple[int, int]] = set()
        _walk(mission.root, progress.done, leaves, before)
        visits: list[tuple[frozenset[int], bool, int]] = []
        toggles: list[frozenset[int]] = []
        pickups: list[frozenset[int]] = []
        drops: list[frozenset[int]] = []
        close = keys = False
        exempt: set[int] = set()
        carrying = config.carrying
        for index, leaf in enumerate(leaves):
            if isinstance(leaf, GoTo):
                targets = mission.descs[leaf.desc].targets
                if carrying not in targets:
                    visits.append((self._cells(config, targets) | self._poss(progress.poss[leaf.desc]),
                                   all(t < 0 for t in targets), index))
            elif isinstance(leaf, Open):
                doors = [door_index(t) for t in mission.descs[leaf.desc].targets if t < 0]
                exempt.update(doors)
                visits.append((frozenset(self.door_cells[d] for d in doors), True, index))
                toggles.append(frozenset(doors))
                states = [config.doors[d] for d in doors]
                close = close or all(s == OPEN for s in states)
                if all(s == LOCKED for s in states) and doors and not self._holds_key(config, doors):
                    colors = {self.instance.doors[d].color for d in doors}
                    keyset = frozenset(i for i, t in enumerate(self.instance.things)
                                       if t.kind == "key" and t.color in colors)
                    pickups.append(keyset)
                    visits.append((self._cells(config, tuple(keyset | self._boxes_holding(keyset))), False, index))
            elif isinstance(leaf, Pickup):
                targets = mission.descs[leaf.desc].targets
                pickups.append(frozenset(targets))
                if carrying not in targets:
                    visits.append((self._cells(config, targets), False, index))
            elif isinstance(leaf, PutNext):
                move, fixed = mission.descs[leaf.move].targets, mission.descs[leaf.fixed].targets
                drops.append(frozenset(move))
                if carrying not in move:
                    pickups.append(frozenset(move))
                    visits.append((self._cells(config, move), False, index))
                if carrying not in fixed:
                    spots = self._cells(config, fixed) | self._poss(progress.poss[leaf.fixed])
                    visits.append((spots | self._around(spots), all(t < 0 for t in fixed), index))
        if any(not cells for cells, _, _ in visits):
            return ("dead",)
        interactions = _disjoint(toggles) + _disjoint(pickups) + _disjoint(drops) + close
        if pickups and carrying >= 0 and not any(carrying in m for m in pickups):
            interactions += 1  # the hands must be freed before the next pickup
        toll = frozenset(self.door_cells[d] for d, s in enumerate(config.doors) if s != OPEN and d not in exempt)
        return (tuple(visits), tuple(sorted(before)), interactions, toll)

    def _boxes_holding(self, objects: frozenset[int]) -> frozenset[int]:
        """The boxes that hold any of ``objects``, directly or inside another box."""
        things = self.instance.things
        found: set[int] = set()
        wanted = set(objects)
        changed = True
        while changed:
            changed = False
            for i, thing in enumerate(things):
                if thing.contains in wanted and i not in wanted:
                    wanted.add(i)
                    found.add(i)
                    changed = True
        return frozenset(found)

    def _holds_key(self, config: Config, doors: list[int]) -> bool:
        if config.carrying < 0:
            return False
        thing = self.instance.things[config.carrying]
        return thing.kind == "key" and any(self.instance.doors[d].color == thing.color for d in doors)

    def _cells(self, config: Config, targets: tuple[int, ...]) -> frozenset[int]:
        cells = set()
        for ref in targets:
            if ref < 0:
                cells.add(self.door_cells[door_index(ref)])
            elif config.objects[ref] is not None:
                cells.add(self.model.cell(*config.objects[ref]))
        return frozenset(cells)

    def _poss(self, poss: tuple) -> frozenset[int]:
        return frozenset(self.model.cell(x, y) for x, y in poss)

    def _around(self, cells: frozenset[int]) -> frozenset[int]:
        model, width = self.model, self.model.width
        near = set()
        for cell in cells:
            for other in (cell - 1, cell + 1, cell - width, cell + width):
                if 0 <= other < model.cells and not model.walls[other] and other not in self.door_cells:
                    near.add(other)
        return frozenset(near)

    # -- the estimate ---------------------------------------------------------------------------
    def _combine(self, needs: tuple) -> list[int]:
        model = self.model
        if needs == ("dead",):
            return [INF] * model.poses
        visits, before, interactions, toll = needs
        if not visits:
            return [interactions] * model.poses
        tails = self._tails(visits, set(before))
        out = [INF] * model.poses
        for (cells, _, _), tail in zip(visits, tails):
            if tail >= INF:
                continue
            for pose, d in enumerate(self.face(cells, toll)):
                v = d + tail
                if v < out[pose]:
                    out[pose] = v
        return [v + interactions if v < INF else INF for v in out]

    def _tails(self, visits: tuple, before: set[tuple[int, int]]) -> list[int]:
        """For each visit, the cheapest way to do all the others after it (INF: it cannot come first)."""
        k = len(visits)
        must = [0] * k  # bitmask of visits that must precede visit j
        for j, (_, anchored, leaf_j) in enumerate(visits):
            if anchored:
                for i, (_, _, leaf_i) in enumerate(visits):
                    if (leaf_i, leaf_j) in before:
                        must[j] |= 1 << i
        if k > MAX_ORDERED:
            return [0 if not must[i] else INF for i in range(k)]
        model = self.model
        hops = [[0] * k for _ in range(k)]
        for i, (cells, _, _) in enumerate(visits):
            faces = [p for p in range(model.poses) if model.front[p] in cells and not model.walls[p >> 2]]
            for j, (other, _, _) in enumerate(visits):
                if i != j:
                    table = self.face(other)
                    hops[i][j] = min((table[p] for p in faces), default=INF)
        full = (1 << k) - 1
        tails = []
        for start in range(k):
            if must[start]:
                tails.append(INF)
                continue
            best = {(1 << start, start): 0}
            for _ in range(k - 1):
                grown: dict[tuple[int, int], int] = {}
                for (mask, last), cost in best.items():
                    for j in range(k):
                        if mask >> j & 1 or must[j] & ~mask:
                            continue
                        key = (mask | 1 << j, j)
                        value = cost + hops[last][j]
                        if value < grown.get(key, INF):
                            grown[key] = value
                best = grown
            tails.append(min((c for (mask, _), c in best.items() if mask == full), default=INF))
        return tails


def _walk(node, done: tuple[int, ...], leaves: list, before: set[tuple[int, int]]) -> list[int]:
    """Collect the pending leaves (indices into ``leaves``) and which must complete before which."""
    if not isinstance(node, Seq):
        leaves.append(node)
        return [len(leaves) - 1]
    a = _walk(node.a, done, leaves, before) if done[2 * node.node] != SUCCESS else []
    b = _walk(node.b, done, leaves, before) if done[2 * node.node + 1] != SUCCESS else []
    if node.kind == "before":
        before.update((i, j) for i in a for j in b)
    elif node.kind == "after":
        before.update((j, i) for i in a for j in b)
    return a + b


def _disjoint(sets: list[frozenset[int]]) -> int:
    """The size of the largest family of pairwise disjoint sets among ``sets`` (at most 6 of them)."""
    for size in range(len(sets), 0, -1):
        for family in combinations(sets, size):
            if all(not (x & y) for x, y in combinations(family, 2)):
                return size
    return 0
