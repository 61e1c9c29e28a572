"""minigrid's rules as one pure step function, with reasons for every action that has no effect.

``step`` reproduces ``MiniGridEnv.step`` followed by ``RoomGridLevel.step`` (drop -> refresh the
mission's target positions -> verify the mission). An action that changes nothing in the world
(forward into a wall, a closed door or an object; pickup with full hands or nothing in front;
drop onto a non-empty cell; toggle of a locked door without its key, of a key or ball, of nothing)
is :class:`~plancheck.rules.Rejected` with the reason; minigrid still counts the step and still
verifies the mission, so the rejection carries the state with the verifier's progress.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum

from plancheck.domains.babyai.instance import CLOSED, DIRECTIONS, LOCKED, OPEN, Instance, State, replace_state
from plancheck.domains.babyai.mission import NONE, RUNNING, SUCCESS, Cell, StepFacts, door_index, door_ref, verify
from plancheck.rules import Applied, Outcome, Rejected, Unknown


class Action(IntEnum):
    """minigrid's actions, with their numbers."""

    left = 0
    right = 1
    forward = 2
    pickup = 3
    drop = 4
    toggle = 5
    done = 6

    def __str__(self) -> str:
        return self.name


PLAN_ACTIONS = (Action.left, Action.right, Action.forward, Action.pickup, Action.drop, Action.toggle)
ACTION_NAMES: dict[str, Action] = {a.name: a for a in Action}


def at(cell: Cell, direction: int) -> str:
    return f"{cell} facing {DIRECTIONS[direction]}"


class BabyAIRules:
    """The rules of one instance; satisfies :class:`plancheck.rules.SearchRules`."""

    stops_at_goal = True

    def __init__(self, instance: Instance):
        self.instance = instance
        self.horizon = instance.max_steps
        self.walls = instance.walls
        self.door_at = {door.pos: i for i, door in enumerate(instance.doors)}
        self.things = instance.things

    def initial_state(self) -> State:
        return self.instance.start

    def goal_reached(self, state: State) -> bool:
        return state.progress.result == SUCCESS

    def actions(self, state: State) -> Iterable[Action]:
        return PLAN_ACTIONS

    def cost(self, state: State, action: Action) -> float:
        return 1.0

    # -- what is where ------------------------------------------------------------------------------
    def occupant(self, state: State, cell: Cell) -> int | None:
        """The thing in ``cell`` (an object index, or a door reference), None if empty or a wall."""
        door = self.door_at.get(cell)
        if door is not None:
            return door_ref(door)
        try:
            return state.objects.index(cell)
        except ValueError:
            return None

    def name(self, state: State, ref: int) -> str:
        if ref < 0:
            door = self.instance.doors[door_index(ref)]
            return f"the {('open', 'closed', 'locked')[state.doors[door_index(ref)]]} {door.color} door"
        return f"the {self.things[ref].name}"

    def describe(self, state: State) -> str:
        held = "nothing" if state.carrying == NONE else f"the {self.things[state.carrying].name}"
        return f"at {at(state.pos, state.dir)}, carrying {held}"

    # -- the step ----------------------------------------------------------------------------------
    def step(self, state: State, action: Action | Unknown) -> Outcome:
        if state.progress.result != RUNNING:
            return Rejected("the episode has already ended: the mission failed (strict instruction)")
        if not isinstance(action, Action):
            return Rejected(f"{str(action)!r} is not a BabyAI action")
        front = state.front
        thing = self.occupant(state, front)
        reason: str | None = None
        new = state
        if action is Action.left or action is Action.right:
            new = replace_state(state, dir=(state.dir + (1 if action is Action.right else -1)) % 4)
        elif action is Action.forward:
            if front in self.walls:
                reason = f"forward from {at(state.pos, state.dir)} is blocked by a wall at {front}"
            elif thing is not None and not (thing < 0 and state.doors[door_index(thing)] == OPEN):
                reason = f"forward from {at(state.pos, state.dir)} is blocked by {self.name(state, thing)} at {front}"
            else:
                new = replace_state(state, pos=front)
        elif action is Action.pickup:
            if thing is None or thing < 0:
                what = "a wall" if front in self.walls else self.name(state, thing) if thing is not None else "nothing"
                reason = f"pickup at {at(state.pos, state.dir)}: {what} in front at {front} cannot be picked up"
            elif state.carrying != NONE:
                reason = (f"pickup at {at(state.pos, state.dir)}: already carrying the "
                          f"{self.things[state.carrying].name}")
            else:
                objects = list(state.objects)
                objects[thing] = None
                new = replace_state(state, carrying=thing, objects=tuple(objects), held_at=None)
        elif action is Action.drop:
            if state.carrying == NONE:
                reason = f"drop at {at(state.pos, state.dir)}: carrying nothing"
            elif front in self.walls or thing is not None:
                what = "a wall" if thing is None else self.name(state, thing)
                reason = f"drop at {at(state.pos, state.dir)}: the cell in front {front} holds {what}"
            else:
                objects = list(state.objects)
                objects[state.carrying] = front
                new = replace_state(state, carrying=NONE, objects=tuple(objects), held_at=None)
        elif action is Action.toggle:
            new, reason = self._toggle(state, front, thing)
        return self._verified(state, new, action, reason)

    def _toggle(self, state: State, front: Cell, thing: int | None) -> tuple[State, str | None]:
        where = at(state.pos, state.dir)
        if thing is None:
            return state, f"toggle at {where}: {'a wall' if front in self.walls else 'nothing'} in front at {front}"
        if thing < 0:
            index = door_index(thing)
            door = self.instance.doors[index]
            doors = list(state.doors)
            if doors[index] == LOCKED:
                carried = self.things[state.carrying] if state.carrying != NONE else None
                if carried is None or carried.kind != "key" or carried.color != door.color:
                    return state, (f"toggle at {where}: the {door.color} door at {front} is locked and the agent "
                                   f"does not carry a {door.color} key")
                doors[index] = OPEN
            else:
                doors[index] = CLOSED if doors[index] == OPEN else OPEN
            return replace_state(state, doors=tuple(doors)), None
        box = self.things[thing]
        if box.kind != "box":
            return state, f"toggle at {where}: the {box.name} at {front} cannot be toggled"
        objects = list(state.objects)
        objects[thing] = None
        if box.contains is not None:
            objects[box.contains] = front
        return replace_state(state, objects=tuple(objects)), None

    def verify_step(self, new: State, action: Action) -> State:
        """``new`` (the world after ``action``) with the mission verifier's reaction to that step."""
        return self._verified(new, new, action, None).state

    def _verified(self, before: State, new: State, action: Action, reason: str | None) -> Outcome:
        front = new.front
        ref = self.occupant(new, front)
        door_open = ref is not None and ref < 0 and new.doors[door_index(ref)] == OPEN
        after = StepFacts(int(action), front, ref, door_open, new.carrying, lambda obj: self._cur_pos(new, obj))
        progress = verify(self.instance.mission, new.progress, after, lambda r: self._located(new, r))
        if progress != new.progress:
            new = replace_state(new, progress=progress)
        if reason is None:
            return Applied(new)
        return Rejected(reason, state=None if new == before else new)

    def _located(self, state: State, ref: int) -> Cell | None:
        return self.instance.doors[door_index(ref)].pos if ref < 0 else state.objects[ref]

    def _cur_pos(self, state: State, obj: int) -> Cell:
        """minigrid's ``cur_pos`` of an object: its cell, or where it was held from (-1, -1 after a pickup)."""
        cell = state.objects[obj]
        if cell is not None:
            return cell
        return state.held_at if obj == state.carrying and state.held_at is not None else (-1, -1)

