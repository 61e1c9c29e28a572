"""Household as a played episode (the generic episode layer's Game and reading).

One step is one reply; the first answers the opening question. The prompt is LangSuitE's chat (all
its messages ``system``, replies ``assistant``, every prompt twice, failed exchanges in an error
cache). The observation after a step is LangSuitE's next message. The score after a step is
LangSuitE's success as its goal check computed it then (1 or 0); ``info`` holds ``satisfied`` and
``total`` (its ``s`` and ``ts``), ``feedback_ok`` and, when LangSuitE's run would crash there, ``crashed``.
Episodes end at ``stop``, after 60 timesteps, or where LangSuitE's run crashes. There is no
randomness (the start is part of the task), so a seed changes nothing.

Action texts (the reading, :mod:`parse`): ``(opening: accepted)`` / ``(opening: refused)``, ``(thought)``,
``(self-feedback)``, ``(no action)``, ``stop``, ``move_ahead``, ``turn_left``, ``turn_right``, ``<word> [name]``,
``<word> [name, name]`` for ``put``/``heat``/``cool``/``clean``, and ``<word>`` alone when a name is no object.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from plancheck.domains.langsuite.household.check import action_text, turn_menu
from plancheck.domains.langsuite.household.instance import HouseholdTask
from plancheck.domains.langsuite.household.parse import OPENING, reply_for
from plancheck.domains.langsuite.household.rules import Outcome, Task, step
from plancheck.episodes.game import Transition


class HouseholdGame:
    """One Household conversation; ``step`` takes the action text read and the reply itself."""

    turns = 1

    def __init__(self, task: HouseholdTask, settings: Mapping[str, Any]):
        self.task = Task(task, settings.get("level", "low"))
        self.horizon = self.task.step_limit
        self.turn = self.task.initial()

    def reset(self) -> str:
        self.turn = self.task.initial()
        return self.turn.prompt

    def actions(self) -> tuple[str, ...]:
        if not self.turn.started:
            return OPENING
        return turn_menu(self.turn)

    def messages(self, earlier: Sequence[str] = ()) -> list[dict[str, str]]:
        return self.turn.messages()

    def step(self, action: str, reply: str | None = None) -> Transition:
        if reply is None:
            reply = reply_for(action)
        out = step(self.task, self.turn, reply)
        taken = action_text(out)
        if taken != action:
            raise ValueError(f"the reply plays {taken!r}, not {action!r}")
        self.turn = out.turn
        return transition(out)


def transition(out: Outcome) -> Transition:
    goal = out.turn.goal
    info: dict[str, Any] = {"satisfied": goal.satisfied if goal else 0, "total": goal.total if goal else 0,
                            "feedback_ok": out.success, "timesteps": out.turn.timesteps}
    if out.turn.crashed:
        info["crashed"] = out.turn.crashed
    return Transition(out.feedback, None, out.done, float(bool(goal and goal.success)), info)
