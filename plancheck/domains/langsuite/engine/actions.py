"""The actions of LangSuitE's engine and their feedback (``dev:langsuite/actions/simple_actions.py``).

:func:`execute` is pure: a :class:`WorldState` and an :class:`Act` give the next state, whether
LangSuitE calls the action a success, and the feedback text built from the task's templates
(``Feedback: ...\\nObs: ...``). What each action checks, in LangSuitE's order:

* ``MoveAhead``: the segment to ``position + 0.25 * view`` must meet no wall and no root object's
  box (touching counts); a blocked move leaves the agent where it is.
* ``PickUp [o]``: ``o`` exists in the world, is among the observed objects (distance is never
  checked: the check is commented out in LangSuitE), is pickupable, and the inventory has room.
* ``Drop``: drops the first held object, whatever object was named, at
  ``position + 0.5 * (view turned 45 degrees clockwise)``; it becomes a root again.
* ``Open`` / ``Close [o]``: ``o`` exists, is observed and openable; no "already open" check.
* ``Goto [o]``: ``o`` exists (visibility is not checked); the grid planner of :mod:`goto` moves
  and turns the agent.

A template domain the task's file lacks gives empty feedback (``goto`` in the low-level file,
``move_ahead`` in the high-level one): the action still happens.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

from plancheck.domains.langsuite.engine import observe
from plancheck.domains.langsuite.engine.agent import AgentConfig, Pose
from plancheck.domains.langsuite.engine.geometry import segment_hits_rect, segments_meet, translate
from plancheck.domains.langsuite.engine.goto import GridError, heading, plan_goto
from plancheck.domains.langsuite.engine.scene import Scene
from plancheck.domains.langsuite.engine.templates import Templates

ACTION_NAMES = ("MoveAhead", "TurnLeft", "TurnRight", "PickUp", "Drop", "Open", "Close", "Goto", "Stop")
TURN_DEGREES = 90
DROP_DISTANCE = 0.5


@dataclass(frozen=True, slots=True)
class Act:
    """One action as the agent passes it on: the action class and the resolved object id (if any);
    ``receptacle_id`` for the two-object actions (``put``, ``heat``, ``cool``, ``clean``)."""

    name: str
    object_id: str | None = None
    receptacle_id: str | None = None

    def __str__(self) -> str:
        if self.receptacle_id is not None:
            return f"{self.name} [{self.object_id}, {self.receptacle_id}]"
        return self.name if self.object_id is None else f"{self.name} [{self.object_id}]"


@dataclass(frozen=True, slots=True)
class WorldState:
    """The scene as it is now, the agent's pose and what it holds (instances, by node number)."""

    scene: Scene
    pose: Pose
    inventory: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Result:
    """What an action did: the next state, LangSuitE's success flag, the feedback, the template used.

    ``crash`` names the exception LangSuitE's code raises in this action (its run ends there without
    a result); ``state`` is then the world as the action left it before raising.
    """

    state: WorldState
    success: bool
    feedback: str
    template: tuple[str, str]
    crash: str | None = None


@dataclass(frozen=True)
class Profile:
    """What differs between the tasks' environments (``rearrange_env``, ``alfred_env``, ``iqa_env``):
    the observed set, the observation text and the text after ``open``."""

    name: str
    observed: Callable[..., dict[str, int]]  # (scene, pose, config) -> object id -> instance
    describe: Callable[..., str]  # (scene, pose, config, high_level, seen) -> text
    opened: Callable[..., str]  # (scene, object id) -> text


REARRANGEMENT = Profile("rearrangement", observe.observed, observe.observation, observe.opened_object)
ALFRED = Profile("alfred", observe.observed, observe.alfred_observation, observe.alfred_opened_object)


@dataclass(frozen=True)
class Engine:
    """The per-task settings the actions need: agent settings, templates, action level, the task's
    environment (``profile``) and its actions (``handlers``: action class name -> handler)."""

    config: AgentConfig
    templates: Templates
    high_level: bool = False
    profile: Profile = REARRANGEMENT
    handlers: Mapping[str, Callable[..., Result]] | None = None
    _seen: dict = field(default_factory=dict, compare=False, repr=False)  # (scene id, pose) -> (scene, seen)

    def observation(self, state: WorldState) -> str:
        return self.profile.describe(state.scene, state.pose, self.config, self.high_level, self._observed(state))

    def execute(self, state: WorldState, act: Act) -> Result:
        """Run one action (never ``Stop``, which the agent handles)."""
        handler = (self.handlers if self.handlers is not None else HANDLERS).get(act.name)
        if handler is None:
            return Result(state, False, f"Action {act.name} not found in environment.", ("", ""))
        return handler(self, state, act)

    def _say(self, state: WorldState, success: bool, domain: str, key: str, **values) -> Result:
        return Result(state, success, self.templates.build(domain, key, **values), (domain, key))

    def _observed(self, state: WorldState) -> dict[str, int]:
        """The observed objects, remembered for the last few (scene, pose) pairs (scenes are immutable)."""
        key = (id(state.scene), state.pose)
        hit = self._seen.get(key)
        if hit is not None and hit[0] is state.scene:
            return hit[1]
        if len(self._seen) > 64:
            self._seen.clear()
        seen = self.profile.observed(state.scene, state.pose, self.config)
        self._seen[key] = (state.scene, seen)
        return seen


def _move_ahead(engine: Engine, state: WorldState, act: Act) -> Result:
    distance = 1 * engine.config.step_size
    start = (state.pose.x, state.pose.y)
    dest = state.pose.ahead(distance)
    scene = state.scene
    blocked = any(segments_meet(start, dest, a, b) for a, b in scene.room.walls()) or any(
        not scene.nodes[r].id.startswith("Floor") and segment_hits_rect(start, dest, scene.nodes[r].rect)
        for r in scene.roots)
    if blocked:
        return engine._say(state, False, "MoveAhead", "failure.isBlocked", observation=engine.observation(state))
    after = replace(state, pose=state.pose.moved_to(*dest))
    return engine._say(after, True, "MoveAhead", "success.default", distance=distance,
                       observation=engine.observation(after))


def _turn(engine: Engine, state: WorldState, act: Act) -> Result:
    degree = TURN_DEGREES
    after = replace(state, pose=state.pose.turned(-degree if act.name == "TurnLeft" else degree))
    return engine._say(after, True, act.name, "success.default", degree=degree, observation=engine.observation(after))


def _exists(engine: Engine, state: WorldState, act: Act) -> Result | None:
    """The checks every object action starts with; None when they pass."""
    if act.object_id is None:
        return engine._say(state, False, "InvalidAction", "failure.objectNotProvide",
                           observation=engine.observation(state))
    if state.scene.find(act.object_id) is None:
        if act.name == "Open":  # LangSuitE passes no object here
            return engine._say(state, False, "InvalidAction", "failure.objectNotExist",
                               observation=engine.observation(state))
        if act.name == "Close":  # ... and neither object nor observation here
            return engine._say(state, False, "InvalidAction", "failure.objectNotExist", object=act.object_id)
        return engine._say(state, False, "InvalidAction", "failure.objectNotExist", object=act.object_id,
                           observation=engine.observation(state))
    return None


def _in_view(engine: Engine, state: WorldState, act: Act) -> Result | None:
    if act.object_id in engine._observed(state):
        return None
    return engine._say(state, False, "InvalidAction", "failure.objectNotInView",
                       max_view_steps=engine.config.max_view_steps, object=state.scene.names[act.object_id],
                       observation=engine.observation(state))


def _pick_up(engine: Engine, state: WorldState, act: Act) -> Result:
    refusal = _exists(engine, state, act) or _in_view(engine, state, act)
    if refusal is not None:
        return refusal
    scene, name = state.scene, state.scene.names[act.object_id]
    if not scene.thing(act.object_id).pickupable:
        return engine._say(state, False, "PickUp", "failure.notPickupable", object=name,
                           observation=engine.observation(state))
    if len(state.inventory) >= engine.config.inventory_capacity:
        return engine._say(state, False, "PickUp", "failure.intentoryFilled", object=name,
                           observation=observe.held(scene, state.inventory))
    scene, node = scene.without(act.object_id)
    after = WorldState(scene, state.pose, state.inventory + (node,))
    return engine._say(after, True, "PickUp", "success.default", object=name, observation=engine.observation(after),
                       inventory=observe.inventory_text(after.scene, after.inventory))


def _drop(engine: Engine, state: WorldState, act: Act) -> Result:
    if not state.inventory:
        return engine._say(state, False, "Drop", "failure.emptyInventory", observation=engine.observation(state))
    node = state.inventory[0]
    direction = state.pose.turned(45)
    dest = (state.pose.x + direction.vx * DROP_DISTANCE, state.pose.y + direction.vy * DROP_DISTANCE)
    thing = state.scene.nodes[node]
    dx, dy = dest[0] - thing.position[0], dest[1] - thing.position[1]
    scene = state.scene.with_node(node, replace(thing, rect=translate(thing.rect, dx, dy), position=dest))
    scene = replace(scene, roots=scene.roots + (node,))
    after = WorldState(scene, state.pose, state.inventory[1:])
    return engine._say(after, True, "Drop", "success.default", object=scene.names[thing.id],
                       observation=engine.observation(after), inventory=observe.inventory_text(scene, after.inventory))


def _open_close(engine: Engine, state: WorldState, act: Act) -> Result:
    refusal = _exists(engine, state, act) or _in_view(engine, state, act)
    if refusal is not None:
        return refusal
    node = state.scene.find(act.object_id)
    thing, name = state.scene.nodes[node], state.scene.names[act.object_id]
    opening = act.name == "Open"
    if not thing.openable:
        key = "failure.notOpenable" if opening else "failure.notCloseable"
        return engine._say(state, False, act.name, key, object=name, observation=engine.observation(state))
    openness = 1.0 if opening else 0.0
    after = replace(state, scene=state.scene.with_node(node, replace(thing, openness=openness, is_open=opening)))
    if opening:
        return engine._say(after, True, "Open", "success.default", object=name, openness=openness,
                           observation=engine.profile.opened(after.scene, act.object_id))
    return engine._say(after, True, "Close", "success.default", object=name, observation=engine.observation(after))


def goto_boxes(scene: Scene):
    """The boxes ``goto`` marks on its grid: every non-Floor root and every descendant of any root."""
    for root in scene.roots:
        if "Floor" not in scene.nodes[root].id:
            yield scene.nodes[root].rect
        for child in scene.descendants(root):
            yield scene.nodes[child].rect


def _goto(engine: Engine, state: WorldState, act: Act) -> Result:
    refusal = _exists(engine, state, act)
    if refusal is not None:
        return refusal
    scene, pose = state.scene, state.pose
    name = scene.names[act.object_id]
    target = scene.thing(act.object_id).position
    plan = plan_goto(scene.room.bounds, engine.config.step_size, goto_boxes(scene), (pose.x, pose.y),
                     heading(pose.vx, pose.vy), target)
    if plan is False:
        return engine._say(state, False, "GoTo", "failure.alreadyAtTarget", object=name,
                           observation=engine.observation(state))
    if plan is None:
        return engine._say(state, False, "GoTo", "failure.default", object=name, observation=engine.observation(state))
    moved = pose.moved_to(*plan.end)
    for turn in plan.turns:
        moved = moved.turned(TURN_DEGREES if turn == "TurnRight" else -TURN_DEGREES)
    after = replace(state, pose=moved)
    return engine._say(after, True, "GoTo", "success.default", object=name, observation=engine.observation(after))


HANDLERS = {"MoveAhead": _move_ahead, "TurnLeft": _turn, "TurnRight": _turn, "PickUp": _pick_up, "Drop": _drop,
            "Open": _open_close, "Close": _open_close, "Goto": _goto}

__all__ = ["ACTION_NAMES", "ALFRED", "HANDLERS", "REARRANGEMENT", "Act", "Engine", "GridError", "Profile", "Result",
           "WorldState", "goto_boxes"]
