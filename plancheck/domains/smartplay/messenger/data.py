"""Messenger's shipped data: entities and their ids, the test games, the descriptions, the VGDL files.

Everything comes from ``plancheck/data/smartplay/messenger/`` (messenger-emma's files, MIT). Entity
ids follow messenger-emma's ``config.py``: the twelve non-player characters get ids 2-13 in the
order airplane, mage, dog, bird, fish, scientist, thief, ship, ball, robot, queen, sword; then wall
14, the avatar without the message 15 and with it 16.

File lists are sorted by name. messenger-emma lists the VGDL variants and start layouts with
``Path.glob``, whose order is the file system's (``init_state_7, init_state_19, init_state_5, ...``
on the machine the facts were taken on), so SmartPlay's choice of file from a seeded ``random`` is
itself machine-dependent; plancheck fixes the order to the sorted one and says so in the docs.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from pathlib import Path

NPC_NAMES = ("airplane", "mage", "dog", "bird", "fish", "scientist", "thief", "ship", "ball", "robot", "queen",
             "sword")
ENTITY_ID = {name: index + 2 for index, name in enumerate(NPC_NAMES + ("wall", "no_message", "with_message"))}
ID_NAME = {entity_id: name for name, entity_id in ENTITY_ID.items()}
ROLES = ("enemy", "message", "goal")
MOVEMENTS = ("chaser", "fleeing", "immovable")
STAGE_FOLDERS = {2: "stage_2_nd", 3: "stage_3"}  # SmartPlay's test split: new dynamics (nd) for stage 2


@dataclass(frozen=True, slots=True)
class Game:
    """One of the 32 test games: which entity plays which role."""

    enemy: str
    message: str
    goal: str

    def by_role(self, role: str) -> str:
        return getattr(self, role)


def folder() -> Path:
    """The shipped data folder."""
    return Path(str(files("plancheck") / "data" / "smartplay" / "messenger"))


@cache
def test_games() -> tuple[Game, ...]:
    """``games.json["test"]`` in file order (SmartPlay draws from it with ``random.choice``).

    >>> test_games()[0]
    Game(enemy='airplane', message='robot', goal='ship')
    """
    games = json.loads((folder() / "games.json").read_text(encoding="utf-8"))["test"]
    return tuple(Game(*triple) for triple in games)


@cache
def descriptions() -> dict[str, dict[str, dict[str, tuple[str, ...]]]]:
    """``text_test.json``: entity -> role -> movement type (or ``unknown``) -> sentences, in file order."""
    raw = json.loads((folder() / "text_test.json").read_text(encoding="utf-8"))
    return {entity: {role: {kind: tuple(sentences) for kind, sentences in kinds.items()}
                     for role, kinds in roles.items()} for entity, roles in raw.items()}


@cache
def stage_one_sentences(entity: str, role: str) -> tuple[str, ...]:
    """The sentences MessengerL1 draws from: the ``immovable`` list, then the ``unknown`` list."""
    kinds = descriptions()[entity][role]
    return kinds["immovable"] + kinds["unknown"]


def _sorted_txt(path: Path) -> tuple[Path, ...]:
    return tuple(sorted(path.glob("*.txt"), key=lambda p: p.name))


@cache
def variant_files(stage: int) -> tuple[Path, ...]:
    """The VGDL game variants of stage 2 (27) or 3 (18), sorted by file name."""
    return _sorted_txt(folder() / "vgdl" / STAGE_FOLDERS[stage] / "variants")


@cache
def init_state_files(stage: int) -> tuple[Path, ...]:
    """The start layouts of stage 2 (24) or 3 (720), sorted by file name (``init_state_10`` before ``_2``)."""
    return _sorted_txt(folder() / "vgdl" / STAGE_FOLDERS[stage] / "init_states")
