"""Read a Messenger observation text back into what it says (the inverse of :mod:`.prompts`).

A text is ``Environment Error.`` (the avatar is gone) or: an optional ``You took action <A>.``
line, the message flag line, then ``You see:`` with one ``- <name> <d> steps to your <dir>`` (or
``- <name> 0 steps with you``) line per entity, or ``You see nothing away from you.``. Anything
else is reported with the line it is on; nothing is guessed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from plancheck.domains.smartplay.messenger import prompts
from plancheck.domains.smartplay.messenger.data import ENTITY_ID, NPC_NAMES

DIRECTIONS = ("north", "south", "west", "east", "north-west", "north-east", "south-west", "south-east")
_SEEN = re.compile(r"^- (?P<name>[a-z]+) (?:(?P<d>\d{1,9}) steps to your (?P<dir>[a-z-]+)|(?P<zero>0) steps with you)$")
_ACTION_LINES = {f"You took action {action}.": action for action in prompts.ACTIONS}
_FLAGS = {prompts.NO_MESSAGE: False, prompts.HAS_MESSAGE: True}


class ObservationError(ValueError):
    """The text is not an observation SmartPlay's Messenger writes; the message says where and why."""


@dataclass(frozen=True, slots=True)
class Seen:
    """One ``You see`` line: an entity's name, its distance and direction (``""`` at distance 0)."""

    name: str
    distance: int
    direction: str

    @property
    def entity_id(self) -> int:
        return ENTITY_ID[self.name]

    def __str__(self) -> str:
        if self.distance == 0:
            return f"{self.name} 0 steps with you"
        return f"{self.name} {self.distance} steps to your {self.direction}"


@dataclass(frozen=True, slots=True)
class View:
    """What an observation says: the action it reports (None at the start), whether the avatar has
    the message, the entities it lists; ``error`` is true for ``Environment Error.``."""

    action: str | None
    has_message: bool | None
    seen: tuple[Seen, ...]
    error: bool = False

    def names(self) -> tuple[str, ...]:
        return tuple(item.name for item in self.seen)


@lru_cache(maxsize=4096)
def _seen_line(line: str) -> Seen | str:
    """The entity a ``You see`` line lists, or why it lists none (lines recur, so each is read once)."""
    match = _SEEN.match(line)
    if match is None:
        return f"{line!r} is not '- <name> <d> steps to your <direction>'"
    name = match["name"]
    if name not in NPC_NAMES:
        return f"{name!r} is not a Messenger entity"
    if match["zero"] is not None:
        return Seen(name, 0, "")
    distance, direction = int(match["d"]), match["dir"]
    if direction not in DIRECTIONS:
        return f"{direction!r} is not a direction"
    if distance == 0 or (distance == 1 and "-" in direction):
        return f"{distance} steps to your {direction} is not a possible place"
    return Seen(name, distance, direction)


def read(text: str) -> View:
    """The :class:`View` of an observation text.

    >>> read("You took action Move South.\\n\\nYou (agent) don't have the message.\\n\\nYou see:\\n"
    ...      "- mage 1 steps to your south\\n- robot 3 steps to your north").seen
    (Seen(name='mage', distance=1, direction='south'), Seen(name='robot', distance=3, direction='north'))
    """
    if text == prompts.ENVIRONMENT_ERROR:
        return View(None, None, (), error=True)
    lines = text.split("\n")
    action, index = None, 0
    if lines and lines[0].startswith("You took action"):
        action = _ACTION_LINES.get(lines[0])
        if action is None:
            raise ObservationError(f"line 1: {lines[0]!r} names no Messenger action")
        if len(lines) < 3 or lines[1] != "":
            raise ObservationError("line 2: a blank line must follow the action line")
        index = 2
    flags = _FLAGS
    if index >= len(lines) or lines[index] not in flags:
        got = lines[index] if index < len(lines) else "the end of the text"
        raise ObservationError(f"line {index + 1}: expected the message flag ({prompts.NO_MESSAGE!r} or "
                               f"{prompts.HAS_MESSAGE!r}), found {got!r}")
    has_message = flags[lines[index]]
    rest = lines[index + 1:]
    if rest == ["", "You see nothing away from you."]:
        return View(action, has_message, ())
    if len(rest) < 3 or rest[0] != "" or rest[1] != "You see:":
        raise ObservationError(f"line {index + 2}: expected a blank line and 'You see:' after the message flag")
    seen = []
    for number, line in enumerate(rest[2:], start=index + 4):
        found = _seen_line(line)
        if isinstance(found, str):
            raise ObservationError(f"line {number}: {found}")
        seen.append(found)
    ids = [ENTITY_ID[item.name] for item in seen]
    if ids != sorted(set(ids)):
        raise ObservationError("the entities are not listed once each in SmartPlay's order (ascending id)")
    return View(action, has_message, tuple(seen))
