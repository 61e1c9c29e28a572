"""LangSuitE's BabyAI tasks: its action words and their checks, its observation text, its limits.

LangSuitE drives the same minigrid world, but checks each action before passing it on, and a
refused action never reaches minigrid (nothing moves, the mission is not verified) while it still
counts as one of the episode's steps:

* ``move_ahead``: refused when the cell ahead is neither empty nor an open door;
* ``pick_up [obj]`` / ``toggle [obj]``: the object must be named and be what is in front (type, and
  colour if given); pick up needs empty hands; toggle needs a door (a locked one only with its
  key) or a box; ``drop [obj]``: the named object must be the one carried and the cell ahead empty;
* ``stop``: ends the episode; anything that is not exactly one action is refused.

The episode ends at ``stop``, when minigrid reports success, or after LangSuitE's step limit
(:data:`STEP_LIMITS`: 100 in its released code, v1.0.x; 50 on its development branch, ``dev``; the
replies to its opening question count, so usually one "YES" leaves 99 or 49 actions). LangSuitE
never reports success on a toggle (its toggle action returns ``task_success=False``), so an
"open" completed by a toggle is not a LangSuitE success, although minigrid, which keeps verifying
the mission afterwards, may report it again on a later step; both views are scored.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from plancheck.domains.babyai.instance import OPEN, Instance, State, replace_state
from plancheck.domains.babyai.mission import NONE, RUNNING, door_index
from plancheck.domains.babyai.rules import Action, BabyAIRules
from plancheck.domains.babyai.tasks import LANGSUITE_ACTIONS, IGAction
from plancheck.rules import Applied, Outcome, Rejected, Unknown

STEP_LIMITS = {"released": 100, "dev": 50}  # BabyAITask's stop criterion: v1.0.x, and the dev branch
MAX_RESPONSES = STEP_LIMITS["released"]


@dataclass(frozen=True, slots=True)
class IGState:
    """The minigrid state, whether the agent stopped, and whether LangSuitE saw the success."""

    world: State
    stopped: bool = False
    reported: bool = False
    completed: bool = False  # minigrid ended the episode at some step (success or strict failure)


class LangSuitERules:
    """LangSuitE's rules over one instance; satisfies :class:`plancheck.rules.Rules`."""

    stops_at_goal = True
    tail_after_goal_ok = True  # the conversation ends at the stop or the success: later replies are never sent

    def __init__(self, instance: Instance, *, opening_replies: int = 1, limit: int = MAX_RESPONSES):
        self.horizon = limit - opening_replies  # the replies to its opening question count too
        self.world = BabyAIRules(instance)
        self.things = instance.things
        self.doors = instance.doors

    def initial_state(self) -> IGState:
        return IGState(self.world.initial_state())

    def goal_reached(self, state: IGState) -> bool:
        return state.reported or state.stopped

    def step(self, state: IGState, action: IGAction | Unknown) -> Outcome:
        if not isinstance(action, IGAction):
            return Rejected(f"{str(action)!r} is not exactly one LangSuitE action (the step is lost)")
        if action.word == "stop":
            return Applied(IGState(state.world, True, state.reported, state.completed))
        refusal = self._refusal(state.world, action)
        if refusal is not None:
            return Rejected(refusal)  # LangSuitE does not pass it on to minigrid
        minigrid = LANGSUITE_ACTIONS[action.word]
        before = state.world
        if before.progress.result != RUNNING:  # minigrid keeps verifying after a success LangSuitE missed
            before = replace_state(before, progress=dataclasses.replace(before.progress, result=RUNNING))
        outcome = self.world.step(before, minigrid)
        world = outcome.state if outcome.ok or outcome.state is not None else before
        ended = world.progress.result != RUNNING  # LangSuitE takes minigrid's 'terminated' as success
        return Applied(IGState(world, False, ended and minigrid is not Action.toggle, state.completed or ended))

    def _refusal(self, world: State, action: IGAction) -> str | None:
        front = world.front
        thing = self.world.occupant(world, front)
        word = action.word
        if word == "move_ahead":
            if front in self.world.walls or (thing is not None and not (
                    thing < 0 and world.doors[door_index(thing)] == OPEN)):
                return f"move_ahead from {world.pos}: there is an obstacle ahead at {front}"
            return None
        if word in ("turn_left", "turn_right"):
            return None
        if action.kind is None:
            return f"{word}: no object named (LangSuitE needs e.g. '{word} [red ball]')"
        if word == "drop":
            if world.carrying == NONE:
                return "drop: the inventory is empty"
            held = self.things[world.carrying]
            if held.kind != action.kind or (action.color and action.color != held.color):
                return f"drop: the agent holds the {held.name}, not the {_named(action)}"
            if front in self.world.walls or thing is not None:
                return f"drop at {world.pos}: the cell ahead {front} is not free"
            return None
        if front in self.world.walls:
            return f"{word} [{_named(action)}]: a wall is in front"
        if thing is None:
            return f"{word} [{_named(action)}]: nothing in front"
        kind, color = (("door", self.doors[door_index(thing)].color) if thing < 0
                       else (self.things[thing].kind, self.things[thing].color))
        if kind != action.kind or (action.color and action.color != color):
            return f"{word}: the {color} {kind} is in front, not the {_named(action)}"
        if word == "pick_up":
            if thing < 0:
                return "pick_up: a door cannot be picked up"
            if world.carrying != NONE:
                return f"pick_up: already holding the {self.things[world.carrying].name}"
            return None
        if thing < 0 and world.doors[door_index(thing)] == 2:
            held = self.things[world.carrying] if world.carrying != NONE else None
            if held is None or held.kind != "key" or held.color != color:
                return f"toggle: the {color} door is locked and the agent holds no {color} key"
            return None
        if thing >= 0 and kind != "box":
            return f"toggle: a {kind} cannot be toggled"
        return None


def _named(action: IGAction) -> str:
    return " ".join(part for part in (action.color, action.kind) if part)


def observation_of(instance: Instance, state: State) -> str:
    """LangSuitE's text observation of the agent in ``state`` (minigrid's view of a grid built from it)."""
    return observation(_viewer(instance, state))


def _viewer(instance: Instance, state: State) -> Any:
    from minigrid.core.grid import Grid
    from minigrid.core.world_object import Ball, Box, Door, Key, Wall

    make = {"key": Key, "ball": Ball, "box": Box}
    view = _View.of()
    grid = Grid(instance.width, instance.height)
    for x, y in instance.walls:
        grid.set(x, y, Wall())
    for door, status in zip(instance.doors, state.doors):
        grid.set(*door.pos, Door(door.color, is_open=status == OPEN, is_locked=status == 2))
    for thing, cell in zip(instance.things, state.objects):
        if cell is not None:
            grid.set(*cell, make[thing.kind](thing.color))
    view.grid, view.width, view.height = grid, instance.width, instance.height
    view.agent_pos, view.agent_dir = state.pos, state.dir
    view.carrying = make[instance.things[state.carrying].kind](instance.things[state.carrying].color) \
        if state.carrying != NONE else None
    return view


class _View:
    """A bare minigrid environment whose grid and agent are set from outside, to compute what the agent sees."""

    _env: Any = None

    @classmethod
    def of(cls) -> Any:
        if cls._env is None:
            from minigrid.core.mission import MissionSpace
            from minigrid.minigrid_env import MiniGridEnv

            class Bare(MiniGridEnv):
                def _gen_grid(self, width: int, height: int) -> None:  # the grid is set from outside
                    raise NotImplementedError

            cls._env = Bare(mission_space=MissionSpace(mission_func=lambda: ""), grid_size=3, max_steps=1)
        return cls._env


def observation(env: Any) -> str:
    """LangSuitE's text observation of a live minigrid environment (what the agent sees)."""
    u = env.unwrapped
    grid, visible = u.gen_obs_grid()
    size = u.agent_view_size
    forward, right = u.dir_vec, u.right_vec
    top_left = u.agent_pos + forward * (size - 1) - right * (size // 2)
    sides: dict[str, list[str]] = {"left": [], "mid": [], "right": []}
    for j in range(size):
        for i in range(size):
            if not visible[i, j]:
                continue
            x, y = top_left - forward * j + right * i
            if not (0 <= x < u.width and 0 <= y < u.height):
                continue
            cell = u.grid.get(x, y)
            if cell is not None and cell.type != "wall":
                side = "left" if i < size // 2 else "mid" if i == size // 2 else "right"
                sides[side].append(f"a {cell.color} {cell.type}")
    front = u.grid.get(*u.front_pos)
    text = ("You can see " + ", ".join(sides["mid"]) + " in front of you; " if sides["mid"] else "")
    text += ("You can see " + ",".join(sides["left"]) + " on your left; " if sides["left"] else "")
    text += ("You can see " + ",".join(sides["right"]) + " on your right; " if sides["right"] else "")
    if front is not None and front.type != "wall":
        text += f"\nManipulable object: a {front.color} {front.type};"
    if not text:
        return "You can see nothing ahead."
    return text.strip("; ") + "."
