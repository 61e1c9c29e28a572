"""An admissible estimate of the actions a BabyAI mission still needs.

*Visits.* Every pending instruction needs the agent to face, at some future step, a cell of a set:
go to: the description's remembered target positions or its targets' current cells (a target
moved first must be picked up where it lies); pick up: a target's cell; open: a target door (and
a key, for a locked one); put next: the object to move, and a cell next to (or on, if it is moved
first) a fixed target. A carried target needs no visit; an empty set makes the state a dead end.
Each visit happens no later than its instruction completes. The completing visit of an
instruction that comes after others ("then", "after you"), and the drop next to a fixed object
after fetching the moved one, happen no earlier than what precedes them, unless the target was
moved beforehand, which costs extra pickups and drops (see ``_escape``). So does fetching the object
a put next moves, after the pickups that must come first: the hands are empty at each, so the
object lies somewhere then and is picked up afterwards (where it lies now, unless it was moved).

*Estimate.* Movement: the cheapest order of visits respecting those precedences (or paying to
skip them), with the first leg measured in the current map (entering a closed door that no "open"
instruction targets costs a toggle, entering a door's approach cell where an object that no
instruction names lies costs the action that moves it) and later legs in the map with walls only;
or, if larger, every leg with walls only plus the fewest such toggles and moves needed to reach
every visit (:mod:`plancheck.domains.babyai.search.rooms`). Plus the pickups, toggles and drops that cannot
share a step: per action kind, the largest family of instructions with pairwise disjoint targets
(and a key pickup for a locked target door, a toggle to close an open target door, a drop to free
the hands unless a put next's drop does it, a drop and a pickup more for a moved object in hand
that must be put down for an earlier pickup). Movement, door toggles and these actions are
disjoint, each counted from below, so the sum never exceeds the true cost.
"""

from __future__ import annotations

from collections import OrderedDict
from itertools import combinations

from plancheck.domains.babyai.instance import LOCKED, OPEN
from plancheck.domains.babyai.mission import SUCCESS, GoTo, Open, Pickup, PutNext, descs_of, door_index, pending_leaves
from plancheck.domains.babyai.search.astar import INF, Config, Model
from plancheck.domains.babyai.search.faces import FaceTables
from plancheck.domains.babyai.search.rooms import RoomGraph
from plancheck.domains.babyai.search.transport import TransportBound

MAX_ORDERED = 7  # up to this many visits the best order between visit sets is computed (beyond: first leg only)
EXACT_ROUTE = 6  # up to this many visits the best order is computed pose by pose
KEPT_LEGS = 16384  # distance tables kept for reuse (16-32 kB each), the least recently used dropped first


class MissionHeuristic:
    """``h(cid, pose)``: the admissible estimate described in the module docstring."""

    def __init__(self, model: Model):
        self.model = model
        self.face = FaceTables(model)
        inst = model.rules.instance
        self.instance = inst
        self.door_cells = [model.cell(*d.pos) for d in inst.doors]
        self.rooms = RoomGraph(model)
        self.by_config: list[list[int] | None] = []
        self.by_needs: dict[tuple, list[int]] = {}
        self.legs: OrderedDict[tuple, list[int]] = OrderedDict()  # least recently used first
        self.transport = TransportBound(model, fewest_tasks=2)  # where one hand matters

    def rebind(self, model: Model) -> MissionHeuristic:
        """Estimate the states of ``model``, another model of the same map, keeping the tables."""
        self.model = model
        self.by_config = []
        self.transport.rebind(model)
        return self

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
        value = table[pose]
        return value if value >= INF else max(value, self.transport(cid, pose))

    # -- what remains to be done ---------------------------------------------------------------
    def needs(self, config: Config) -> tuple:
        """(visits as (cells, visits that must come first, cost of moving the target early),
        interactions, door tolls, door weights) or ('dead',); equal needs share a table."""
        progress = config.progress
        if progress.result == SUCCESS:
            return ((), 0, (), (), None)
        if progress.result != 0:
            return ("dead",)
        mission = self.instance.mission
        leaves: list = []
        before: set[tuple[int, int]] = set()
        pending_leaves(mission.root, progress.done, leaves, before)
        visits: list[list] = []  # [cells, anchored (or the leaves it comes after), leaf, escape-or-targets]
        toggles: list[frozenset[int]] = []
        pickups: list[frozenset[int]] = []
        drops: list[frozenset[int]] = []
        regrasps: list[frozenset[int]] = []
        close = False
        exempt: set[int] = set()
        carrying = config.carrying
        for index, leaf in enumerate(leaves):
            if isinstance(leaf, GoTo):
                targets = mission.descs[leaf.desc].targets
                if carrying not in targets:
                    visits.append([self._cells(config, targets) | self._poss(progress.poss[leaf.desc]), True,
                                   index, ("goto", frozenset(targets))])
            elif isinstance(leaf, Open):
                doors = [door_index(t) for t in mission.descs[leaf.desc].targets if t < 0]
                exempt.update(doors)
                visits.append([frozenset(self.door_cells[d] for d in doors), True, index, INF])
                toggles.append(frozenset(doors))
                states = [config.doors[d] for d in doors]
                close = close or all(s == OPEN for s in states)
                if all(s == LOCKED for s in states) and doors and not self._holds_key(config, doors):
                    colors = {self.instance.doors[d].color for d in doors}
                    keyset = frozenset(i for i, t in enumerate(self.instance.things)
                                       if t.kind == "key" and t.color in colors)
                    pickups.append(keyset)
                    holders = boxes_holding(self.instance.things, keyset)
                    visits.append([self._cells(config, tuple(keyset | holders)), False, index, INF])
            elif isinstance(leaf, Pickup):
                targets = frozenset(mission.descs[leaf.desc].targets)
                pickups.append(targets)
                if carrying not in targets:
                    visits.append([self._cells(config, tuple(targets)), True, index, ("pickup", targets)])
            elif isinstance(leaf, PutNext):
                move, fixed = mission.descs[leaf.move].targets, mission.descs[leaf.fixed].targets
                drops.append(frozenset(move))
                fetch = None
                # pickups that come first, of other objects: the hands are empty at each
                earlier = frozenset(i for i, other in enumerate(leaves) if isinstance(other, Pickup)
                                    and (i, index) in before and not set(mission.descs[other.desc].targets) & set(move))
                if carrying not in move:
                    pickups.append(frozenset(move))
                    fetch = len(visits)
                    # so the moved object is fetched after them, unless it was moved earlier
                    visits.append([self._cells(config, move), earlier, index, ("fetch", frozenset(move))])
                elif earlier:
                    regrasps.append(frozenset(move))  # put down for those pickups, picked up again after them
                if carrying not in fixed:
                    spots = self._cells(config, fixed) | self._poss(progress.poss[leaf.fixed])
                    # dropping next to the fixed object comes after fetching the moved one, unless the
                    # fixed one is moved first (its pickup is then the visit)
                    visits.append([spots | self._around(spots), True, index, ("fixed", frozenset(fixed)), fetch])
        if any(not visit[0] for visit in visits):
            return ("dead",)
        final = []
        for visit in visits:
            cells, anchored, leaf, escape = visit[:4]
            must = 0
            if isinstance(anchored, frozenset):  # a fetch: after the visits of those pickups
                must = sum(1 << i for i, other in enumerate(visits)
                           if other[2] in anchored and _kind(other[3]) == "pickup")
            elif anchored:  # after every visit of the instructions that come first
                must = sum(1 << i for i, other in enumerate(visits) if (other[2], leaf) in before)
                if len(visit) > 4 and visit[4] is not None:
                    must |= 1 << visit[4]
            if isinstance(escape, tuple):  # what skipping the precedence costs (see _escape)
                escape = _escape(escape, pickups, drops)
            final.append((cells, must, escape))
        interactions = _disjoint(toggles) + _disjoint(pickups) + _disjoint(drops) + close
        # put down for an earlier pickup and picked up again: a drop and a pickup no other family counts
        interactions += sum(2 for moved in regrasps if not any(moved & family for family in pickups)
                            and sum(1 for family in drops if moved & family) == 1)
        if pickups and carrying >= 0 and not any(carrying in m for m in pickups + drops):
            interactions += 1  # the hands must be freed before the next pickup (a put next's drop may do it)
        named = {t for leaf in leaves for desc in descs_of(leaf) for t in mission.descs[desc].targets}
        named.update(k for family in pickups for k in family)
        # an unnamed object on a door's approach cell: a box vanishes with one toggle; a key or ball is
        # picked up and, when the hands are needed later, dropped again
        hands = 2 if pickups or carrying >= 0 else 1
        blocked = {}
        approach = self.rooms.approach_set
        for i, cell in enumerate(config.objects):
            if cell is not None and i not in named:
                index = self.model.cell(*cell)
                if index in approach:
                    blocked[index] = 1 if self.instance.things[i].kind == "box" else hands
        gate = self._gate(config, exempt, pickups)
        toll = tuple(sorted([(self.door_cells[d], 1) for d, s in enumerate(config.doors)
                             if s != OPEN and d not in exempt and (gate is None or self.door_cells[d] != gate[0])]
                            + list(blocked.items())))
        weights = tuple([0 if s == OPEN or d in exempt else 1 for d, s in enumerate(config.doors)]
                        + [blocked.get(cell, 0) for cell in self.rooms.approach_cells])
        return (tuple(final), interactions, toll, weights, gate)

    def _gate(self, config: Config, exempt: set[int], pickups: list[frozenset[int]]) -> tuple | None:
        """The first locked door the agent holds no key for: (cell, key cells, key cost, toggle cost).

        Passing it needs a key of its colour picked up first (a key an instruction picks up anyway
        costs nothing extra), and a toggle (unless an "open" instruction counts it).
        """
        for d, status in enumerate(config.doors):
            if status != LOCKED or self._holds_key(config, [d]):
                continue
            color = self.instance.doors[d].color
            keys = frozenset(i for i, t in enumerate(self.instance.things) if t.kind == "key" and t.color == color)
            cells = self._cells(config, tuple(keys | boxes_holding(self.instance.things, keys)))
            shared = any(keys & family for family in pickups)
            return (self.door_cells[d], cells, 0 if shared else 1, 0 if d in exempt else 1)
        return None

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
        visits, interactions, toll, weights, gate = needs
        if not visits:
            return [interactions] * model.poses
        first = self._route(visits, toll, gate)  # the first leg with tolls
        if any(weights):
            # every leg in the walls-only map (the locked door's toggle is the Steiner tree's)
            loose = self._route(visits, (), None if gate is None else gate[:3] + (0,))
            groups = tuple(sorted({self.rooms.stands(cells) for cells, _, _ in visits}, key=sorted))
            opened = self.rooms.toggles(groups, weights)
            node_of = self.rooms.node_of
            first = [max(a, b + opened[node_of[pose >> 2]]) if a < INF else INF
                     for pose, (a, b) in enumerate(zip(first, loose))]
        return [v + interactions if v < INF else INF for v in first]

    def _route(self, visits: tuple, toll: tuple[tuple[int, int], ...], gate: tuple | None) -> list[int]:
        """The cheapest order of visits from every pose (exact per pose up to EXACT_ROUTE visits)."""
        k = len(visits)
        out = [INF] * self.model.poses
        if k > EXACT_ROUTE:
            for (cells, _, _), tail in zip(visits, self._tails(visits)):
                if tail < INF:
                    for pose, d in enumerate(self.face(cells, toll)):
                        if d + tail < out[pose]:
                            out[pose] = d + tail
            return out
        everything = frozenset(range(k))
        for i, (_, must, escape) in enumerate(visits):
            extra = escape if must else 0
            if extra >= INF:
                continue
            table = self._leg(visits, i, everything - {i}, toll, gate)
            for pose in range(self.model.poses):  # layer 0: the agent starts without the gate's key
                if table[pose] + extra < out[pose]:
                    out[pose] = table[pose] + extra
        return out

    def _leg(self, visits: tuple, j: int, rest: frozenset[int], toll: tuple[tuple[int, int], ...],
             gate: tuple | None) -> list[int]:
        """From every node: reach a pose facing visit ``j``'s cells, then do the visits in ``rest``."""
        members = sorted(rest | {j})  # the table depends only on these visits: share it across states
        place = {v: k for k, v in enumerate(members)}
        sub = tuple((visits[v][0], sum(1 << place[b] for b in members if visits[v][1] >> b & 1), visits[v][2])
                    for v in members)
        key = (sub, place[j], toll, gate)
        legs = self.legs
        table = legs.get(key)
        if table is not None:
            legs.move_to_end(key)
        else:
            layers = 1 if gate is None else 2
            poses = self.model.poses
            seeds = {}
            for q in self.face.faces(visits[j][0]):
                for layer in range(layers):
                    node = layer * poses + q
                    value = self._after(visits, j, rest, node, gate)
                    if value < INF:
                        seeds[node] = value
            table = legs[key] = self.face.seeded(seeds, toll, gate)
            if len(legs) > KEPT_LEGS:
                legs.popitem(last=False)
        return table

    def _after(self, visits: tuple, j: int, rest: frozenset[int], node: int, gate: tuple | None) -> int:
        """From ``node`` (just after visit ``j``), the cheapest way to do the visits in ``rest``."""
        if not rest:
            return 0
        done = sum(1 << i for i in range(len(visits)) if i not in rest)
        best = INF
        later = None if gate is None else gate[:3] + (0,)  # later legs: walls only (the toggle is counted once)
        for n in rest:
            _, must, escape = visits[n]
            extra = 0 if must & ~done == 0 else escape
            if extra < best:
                best = min(best, extra + self._leg(visits, n, rest - {n}, (), later)[node])
        return best

    def _tails(self, visits: tuple) -> list[int]:
        """For each visit, the cheapest way to do all the others after it (INF: it cannot come first).

        A visit's precedences may be skipped at its escape cost (its target moved early); the
        cheapest choice of skipped precedences counts.
        """
        k = len(visits)
        if k > MAX_ORDERED:
            return [0] * k
        model = self.model
        hops = [[0] * k for _ in range(k)]
        for i, (cells, _, _) in enumerate(visits):
            faces = [p for p in range(model.poses) if model.front[p] in cells and not model.walls[p >> 2]]
            for j, (other, _, _) in enumerate(visits):
                if i != j:
                    table = self.face(other)
                    hops[i][j] = min((table[p] for p in faces), default=INF)
        must = [m for _, m, _ in visits]
        movable = [j for j in range(k) if must[j] and visits[j][2] < INF]
        best = [INF] * k
        for size in range(len(movable) + 1):
            for skipped in combinations(movable, size):
                extra = sum(visits[j][2] for j in skipped)
                constraints = [0 if j in skipped else must[j] for j in range(k)]
                for start, tail in enumerate(_orders(hops, constraints)):
                    if tail + extra < best[start]:
                        best[start] = tail + extra
        return best


def boxes_holding(things: tuple, objects: frozenset[int] | set[int]) -> frozenset[int]:
    """The boxes that hold any of ``objects``, directly or inside another box."""
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


def _orders(hops: list[list[int]], must: list[int]) -> list[int]:
    """For each start, the cheapest path through all visits respecting ``must`` (INF if none)."""
    k = len(hops)
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


def _escape(kind_targets: tuple[str, frozenset[int]], pickups: list[frozenset[int]],
            drops: list[frozenset[int]]) -> int:
    """The actions a visit's precedences can be skipped for: its target must be moved first (go to
    or put next to it: a pickup and a drop; pick it up: an early pickup), unless those actions may be
    shared with other instructions' (then nothing is counted); doors never move."""
    kind, targets = kind_targets
    if all(t < 0 for t in targets):
        return INF  # doors never move
    if kind == "fetch":  # an early pickup and drop, beyond the one of each the put next counts
        shared = sum(1 for s in pickups if targets & s) > 1 or sum(1 for s in drops if targets & s) > 1
        return 0 if shared else 2
    if kind in ("goto", "fixed"):
        shared = any(targets & s for s in pickups) or any(targets & s for s in drops)
        return 0 if shared else 2
    shared = sum(1 for s in pickups if targets & s) > 1 or any(targets & s for s in drops)
    return 0 if shared else 1


def _kind(escape: object) -> str | None:
    """The kind of visit an escape record names ("goto", "pickup", "fixed", "fetch"), if any."""
    return escape[0] if isinstance(escape, tuple) else None


def _disjoint(sets: list[frozenset[int]]) -> int:
    """The size of the largest family of pairwise disjoint sets among ``sets`` (at most 6 of them)."""
    for size in range(len(sets), 0, -1):
        for family in combinations(sets, size):
            if all(not (x & y) for x, y in combinations(family, 2)):
                return size
    return 0
