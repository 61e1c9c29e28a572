"""The observational checker of MessengerL2/L3: is a sequence of texts something the rules can produce?

SmartPlay's L2/L3 runs draw the entity moves from an unseeded generator, so a log cannot be
replayed; it can still be checked against everything the rules allow. The checker keeps every
hidden state consistent with the texts so far: which shipped start layout the episode began
from (the first text is matched against all 24 or 720), the avatar's position (its moves are
deterministic), and, per entity and movement type, the set of pixel positions it can be in
(:mod:`.bitgrid`). Each step moves these sets as the rules allow, keeps the parts that explain the
reward and the end (which entities touched the avatar; the reward of each combination comes from
the engine itself, :func:`.tables.outcome`), and keeps the positions that show as the text says. When no
hidden state is left, the step is inconsistent, and the reason says what the text claims and
what the rules allowed instead.

Entities move independently given the avatar's path, so the sets are kept per entity; what
couples them is checked exactly: the reward (every combination of touching entities is tried)
and the movement types (some shipped variant must give every entity a type it can still have).
In L3 the text shows only the nearer of two same-named entities (the message and its decoy, the
goal and its decoy); each of the pair must then be where the text says or not nearer than that,
and one of them where the text says. This is looser than the joint truth in one corner (two
same-named entities equally far away): the checker never rejects a possible log, and could in
that corner accept an impossible one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache

from plancheck.domains.smartplay.messenger import bitgrid, data, prompts
from plancheck.domains.smartplay.messenger.engine import ACTION_DIRS
from plancheck.domains.smartplay.messenger.observe import View
from plancheck.domains.smartplay.messenger.run import ENTITY_KEYS
from plancheck.domains.smartplay.messenger.tables import (
    MOVEMENTS,
    Masks,
    allowed_types_of,
    layout_index,
    outcome,
    outcomes,
    signature,
    start_layouts,
    start_masks,
    target,
    usual,
)

Reason = Callable[[], str]  # why a hypothesis failed, worded only when it is reported


@dataclass
class Hypothesis:
    """One hidden state set: the avatar's pixel position and message, and for each live entity the
    positions it can have under each movement type (dead entities: the types they could have had)."""

    ax: int
    ay: int
    has_message: bool
    masks: dict[str, Masks]
    dead: dict[str, frozenset[str]] = field(default_factory=dict)

    def key(self) -> tuple:
        """What tells two hypotheses apart."""
        return (self.ax, self.ay, self.has_message, tuple(self.masks.items()), tuple(sorted(self.dead.items())))


class Inconsistent(Exception):
    """A text no hidden state explains; the message says what was expected."""


def _id_groups(level: int, game: data.Game) -> dict[str, tuple[str, ...]]:
    """Entity name -> the sprite keys that show under that name."""
    groups: dict[str, tuple[str, ...]] = {game.enemy: ("enemy",), game.message: ("message",), game.goal: ("goal",)}
    if level == 3:
        groups = {game.enemy: ("enemy",), game.message: ("message", "decoy_message"),
                  game.goal: ("goal", "decoy_goal")}
    return groups


def game_of(names: tuple[str, ...]) -> data.Game:
    """The test game whose three entities a first observation lists."""
    for game in data.test_games():
        if set(names) == {game.enemy, game.message, game.goal}:
            return game
    raise Inconsistent(f"the first observation lists {', '.join(names) or 'nothing'}, which is not the enemy, "
                       "message and goal of any of SmartPlay's 32 test games")


Packed = tuple  # a hypothesis as plain data: (ax, ay, has_message, live keys, their state ids, dead)


class _States:
    """Interned entity states: a small int per distinct set of positions and types (kept stacked,
    :func:`.bitgrid.stack`), so that the hypotheses that share an entity's state share its work and
    compare cheaply."""

    def __init__(self) -> None:
        self.stacked: list[int] = []
        self.types: list[int] = []  # bit 0, 1, 2: the state has chaser, fleeing, immovable positions
        self.index: dict[int, int] = {}
        self._narrowed: dict[tuple[int, int], int] = {}

    def copy(self) -> _States:
        copied = _States()
        copied.stacked, copied.types = self.stacked.copy(), self.types.copy()
        copied.index, copied._narrowed = self.index.copy(), self._narrowed.copy()
        return copied

    def id(self, stacked: int) -> int:
        found = self.index.get(stacked)
        if found is None:
            found = self.index[stacked] = len(self.stacked)
            self.stacked.append(stacked)
            chaser, fleeing, immovable = bitgrid.TYPES
            self.types.append(bool(stacked & chaser) | bool(stacked & fleeing) << 1 | bool(stacked & immovable) << 2)
        return found

    def narrowed(self, state: int, types: int) -> int:
        """The state without the movement types missing from ``types``."""
        found = self._narrowed.get((state, types))
        if found is None:
            keep = sum(section for n, section in enumerate(bitgrid.TYPES) if types >> n & 1)
            found = self._narrowed[state, types] = self.id(self.stacked[state] & keep)
        return found


def _pack(states: _States, h: Hypothesis) -> Packed:
    keys = tuple(k for k in ENTITY_KEYS if k in h.masks)  # one order, so that equal hypotheses pack equal
    return (h.ax, h.ay, h.has_message, keys, tuple(states.id(bitgrid.stack(*h.masks[k])) for k in keys),
            tuple(sorted(h.dead.items())))


def _restrict(level: int, states: _States, hypotheses: list[Packed]) -> list[Packed]:
    """Keep the movement types some shipped variant allows with every other entity's."""
    kept = []
    types = states.types
    for packed in hypotheses:
        x, y, has_message, keys, ids, dead = packed
        have = tuple(types[s] for s in ids)
        allowed = allowed_types_of(level, keys, have, dead)
        if allowed is None:
            continue
        if allowed != have:
            ids = tuple(s if a == t else states.narrowed(s, a) for s, t, a in zip(ids, have, allowed, strict=True))
            packed = (x, y, has_message, keys, ids, dead)
        kept.append(packed)
    return kept


@cache
def _starts(level: int, shown: tuple) -> tuple[_States, tuple[Packed, ...]]:
    """The start hypotheses of a first text (what it shows of each role group, as in
    :func:`layout_index`), packed on states a tracker copies."""
    states = _States()
    starts = []
    for number in layout_index(level).get(shown, ()):
        ax, ay, masks = start_masks(level, number)
        starts.append(_pack(states, Hypothesis(ax, ay, False, masks)))
    return states, tuple(_restrict(level, states, starts))


class Tracker:
    """Follows one L2/L3 episode text by text; :meth:`step` raises :class:`Inconsistent`.

    Hypotheses are kept packed (:data:`Packed`). A usual step (one set of touching entities explains
    the reward, nobody dies, the text is shown) moves each distinct entity state once for all
    hypotheses (:meth:`_quick`); any other step goes through the general path (:meth:`_advance`),
    and when no hypothesis is left the general path takes them all again, to word why as if it had
    taken every step. ``exhaustive`` sends every step there (the reference the tests compare the
    quick path with)."""

    def __init__(self, level: int, first: View, exhaustive: bool = False):
        if first.error or first.action is not None:
            raise Inconsistent("the first observation must be the start's, without an action line")
        if first.has_message:
            raise Inconsistent(f"L{level} episodes start without the message, but the first observation says "
                               f"{prompts.HAS_MESSAGE!r}")
        self.level = level
        self.exhaustive = exhaustive
        self._moves: dict[tuple, tuple[int, int]] = {}
        self.game = game_of(first.names())
        self.groups = _id_groups(level, self.game)
        self._group_of = {key: name for name, keys in self.groups.items() for key in keys}
        self._keys_parts: dict[tuple[str, ...], tuple] = {}
        seen = {item.name: (item.distance, item.direction) for item in first.seen}
        shown = (seen[self.game.enemy], seen[self.game.message], seen[self.game.goal])
        states, starts = _starts(level, shown)
        self._states, self._packed = states.copy(), list(starts)
        if not self._packed:
            raise Inconsistent(f"the first observation matches none of the {len(start_layouts(level))} start "
                               f"layouts of MessengerL{level}")

    @property
    def hypotheses(self) -> list[Hypothesis]:
        """The hidden state sets still possible."""
        return [self._unpack(packed) for packed in self._packed]

    def _pack(self, h: Hypothesis) -> Packed:
        return _pack(self._states, h)

    def _unpack(self, packed: Packed) -> Hypothesis:
        ax, ay, has_message, keys, states, dead = packed
        return Hypothesis(ax, ay, has_message, {k: bitgrid.unstack(self._states.stacked[s])
                                                for k, s in zip(keys, states, strict=True)}, dict(dead))

    def step(self, action: int, view: View, reward: float, done: bool) -> None:
        """Take one step's text, reward and end into account (raises :class:`Inconsistent`)."""
        survivors: list[Packed] = []
        reasons: list[Reason] = []
        self._moves = {}  # hypotheses often share an entity's positions: their moves are computed once
        wanted = signature(reward, done, not view.error, view.has_message)
        shared: dict[tuple, tuple | None] = {}  # this step's results per entity state and per set of live keys
        for packed in self._packed:
            child = None if self.exhaustive else self._quick(packed, action, view, wanted, shared)
            if child:
                survivors.append(child)
            elif child is None:  # not a usual step for this hypothesis: the general path
                survivors.extend(self._restrict([self._pack(h) for h in self._advance(
                    self._unpack(packed), action, view, reward, done, reasons)]))
        if len(survivors) > 1:
            survivors = list(dict.fromkeys(survivors))
        if not survivors:
            if not self.exhaustive:  # the reason the general path gives first, as if it had taken every hypothesis
                reasons = []
                for packed in self._packed:
                    self._advance(self._unpack(packed), action, view, reward, done, reasons)
            raise Inconsistent(reasons[0]() if reasons else "no movement of the entities allowed by the shipped "
                               "variants explains the moves so far")
        self._packed = survivors

    def _quick(self, packed: Packed, action: int, view: View, wanted: tuple,
               shared: dict[tuple, tuple | None]) -> Packed | bool | None:
        """:meth:`_advance` and :meth:`_restrict` of a usual step: the child, ``()`` when no shipped
        variant gives its entities types they can still have, False when the hypothesis fails (the
        general path words why when no hypothesis is left), None when the step is not a usual one for
        it."""
        x, y, has_message, keys, states, dead = packed
        plan = shared.get((x, y, has_message, keys), False)
        if plan is False:
            plan = shared[x, y, has_message, keys] = self._plan(x, y, has_message, keys, action, view, wanted)
        if not plan:
            return plan
        ax, ay, holds, targets, slots, pairs, done = plan
        moved = []
        found = narrowed = 0
        for slot, state in zip(slots, states):
            result = done.get(state << 3 | slot)
            if result is None:
                result = done[state << 3 | slot] = self._move(state, x, y, targets[slot])
            if not result:
                return False
            new, bit, lost = result
            moved.append(new)
            found |= bit
            narrowed |= lost
        if found & pairs != pairs:
            return False
        child = (ax, ay, holds, keys, tuple(moved), dead)
        if not narrowed:  # the parent's types were already cut down (cutting twice changes nothing)
            return child
        kept = self._restrict([child])
        return kept[0] if kept else ()

    def _move(self, state: int, x: int, y: int, target: tuple[int, int, int]) -> tuple[int, int, bool] | tuple[()]:
        """One entity state after a usual tick with the avatar at pixel (x, y) as it chooses: kept on
        ``target[0]``, the new state, ``target[2]`` if it can be on ``target[1]`` (where the text shows
        its name) else 0, and whether it lost a movement type; ``()`` when nothing is left."""
        states = self._states
        where, exact, bit = target
        moved = bitgrid.stacked_moves(states.stacked[state], x, y) & where
        if not moved:
            return ()
        new = states.index.get(moved)
        if new is None:
            new = states.id(moved)
        return new, bit if moved & exact else 0, states.types[new] != states.types[state]

    def _plan(self, x: int, y: int, has_message: bool, keys: tuple[str, ...], action: int, view: View,
              wanted: tuple) -> tuple | bool | None:
        """What a usual step does to the hypotheses with the avatar at pixel (x, y) and these live
        ``keys``: the avatar's new pixel and message, per key the positions it may end on and those
        where the text shows its name (with its name's bit), the bits of the names two live keys show
        as, and a dict for the results per entity state; False when it cannot explain the step, None
        when the step is not a usual one (see :meth:`_quick`)."""
        step = usual(self.level, keys, has_message, wanted)
        if not step:
            return step
        hit, holds = step
        names, parts, pairs = self._parts(keys)
        shown = {item.name: item for item in view.seen}
        if shown.keys() != names:
            return False
        dx, dy = ACTION_DIRS[action]
        ax, ay = x + 2 * dx, y + 2 * dy
        if not (0 <= ax < bitgrid.SIDE and 0 <= ay < bitgrid.SIDE):
            ax, ay = x, y
        targets, slots, first = [], [], {}
        for key, (name, bit, alone) in zip(keys, parts, strict=True):
            seen = shown[name]
            slots.append(first.setdefault((name, key in hit), len(targets)))  # keys of one name share results
            targets.append((*target(ax, ay, seen.distance, seen.direction, alone, key in hit), bit))
        return ax, ay, holds, tuple(targets), tuple(slots), pairs, {}

    def _parts(self, keys: tuple[str, ...]) -> tuple[set[str], tuple[tuple[str, int, bool], ...], int]:
        """For these live keys: the names they show as; per key its name, the name's bit and whether
        it is the only live key of that name; the bits of the names two live keys share."""
        found = self._keys_parts.get(keys)
        if found is None:
            bits = {name: 1 << n for n, name in enumerate(self.groups)}
            alive = {name: [k for k in group if k in keys] for name, group in self.groups.items()}
            names = {name for name, live in alive.items() if live}
            parts = tuple((self._group_of[k], bits[self._group_of[k]], len(alive[self._group_of[k]]) == 1)
                          for k in keys)
            found = self._keys_parts[keys] = names, parts, sum(bits[n] for n, live in alive.items() if len(live) > 1)
        return found

    def _restrict(self, hypotheses: list[Packed]) -> list[Packed]:
        return _restrict(self.level, self._states, hypotheses)

    def can_end(self, action: int) -> bool:
        """Whether ``action`` can end the episode (some entity can touch the avatar in a way that ends it)."""
        for h in self.hypotheses:
            dx, dy = ACTION_DIRS[action]
            ax, ay = h.ax + 2 * dx, h.ay + 2 * dy
            if not (0 <= ax < bitgrid.SIDE and 0 <= ay < bitgrid.SIDE):
                ax, ay = h.ax, h.ay
            near = bitgrid.touching(ax, ay)
            far = bitgrid.FULL & ~near
            moved = {key: (bitgrid.chaser_moves(c, h.ax, h.ay), bitgrid.fleeing_moves(f, h.ax, h.ay), i)
                     for key, (c, f, i) in h.masks.items()}
            for shows, hits in outcomes(self.level, tuple(moved), h.has_message).items():
                if shows[1] and any(all((c | f | i) & (near if k in hit else far)
                                            for k, (c, f, i) in moved.items()) for hit in hits):
                    return True
        return False

    def _advance(self, h: Hypothesis, action: int, view: View, reward: float, done: bool,
                 reasons: list[Reason]) -> list[Hypothesis]:
        dx, dy = ACTION_DIRS[action]
        ax, ay = h.ax + 2 * dx, h.ay + 2 * dy
        if not (0 <= ax < bitgrid.SIDE and 0 <= ay < bitgrid.SIDE):
            ax, ay = h.ax, h.ay
        near = bitgrid.touching(ax, ay)
        far = bitgrid.FULL & ~near
        moved = {}
        for key, (c, f, i) in h.masks.items():
            known = self._moves.get((c, f, h.ax, h.ay))
            if known is None:
                known = self._moves[c, f, h.ax, h.ay] = (bitgrid.chaser_moves(c, h.ax, h.ay),
                                                          bitgrid.fleeing_moves(f, h.ax, h.ay))
            moved[key] = (*known, i)
        keys = tuple(moved)
        table = outcomes(self.level, keys, h.has_message)
        wanted = signature(reward, done, not view.error, view.has_message)
        result = []
        for hit in table.get(wanted, ()):
            if not all((c | f | i) & (near if k in hit else far) for k, (c, f, i) in moved.items()):
                continue
            out = outcome(self.level, hit, h.has_message)
            masks = {}
            for k, (c, f, i) in moved.items():
                if k not in out.dead:
                    keep = near if k in hit else far
                    masks[k] = (c & keep, f & keep, i & keep)
            dead = dict(h.dead) | {k: frozenset(t for t, m in zip(MOVEMENTS, moved[k], strict=True) if m)
                                   for k in out.dead}
            child = Hypothesis(ax, ay, out.has_message, masks, dead)
            why = self._observe(child, view) if out.alive else None
            if why is None:
                result.append(child)
            else:
                reasons.append(why)
        if not result and not reasons:
            reasons.append(lambda: self._unexplained(table, moved, near, wanted))
        return result

    @staticmethod
    def _unexplained(table: dict, moved: dict[str, Masks], near: int, wanted: tuple) -> str:
        possible = [signature for signature, hits in table.items() if any(
            all(any(m & near for m in moved[k]) if k in hit else any(m & ~near for m in moved[k]) for k in moved)
            for hit in hits)]

        def said(signature: tuple) -> str:
            reward, done, alive, has_message = signature
            state = "the avatar gone" if not alive else ("with the message" if has_message else "without it")
            return f"reward {reward:g}{', the end' if done else ''}, {state}"

        return f"{said(wanted)} is not what the rules allow here; the entities' possible moves give " + \
            "; or ".join(said(signature) for signature in sorted(possible))

    def _observe(self, h: Hypothesis, view: View) -> Reason | None:
        """Keep the positions that show as ``view`` says; why none is left (None if some are)."""
        row, col = h.ay // 2, h.ax // 2
        shown = {seen.name: seen for seen in view.seen}
        masks = h.masks
        for name, keys in self.groups.items():
            alive = [k for k in keys if k in masks]
            seen = shown.pop(name, None)
            if seen is None:
                if alive:
                    return lambda: f"the text no longer lists the {name}, but nothing removed it"
                continue
            if not alive:
                return lambda: f"the text lists the {name}, which is gone"
            exact = bitgrid.seen_at(row, col, seen.distance, seen.direction)
            if len(alive) == 1:
                key = alive[0]
                before = masks[key]
                c, f, i = before
                after = masks[key] = (c & exact, f & exact, i & exact)
                if not (after[0] or after[1] or after[2]):
                    return lambda: self._where(name, seen, before, row, col)
                continue
            if not any(m & exact for k in alive for m in masks[k]):
                merged = tuple(a | b for a, b in zip(*(masks[k] for k in alive), strict=True))
                return lambda: self._where(name, seen, merged, row, col)
            hidden = bitgrid.not_nearer(row, col, seen.distance)
            for key in alive:
                c, f, i = masks[key]
                masks[key] = (c & hidden, f & hidden, i & hidden)
                if not any(masks[key]):
                    return lambda: f"the text shows the {name} {seen.distance} steps away, but the other " \
                                   f"{name} must be nearer"
        if shown:
            name = next(iter(shown))
            return lambda: f"the text lists the {name}, which is not in this game"
        return None

    @staticmethod
    def _where(name: str, seen, masks: Masks, row: int, col: int) -> str:
        places = sorted({(abs(y // 2 - row) + abs(x // 2 - col), prompts.direction((y // 2 - row, x // 2 - col)))
                         for mask in masks for x, y in bitgrid.pixels(mask)})
        listed = "; ".join(f"{d} steps to your {w}" if d else "with you" for d, w in places[:8])
        more = f" (and {len(places) - 8} more)" if len(places) > 8 else ""
        return f"the text says '{seen}', but the rules allow the {name} only: {listed}{more}"
