"""The VGDL engine of MessengerL2/L3, re-implemented from py-vgdl's semantics (``vgdl/core.py``,
``vgdl/ontology/*``), for the sprite classes and effects the Messenger files use.

Units are py-vgdl's pixels: a cell is ``block_size`` = 2 pixels, a sprite a 2x2 square at
(x, y) = (2 * column, 2 * row). One tick (``BasicGameLevel.tick``):

1. Every live sprite is updated in sprite-definition order (enemy, message, goal, [decoys], the
   avatar last), each remembering its position first (``lastrect``):
   ``Immovable`` stays; ``Chaser``/``Fleeing`` (speed 0.5) look at the nearest sprites of their
   target type (Manhattan distance in pixels; ties keep all), list the unit directions among
   up, left, down, right whose one-pixel step brings them strictly nearer (chaser) or farther
   (fleeing), take all four when none does, pick one with ``random.choice`` from the level's own
   generator, and move speed x block_size = 1 pixel (half a cell); ``MovingAvatar`` moves a
   whole cell (2 pixels) in the action's direction.
2. Effects run in file order, each over the sprites of its actor and actee types; the sprite
   lists are fetched once per tick at first use (a sprite type's list is the live list itself, so
   later kills show in it; a parent type such as ``avatar`` or ``root`` is a snapshot). ``EOS``
   fires for a sprite not wholly on the 20x20 screen. Two sprites collide when their squares
   overlap with positive area (pygame ``colliderect``). Each colliding pair adds the effect's
   ``scoreChange`` -- even when the actor was already killed this tick -- and then, unless the
   actor is on the kill list, applies the effect: ``stepBack`` (back to the remembered
   position), ``killSprite``, ``transformTo`` (the avatar becomes ``with_message`` in place,
   keeping its id).
3. Terminations in order: ``SpriteCounter`` ends the game (won or lost) when at most ``limit``
   sprites of its type live. The tick's reward is the score it added.

py-vgdl's level generator is ``random.Random(None)``, seeded from the operating system at every
reset, so SmartPlay's L2/L3 runs cannot be replayed; here the generator is an explicit
``random.Random``, drawn from in exactly py-vgdl's order (one ``choice`` per moving sprite per
tick), so that a py-vgdl level seeded the same way (``game.set_seed(n)``) runs identically.
Sprites no rule refers to (the background tiles) are not created: they cannot change anything.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from plancheck.domains.smartplay.messenger.vgdl import EOS, Domain, SpriteType

BASEDIRS = ((0, -1), (-1, 0), (0, 1), (1, 0))  # py-vgdl's UP, LEFT, DOWN, RIGHT as (dx, dy)
ACTION_DIRS = ((0, -1), (0, 1), (-1, 0), (1, 0), (0, 0))  # SmartPlay action 0-4: up, down, left, right, stay

Choose = Callable[["Sprite", list[tuple[int, int]]], tuple[int, int]]


class Sprite:
    """A live sprite: its type, py-vgdl id (``enemy.1``), position and the position before this tick."""

    __slots__ = ("type", "id", "x", "y", "lastx", "lasty")

    def __init__(self, sprite_type: SpriteType, sprite_id: str, x: int, y: int):
        self.type = sprite_type
        self.id = sprite_id
        self.x, self.y = x, y
        self.lastx, self.lasty = x, y

    @property
    def key(self) -> str:
        return self.type.key

    def __repr__(self) -> str:
        return f"{self.id}@({self.x}, {self.y})"


def _distance(a: Sprite, bx: int, by: int) -> int:
    return abs(a.y - by) + abs(a.x - bx)


class Level:
    """A running VGDL level: ``tick(action)`` returns the reward; ``ended``/``won`` say how it ended."""

    def __init__(self, domain: Domain, created: Sequence[tuple[str, int, int]], rng: random.Random):
        self.domain = domain
        self.rng = rng
        self.size = domain.block_size
        self.keys = tuple(sprite.key for sprite in domain.sprites)
        self.live: dict[str, list[Sprite]] = {key: [] for key in self.keys}
        self.width = self.height = 0
        used = {name for effect in domain.effects for name in (effect.actor, effect.actee, effect.stype)}
        used |= {t.stype for t in domain.terminations} | {s.target for s in domain.sprites}
        for key, row, col in created:
            self.height, self.width = max(self.height, row + 1), max(self.width, col + 1)
            sprite_type = domain.sprite(key)
            if used.intersection(sprite_type.stypes):
                self.create(sprite_type, None, col * self.size, row * self.size)
        self.time = 0
        self.score = 0.0
        self.ended = False
        self.won: bool | None = None

    # -- the sprite registry (py-vgdl's SpriteRegistry semantics) -------------------------------

    def create(self, sprite_type: SpriteType, sprite_id: str | None, x: int, y: int) -> Sprite:
        group = self.live[sprite_type.key]
        sprite = Sprite(sprite_type, sprite_id or f"{sprite_type.key}.{len(group) + 1}", x, y)
        group.append(sprite)
        return sprite

    def with_stype(self, stype: str) -> list[Sprite]:
        """A sprite type's live list itself, or a fresh list of the live sprites under a parent type."""
        if stype in self.live:
            return self.live[stype]
        return [s for key in self.keys for s in self.live[key] if stype in s.type.stypes]

    def avatar(self) -> Sprite | None:
        found = self.with_stype("avatar")
        return found[0] if found else None

    def save(self) -> tuple:
        """The level's state (positions, score, end), for :meth:`load` (planners try moves and go back)."""
        sprites = tuple((key, tuple((s.id, s.x, s.y) for s in self.live[key])) for key in self.keys)
        return self.time, self.score, self.ended, self.won, sprites

    def load(self, saved: tuple) -> None:
        """Go back to a state from :meth:`save`."""
        self.time, self.score, self.ended, self.won, sprites = saved
        for key, group in sprites:
            sprite_type = self.domain.sprite(key)
            self.live[key] = [Sprite(sprite_type, sprite_id, x, y) for sprite_id, x, y in group]

    # -- one tick ---------------------------------------------------------------------------------

    def options(self, sprite: Sprite) -> list[tuple[int, int]]:
        """The directions a Chaser or Fleeing sprite chooses among now (``_movesToward``)."""
        targets = self.with_stype(sprite.type.target or "")
        best, nearest = None, []
        for target in targets:
            d = _distance(sprite, target.x, target.y)
            if best is None or d < best:
                best, nearest = d, [target]
            elif d == best:
                nearest.append(target)
        fleeing = sprite.type.cls == "Fleeing"
        moves = []
        for target in nearest:
            base = _distance(sprite, target.x, target.y)
            for dx, dy in BASEDIRS:
                new = abs(sprite.y + dy - target.y) + abs(sprite.x + dx - target.x)
                if (fleeing and base < new) or (not fleeing and base > new):
                    moves.append((dx, dy))
        return moves or list(BASEDIRS)

    def tick(self, action: int, choose: Choose | None = None) -> float:
        """Advance one tick with SmartPlay action ``action`` (0-4); the reward. ``choose`` replaces
        the random choice of a moving sprite's direction (for planners enumerating outcomes)."""
        self.time += 1
        if self.ended:
            return 0.0
        for sprite in [s for key in self.keys for s in self.live[key]]:
            sprite.lastx, sprite.lasty = sprite.x, sprite.y
            cls = sprite.type.cls
            if cls == "Chaser" or cls == "Fleeing":
                options = self.options(sprite)
                dx, dy = choose(sprite, options) if choose is not None else self.rng.choice(options)
                step = int((sprite.type.speed or 1) * self.size)
                sprite.x += dx * step
                sprite.y += dy * step
            elif cls == "MovingAvatar":
                dx, dy = ACTION_DIRS[action]
                sprite.x += dx * self.size
                sprite.y += dy * self.size
        return self.resolve()

    def resolve(self) -> float:
        """Steps 2 and 3 of a tick (effects, terminations) on the sprites as they stand; the reward."""
        before = self.score
        self._events()
        for termination in self.domain.terminations:
            if len(self.with_stype(termination.stype)) <= termination.limit:
                self.ended, self.won = True, termination.win
                break
        return self.score - before

    def _on_screen(self, sprite: Sprite) -> bool:
        return (0 <= sprite.x and 0 <= sprite.y and sprite.x + self.size <= self.width * self.size
                and sprite.y + self.size <= self.height * self.size)

    def _events(self) -> None:
        cache: dict[str, list[Sprite]] = {}
        killed: list[Sprite] = []

        def group(stype: str) -> list[Sprite]:
            if stype not in cache:
                cache[stype] = self.with_stype(stype)
            return cache[stype]

        for effect in self.domain.effects:
            actors = group(effect.actor)
            if effect.actee == EOS:
                for sprite in actors:
                    if not self._on_screen(sprite):
                        self.score += effect.score
                        self._apply(effect.name, effect.stype, sprite, killed)
                continue
            others = group(effect.actee)
            if not actors or not others:
                continue
            for sprite in actors:  # the live list itself for a sprite type: kills shorten it, as in py-vgdl
                size = self.size
                hits = [o for o in others if abs(o.x - sprite.x) < size and abs(o.y - sprite.y) < size]
                for other in hits:
                    if other is sprite:
                        continue
                    self.score += effect.score
                    if not any(sprite is dead for dead in killed):
                        self._apply(effect.name, effect.stype, sprite, killed)

    def _apply(self, name: str, stype: str | None, sprite: Sprite, killed: list[Sprite]) -> None:
        if name == "stepBack":
            sprite.x, sprite.y = sprite.lastx, sprite.lasty
        elif name == "killSprite":
            self.live[sprite.key].remove(sprite)
            killed.append(sprite)
        elif name == "transformTo":  # destroy (a new list without it), then create the new type in place
            killed.append(sprite)
            self.live[sprite.key] = [s for s in self.live[sprite.key] if s.id != sprite.id]
            self.create(self.domain.sprite(stype or ""), sprite.id, sprite.x, sprite.y)
