"""The static-material model of one Crafter map: the player's own rules on the real map, no creatures.

The map is crafter's material grid for a seed (crafter's own worldgen, read off the env after
SmartPlay's reset). The player acts exactly as crafter 1.8.3's ``Player.update`` makes it act on
materials: a move turns the player and steps onto grass, sand or path (lava kills: rejected here);
Do collects what it faces (a tree becomes grass, stone/coal/iron/diamond become path, with the
pickaxe each needs; water gives a drink); Place puts a table, furnace or stone on the faced tile;
Make needs a table (and furnace) in the 3 x 3 square around the player. Inventory counts are
clamped to 0..9.

What the model leaves out, on purpose: creatures (cows, zombies, skeletons and arrows block cells,
hurt, and can be fought), the player's vitals (food, drink and energy only start to hurt after
about 200 steps), Do on grass (a sapling with probability 0.1: not planned for), plants and sleep.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache

from plancheck.domains.smartplay.crafter import prompts
from plancheck.domains.smartplay.crafter.rules import CAP, ITEMS, RECIPES
from plancheck.rules import Applied, Outcome, Rejected

MATERIALS = prompts.NAMES[:13]  # id -> name; 0 = outside the map
ID = {name: i for i, name in enumerate(MATERIALS)}
WALKABLE = frozenset(ID[m] for m in ("grass", "sand", "path"))
MOVES = {"move_left": (-1, 0), "move_right": (1, 0), "move_up": (0, -1), "move_down": (0, 1)}
FACINGS = tuple(MOVES.values())
# crafter's data.yaml "collect": material -> (item received, pickaxe required, material left behind)
COLLECT = {ID["tree"]: ("wood", None, ID["grass"]), ID["stone"]: ("stone", "wood_pickaxe", ID["path"]),
           ID["coal"]: ("coal", "wood_pickaxe", ID["path"]), ID["iron"]: ("iron", "stone_pickaxe", ID["path"]),
           ID["diamond"]: ("diamond", "iron_pickaxe", ID["path"]), ID["water"]: ("drink", None, ID["water"])}
PLACE_WHERE = {"stone": frozenset(ID[m] for m in ("grass", "sand", "path", "water", "lava")),
               "table": frozenset(ID[m] for m in ("grass", "sand", "path")),
               "furnace": frozenset(ID[m] for m in ("grass", "sand", "path"))}
_INDEX = {name: i for i, name in enumerate(ITEMS)}


@dataclass(frozen=True, slots=True)
class StaticMap:
    """A material grid indexed ``[x][y]`` (rows of ids), as crafter's ``_mat_map``."""

    cells: tuple[bytes, ...]
    width: int = field(init=False)
    height: int = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "width", len(self.cells))
        object.__setattr__(self, "height", len(self.cells[0]) if self.cells else 0)

    @classmethod
    def from_array(cls, grid: Sequence[Sequence[int]]) -> StaticMap:
        return cls(tuple(bytes(int(v) for v in column) for column in grid))


@dataclass(frozen=True, slots=True)
class MapState:
    """The player's position, facing, inventory (ITEMS order), the tiles it changed, the unlocks."""

    position: tuple[int, int]
    facing: tuple[int, int] = (0, 1)
    counts: tuple[int, ...] = (0,) * len(ITEMS)
    changed: frozenset[tuple[int, int, int]] = frozenset()  # (x, y, material id) replacing the map's tile
    unlocked: frozenset[str] = frozenset()

    def count(self, item: str) -> int:
        return self.counts[_INDEX[item]]


@lru_cache(maxsize=65536)
def _changes(changed: frozenset[tuple[int, int, int]]) -> dict[tuple[int, int], int]:
    return {(x, y): material for x, y, material in changed}


class MapRules:
    """The static-material model of one map as :class:`plancheck.rules.SearchRules` (goal: an achievement).

    ``relaxed=True`` adds what creatures could do for the player, so that the model's optimum is a
    lower bound for the real game: ``turn_<dir>`` (a move blocked by a creature only turns the player)
    and ``lose:<x>:<y>`` (an arrow turns a placed table or furnace into path; it costs no action).
    """

    horizon = None
    stops_at_goal = True

    def __init__(self, grid: StaticMap, start: MapState, achievement: str, actions: Sequence[str] | None = None,
                 *, relaxed: bool = False):
        self.grid, self.start, self.achievement, self.relaxed = grid, start, achievement, relaxed
        self._actions = tuple(actions) if actions is not None else prompts.CRAFTER_ACTIONS

    def material(self, state: MapState, x: int, y: int) -> int:
        """The tile's material id now (0 outside the map)."""
        if not (0 <= x < self.grid.width and 0 <= y < self.grid.height):
            return 0
        if state.changed:
            changed = _changes(state.changed).get((x, y))
            if changed is not None:
                return changed
        return self.grid.cells[x][y]

    def initial_state(self) -> MapState:
        return self.start

    def goal_reached(self, state: MapState) -> bool:
        return self.achievement in state.unlocked

    def actions(self, state: MapState) -> Iterator[str]:
        return iter(self._actions)

    def cost(self, state: MapState, action: str) -> float:
        return 0.0 if action.startswith("lose:") else 1.0

    def creature_effects(self, state: MapState) -> tuple[str, ...]:
        """The relaxed model's extra actions in ``state``: turns toward open tiles, losses of placed utilities."""
        if not self.relaxed:
            return ()
        x, y = state.position
        turns = [f"turn_{name[5:]}" for name, (dx, dy) in MOVES.items()
                 if (dx, dy) != state.facing and self.material(state, x + dx, y + dy) in WALKABLE]
        losses = [f"lose:{cx}:{cy}" for cx, cy, m in sorted(state.changed) if m in (ID["table"], ID["furnace"])]
        return (*turns, *losses)

    def _set(self, state: MapState, x: int, y: int, material: int) -> frozenset[tuple[int, int, int]]:
        kept = {c for c in state.changed if (c[0], c[1]) != (x, y)}
        if self.grid.cells[x][y] != material:
            kept.add((x, y, material))
        return frozenset(kept)

    def nearby(self, state: MapState) -> set[int]:
        """Materials in the 3 x 3 square around the player, sliced as crafter's ``World.nearby`` slices."""
        x, y = state.position
        xs = range(max(x - 1, 0), min(x + 2, self.grid.width)) if x - 1 >= 0 else range(0)
        ys = range(max(y - 1, 0), min(y + 2, self.grid.height)) if y - 1 >= 0 else range(0)
        return {self.material(state, i, j) for i in xs for j in ys}

    def step(self, state: MapState, action: str) -> Outcome:
        if self.relaxed and action.startswith("turn_") and f"move_{action[5:]}" in MOVES:
            return Applied(replace(state, facing=MOVES[f"move_{action[5:]}"]))
        if self.relaxed and action.startswith("lose:"):
            _, x, y = action.split(":")
            if self.material(state, int(x), int(y)) not in (ID["table"], ID["furnace"]):
                return Rejected(f"there is no table or furnace at ({x}, {y})")
            return Applied(replace(state, changed=self._set(state, int(x), int(y), ID["path"])))
        if action in MOVES:
            return self._move(state, MOVES[action])
        if action == "noop":
            return Applied(state)
        if action == "do":
            return self._do(state)
        if action.startswith("place_"):
            return self._place(state, action[6:])
        if action.startswith("make_"):
            return self._make(state, action)
        return Rejected(f"{action} is not modelled on the static map (sleep, or an unknown action)")

    def _move(self, state: MapState, direction: tuple[int, int]) -> Outcome:
        x, y = state.position[0] + direction[0], state.position[1] + direction[1]
        material = self.material(state, x, y)
        if material == ID["lava"]:
            return Rejected(f"moving onto the lava at ({x}, {y}) kills the player")
        if material in WALKABLE:
            return Applied(replace(state, position=(x, y), facing=direction))
        return Applied(replace(state, facing=direction))  # blocked: the player only turns

    def _target(self, state: MapState) -> tuple[int, int]:
        return state.position[0] + state.facing[0], state.position[1] + state.facing[1]

    def _gain(self, state: MapState, item: str, unlock: str, **changes) -> MapState:
        counts = list(state.counts)
        if item in _INDEX:
            counts[_INDEX[item]] = min(CAP, counts[_INDEX[item]] + 1)
        return replace(state, counts=tuple(counts), unlocked=state.unlocked | {unlock}, **changes)

    def _do(self, state: MapState) -> Outcome:
        x, y = self._target(state)
        material = self.material(state, x, y)
        if material == ID["grass"]:
            return Rejected("Do on grass gives a sapling with probability 0.1: not planned for on the static map")
        if material not in COLLECT:
            return Rejected(f"Do facing {MATERIALS[material]} does nothing")
        item, tool, leaves = COLLECT[material]
        if tool is not None and state.count(tool) < 1:
            return Rejected(f"collecting {MATERIALS[material]} needs a {tool.replace('_', ' ')}")
        return Applied(self._gain(state, item, f"collect_{item}", changed=self._set(state, x, y, leaves)))

    def _place(self, state: MapState, name: str) -> Outcome:
        if name not in PLACE_WHERE:
            return Rejected(f"place_{name} is not modelled on the static map")
        x, y = self._target(state)
        material = self.material(state, x, y)
        if material not in PLACE_WHERE[name]:
            return Rejected(f"a {name} cannot be placed on {MATERIALS[material]}")
        uses = RECIPES[f"place_{name}"].uses
        if any(state.count(item) < n for item, n in uses.items()):
            return Rejected(f"place_{name} needs " + " and ".join(f"{n} {i}" for i, n in uses.items()))
        counts = list(state.counts)
        for item, n in uses.items():
            counts[_INDEX[item]] -= n
        return Applied(replace(state, counts=tuple(counts), changed=self._set(state, x, y, ID[name]),
                               unlocked=state.unlocked | {f"place_{name}"}))

    def _make(self, state: MapState, action: str) -> Outcome:
        recipe = RECIPES.get(action)
        if recipe is None:
            return Rejected(f"{action} is not a Crafter recipe")
        missing = [f"{n} {i}" for i, n in recipe.uses.items() if state.count(i) < n]
        if not missing:
            near = self.nearby(state)
            missing = [f"a nearby {u}" for u in recipe.nearby if ID[u] not in near]
        if missing:
            return Rejected(f"{action} needs {' and '.join(missing)}")
        counts = list(state.counts)
        for item, n in recipe.uses.items():
            counts[_INDEX[item]] -= n
        counts[_INDEX[recipe.gives]] = min(CAP, counts[_INDEX[recipe.gives]] + 1)
        return Applied(replace(state, counts=tuple(counts), unlocked=state.unlocked | {recipe.unlocks}))
