"""Rearrangement as a played episode (the generic episode layer's Game, reading and follower).

One step is one reply (LangSuitE asks one question a step); the first answers the opening
question. The prompt is LangSuitE's chat (every message of LangSuitE ``system``, the replies
``assistant``, failed exchanges dropped after the next success). The observation after a step is
LangSuitE's next message (its feedback). There is no reward; the score after a step is LangSuitE's
success under its own rule (1 or 0), and ``info`` holds misplaced, fixed and success under both
rules. Episodes end at ``stop`` or after 100 steps (the opening reply included). LangSuitE has no
randomness here, so a seed changes nothing and an unseeded log is checked by replay all the same.

Reading ``langsuite`` (LangSuitE's own, :mod:`..engine.reply`) turns a reply into one of these
action texts (the menu :meth:`RearrangementGame.actions` lists them):

* ``(opening: accepted)`` / ``(opening: refused)`` at the first step;
* ``move_ahead``, ``turn_left``, ``turn_right``, ``stop``, ``<word> [<name>]`` for an object action
  with an object of the scene, ``<word>`` alone when the name is no object (LangSuitE passes the
  action without one);
* ``(thought)`` (no act: "OK."), ``(several actions)`` (status ambiguous: LangSuitE takes none and
  says so), ``(no action)`` (status none: "I can't find a valid action").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cached_property
from typing import Any

from plancheck.domains.langsuite.rearrangement.check import action_text
from plancheck.domains.langsuite.rearrangement.instance import Episode
from plancheck.domains.langsuite.rearrangement.parse import OPENING, menu, reply_for
from plancheck.domains.langsuite.rearrangement.problem import restored
from plancheck.domains.langsuite.rearrangement.rules import Outcome, Task, step
from plancheck.episodes.game import Transition
from plancheck.episodes.log import Step


class RearrangementGame:
    """One Rearrangement conversation; ``step`` takes the action text read and the reply itself."""

    turns = 1

    def __init__(self, episode: Episode, settings: Mapping[str, Any]):
        self.task = Task(episode, settings.get("level", "low"))
        self.horizon = self.task.step_limit
        self.turn = self.task.initial()
        self.last: Outcome | None = None

    def reset(self) -> str:
        self.turn = self.task.initial()
        self.last = None
        return self.turn.prompt

    @cached_property
    def _menu(self) -> tuple[str, ...]:
        return menu(self.task.start_scene.names.ids)

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
        taken = action_text(self.task, out)
        if taken.endswith(": unknown]"):
            taken = taken.split(" [", 1)[0]
        if taken != action:
            raise ValueError(f"the reply plays {taken!r}, not {action!r}")
        self.turn, self.last = out.turn, out
        return transition(self.task, out)

    def follow(self, action: str, logged: Step) -> tuple[Transition, str | None]:
        """An unseeded log: LangSuitE has no randomness, so this is the same exact replay."""
        t = self.step(action, logged.reply)
        for field, value in (("observation", t.observation), ("score", t.score), ("done", t.done)):
            have = getattr(logged, field)
            if have is not None and have != value:
                return t, f"the {field} is {have!r} but LangSuitE gives {value!r}"
        for key, value in (logged.info or {}).items():
            if key in t.info and t.info[key] != value:
                return t, f"info[{key!r}] is {value!r} but LangSuitE gives {t.info[key]!r}"
        return t, None


def transition(task: Task, out: Outcome) -> Transition:
    scene, holding = out.turn.world.scene, bool(out.turn.world.inventory)
    lang, corr = task.score(scene, "langsuite"), task.score(scene, "corrected")
    info = {"success": lang.success, "misplaced": lang.misplaced, "fixed": lang.fixed,
            "success_corrected": corr.success, "misplaced_corrected": corr.misplaced, "fixed_corrected": corr.fixed,
            "restored": not restored(task, scene, holding), "feedback_ok": out.success}
    if out.turn.crashed:
        info["crashed"] = out.turn.crashed
    return Transition(out.feedback, None, out.done, float(lang.success), info)
