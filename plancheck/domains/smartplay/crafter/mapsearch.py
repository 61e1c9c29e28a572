"""Shortest action sequences on one real Crafter map (the static-material model), by A* with a proven bound.

The heuristic adds two lower bounds on disjoint sets of actions, so it never overestimates:

- non-move actions: :func:`~plancheck.domains.smartplay.crafter.rules.lower_bound` of the tech tree
  from the inventory (a table or furnace on the map counts as placed): each real Do, Place or Make is
  at most one tree action;
- moves: every material the tree says must still be collected has to be faced, so the player must
  come next to one of its tiles: at least (Manhattan distance to the nearest such tile on the
  *original* map) - 1 moves. Tiles only disappear (trees are cut, ores mined), except stone, which
  the player can place; a stone placed during the plan never lowers the stone still to collect (each
  placement uses one), so one collected stone must come from a tile that is stone now: the nearest
  stone among the original map's and the ones placed so far.

The heuristic is admissible but not consistent (finishing a material's collection can drop its
distance term), so states are re-opened when reached more cheaply; the result is optimal. When the
search stops early, the least f-value still open is a lower bound on the optimum (:attr:`MapPlan.bound`).
"""

from __future__ import annotations

import heapq
import itertools
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from plancheck.domains.smartplay.crafter import rules
from plancheck.domains.smartplay.crafter.mapmodel import ID, MOVES, MapRules, MapState, StaticMap
from plancheck.rules import Applied
from plancheck.solvers.result import Status

# The achievements a static-map plan can aim at (no creatures, no sapling luck, no waiting).
MAP_GOALS = ("collect_wood", "place_table", "make_wood_pickaxe", "make_wood_sword", "collect_stone", "place_stone",
             "collect_coal", "place_furnace", "make_stone_pickaxe", "make_stone_sword", "collect_iron",
             "make_iron_pickaxe", "make_iron_sword", "collect_diamond", "collect_drink")
_SOURCE = {"wood": "tree", "stone": "stone", "coal": "coal", "iron": "iron", "diamond": "diamond", "drink": "water"}


@dataclass(frozen=True, slots=True)
class MapPlan:
    """A search's outcome: the plan (crafter action names) when solved, and the proven lower bound."""

    status: Status
    actions: tuple[str, ...] | None
    bound: int
    expanded: int
    seconds: float
    cost: int | None = None  # the plan's cost (its length, but for the relaxed model's free losses)

    @property
    def length(self) -> int | None:
        return None if self.actions is None else len(self.actions)

    @property
    def optimal(self) -> bool:
        return self.cost is not None and self.cost == self.bound


def map_actions(achievement: str) -> tuple[str, ...]:
    """The actions worth trying: moves, Do, Place Stone (bridges) and the goal's own places and makes."""
    tree = [] if achievement == "collect_drink" else rules.relevant_actions(achievement)
    extra = [a for a in tree if a.startswith(("place_", "make_")) and a != "place_stone"]
    return (*MOVES, "do", "place_stone", *extra)


_FAR = 1 << 20


def _transform(grid: StaticMap, cost: list[list[int]]) -> list[list[int]]:
    """min over q of (cost[q] + |p - q|) for every tile p: the L1 distance transform, two sweeps."""
    field = [list(column) for column in cost]
    for x in range(grid.width):
        column, left = field[x], field[x - 1] if x else None
        for y in range(grid.height):
            best = column[y]
            if left is not None and left[y] + 1 < best:
                best = left[y] + 1
            if y and column[y - 1] + 1 < best:
                best = column[y - 1] + 1
            column[y] = best
    for x in reversed(range(grid.width)):
        column, right = field[x], field[x + 1] if x + 1 < grid.width else None
        for y in reversed(range(grid.height)):
            best = column[y]
            if right is not None and right[y] + 1 < best:
                best = right[y] + 1
            if y + 1 < grid.height and column[y + 1] + 1 < best:
                best = column[y + 1] + 1
            column[y] = best
    return field


def _distance_field(grid: StaticMap, material: int) -> list[list[int]]:
    """Manhattan distance from every tile to the nearest tile of ``material``."""
    return _transform(grid, [[0 if v == material else _FAR for v in column] for column in grid.cells])


class Heuristic:
    """The admissible estimate of actions left for one map and goal (see the module text).

    The walking part is the longest chain of materials the tech tree forces to be visited in order
    (e.g. a tree before any stone when the wood pickaxe is missing and needs wood): the moves to come
    next to the first, then next to the second, and so on, each leg at least its Manhattan length.
    """

    def __init__(self, model: MapRules):
        self.model = model
        self.goal = model.achievement
        self._fields = {item: _distance_field(model.grid, ID[source]) for item, source in _SOURCE.items()}
        self._chains: dict[tuple[str, ...], list[list[int]]] = {}
        self._tree: dict[tuple, tuple[int, tuple[tuple[str, ...], ...]]] = {}

    def _chain_field(self, chain: tuple[str, ...]) -> list[list[int]]:
        """Fewest moves from each tile to come next to chain[0], then chain[1], ... (relaxed: walls ignored)."""
        if chain not in self._chains:
            last = self._fields[chain[-1]]
            field = [[max(v - 1, 0) for v in column] for column in last]
            for item in reversed(chain[:-1]):
                near = self._fields[item]
                cost = [[field[x][y] if near[x][y] <= 1 else _FAR for y in range(self.model.grid.height)]
                        for x in range(self.model.grid.width)]
                field = _transform(self.model.grid, cost)
            self._chains[chain] = field
        return self._chains[chain]

    def _tree_bound(self, state: MapState) -> tuple[int, tuple[tuple[str, ...], ...]]:
        table = furnace = False
        for _, _, material in state.changed:
            table |= material == ID["table"]
            furnace |= material == ID["furnace"]
        key = (state.counts, table, furnace, self.goal in state.unlocked)
        if key not in self._tree:
            if self.goal == "collect_drink":
                self._tree[key] = (0, ()) if key[-1] else (1, (("drink",),))
            else:
                tree = rules.TreeState(state.counts, table, furnace, unlocked=state.unlocked & {self.goal})
                actions, must = rules.lower_bound(tree, self.goal)
                self._tree[key] = (actions, _chains(tree, must))
        return self._tree[key]

    def __call__(self, state: MapState) -> int:
        actions, chains = self._tree_bound(state)
        x, y = state.position
        loose_stone = state.count("stone") > 0 or any(m == ID["stone"] for _, _, m in state.changed)
        walk = 0
        for chain in chains:
            if loose_stone and "stone" in chain:  # stone held or placed: it can be nearer than any map stone
                if chain != ("stone",):
                    continue
                distance = self._fields["stone"][x][y]
                if state.count("stone") and self.goal == "collect_stone":
                    distance = 1  # a held stone can be placed in front and mined again
                for cx, cy, material in state.changed:
                    if material == ID["stone"]:
                        distance = min(distance, abs(cx - x) + abs(cy - y))
                walk = max(walk, distance - 1)
            else:
                walk = max(walk, self._chain_field(chain)[x][y])
        return actions + walk


def _chains(tree: rules.TreeState, must: frozenset[str]) -> tuple[tuple[str, ...], ...]:
    """Every single material to collect, and every chain the tech tree forces (A before B when B's
    pickaxe is missing and every way to make it collects A)."""
    before: dict[str, set[str]] = {item: set() for item in must}
    for item in must:
        tool = next(iter(rules.RECIPES["collect_drink" if item == "drink" else f"collect_{item}"].requires), None)
        if tool is not None and tree.count(tool) < 1:
            before[item] = set(rules.lower_bound(tree, f"make_{tool}")[1]) & set(must)

    def extend(chain: tuple[str, ...]) -> list[tuple[str, ...]]:
        longer = [c for item in before[chain[0]] for c in extend((item, *chain))]
        return longer or [chain]

    return tuple(dict.fromkeys([(item,) for item in sorted(must)] +
                               [c for item in sorted(must) for c in extend((item,))]))


def shortest_plan(model: MapRules, *, max_expansions: int | None = 2_000_000, seconds: float | None = None,
                  shuffle: random.Random | None = None, weight: float = 1.0) -> MapPlan:
    """The shortest plan of ``model`` (A*, re-opening), or the best lower bound proven when it stops.

    Equal entries are taken deepest first, then in insertion order, or at random with ``shuffle``
    (another of the shortest plans may come out). ``weight`` > 1 is weighted A*: a plan sooner, not
    a shortest one (its ``bound`` is then 0: it proves nothing).
    """
    start = time.perf_counter()
    deadline = None if seconds is None else time.monotonic() + seconds
    h = Heuristic(model)
    actions = map_actions(model.achievement)
    free_stone = model.achievement in ("place_stone", "collect_stone")
    initial = model.initial_state()
    tie = itertools.count() if shuffle is None else iter(shuffle.random, None)
    best = {initial: 0}
    parents: dict[MapState, tuple[MapState, str] | None] = {initial: None}
    frontier = [(weight * h(initial), 0, next(tie), 0, initial)]  # ties: deepest first
    expanded = 0
    while frontier:
        f, _, _, g, state = heapq.heappop(frontier)
        if g > best[state]:
            continue  # a stale entry: reached more cheaply since
        if model.goal_reached(state):
            plan = []
            while parents[state] is not None:
                state, action = parents[state]
                plan.append(action)
            bound = g if weight == 1.0 else 0
            return MapPlan(Status.SOLVED, tuple(reversed(plan)), bound, expanded, time.perf_counter() - start, g)
        expanded += 1
        if (max_expansions is not None and expanded > max_expansions) or (
                deadline is not None and expanded % 1024 == 0 and time.monotonic() > deadline):
            bound = min(f, *(entry[0] for entry in frontier)) if frontier and weight == 1.0 else 0
            return MapPlan(Status.TIMEOUT, None, int(bound), expanded, time.perf_counter() - start)
        for action in (*actions, *model.creature_effects(state)):
            if action == "place_stone" and not free_stone and not _bridges(model, state):
                continue
            outcome = model.step(state, action)
            if not isinstance(outcome, Applied) or outcome.state == state:
                continue
            child, cost = outcome.state, g + int(model.cost(state, action))
            if cost < best.get(child, cost + 1):
                best[child] = cost
                parents[child] = (state, action)
                heapq.heappush(frontier, (cost + weight * h(child), -cost, next(tie), cost, child))
    return MapPlan(Status.UNSOLVABLE, None, 0, expanded, time.perf_counter() - start)


def _bridges(model: MapRules, state: MapState) -> bool:
    """Whether Place Stone would cover water or lava (elsewhere a placed stone only blocks the way)."""
    x, y = state.position[0] + state.facing[0], state.position[1] + state.facing[1]
    return model.material(state, x, y) in (ID["water"], ID["lava"])


def replay_static(model: MapRules, plan: Sequence[str]) -> tuple[bool, str]:
    """Replay a plan on the static model: (goal reached exactly at the last action, reason if not)."""
    state = model.initial_state()
    for index, action in enumerate(plan, start=1):
        if model.goal_reached(state):
            return False, f"the goal was reached before action {index}"
        outcome = model.step(state, action)
        if not outcome.ok:
            return False, f"action {index} ({action}): {outcome.reason}"
        state = outcome.state
    return (True, "") if model.goal_reached(state) else (False, "the goal is not reached")
