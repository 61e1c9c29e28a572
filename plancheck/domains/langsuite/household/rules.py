"""A Household episode as LangSuitE runs it (``alfred_task.py``, ``alfred_agent.py``): conversation, physics, goal.

One :class:`Task` per task and setting; :func:`step` takes the conversation state and the model's
reply and returns the next state and what happened (pure).

* **Conversation** (``AlfredAgentReact``). Timestep 1 answers the opening message (refused when it
  holds ``not`` or ``don't``: the opening comes again, without its example and with the angle
  unfloored); on acceptance LangSuitE sends ``Task: ...\\nObs: <look-around>\\nWhat is your next step?
  Let's think before act.`` at both levels. Later replies are cut into thought and act lines as in
  Rearrangement; an act holding "feedback:" or "obs:" is refused, else the act is scanned with the
  ALFRED expression and **the first action found is taken** (several are not refused). No act:
  ``OK.``. ``stop`` answers ``You stopped the game.`` and ends the episode.
* **Context** (*double-prompt*). Every prompt is put in the history twice (once by ``step``, once by
  ``fetch_prompt_response``), except that after a failed step the first copy goes to an error cache
  that is sent once and dropped at the next success; the second copy stays.
* **Physics and goal.** After each action LangSuitE computes the goal (:mod:`goals`: ``s`` of ``ts``),
  and only then updates the clean / heat / cool registries (not after the opening reply), so an
  effect counts from the next step on. The episode ends at ``stop`` or after 60 timesteps; its result
  is the last step's.
* **Crashes** (LangSuitE's run raises and ends without a result): ``heat``, ``cool``, ``clean``
  (*registry-crash*), ``put`` of an object holding others, and any action whose template the file
  lacks (``goto`` and ``inspect`` at the low level, ``toggle_off`` of a non-toggleable object): its empty
  feedback becomes an empty prompt, and the agent then parses ``None`` (*empty-prompt-crash*).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property

from plancheck.domains.langsuite.engine import observe
from plancheck.domains.langsuite.engine.actions import ALFRED, Act, Engine, WorldState
from plancheck.domains.langsuite.engine.agent import Pose
from plancheck.domains.langsuite.engine.goto import GridError
from plancheck.domains.langsuite.engine.manipulate import HOUSEHOLD_HANDLERS
from plancheck.domains.langsuite.engine.reply import AlfredReading, accepts_opening, read_alfred
from plancheck.domains.langsuite.engine.scene import Scene, build_scene
from plancheck.domains.langsuite.household.goals import Progress, Registries, after_step, progress
from plancheck.domains.langsuite.household.instance import HouseholdTask
from plancheck.domains.langsuite.household.prompts import STEP_LIMIT, Texts

Message = tuple[str, str]


@dataclass(frozen=True)
class Task:
    """One Household task in one setting (``low`` or ``high``)."""

    task: HouseholdTask
    level: str = "low"
    step_limit: int = STEP_LIMIT

    @cached_property
    def texts(self) -> Texts:
        return Texts(self.level)

    @cached_property
    def engine(self) -> Engine:
        return Engine(self.texts.config, self.texts.templates, high_level=self.level == "high", profile=ALFRED,
                      handlers=HOUSEHOLD_HANDLERS)

    @cached_property
    def scene(self) -> Scene:
        return build_scene(self.task.world_data, self.task.id, boxes="alfred", floor_parents=True)

    @cached_property
    def start_pose(self) -> Pose:
        x, z, rotation = self.task.start
        return Pose.start(x, z, rotation)

    def initial(self) -> Turn:
        return Turn(WorldState(self.scene, self.start_pose), prompt=self.texts.intro())

    def progress(self, world: WorldState, registries: Registries) -> Progress:
        return progress(self.task.pddl_params, self.task.task_type, world.scene, world.inventory, registries,
                        self.engine.observation(world))


@dataclass(frozen=True)
class Turn:
    """The conversation state before the next reply."""

    world: WorldState
    prompt: str
    started: bool = False
    chat: tuple[Message, ...] = ()
    errors: tuple[Message, ...] = ()
    last_success: bool | None = None
    registries: Registries = field(default_factory=Registries)
    goal: Progress | None = None  # the goal as LangSuitE last computed it
    timesteps: int = 0
    stopped: bool = False
    crashed: str | None = None

    def _context(self) -> tuple[tuple[Message, ...], tuple[Message, ...]]:
        if self.last_success is None or self.last_success:
            return self.chat + (("system", self.prompt),), ()
        return self.chat, self.errors + (("system", self.prompt),)

    def messages(self) -> list[dict[str, str]]:
        """The chat LangSuitE sends for the next reply."""
        chat, errors = self._context()
        return [{"role": r, "content": c} for r, c in chat + errors]

    @property
    def done(self) -> bool:
        return self.stopped or self.crashed is not None


@dataclass(frozen=True)
class Outcome:
    """What one reply did: the next state, the feedback, LangSuitE's success flag, what was read."""

    turn: Turn
    feedback: str
    success: bool
    kind: str  # opening-accepted | opening-refused | thought | self-feedback | none | stop | action
    action: Act | None = None
    reading: AlfredReading | None = None

    @property
    def done(self) -> bool:
        return self.turn.done


def step(task: Task, turn: Turn, reply: str) -> Outcome:
    """One reply: read it, act, judge the goal, then LangSuitE's physics."""
    chat, errors = turn._context()
    chat = chat + (("system", turn.prompt),)  # the second copy (fetch_prompt_response)
    world, started, stopped, crashed = turn.world, turn.started, False, None
    action, reading = None, None
    if not started:
        if accepts_opening(reply):
            started, kind, success = True, "opening-accepted", True
            feedback = task.texts.start(task.task.description, observe.look_around(world.scene))
        else:
            kind, success, feedback = "opening-refused", True, task.texts.intro_again()
    else:
        reading = read_alfred(reply, world.scene.names.ids)
        if reading.status == "thought":
            kind, success, feedback = "thought", True, "OK."
        elif reading.status in ("self-feedback", "none"):
            kind, success = reading.status, False
            key = "failure.selfFeedback" if kind == "self-feedback" else "failure.actionNotFound"
            feedback = task.texts.invalid(key)
        elif reading.action == "Stop":
            action, kind, success, stopped = Act("Stop"), "stop", True, True
            feedback = task.texts.stop()
        else:
            kind = "action"
            action = Act(reading.action, reading.object_id, reading.receptacle_id)
            try:
                result = task.engine.execute(world, action)
            except GridError as exc:
                crashed, feedback, success = f"LangSuitE's goto would raise IndexError here ({exc})", "", False
            else:
                world, success, feedback = result.state, result.success, result.feedback
                if result.crash:
                    crashed = f"LangSuitE's {action.name} raises {result.crash}"
                elif feedback == "":
                    crashed = (f"LangSuitE's file has no template for this {action.name} outcome: the empty feedback "
                               "becomes an empty prompt and its agent raises AttributeError parsing None")
    if success:
        chat = chat + (("assistant", reply),)
    else:
        errors = errors + (("assistant", reply),)
    timesteps = turn.timesteps + 1
    goal = turn.goal if crashed and not feedback else task.progress(world, turn.registries)
    registries = turn.registries
    if turn.timesteps >= 1 and not crashed:  # the run loop's physics after every step but the first
        scene, registries = after_step(world.scene, registries)
        world = replace(world, scene=scene)
    after = replace(turn, world=world, prompt=feedback, started=started, chat=chat, errors=errors,
                    last_success=success, registries=registries, goal=goal, timesteps=timesteps,
                    stopped=stopped or timesteps >= task.step_limit, crashed=crashed)
    return Outcome(after, feedback, success, kind, action, reading)
