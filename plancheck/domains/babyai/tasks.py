"""The four tasks asked about a BabyAI instance and the vocabularies of their answers.

* ``predict`` (LLM-BabyBench): the final ``((x, y), dir)`` after a given action sequence;
* ``plan`` (LLM-BabyBench): low-level actions that complete the mission;
* ``decompose`` (LLM-BabyBench): subgoals (GoNextTo (x, y), Open, Close, Pickup, Drop) that a helper
  executes, adding subgoals of its own when needed;
* ``ig`` (LangSuitE instruction grounding): one LangSuitE action per response, until ``stop``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from plancheck.domains.babyai.mission import Cell
from plancheck.domains.babyai.rules import Action


class Task(str, Enum):
    PREDICT = "predict"
    PLAN = "plan"
    DECOMPOSE = "decompose"
    IG = "ig"


SUBGOAL_KINDS = ("GoNextToSubgoal", "OpenSubgoal", "CloseSubgoal", "PickupSubgoal", "DropSubgoal")


@dataclass(frozen=True, slots=True)
class Subgoal:
    """One Decompose subgoal: its published name and, for GoNextTo, the cell to go next to."""

    kind: str
    cell: Cell | None = None

    def __str__(self) -> str:
        return f"({self.kind}, {self.cell})" if self.cell is not None else f"({self.kind})"


# LangSuitE's action words and the minigrid action each one performs.
LANGSUITE_ACTIONS: dict[str, Action | None] = {
    "move_ahead": Action.forward, "turn_left": Action.left, "turn_right": Action.right,
    "pick_up": Action.pickup, "drop": Action.drop, "toggle": Action.toggle, "stop": None}


@dataclass(frozen=True, slots=True)
class IGAction:
    """One LangSuitE response read as an action: the word, and the object named in brackets."""

    word: str
    color: str | None = None
    kind: str | None = None

    def __str__(self) -> str:
        obj = " ".join(p for p in (self.color, self.kind) if p)
        return f"{self.word} [{obj}]" if obj else self.word
