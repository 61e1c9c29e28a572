"""SmartPlay's Hanoi texts, byte for byte: the manual, observations, the history and the prompt.

The manual, the observation after each step ("You tried to ... Current configuration: ...") and
the history of the last five observations are rebuilt exactly as SmartPlay's environment writes
them (the history, action menu and chat composition are the SmartPlay frame's, shared by every
game: :mod:`plancheck.domains.smartplay._frame`). The ``plan`` prompt style
is plancheck's own: the same messages, but asking for the whole list of moves at once.
"""

from __future__ import annotations

from collections.abc import Sequence

from plancheck.domains.smartplay._frame import describe_act, messages
from plancheck.domains.smartplay._frame import history as frame_history
from plancheck.domains.smartplay.hanoi.rules import RODS, Move, State, goal_state, initial_state

HISTORY_WINDOW = 5  # SmartPlay's HistoryTracker(max_steps=5)
PLAN_QUESTION = ("Solve the game from the current configuration. List all the moves, in order, one per line, "
                 "each written exactly as in the list of all actions. You may use at most {limit} moves.")

_MANUAL = """The game consists of three rods (A,B,C) and a number of disks of various sizes, which can go onto any rod. 
The game begins with the disks stacked on rod A in order of decreasing size, the smallest at the top (righthand side). 
The objective is to move the entire stack to rod C, obeying the following rules:

 - Only one disk may be moved at a time.
 - Each move consists of taking the top disk from one of the stacks and placing it on top of another stack or on an empty rod.
 - You cannot place a bigger disk on top of a smaller disk.

For example, considering movements from B under the following setting:
- A: |bottom, [0], top|
- B: |bottom, [1], top|
- C: |bottom, [2], top|
You are only allowed to move from B to C but not A, since the top of B (1) is smaller than the top of C (2) but bigger than the top of A (0).

Finally, the starting configuration is:
{start}

and the goal configuration is:
{goal}
with top on the right and bottom on the left

{actions}"""  # noqa: E501, W291 - SmartPlay's manual, verbatim (long lines, trailing spaces)


def rods_text(state: State) -> str:
    """``- A: |bottom, [2, 1, 0], top|`` lines, one per rod.

    >>> print(rods_text(((2, 1), (), (0,))))
    - A: |bottom, [2, 1], top|
    - B: |bottom, [], top|
    - C: |bottom, [0], top|
    """
    return "\n".join(f"- {rod}: |bottom, {list(disks)}, top|" for rod, disks in zip(RODS, state, strict=True))


def compact(state: State) -> str:
    """The rods on one line, bottom to top.

    >>> compact(((2, 1), (), (0,)))
    'A[2, 1] B[] C[0]'
    """
    return " ".join(f"{rod}{list(disks)}" for rod, disks in zip(RODS, state, strict=True))


def manual(disks: int) -> str:
    """SmartPlay's manual for ``disks`` disks."""
    actions = describe_act([move.sentence for move in Move])
    return _MANUAL.format(start=rods_text(initial_state(disks)), goal=rods_text(goal_state(disks)), actions=actions)


def observation(state: State, move: Move | None = None) -> str:
    """The observation after ``move`` (or at the start when ``move`` is None)."""
    head = "Current configuration:" if move is None else f"You tried to {move.sentence.lower()}. Current configuration:"
    return f"{head}\n{rods_text(state)}"


def history(observations: Sequence[str], step: int) -> str:
    """The history SmartPlay shows before action ``step`` (1-based): the last five observations
    before it, numbered from 0 (the start)."""
    return frame_history(observations[:step], HISTORY_WINDOW)


def opening_messages(disks: int, question: str) -> list[tuple[str, str]]:
    """SmartPlay's chat messages at the start of an episode, as (role, content): the player line,
    the manual, the current observation (the history is still empty), then the question."""
    chat = messages(manual(disks), "", observation(initial_state(disks)), question)
    return [(message["role"], message["content"]) for message in chat]
