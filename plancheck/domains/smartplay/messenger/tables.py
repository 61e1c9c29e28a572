"""What the L2/L3 observational checker (:mod:`.belief`) looks up, computed once per level or place.

The engine's effects of every set of entities touching the avatar (:func:`outcome`, grouped by what
a step shows in :func:`outcomes`), the shipped start layouts and variants (indexed by what a first
text shows of them), which movement types the variants allow together, and where a text line puts
an entity (:func:`target`). Position sets are :mod:`.bitgrid` masks.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache
from itertools import product

from plancheck.domains.smartplay.messenger import bitgrid, data, prompts
from plancheck.domains.smartplay.messenger.engine import Level
from plancheck.domains.smartplay.messenger.instance import read_variant
from plancheck.domains.smartplay.messenger.run import ENTITY_KEYS, domain, layout

MOVEMENTS = data.MOVEMENTS  # chaser, fleeing, immovable: the index of a key's masks
Masks = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one tick's collisions do: the reward, whether the avatar lives and holds the message,
    which entities die, and how the game ends (None: it goes on)."""

    reward: float
    alive: bool
    has_message: bool
    dead: frozenset[str]
    won: bool | None


@cache
def outcome(level: int, touching: frozenset[str], has_message: bool) -> Outcome:
    """The engine's effects and terminations when exactly the entities ``touching`` overlap the
    avatar (the message is gone once the avatar has it)."""
    stage = domain(level, data.variant_files(level)[0].name)
    sim = Level(stage, (), random.Random(0))
    sim.width = sim.height = bitgrid.CELLS
    sim.create(stage.sprite("with_message" if has_message else "no_message"), None, 8, 8)
    corners = iter(((0, 0), (18, 0), (0, 18), (18, 18), (0, 8)))
    present = [key for key in entity_keys(level) if not (key == "message" and has_message)]
    for key in present:
        x, y = (8, 8) if key in touching else next(corners)
        sim.create(stage.sprite(key), None, x, y)
    reward = sim.resolve()
    avatar = sim.avatar()
    return Outcome(reward, avatar is not None, avatar is not None and avatar.key == "with_message",
                   frozenset(key for key in present if not sim.live[key]), sim.won if sim.ended else None)


@cache
def outcomes(level: int, keys: tuple[str, ...], has_message: bool) -> dict[tuple, tuple[frozenset[str], ...]]:
    """Every set of touching entities among ``keys``, grouped by what it shows: (reward, end,
    avatar alive, message held)."""
    found: dict[tuple, list[frozenset[str]]] = {}
    for touched in product((False, True), repeat=len(keys)):
        hit = frozenset(k for k, t in zip(keys, touched, strict=True) if t)
        out = outcome(level, hit, has_message)
        found.setdefault(signature(out.reward, out.won is not None, out.alive, out.has_message), []).append(hit)
    return {signature: tuple(hits) for signature, hits in found.items()}


@cache
def target(ax: int, ay: int, distance: int, direction: str, alone: bool, touching: bool) -> tuple[int, int]:
    """Where an entity may be after a tick, stacked (:func:`.bitgrid.stack`), with the avatar at
    pixel (ax, ay) and its name shown ``distance`` steps to the ``direction``: touching the avatar
    or not as ``touching`` says, and there (``alone``: no other live entity has its name) or not
    nearer; and the positions that show there."""
    row, col = ay // 2, ax // 2
    exact = bitgrid.seen_at(row, col, distance, direction)
    where = exact if alone else bitgrid.not_nearer(row, col, distance)
    near = bitgrid.touching(ax, ay)
    return bitgrid.tripled(where & (near if touching else bitgrid.FULL & ~near)), bitgrid.tripled(exact)


@cache
def usual(level: int, keys: tuple[str, ...], has_message: bool,
           wanted: tuple) -> tuple[frozenset[str], bool] | bool | None:
    """The set of touching entities and the message after it, when exactly one such set explains a
    step's reward and end and nobody dies (a usual step); False when none does, None otherwise."""
    hits = outcomes(level, keys, has_message).get(wanted)
    if hits is None:
        return False
    out = outcome(level, hits[0], has_message)
    if len(hits) != 1 or out.dead or not out.alive or not wanted[2]:
        return None
    return hits[0], out.has_message


def signature(reward: float, done: bool, alive: bool, has_message: bool | None) -> tuple:
    return round(reward, 6), done, alive, bool(has_message) and alive


@cache
def entity_keys(level: int) -> tuple[str, ...]:
    return ENTITY_KEYS[:3] if level == 2 else ENTITY_KEYS


@cache
def variants(level: int) -> tuple[dict[str, str], ...]:
    return tuple(dict(read_variant(path).movements) for path in data.variant_files(level))


@cache
def start_layouts(level: int) -> tuple[tuple[str, tuple[tuple[str, int, int], ...]], ...]:
    """Every start layout of the stage: file name and the sprites it creates."""
    first_variant = data.variant_files(level)[0].name
    layouts = tuple((path.name, layout(level, first_variant, path.name)) for path in data.init_state_files(level))
    walled = [name for name, created in layouts if any(key == "wall" for key, _, _ in created)]
    if walled:  # the position sets move without walls (no shipped layout has one)
        raise ValueError(f"the observational checker does not handle walls, which {walled[0]} has")
    return layouts


@cache
def layout_index(level: int) -> dict[tuple, tuple[int, ...]]:
    """Start layouts by what the first text shows of them: per role group, the nearest entity's
    distance and direction (the names only decide the order of the lines)."""
    index: dict[tuple, list[int]] = {}
    roles = {"enemy": 0, "message": 1, "decoy_message": 1, "goal": 2, "decoy_goal": 2}
    for number, (_, created) in enumerate(start_layouts(level)):
        row, col = next((r, c) for key, r, c in created if key == "no_message")
        nearest: dict[int, tuple] = {}
        for key, r, c in created:
            if key in roles:
                place = (abs(r - row) + abs(c - col), (r, c))
                nearest[roles[key]] = min(nearest.get(roles[key], place), place)
        shown = tuple((d, prompts.direction((r - row, c - col))) for d, (r, c) in
                      (nearest[group] for group in range(3)))
        index.setdefault(shown, []).append(number)
    return {shown: tuple(numbers) for shown, numbers in index.items()}


@cache
def start_masks(level: int, number: int) -> tuple[int, int, dict[str, Masks]]:
    """The avatar's pixel and each entity's position (any movement type) in a start layout."""
    _, created = start_layouts(level)[number]
    row, col = next((r, c) for key, r, c in created if key == "no_message")
    return 2 * col, 2 * row, {key: (bitgrid.bit(2 * c, 2 * r),) * 3 for key, r, c in created if key in ENTITY_KEYS}


@cache
def _allowed_pattern(level: int, pattern: tuple, dead: tuple) -> tuple | None:
    """``pattern`` (per live entity: which movement types it can still have) cut down to the types
    of the shipped variants that fit every entity's, dead ones included; None when none fits."""
    possible = tuple(sorted([(k, frozenset(t for t, ok in zip(MOVEMENTS, flags, strict=True) if ok))
                             for k, *flags in pattern] + list(dead)))
    allowed = _allowed_types(level, possible)
    if allowed is None:
        return None
    return tuple((k, *(ok and t in allowed[k] for t, ok in zip(MOVEMENTS, flags, strict=True)))
                 for k, *flags in pattern)


@cache
def _allowed_types(level: int, possible: tuple[tuple[str, frozenset[str]], ...]) -> dict[str, set[str]] | None:
    """Per entity, the movement types of the shipped variants that fit every entity's possible
    types (None when no variant fits)."""
    fitting = [v for v in variants(level) if all(v[k] in types for k, types in possible)]
    if not fitting:
        return None
    return {k: {v[k] for v in fitting} for k, _ in possible}


@cache
def allowed_types_of(level: int, keys: tuple[str, ...], have: tuple[int, ...],
                      dead: tuple) -> tuple[int, ...] | None:
    """:func:`_allowed_pattern` with each live entity's types as bits (chaser 1, fleeing 2, immovable 4)."""
    pattern = tuple((k, *(bool(t >> n & 1) for n in range(3))) for k, t in zip(keys, have, strict=True))
    allowed = _allowed_pattern(level, pattern, dead)
    if allowed is None:
        return None
    return tuple(c | f << 1 | i << 2 for _, c, f, i in allowed)
