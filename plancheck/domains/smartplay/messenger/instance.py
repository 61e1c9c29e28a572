"""Messenger episodes as SmartPlay starts them: the game, the layout and the manual, from a seed.

An instance is one episode start, named ``MessengerL<level>-v0/seed=<n>``. :func:`start` makes
it with SmartPlay's own draws from Python's ``random`` seeded with ``n``, in SmartPlay's order:

- L1 (``StageOne.reset`` + ``_get_manual``): ``choice(games)``, ``sample(cells, 4)``,
  ``random()`` (the avatar starts with the message when it is below 0.2), ``choice`` of the enemy,
  message and goal sentences (each from the entity-role's ``immovable`` then ``unknown`` list),
  ``shuffle(manual)``. ``random.seed(n)`` before SmartPlay's ``env.reset()`` gives the same episode.
- L2 (``StageTwo.reset``): ``choice(games)``, ``choice(variants)``, ``choice(init_states)``, then
  per sentence (enemy, message, goal) ``random() < 0.15`` for an untyped sentence and a ``choice``
  from the untyped or the typed list, then ``shuffle(manual)``.
- L3 (``StageThree.reset``): the same three choices, five typed sentences (``random()`` is drawn
  and ignored before each ``choice``), the decoy sentence (``shuffle`` of the roles message/goal,
  ``choice`` of a movement other than the enemy's, ``random()`` + ``choice`` for the first role with
  sentences), then ``shuffle(manual)``.

The VGDL file lists are sorted by name (see :mod:`.data`); the entity movement of L2/L3 is drawn
later by the engine's own generator (:mod:`.engine`).
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from plancheck.domains.smartplay.messenger import data
from plancheck.domains.smartplay.messenger.data import Game
from plancheck.errors import InstanceNotFoundError

LEVELS = (1, 2, 3)
STEP_LIMITS = {1: 4, 2: 64, 3: 128}  # SmartPlay's lvl_to_steps
MESSAGE_PROB = 0.2  # StageOne's message_prob
NO_TYPE_P = 0.15  # TextManual.get_descriptor's no_type_p
L1_CELLS = ((3, 5), (5, 3), (5, 7), (7, 5))  # (row, col): north, west, east, south of the avatar
L1_AVATAR = (5, 5)
_ID = re.compile(r"^(?:messenger-?l(?P<a>[123])|messengerl(?P<b>[123])(?:-v0)?)/seed=(?P<seed>\d+)$", re.I)

Cell = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Layout:
    """MessengerL1's grid: the three entities' cells and whether the avatar starts with the message."""

    enemy: Cell
    message: Cell
    goal: Cell
    has_message: bool

    def cell(self, role: str) -> Cell:
        return getattr(self, role)


@dataclass(frozen=True, slots=True)
class Variant:
    """A VGDL game variant of stage 2 or 3: its file and each sprite's movement type."""

    name: str
    movements: tuple[tuple[str, str], ...]  # (sprite key, chaser|fleeing|immovable), in file order

    def movement(self, key: str) -> str:
        return dict(self.movements)[key]


@dataclass(frozen=True, slots=True)
class Episode:
    """One episode start: the level, the seed that made it, the game, the manual's sentences as
    shown, and the grid: ``layout`` (L1) or the VGDL ``variant`` and start file (L2/L3)."""

    level: int
    seed: int | None
    game: Game
    sentences: tuple[str, ...]
    layout: Layout | None = None
    variant: Variant | None = None
    init_state: str | None = None

    @property
    def id(self) -> str:
        return episode_id(self.level, self.seed)

    @property
    def step_limit(self) -> int:
        return STEP_LIMITS[self.level]

    def to_json(self) -> dict:
        grid: dict = {}
        if self.layout is not None:
            grid = {"layout": {role: list(self.layout.cell(role)) for role in data.ROLES},
                    "has_message": self.layout.has_message}
        if self.variant is not None:
            grid = {"variant": self.variant.name, "movements": dict(self.variant.movements),
                    "init_state": self.init_state}
        return {"id": self.id, "level": self.level, "seed": self.seed, "step_limit": self.step_limit,
                "game": {"enemy": self.game.enemy, "message": self.game.message, "goal": self.game.goal},
                **grid, "manual_sentences": list(self.sentences)}


@dataclass(frozen=True, slots=True)
class Env:
    """SmartPlay's environment ``MessengerL<level>``: one episode per seed."""

    level: int

    @property
    def id(self) -> str:
        return f"MessengerL{self.level}"

    @property
    def step_limit(self) -> int:
        return STEP_LIMITS[self.level]

    def to_json(self) -> dict:
        return {"id": self.id, "env_id": env_id(self.level), "level": self.level, "step_limit": self.step_limit,
                "episodes": "one per seed (play --seed N), or name one: " + episode_id(self.level, 0)}


def env_id(level: int) -> str:
    return f"MessengerL{level}-v0"


def episode_id(level: int, seed: int | None) -> str:
    return f"{env_id(level)}/seed={'none' if seed is None else seed}"


def read_variant(path: Path) -> Variant:
    """The movement type of each sprite key declared ``key > Chaser|Fleeing|Immovable`` (as
    messenger-emma reads it with ``re.search(r'<key> > (\\S+)')``)."""
    found = re.findall(r"^\s*(\w+) > (Chaser|Fleeing|Immovable) stype=avatar", path.read_text(), re.MULTILINE)
    return Variant(path.name, tuple((key, kind.lower()) for key, kind in found))


def _l1(rng: random.Random, seed: int) -> Episode:
    game = rng.choice(data.test_games())
    cells = rng.sample(L1_CELLS, 4)
    has_message = rng.random() < MESSAGE_PROB
    sentences = [rng.choice(data.stage_one_sentences(game.by_role(role), role)) for role in data.ROLES]
    rng.shuffle(sentences)
    return Episode(1, seed, game, tuple(sentences), layout=Layout(cells[0], cells[1], cells[2], has_message))


def _typed(rng: random.Random, entity: str, role: str, movement: str, untyped_p: float) -> str:
    """``TextManual.get_descriptor``: one ``random()`` draw (untyped below ``untyped_p``), then a ``choice``."""
    kinds = data.descriptions()[entity][role]
    return rng.choice(kinds["unknown"] if rng.random() < untyped_p else kinds[movement])


def _decoy(rng: random.Random, entity: str, enemy_movement: str) -> str:
    """``TextManual.get_decoy_descriptor(entity, not_of_role="enemy", not_of_type=enemy_movement)``."""
    roles = ["message", "goal"]
    rng.shuffle(roles)
    movement = rng.choice([kind for kind in data.MOVEMENTS if kind != enemy_movement])
    for role in roles:
        rng.random()  # get_descriptor draws it even with no_type_p=0
        sentences = data.descriptions()[entity][role][movement]
        if sentences:
            return rng.choice(sentences)
    raise InstanceNotFoundError(f"no decoy sentence for {entity} as a {movement} message or goal")


def _vgdl(level: int, rng: random.Random, seed: int) -> Episode:
    game = rng.choice(data.test_games())
    variant = read_variant(rng.choice(data.variant_files(level)))
    init_state = rng.choice(data.init_state_files(level)).name
    if level == 2:
        sentences = [_typed(rng, game.by_role(role), role, variant.movement(role), NO_TYPE_P) for role in data.ROLES]
    else:
        described = [(game.enemy, "enemy", "enemy"), (game.message, "message", "message"), (game.goal, "goal", "goal"),
                     (game.message, "enemy", "decoy_message"), (game.goal, "enemy", "decoy_goal")]
        sentences = [_typed(rng, entity, role, variant.movement(key), 0.0) for entity, role, key in described]
        sentences.append(_decoy(rng, game.enemy, variant.movement("enemy")))
    rng.shuffle(sentences)
    return Episode(level, seed, game, tuple(sentences), variant=variant, init_state=init_state)


def start(level: int, seed: int) -> Episode:
    """The episode SmartPlay's ``reset()`` makes after ``random.seed(seed)``.

    >>> start(1, 0).game, start(1, 0).layout
    (Game(enemy='mage', message='robot', goal='thief'), Layout(enemy=(7, 5), message=(3, 5), goal=(5, 3), \
has_message=False))
    """
    if level not in LEVELS:
        raise InstanceNotFoundError(f"Messenger has levels 1, 2 and 3, not {level}")
    rng = random.Random(seed)
    return _l1(rng, seed) if level == 1 else _vgdl(level, rng, seed)


def parse_id(text: str, level: int | None = None) -> Episode:
    """The episode an id names: ``MessengerL1-v0/seed=7`` (or ``messenger-l1/seed=7``; with ``level``
    given, also ``seed=7`` or ``7``)."""
    text = text.strip()
    match = _ID.match(text)
    if match:
        found = int(match["a"] or match["b"])
        if level is not None and found != level:
            raise InstanceNotFoundError(f"{text!r} is a MessengerL{found} episode, not MessengerL{level}")
        return start(found, int(match["seed"]))
    bare = text.removeprefix("seed=")
    if level is not None and bare.isascii() and bare.isdigit():
        return start(level, int(bare))
    raise InstanceNotFoundError(f"{text!r} is not a Messenger episode; expected e.g. '{episode_id(level or 1, 7)}'")


def world_instance(text: str, level: int) -> Env | Episode:
    """The environment (``MessengerL1``, ``MessengerL1-v0``) or one episode (``MessengerL1/seed=7``)."""
    name = text.strip()
    if re.fullmatch(rf"messenger-?l{level}(?:-v0)?", name, re.I):
        return Env(level)
    if "/" in name:
        return parse_id(name, level)
    raise InstanceNotFoundError(f"{text!r} is not a MessengerL{level} instance; use MessengerL{level} (an episode "
                                f"per seed) or {episode_id(level, 7)}")


def world_select(selectors: Sequence[str], level: int) -> Iterator[Env | Episode]:
    """Instances for a world's selectors: ``all`` (the environment), ids, ``MessengerL1/seed=0..9``."""
    for selector in selectors:
        if selector == "all":
            yield Env(level)
        elif "/" in selector and ".." in selector:
            yield from select([selector], level)
        else:
            yield world_instance(selector, level)


def select(selectors: Sequence[str], level: int) -> Iterator[Episode]:
    """Episodes for selectors: ids, seeds, or seed ranges ``0..99`` (both ends included)."""
    for selector in selectors:
        bare = selector.strip().split("/seed=")[-1].removeprefix("seed=")
        if ".." in bare:
            low, _, high = bare.partition("..")
            if not (low.isdigit() and high.isdigit()) or int(low) > int(high):
                raise InstanceNotFoundError(f"{selector!r}: write a seed range as e.g. 0..99")
            yield from (start(level, seed) for seed in range(int(low), int(high) + 1))
        else:
            yield parse_id(selector, level)
