"""Crafter's tech tree (crafter 1.8.3's ``data.yaml`` and ``objects.py``) as pure, location-free rules.

A state is the inventory (12 items, each 0..9 as crafter clamps them), whether a table, a furnace
and a plant have been placed, the health left to the cow, zombie and skeleton being fought, and the
achievements unlocked. An action is one crafter action that can unlock something, named by what it
does: ``collect_<material>`` (Do facing that material), ``place_<x>``, ``make_<tool>``,
``hit_<creature>`` (Do facing it). Walking is abstracted away: a placed table or furnace counts as
nearby (the player can always walk back), a material or creature as reachable.

So the model is a relaxation of the game: every real action sequence that unlocks an achievement
contains at least as many Do/place/make actions as the shortest sequence here, which makes the
shortest length here a lower bound on any real plan (:mod:`~plancheck.domains.smartplay.crafter.solve`).
Deliberate relaxations: a Do on grass yields a sapling every time (crafter: probability 0.1), and
creatures start at full health (an arrow can wound one before the player does). ``eat_plant`` and
``wake_up`` depend on time, not on items; :mod:`~plancheck.domains.smartplay.crafter.timing` counts them.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from typing import NamedTuple

from plancheck.rules import Applied, Outcome, Rejected

ITEMS = ("sapling", "wood", "stone", "coal", "iron", "diamond", "wood_pickaxe", "stone_pickaxe", "iron_pickaxe",
         "wood_sword", "stone_sword", "iron_sword")
CAP = 9  # every item is clamped to 0..9
_INDEX = {name: i for i, name in enumerate(ITEMS)}


class Recipe(NamedTuple):
    """What an action needs, uses and gives, and the achievement it unlocks (crafter's data.yaml)."""

    unlocks: str
    requires: Mapping[str, int] = {}  # items held, not used up (pickaxes)
    uses: Mapping[str, int] = {}
    gives: str | None = None
    nearby: tuple[str, ...] = ()  # "table", "furnace"
    places: str | None = None  # "table", "furnace", "plant" (stone is placed but leaves no mark here)


RECIPES: dict[str, Recipe] = {
    "collect_wood": Recipe("collect_wood", gives="wood"),
    "collect_stone": Recipe("collect_stone", {"wood_pickaxe": 1}, gives="stone"),
    "collect_coal": Recipe("collect_coal", {"wood_pickaxe": 1}, gives="coal"),
    "collect_iron": Recipe("collect_iron", {"stone_pickaxe": 1}, gives="iron"),
    "collect_diamond": Recipe("collect_diamond", {"iron_pickaxe": 1}, gives="diamond"),
    "collect_drink": Recipe("collect_drink"),
    "collect_sapling": Recipe("collect_sapling", gives="sapling"),
    "place_stone": Recipe("place_stone", uses={"stone": 1}),
    "place_table": Recipe("place_table", uses={"wood": 2}, places="table"),
    "place_furnace": Recipe("place_furnace", uses={"stone": 4}, places="furnace"),  # no table needed in 1.8.3
    "place_plant": Recipe("place_plant", uses={"sapling": 1}, places="plant"),
    "make_wood_pickaxe": Recipe("make_wood_pickaxe", uses={"wood": 1}, gives="wood_pickaxe", nearby=("table",)),
    "make_stone_pickaxe": Recipe("make_stone_pickaxe", uses={"wood": 1, "stone": 1}, gives="stone_pickaxe",
                                 nearby=("table",)),
    "make_iron_pickaxe": Recipe("make_iron_pickaxe", uses={"wood": 1, "coal": 1, "iron": 1}, gives="iron_pickaxe",
                                nearby=("table", "furnace")),
    "make_wood_sword": Recipe("make_wood_sword", uses={"wood": 1}, gives="wood_sword", nearby=("table",)),
    "make_stone_sword": Recipe("make_stone_sword", uses={"wood": 1, "stone": 1}, gives="stone_sword",
                               nearby=("table",)),
    "make_iron_sword": Recipe("make_iron_sword", uses={"wood": 1, "coal": 1, "iron": 1}, gives="iron_sword",
                              nearby=("table", "furnace")),
}
CREATURES = {"cow": ("eat_cow", 3), "zombie": ("defeat_zombie", 5), "skeleton": ("defeat_skeleton", 3)}
SWORD_DAMAGE = (("iron_sword", 5), ("stone_sword", 3), ("wood_sword", 2))  # best sword held; 1 without
ACTIONS = (*RECIPES, *(f"hit_{name}" for name in CREATURES))
TIMED = ("eat_plant", "wake_up")
TREE_ACHIEVEMENTS = tuple(sorted({r.unlocks for r in RECIPES.values()} | {a for a, _ in CREATURES.values()}))


@dataclass(frozen=True, slots=True)
class TreeState:
    """Inventory counts (ITEMS order), placed utilities, health left to the foes being fought, unlocks."""

    counts: tuple[int, ...] = (0,) * len(ITEMS)
    table: bool = False
    furnace: bool = False
    plant: bool = False
    foes: tuple[int, int, int] = tuple(health for _, health in CREATURES.values())  # cow, zombie, skeleton
    unlocked: frozenset[str] = frozenset()

    def count(self, item: str) -> int:
        return self.counts[_INDEX[item]]

    def placed(self, utility: str) -> bool:
        return bool(getattr(self, utility))


def damage(state: TreeState) -> int:
    """The player's damage per hit: the best sword held (crafter's Player._do_object)."""
    return next((hit for sword, hit in SWORD_DAMAGE if state.count(sword) > 0), 1)


def _unlock(state: TreeState, name: str) -> frozenset[str]:
    return state.unlocked | {name}


def step(state: TreeState, action: str) -> Outcome:
    """Apply one abstract action (a name in :data:`ACTIONS`)."""
    if action.startswith("hit_"):
        return _hit(state, action[4:])
    recipe = RECIPES.get(action)
    if recipe is None:
        return Rejected(f"{action!r} is not an action of Crafter's tech tree")
    missing = [f"a nearby {u}" for u in recipe.nearby if not state.placed(u)]
    missing += [f"{n} {item}" for item, n in {**recipe.requires, **recipe.uses}.items() if state.count(item) < n]
    if missing:
        return Rejected(f"{action} needs {' and '.join(missing)}")
    counts = list(state.counts)
    for item, n in recipe.uses.items():
        counts[_INDEX[item]] -= n
    if recipe.gives is not None:
        counts[_INDEX[recipe.gives]] = min(CAP, counts[_INDEX[recipe.gives]] + 1)
    placed = {recipe.places: True} if recipe.places in ("table", "furnace", "plant") else {}
    return Applied(replace(state, counts=tuple(counts), unlocked=_unlock(state, recipe.unlocks), **placed))


def _hit(state: TreeState, creature: str) -> Outcome:
    if creature not in CREATURES:
        return Rejected(f"there is no creature {creature!r} in Crafter")
    index = list(CREATURES).index(creature)
    achievement, full = CREATURES[creature]
    left = state.foes[index] - damage(state)
    foes = list(state.foes)
    if left > 0:
        foes[index] = left
        return Applied(replace(state, foes=tuple(foes)))
    foes[index] = full  # the next one is at full health
    return Applied(replace(state, foes=tuple(foes), unlocked=_unlock(state, achievement)))


def relevant_actions(achievement: str) -> tuple[str, ...]:
    """The actions that can contribute to unlocking ``achievement``, in :data:`ACTIONS` order.

    The closure from the goal backwards: the actions that unlock it, then the producers of every item
    they need or use and of every utility they need nearby (and the swords, for a fight). An action
    outside it produces nothing the goal's actions consume or need, and unlocks nothing on the way,
    so leaving it out never lengthens a shortest plan.
    """
    producers: dict[str, list[str]] = {}
    for name, recipe in RECIPES.items():
        for product in (recipe.gives, recipe.places):
            if product is not None:
                producers.setdefault(product, []).append(name)
    wanted = [name for name, recipe in RECIPES.items() if recipe.unlocks == achievement]
    wanted += [f"hit_{c}" for c, (unlocks, _) in CREATURES.items() if unlocks == achievement]
    chosen: set[str] = set()
    while wanted:
        action = wanted.pop()
        if action in chosen:
            continue
        chosen.add(action)
        if action.startswith("hit_"):
            needs = [sword for sword, _ in SWORD_DAMAGE]
        else:
            recipe = RECIPES[action]
            needs = [*recipe.requires, *recipe.uses, *recipe.nearby]
        for need in needs:
            wanted += producers.get(need, [])
    return tuple(a for a in ACTIONS if a in chosen)


def lower_bound(state: TreeState, achievement: str) -> tuple[int, frozenset[str]]:
    """The fewest actions that still unlock ``achievement`` (a crafting one) from ``state``, and the
    items every such plan must collect at least once more.

    Each item, tool and utility of the tree has exactly one producing action and no alternative, so
    the shortest plan is: every missing tool made and missing utility placed (recursively), every
    unit of material those recipes use beyond what is held collected, and the goal's own action.
    Tests check it against breadth-first search from many states.
    """
    if achievement in state.unlocked:
        return 0, frozenset()
    goal = next((name for name, recipe in RECIPES.items() if recipe.unlocks == achievement), None)
    if goal is None:
        raise ValueError(f"{achievement!r} is not unlocked by a recipe")
    goal_item = RECIPES[goal].gives if goal.startswith("collect_") else None
    chosen: list[str] = []  # the place and make actions every plan needs

    def need_tools(recipe: Recipe) -> None:
        for tool in recipe.requires:
            if state.count(tool) < 1 and f"make_{tool}" not in chosen:
                chosen.append(f"make_{tool}")
                need_tools(RECIPES[f"make_{tool}"])
        for utility in recipe.nearby:
            if not state.placed(utility) and f"place_{utility}" not in chosen:
                chosen.append(f"place_{utility}")

    if goal_item is None:
        chosen.append(goal)
        need_tools(RECIPES[goal])
    while True:  # materials to collect, and the pickaxes their collection needs, until nothing changes
        demand = {item: 0 for item in ITEMS}
        for action in chosen:
            for item, n in RECIPES[action].uses.items():
                demand[item] += n
        collect = {item: max(0, n - state.count(item)) for item, n in demand.items()}
        if goal_item is not None:
            collect[goal_item] += 1
        before = len(chosen)
        for item, n in collect.items():
            if n:
                need_tools(RECIPES["collect_drink" if item == "drink" else f"collect_{item}"])
        if len(chosen) == before:
            return len(chosen) + sum(collect.values()), frozenset(i for i, n in collect.items() if n)


class TechTree:
    """The tech tree as :class:`plancheck.rules.SearchRules` with the goal of unlocking ``achievement``.

    With ``prune=True`` (for searches) only :func:`relevant_actions` are offered and states forget
    every unlock but the goal's (no rule reads them), which keeps shortest plans shortest.
    """

    horizon = None
    stops_at_goal = True

    def __init__(self, achievement: str, start: TreeState | None = None, *, prune: bool = False):
        if achievement not in TREE_ACHIEVEMENTS:
            raise ValueError(f"{achievement!r} is not in Crafter's tech tree; known: {', '.join(TREE_ACHIEVEMENTS)}")
        self.achievement = achievement
        self._prune = prune
        self._actions = relevant_actions(achievement) if prune else ACTIONS
        self._start = self._project(start or TreeState())

    def _project(self, state: TreeState) -> TreeState:
        if self._prune and state.unlocked - {self.achievement}:
            return replace(state, unlocked=state.unlocked & {self.achievement})
        return state

    def initial_state(self) -> TreeState:
        return self._start

    def step(self, state: TreeState, action: str) -> Outcome:
        outcome = step(state, action)
        return Applied(self._project(outcome.state)) if self._prune and outcome.ok else outcome

    def goal_reached(self, state: TreeState) -> bool:
        return self.achievement in state.unlocked

    def actions(self, state: TreeState) -> Iterator[str]:
        return iter(self._actions)

    def cost(self, state: TreeState, action: str) -> float:
        return 1.0
