"""IQA as a played episode (the generic episode layer's Game and reading).

One step is one reply; the first answers the opening question. The prompt is LangSuitE's chat (all
its messages ``system``, replies ``assistant``, the whole history each time). The observation after
a step is LangSuitE's next message, or its verdict (``Your are right!`` / ``Your are wrong!``) when
the episode ends: at an answer, at the 30th timestep (the task answers for the agent), at a name
that is no object, or after an action whose feedback is empty. The start is drawn from the seed.
The score is 1 once LangSuitE says the answer is right. ``info``: ``right``, ``counted`` (its
evaluator counts it), ``ended`` (how it ended), ``forced``, ``timesteps``, ``seed``, ``feedback_ok``.
An unseeded log is followed from every start LangSuitE can draw that fits it (:class:`IqaFollower`).

Action texts (the reading, :mod:`parse`): ``(opening: accepted)`` / ``(opening: refused)``,
``move_ahead``, ``turn_left``, ``turn_right``, ``goto [name]``, ``open [name]``, ``answer [text]`` (or
``answer`` without brackets), ``(pass)`` (goto or open without a name), ``(no action)``, ``(stop)``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cached_property
from typing import Any

from plancheck.domains.langsuite.engine.agent import Pose
from plancheck.domains.langsuite.iqa.check import action_text
from plancheck.domains.langsuite.iqa.instance import Question
from plancheck.domains.langsuite.iqa.parse import OPENING, menu, reply_for
from plancheck.domains.langsuite.iqa.rules import Outcome, Task, step
from plancheck.domains.langsuite.iqa.scene import free_starts
from plancheck.episodes.game import Transition
from plancheck.episodes.log import Step
from plancheck.errors import BadInputError


class IqaGame:
    """One IQA conversation from the seed's start; ``step`` takes the action text read and the reply."""

    turns = 1

    def __init__(self, question: Question, seed: int, settings: Mapping[str, Any]):
        self.task = Task(question, settings.get("level", "low"))
        self.seed = seed
        self.horizon = self.task.step_limit
        self.turn = self.task.initial(seed)

    def reset(self) -> str:
        self.turn = self.task.initial(self.seed)
        return self.turn.prompt

    @cached_property
    def _menu(self) -> tuple[str, ...]:
        return menu(self.task.scene.names.ids)

    def actions(self) -> tuple[str, ...]:
        if not self.turn.started:
            return OPENING
        return self._menu

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
        return transition(out, self.seed)


class IqaFollower(IqaGame):
    """An unseeded log: the start is one of the points LangSuitE can draw (:func:`~..scene.free_starts`, facing
    north). Every start is followed while its conversation gives the logged observations; a step whose logged
    observation no remaining start gives is the log's problem (all of them are then followed on). ``info``
    holds ``starts``, how many starts the log still fits, instead of ``seed``, and ``start``, the point
    ``[x, z]``, while it fits one."""

    def __init__(self, question: Question, settings: Mapping[str, Any]):
        self.task = Task(question, settings.get("level", "low"))
        self.seed = None
        self.horizon = self.task.step_limit
        self.reset()

    def reset(self) -> str:
        points = free_starts(self.task.scene)
        if not points:
            raise BadInputError("the room has no free start point (LangSuitE would draw forever)")
        self.points = list(points)
        self.candidates = [self.task.start_at(Pose(float(x), float(y), 0.0, 1.0)) for x, y in points]
        self.turn = self.candidates[0]
        return self.turn.prompt

    def follow(self, action: str, logged: Step) -> tuple[Transition, str | None]:
        reply = logged.reply if logged.reply is not None else reply_for(action)
        outs = [step(self.task, turn, reply) for turn in self.candidates]
        taken = action_text(outs[0])
        if taken != action:
            raise ValueError(f"the reply plays {taken!r}, not {action!r}")
        fit = [i for i, out in enumerate(outs) if logged.observation is None or out.feedback == logged.observation]
        problem = None
        if not fit:
            problem = (f"the observation is {logged.observation!r} but from none of the {len(outs)} start(s) the "
                       f"log fitted so far does LangSuitE give it (from the first: {outs[0].feedback!r})")
            fit = list(range(len(outs)))
        kept = [outs[i] for i in fit]
        self.points = [self.points[i] for i in fit]
        self.candidates = [out.turn for out in kept]
        self.turn = self.candidates[0]
        return transition(kept[0], None, len(kept), self.points[0] if len(kept) == 1 else None), problem


def transition(out: Outcome, seed: int | None, starts: int = 1, start: tuple[int, int] | None = None) -> Transition:
    """The generic layer's transition of one step; ``seed`` (None for an unseeded log, which gives the number
    of ``starts`` it still fits instead, and the ``start`` point when it fits one)."""
    turn = out.turn
    info = {"right": turn.right, "counted": turn.counted, "ended": turn.ended, "forced": turn.forced,
            "timesteps": turn.timesteps, "feedback_ok": out.success}
    info.update({"seed": seed} if seed is not None else {"starts": starts})
    if seed is None and start is not None:
        info["start"] = list(start)
    if turn.crashed:
        info["crashed"] = turn.crashed
    return Transition(out.feedback, None, out.done, float(turn.right), info)
