"""SmartPlay's Messenger texts, byte for byte: the manual and the observation (the history, the
questions and the chat prompt are the SmartPlay family's, in ``_frame``).

The observation is SmartPlay's ``describe_frame``: the message flag line, then one line per entity
id present (ascending id), giving the cell nearest to the avatar with that id (Manhattan distance;
among equally near cells the first in row-major order) as ``- <name> <d> steps to your <dir>`` or
``- <name> 0 steps with you``. The direction is ``north``/``south`` by row, then ``west``/``east``
by column, joined with ``-``. After a step it is prefixed with ``You took action <action>.``; when
the avatar is gone (dead in L2/L3) SmartPlay's rendering fails and the whole text is
``Environment Error.``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from plancheck.domains.smartplay._frame import describe_act
from plancheck.domains.smartplay.messenger.data import ID_NAME

ACTIONS = ("Move North", "Move South", "Move West", "Move East", "Do Nothing")
HISTORY_WINDOW = 2  # MessengerEnv's HistoryTracker(max_steps=2); the history text is the family's (_frame)
CONTEXT = ("In the game, MESSENGER, each entity can take on one of three roles: an enemy, message, or goal. The "
           "agent\u2019s objective is to bring the message to the goal while avoiding the enemies. If the agent "
           "encounters an enemy at any point in the game, or the goal without first obtaining the message, it loses "
           "the game and obtains a reward of \u22121.")
ADVICE = ("To solve a game, you may find it helpful to list the objects that you see. Then for each object, match it "
          "with an entity description, and identify whether it is good or bad to interact with the object.\n"
          "The name specifications of in-game objects may not be exact matches. Please try identifying with "
          "synonyms.")
ENVIRONMENT_ERROR = "Environment Error."
HAS_MESSAGE = "You (agent) already have the message."
NO_MESSAGE = "You (agent) don't have the message."

Cell = tuple[int, int]


def action_menu() -> str:
    """``List of all actions:`` and the numbered actions (SmartPlay's ``describe_act``)."""
    return describe_act(ACTIONS)


def manual(sentences: Sequence[str]) -> str:
    """The manual SmartPlay sends: context, the sentences one per line, the advice, the action menu."""
    return f"{CONTEXT}\n\n{chr(10).join(sentences)}\n\n{ADVICE}\n\n{action_menu()}".strip()


def direction(offset: Cell) -> str:
    """``describe_loc`` of an entity at ``offset`` = entity - avatar (rows, columns).

    >>> direction((2, -1)), direction((0, 3)), direction((-1, 0))
    ('south-west', 'east', 'north')
    """
    parts = []
    if offset[0] < 0:
        parts.append("north")
    elif offset[0] > 0:
        parts.append("south")
    if offset[1] < 0:
        parts.append("west")
    elif offset[1] > 0:
        parts.append("east")
    return "-".join(parts)


def describe(avatar: Cell, has_message: bool, entities: Iterable[tuple[int, Cell]]) -> str:
    """``describe_frame``: what the avatar at ``avatar`` sees of ``entities`` (entity id, cell).

    >>> print(describe((5, 5), False, [(7, (5, 3)), (10, (5, 7)), (13, (7, 5))]))
    You (agent) don't have the message.
    <BLANKLINE>
    You see:
    - scientist 2 steps to your west
    - ball 2 steps to your east
    - sword 2 steps to your south
    """
    nearest: dict[int, tuple[int, Cell]] = {}
    for entity_id, cell in entities:
        distance = abs(cell[0] - avatar[0]) + abs(cell[1] - avatar[1])
        known = nearest.get(entity_id)
        if known is None or (distance, cell) < (known[0], known[1]):
            nearest[entity_id] = (distance, cell)
    lines = []
    for entity_id in sorted(nearest):
        distance, cell = nearest[entity_id]
        name = ID_NAME[entity_id]
        if distance == 0:
            lines.append(f"- {name} 0 steps with you")
        else:
            lines.append(f"- {name} {distance} steps to your {direction((cell[0] - avatar[0], cell[1] - avatar[1]))}")
    seen = "You see:\n" + "\n".join(lines) if lines else "You see nothing away from you."
    return f"{HAS_MESSAGE if has_message else NO_MESSAGE}\n\n{seen}"


def observation(frame: str | None, action: int | None = None) -> str:
    """The observation text: ``frame`` (None = the avatar is gone: ``Environment Error.``), prefixed
    with ``You took action <action>.`` after a step."""
    if frame is None:
        return ENVIRONMENT_ERROR
    return frame if action is None else f"You took action {ACTIONS[action]}.\n\n{frame}"
