"""A Rearrangement episode as LangSuitE runs it: the conversation, the world, the step limit, the score.

One :class:`Task` per episode and setting (the start and goal scenes built, the goal text, the
start and goal poses for the metrics). :func:`step` takes the conversation state and the model's
reply and returns the next state and what happened; it is pure.

The conversation (``RearrangeAgent.step``, ``RearrangementTask.run``):

* timestep 1 is the reply to the opening message; it is accepted unless it contains ``not`` or
  ``don't``; a refusal gets the opening message again (without its example);
* every later reply is read (:mod:`..engine.reply`): a thought gets ``OK.``, ``stop`` gets
  ``You stopped the game.`` and ends the episode, an action is executed;
* every message from LangSuitE has the role ``system``, replies ``assistant``; after a failed step
  the next prompt and reply go to an error cache that is kept only until the next success, then
  dropped, so failed exchanges vanish from the context;
* the episode ends at ``stop`` or after 100 timesteps; success is recomputed after every step and
  the last value counts (the episode does not end at success).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property

from plancheck.domains.langsuite.engine import observe
from plancheck.domains.langsuite.engine.actions import Act, Engine, WorldState
from plancheck.domains.langsuite.engine.agent import Pose
from plancheck.domains.langsuite.engine.goto import GridError
from plancheck.domains.langsuite.engine.reply import Reading, accepts_opening, read_reply
from plancheck.domains.langsuite.engine.scene import Scene, build_scene
from plancheck.domains.langsuite.rearrangement import scoring
from plancheck.domains.langsuite.rearrangement.instance import Episode
from plancheck.domains.langsuite.rearrangement.prompts import STEP_LIMIT, Texts

Message = tuple[str, str]  # (role, content)


@dataclass(frozen=True)
class Task:
    """One episode in one setting (``low`` or ``high``), built as ``RearrangementTask.create`` builds it."""

    episode: Episode
    level: str = "low"
    step_limit: int = STEP_LIMIT

    @cached_property
    def texts(self) -> Texts:
        return Texts(self.level)

    @cached_property
    def engine(self) -> Engine:
        return Engine(self.texts.config, self.texts.templates, high_level=self.level == "high")

    @cached_property
    def goal_scene(self) -> Scene:
        return build_scene(self.episode.end_scene, f"{self.episode.id} (goal scene)")

    @cached_property
    def start_scene(self) -> Scene:
        return build_scene(self.episode.start_scene, f"{self.episode.id} (start scene)")

    @cached_property
    def goal_text(self) -> str:
        """``get_room_description`` on the goal scene, with the goal scene's display names."""
        return observe.room_description(self.goal_scene)

    @cached_property
    def start_pose(self) -> Pose:
        x, _, z, yaw = self.episode.agent
        return Pose.start(x, z, yaw)

    def poses(self, rule: str) -> tuple[Mapping[str, scoring.Pose], Mapping[str, scoring.Pose]]:
        """The start and goal poses the metrics compare with."""
        return scoring.all_object_poses(self.start_scene, rule), scoring.all_object_poses(self.goal_scene, rule)

    @cached_property
    def diff_count(self) -> int:
        names = {o[0] for o in self.episode.openable}
        return scoring.diff_count(self.episode.start, self.episode.target, names)

    def score(self, scene: Scene, rule: str = "langsuite") -> scoring.Score:
        start, goal = self.poses(rule)
        return scoring.score(scene, start, goal, self.diff_count, rule)

    def initial(self) -> Turn:
        world = WorldState(self.start_scene, self.start_pose)
        return Turn(world, prompt=self.texts.intro())


@dataclass(frozen=True)
class Turn:
    """The conversation state before the next reply."""

    world: WorldState
    prompt: str
    started: bool = False
    chat: tuple[Message, ...] = ()
    errors: tuple[Message, ...] = ()
    last_success: bool | None = None
    timesteps: int = 0
    stopped: bool = False
    crashed: str | None = None

    def messages(self) -> list[dict[str, str]]:
        """The chat LangSuitE sends for the next reply (the prompt included)."""
        chat, errors = self._context()
        return [{"role": r, "content": c} for r, c in chat + errors]

    def _context(self) -> tuple[tuple[Message, ...], tuple[Message, ...]]:
        if self.last_success is None or self.last_success:
            return self.chat + (("system", self.prompt),), ()
        return self.chat, self.errors + (("system", self.prompt),)


@dataclass(frozen=True)
class Outcome:
    """What one reply did: the next state, the feedback, LangSuitE's success flag, what was read."""

    turn: Turn
    feedback: str
    success: bool
    kind: str  # opening-accepted | opening-refused | thought | multiple | none | stop | action
    action: Act | None = None
    reading: Reading | None = None
    template: tuple[str, str] = ("", "")
    notes: tuple[str, ...] = field(default=())

    @property
    def done(self) -> bool:
        return self.turn.stopped or self.turn.crashed is not None


def step(task: Task, turn: Turn, reply: str) -> Outcome:
    """One reply: read it, act, and build the next prompt."""
    chat, errors = turn._context()
    world = turn.world
    stopped = False
    action, reading, template, crashed = None, None, ("", ""), None
    if not turn.started:
        if accepts_opening(reply):
            started, kind, success = True, "opening-accepted", True
            view = observe.look_around(world.scene) if task.engine.high_level else task.engine.observation(world)
            feedback = task.texts.start(task.goal_text, view)
        else:
            started, kind, success = False, "opening-refused", True
            feedback = task.texts.intro_again()
    else:
        started = True
        reading = read_reply(reply, world.scene.names.ids)
        if reading.status == "thought":
            kind, success, feedback = "thought", True, "OK."
        elif reading.status in ("multiple", "none"):
            kind, success = reading.status, False
            key = "failure.multipleActions" if kind == "multiple" else "failure.actionNotFound"
            feedback, template = task.texts.invalid(key), ("InvalidAction", key)
        elif reading.action == "Stop":
            action, kind, success, stopped = Act("Stop"), "stop", True, True
            feedback = task.texts.stop()
        else:
            kind = "action"
            action = Act(reading.action, reading.object_id)
            try:
                result = task.engine.execute(world, action)
            except GridError as exc:
                crashed = f"LangSuitE's goto would raise IndexError here ({exc})"
                feedback, success = "", False
            else:
                world, success, feedback, template = result.state, result.success, result.feedback, result.template
    if success:
        chat = chat + (("assistant", reply),)
        errors = ()
    else:
        errors = errors + (("assistant", reply),)
    timesteps = turn.timesteps + 1
    after = replace(turn, world=world, prompt=feedback, started=started, chat=chat, errors=errors,
                    last_success=success, timesteps=timesteps,
                    stopped=stopped or timesteps >= task.step_limit, crashed=crashed)
    return Outcome(after, feedback, success, kind, action, reading, template)
