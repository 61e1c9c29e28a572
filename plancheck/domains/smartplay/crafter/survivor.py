"""``survivor``: a scripted Crafter player that keeps itself alive (a reference policy; it reads the game).

Each step it does the first of these that applies, walking by breadth-first search over grass, sand
and path tiles free of creatures (never onto lava):

1. asleep: anything (crafter makes it a sleep);
2. a zombie or skeleton next to it: turn to it and hit it;
3. at night, or tired: shelter and sleep. A shelter is a dead end it digs into a rock face, two tiles
   deep: mine the first tile, step in, mine the second, step in, step back (now it faces the way out)
   and put a stone there. A player faces the way it last moved, so this is how it can close the
   side it came in by. It leaves at daylight, with full energy, mining the stone;
4. thirsty or hungry: go to water and drink, or to a cow and eat it, until full;
5. tools: wood, a table, a wooden pickaxe and sword;
6. otherwise wait.

It is a simple baseline, not an optimum; ``benchmarks/crafter_verify.py`` uses its long episodes.
"""

from __future__ import annotations

from collections import deque

import numpy as np

from plancheck.domains.smartplay.crafter.mapmodel import ID, MOVES, WALKABLE
from plancheck.episodes.game import Replies

_MOVE_TEXT = {(-1, 0): "Move West", (1, 0): "Move East", (0, -1): "Move North", (0, 1): "Move South"}
_FOES = ("Zombie", "Skeleton")


class SurvivorPolicy:
    """See the module text; ``game`` is the running :class:`~plancheck.domains.smartplay.crafter.game.CrafterGame`."""

    def __init__(self, game):
        self.game = game
        self.plan: list[str] = []  # the rest of a shelter's building (or leaving)
        self.inside = False

    def replies(self, step: int, game) -> Replies:
        return Replies(self.act())

    # -- reading the world ------------------------------------------------------------------------
    @property
    def _player(self):
        return self.game.env._player

    def _material(self, x: int, y: int) -> int:
        world = self.game.env._world
        if 0 <= x < world.area[0] and 0 <= y < world.area[1]:
            return int(world._mat_map[x, y])
        return 0

    def _object(self, x: int, y: int):
        world = self.game.env._world
        if 0 <= x < world.area[0] and 0 <= y < world.area[1]:
            return world._objects[world._obj_map[x, y]]
        return None

    def _free(self, x: int, y: int) -> bool:
        return self._material(x, y) in WALKABLE and self._object(x, y) is None

    def _position(self) -> tuple[int, int]:
        return int(self._player.pos[0]), int(self._player.pos[1])

    # -- moving -----------------------------------------------------------------------------------
    def _towards(self, goal) -> str | None:
        """The move to the nearest tile next to a tile where ``goal(x, y)`` holds, or the turn and Do when
        already next to one (None when none is reachable)."""
        start = self._position()
        for direction in MOVES.values():
            x, y = start[0] + direction[0], start[1] + direction[1]
            if goal(x, y):
                return "Do" if tuple(self._player.facing) == direction else _MOVE_TEXT[direction]
        parents = {start: None}
        frontier = deque([start])
        while frontier:
            here = frontier.popleft()
            for direction in MOVES.values():
                there = (here[0] + direction[0], here[1] + direction[1])
                if there in parents or not self._free(*there):
                    continue
                parents[there] = (here, direction)
                if any(goal(there[0] + d[0], there[1] + d[1]) for d in MOVES.values()):
                    while parents[there][0] != start:
                        there = parents[there][0]
                    return _MOVE_TEXT[parents[there][1]]
                frontier.append(there)
        return None

    def _material_goal(self, name: str):
        wanted = ID[name]
        return lambda x, y: self._material(x, y) == wanted and self._object(x, y) is None

    def _creature_goal(self, kinds: tuple[str, ...]):
        return lambda x, y: type(self._object(x, y)).__name__ in kinds

    # -- deciding ---------------------------------------------------------------------------------
    def act(self) -> str:
        player = self._player
        inventory = player.inventory
        if player.sleeping:
            return "Noop"
        x, y = self._position()
        for direction in MOVES.values():  # a foe next to it: face it and hit
            if type(self._object(x + direction[0], y + direction[1])).__name__ in _FOES:
                return "Do" if tuple(player.facing) == direction else _MOVE_TEXT[direction]
        daylight = self.game.env._world.daylight
        if self.plan:
            return self.plan.pop(0)
        if self.inside:
            if daylight > 0.5 and inventory["energy"] == 9:
                self.inside = False
                return "Do"  # mine the stone closing the way out (it faces it)
            return "Sleep" if inventory["energy"] < 9 else "Noop"
        if (daylight < 0.55 or inventory["energy"] < 3) and inventory["wood_pickaxe"]:
            move = self._to_shelter()
            if move is not None:
                return move
        if inventory["energy"] < 2:
            return "Sleep"
        if inventory["drink"] <= 6 or (inventory["drink"] < 9 and self._next_to("water")):
            move = self._towards(self._material_goal("water"))
            if move is not None:
                return move
        if inventory["food"] <= 6:
            move = self._towards(self._creature_goal(("Cow",)))
            if move is not None:
                return move
        return self._progress()

    def _rock(self, x: int, y: int) -> bool:
        """A tile no zombie walks onto (and no lava, which would kill the player)."""
        return self._material(x, y) not in WALKABLE and self._material(x, y) not in (0, ID["lava"]) and \
            self._object(x, y) is None

    def _shelter_at(self, x: int, y: int, d: tuple[int, int]) -> bool:
        """Whether standing at (x, y) facing d it can dig a two-deep dead end (see the module text)."""
        sides = ((d[1], d[0]), (-d[1], -d[0]))
        first, second = (x + d[0], y + d[1]), (x + 2 * d[0], y + 2 * d[1])
        return all(self._material(*c) == ID["stone"] and self._object(*c) is None for c in (first, second)) and \
            all(self._rock(c[0] + e[0], c[1] + e[1]) for c in (first, second) for e in sides) and \
            self._rock(x + 3 * d[0], y + 3 * d[1])

    def _to_shelter(self) -> str | None:
        x, y = self._position()
        for direction in MOVES.values():
            if self._shelter_at(x, y, direction):
                if tuple(self._player.facing) != direction:
                    return _MOVE_TEXT[direction]  # the rock blocks the move: a turn
                move, back = _MOVE_TEXT[direction], _MOVE_TEXT[(-direction[0], -direction[1])]
                self.plan = [move, "Do", move, back, "Place Stone"]
                self.inside = True
                return "Do"
        return self._towards(lambda a, b: any(self._shelter_at(a - d[0], b - d[1], d) for d in MOVES.values())
                             and self._material(a, b) == ID["stone"])

    def _next_to(self, name: str) -> bool:
        x, y = self._position()
        return any(self._material(x + d[0], y + d[1]) == ID[name] for d in MOVES.values())

    def _progress(self) -> str:
        inventory = self._player.inventory
        near_table = self._near(ID["table"])
        if inventory["wood_pickaxe"] == 0 or inventory["wood_sword"] == 0:
            if near_table and inventory["wood"] >= 1:
                return "Make Wood Pickaxe" if inventory["wood_pickaxe"] == 0 else "Make Wood Sword"
            if not near_table and inventory["wood"] >= 3:
                return self._place("Place Table")
            return self._towards(self._material_goal("tree")) or "Noop"
        if inventory["wood"] < 2:
            return self._towards(self._material_goal("tree")) or "Noop"
        return "Noop"

    def _near(self, material: int) -> bool:
        x, y = self._position()
        area = self.game.env._world._mat_map[max(x - 1, 0): x + 2, max(y - 1, 0): y + 2]
        return bool(np.any(area == material))

    def _place(self, action: str) -> str:
        x, y = self._position()
        fx, fy = x + int(self._player.facing[0]), y + int(self._player.facing[1])
        if self._free(fx, fy):
            return action
        for direction in MOVES.values():
            if self._free(x + direction[0], y + direction[1]):
                return _MOVE_TEXT[direction]
        return "Noop"
