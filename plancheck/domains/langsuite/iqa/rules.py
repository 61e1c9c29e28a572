"""An IQA episode as LangSuitE runs it (``iqa_task.py``, ``iqa_agent.py``): the conversation, the answer.

One :class:`Task` per question and setting; :func:`step` takes the conversation state and the
model's reply and returns the next state and what happened (pure).

* **Start.** The agent stands at a random integer point of the room facing north: x and z drawn
  uniformly from ``int(min)`` to ``int(max + 1) - 1`` (numpy's ``randint`` truncates float bounds),
  drawn again until the segment to (x + 1, z + 1) meets no wall and no object (``random_world_position``).
  LangSuitE draws from numpy's unseeded global generator; plancheck draws the same way from
  ``random.Random(seed)``.
* **Conversation.** Every LangSuitE message is ``system``, replies ``assistant``, and the whole
  history is sent each time. Timestep 1 answers the opening message (refused when the reply holds
  ``not`` or ``don't``: the opening comes again); its acceptance sends ``\\nQuestion: ...\\nObs: ...  ``
  (high level: the look-around text).
* **Dispatch** (``IqaAgent.parse_response``), by substring, in this order: ``answer`` (any case) -> the
  answer; ``goto`` -> ``goto [name]``; ``move_ahead``; ``turn_left``; ``turn_right``; ``open`` (any case) ->
  ``open [name]``; ``Stop``; anything else ``Pass``. A goto or open without a bracketed name (or with
  the literal ``object_name``) becomes ``pass``; ``pass``, ``Pass`` and ``Stop`` have no action class
  (``Action Pass not found in environment.``). A bracketed name that is no object name
  **ends the episode without a word** (*silent-end*). An action whose template the setting's file
  lacks (``goto`` at the low level, moves and turns at the high level) still happens, but its empty
  feedback makes the agent skip the next exchange, which ends the episode after one more timestep
  (*empty-prompt-end*).
* **End.** After each reply, if 30 timesteps have passed the task answers for the agent:
  ``answer [False]``, or ``answer [0]`` for counting (*forced-answer*; the 30th reply is never read).
  Otherwise a reply holding ``answer`` (any case, the opening reply included) ends the episode: the
  answer is the text in ``Answer [...]`` (else ``answer [...]``), right when it equals the gold answer
  case-insensitively (``True``, ``False``, ``2``). LangSuitE says ``Your are right!`` or ``Your are wrong!``.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, replace
from functools import cached_property

from plancheck.domains.langsuite.engine import observe
from plancheck.domains.langsuite.engine.actions import Act, Engine, WorldState
from plancheck.domains.langsuite.engine.agent import Pose
from plancheck.domains.langsuite.engine.goto import GridError
from plancheck.domains.langsuite.engine.reply import accepts_opening
from plancheck.domains.langsuite.engine.scene import Scene
from plancheck.domains.langsuite.iqa.instance import Question
from plancheck.domains.langsuite.iqa.observe import IQA
from plancheck.domains.langsuite.iqa.prompts import STEP_LIMIT, Texts
from plancheck.domains.langsuite.iqa.scene import build_iqa_scene, free_start, free_starts
from plancheck.errors import BadInputError

Message = tuple[str, str]  # (role, content)


def start_pose(scene: Scene, seed: int) -> Pose:
    """The random start (``random_world_position``), facing north."""
    if not free_starts(scene):
        raise BadInputError("the room has no free start point (LangSuitE would draw forever)")
    rng = random.Random(seed)
    x0, y0, x1, y1 = scene.room.bounds
    while True:
        x, y = rng.randrange(int(x0), int(x1 + 1)), rng.randrange(int(y0), int(y1 + 1))
        if free_start(scene, x, y):
            return Pose(float(x), float(y), 0.0, 1.0)


def extract_answer(reply: str) -> str | None:
    """``extract_content``: the text in ``Answer [...]``, else in ``answer [...]``."""
    for word in ("Answer", "answer"):
        found = re.search(word + r"\s*\[([^]]+)\]", reply)
        if found:
            return found.group(1)
    return None


def is_right(reply: str, gold: bool | int) -> bool:
    """``success_or_not``: the extracted answer equals ``str(gold)`` case-insensitively."""
    answer = extract_answer(reply)
    return answer is not None and answer.lower() == str(gold).lower()


def bracket(reply: str, method: str) -> str:
    """``parse_method``: the first ``<method> [...]`` text, all lower-cased ("" when none)."""
    found = re.findall(method.lower() + r"\s*\[([^]]+)\]", reply.lower())
    return found[0] if found else ""


@dataclass(frozen=True)
class Task:
    """One question in one setting (``low`` or ``high``)."""

    question: Question
    level: str = "low"
    step_limit: int = STEP_LIMIT

    @cached_property
    def texts(self) -> Texts:
        return Texts(self.level)

    @cached_property
    def engine(self) -> Engine:
        return Engine(self.texts.config, self.texts.templates, high_level=self.level == "high", profile=IQA)

    @cached_property
    def scene(self) -> Scene:
        return build_iqa_scene(self.question.world_data, self.question.id)

    @property
    def gold(self) -> bool | int:
        return self.question.answer

    @property
    def forced_reply(self) -> str:
        """What the task answers at the step limit (``count_number`` stays 0 for a model)."""
        return "answer [0]" if self.question.kind == "counting" else "answer [False]"

    def initial(self, seed: int) -> Turn:
        return self.start_at(start_pose(self.scene, seed))

    def start_at(self, pose: Pose) -> Turn:
        """The conversation before the opening reply, the agent at ``pose``."""
        return Turn(WorldState(self.scene, pose), prompt=self.texts.intro())

    def start_view(self, world: WorldState) -> str:
        return observe.look_around(world.scene) if self.engine.high_level else self.engine.observation(world)


@dataclass(frozen=True)
class Turn:
    """The conversation state before the next reply (``answer`` is the reply that answered, if any)."""

    world: WorldState
    prompt: str
    started: bool = False
    chat: tuple[Message, ...] = ()
    timesteps: int = 0
    done: bool = False
    answer: str | None = None
    right: bool = False
    forced: bool = False
    crashed: str | None = None
    ended: str | None = None  # answer | forced | silent | empty-prompt | crash

    @property
    def counted(self) -> bool:
        """Whether LangSuitE's evaluator (``iqa_eval.py``) counts the episode as right: the verdict is right,
        the log has more than four lines (an answer in the opening reply leaves four) and its answer
        line holds neither "Obs" nor "Feedback"."""
        if not self.right:
            return False
        if self.forced:
            return True
        return self.timesteps >= 2 and self.answer is not None and "Obs" not in self.answer \
            and "Feedback" not in self.answer

    def messages(self) -> list[dict[str, str]]:
        """The chat LangSuitE sends for the next reply: the whole history and the prompt."""
        return [{"role": r, "content": c} for r, c in self.chat + (("system", self.prompt),)]


@dataclass(frozen=True)
class Outcome:
    """What one reply did: the next state, the message that follows, what was read.

    ``kind``: opening-accepted, opening-refused, answer, action, pass (no action class: ``pass``,
    ``Pass`` or ``Stop``), silent (a name that is no object: the episode ends). ``feedback`` is the
    next prompt, or LangSuitE's verdict (``Your are right!`` / ``Your are wrong!``) when the episode ends.
    """

    turn: Turn
    feedback: str
    success: bool
    kind: str
    action: Act | None = None
    word: str | None = None  # the action word dispatched (goto, open, move_ahead, ..., pass, Pass, Stop)
    name: str | None = None  # the bracketed name of goto / open

    @property
    def done(self) -> bool:
        return self.turn.done


_UNKNOWN = {"pass": "pass", "Pass": "Pass", "Stop": "Stop"}


def dispatch(reply: str) -> tuple[str, str | None]:
    """The action word LangSuitE's IQA agent takes from a started reply, and the bracketed name."""
    if "answer" in reply.lower():
        return "answer", None
    if "goto" in reply:
        name = bracket(reply, "GoTo")
        return ("goto", name) if name and name != "object_name" else ("pass", None)
    for word in ("move_ahead", "turn_left", "turn_right"):
        if word in reply:
            return word, None
    if "open" in reply.lower():
        name = bracket(reply, "Open")
        return ("open", name) if name and name != "object_name" else ("pass", None)
    if "Stop" in reply:
        return "Stop", None
    return "Pass", None


_CLASSES = {"goto": "Goto", "open": "Open", "move_ahead": "MoveAhead", "turn_left": "TurnLeft",
            "turn_right": "TurnRight"}


def step(task: Task, turn: Turn, reply: str) -> Outcome:
    """One reply: read it, act, then LangSuitE's end checks (step limit, answer, silent end)."""
    timesteps = turn.timesteps + 1
    chat = turn.chat + (("system", turn.prompt), ("assistant", reply))
    world, started = turn.world, turn.started
    action, word, name, crashed = None, None, None, None
    feedback: str | None
    success = True
    if not started:
        if accepts_opening(reply):
            started, kind = True, "opening-accepted"
            feedback = task.texts.start(task.question.text, task.start_view(world))
        else:
            kind, feedback = "opening-refused", task.texts.intro_again()
    else:
        word, name = dispatch(reply)
        if word == "answer":
            kind, feedback = "answer", None
        elif word in _UNKNOWN:
            kind, success = "pass", False
            feedback = f"Action {word} not found in environment."
        elif name is not None and name not in world.scene.names.ids:
            kind, feedback, success = "silent", None, False
        else:
            kind = "action"
            action = Act(_CLASSES[word], world.scene.names.ids[name] if name is not None else None)
            try:
                result = task.engine.execute(world, action)
            except GridError as exc:
                crashed = f"LangSuitE's goto would raise IndexError here ({exc})"
                feedback, success = "", False
            else:
                world, success, feedback = result.state, result.success, result.feedback
    after = replace(turn, world=world, started=started, chat=chat, timesteps=timesteps)
    if crashed is not None:
        return Outcome(replace(after, done=True, crashed=crashed, prompt="", ended="crash"), "", False, kind, action,
                       word, name)
    if timesteps >= task.step_limit:
        right = is_right(task.forced_reply, task.gold)
        end = replace(after, done=True, answer=task.forced_reply, right=right, forced=True,
                      prompt=task.texts.verdict(right), ended="forced")
        return Outcome(end, end.prompt, success, kind, action, word, name)
    if "answer" in reply.lower():
        right = is_right(reply, task.gold)
        end = replace(after, done=True, answer=reply, right=right, prompt=task.texts.verdict(right), ended="answer")
        return Outcome(end, end.prompt, success, kind, action, word, name)
    if feedback is None:  # a name that is no object: LangSuitE's run loop gets no prompt and stops
        end = replace(after, done=True, prompt=task.texts.verdict(False), ended="silent")
        return Outcome(end, end.prompt, False, kind, action, word, name)
    if feedback == "":  # a template the file lacks: the empty prompt makes the agent answer nothing
        timesteps += 1  # that step still counts, and can reach the limit
        forced = timesteps >= task.step_limit
        right = forced and is_right(task.forced_reply, task.gold)
        end = replace(after, timesteps=timesteps, done=True, right=right, forced=forced,
                      answer=task.forced_reply if forced else None, prompt=task.texts.verdict(right),
                      ended="forced" if forced else "empty-prompt")
        return Outcome(end, end.prompt, success, kind, action, word, name)
    return Outcome(replace(after, prompt=feedback), feedback, success, kind, action, word, name)
