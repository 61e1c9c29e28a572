"""Read a live minigrid environment into a frozen :class:`Instance` (and back into a state).

Objects are numbered in the row-major order of the grid (the order of the Structured
description), then the objects inside boxes, then an object carried from the start. The mission
tree is read from ``env.instrs`` after reset, with each description's resolved objects
(``obj_set``) and positions (``obj_poss``), so relative locations ("on your left") and
rejection-sampled choices are taken from minigrid itself rather than recomputed.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from plancheck.domains.babyai.instance import CLOSED, LOCKED, OPEN, Door, Instance, State, Thing
from plancheck.domains.babyai.levels import reset_env
from plancheck.domains.babyai.mission import (
    NONE,
    Cell,
    Desc,
    GoTo,
    Mission,
    Node,
    Open,
    Pickup,
    Progress,
    PutNext,
    Seq,
    door_ref,
)
from plancheck.errors import InstanceNotFoundError

MOVABLE = ("key", "ball", "box")


@lru_cache(maxsize=256)
def load_instance(env_id: str, seed: int) -> Instance:
    """The instance minigrid generates for ``env_id`` reset with ``seed`` (cached)."""
    return extract(reset_env(env_id, seed), env_id, seed)


def _cell(value: Any) -> Cell:
    return (int(value[0]), int(value[1]))


def extract(env: Any, env_id: str, seed: int) -> Instance:
    """Read a freshly reset minigrid environment."""
    u = env.unwrapped
    grid = u.grid
    walls: set[Cell] = set()
    doors: list[Door] = []
    door_states: list[int] = []
    things: list[Thing] = []
    positions: list[Cell | None] = []
    refs: dict[int, int] = {}  # id(minigrid object) -> reference
    boxes: list[tuple[int, Any]] = []
    for index, obj in enumerate(grid.grid):
        if obj is None:
            continue
        cell = (index % grid.width, index // grid.width)
        if obj.type == "wall":
            walls.add(cell)
        elif obj.type == "door":
            refs[id(obj)] = door_ref(len(doors))
            doors.append(Door(cell, obj.color))
            door_states.append(LOCKED if obj.is_locked else OPEN if obj.is_open else CLOSED)
        elif obj.type in MOVABLE:
            refs[id(obj)] = len(things)
            things.append(Thing(obj.type, obj.color))
            positions.append(cell)
            if obj.type == "box" and obj.contains is not None:
                boxes.append((len(things) - 1, obj))
        else:
            raise InstanceNotFoundError(f"{env_id}: plancheck does not model minigrid {obj.type!r} cells")
    while boxes:  # contents of boxes (a box may hold a box)
        box_index, box = boxes.pop(0)
        inner = box.contains
        refs[id(inner)] = len(things)
        things.append(Thing(inner.type, inner.color))
        positions.append(None)
        things[box_index] = Thing(box.type, box.color, len(things) - 1)
        if inner.type == "box" and inner.contains is not None:
            boxes.append((len(things) - 1, inner))
    carrying, held_at = NONE, None
    if u.carrying is not None:
        if id(u.carrying) not in refs:
            refs[id(u.carrying)] = len(things)
            things.append(Thing(u.carrying.type, u.carrying.color))
            positions.append(None)
        carrying = refs[id(u.carrying)]
        cur = getattr(u.carrying, "cur_pos", None)
        held_at = None if cur is None or tuple(int(v) for v in cur) == (-1, -1) else _cell(cur)
    descs: list[Desc] = []
    poss: list[tuple[Cell, ...]] = []
    counters = {"node": 0, "slot": 0}

    def desc(obj_desc: Any) -> int:
        try:
            targets = tuple(refs[id(o)] for o in obj_desc.obj_set)
        except KeyError:
            raise InstanceNotFoundError(f"{env_id} seed {seed}: the mission names an object that is not "
                                        "on the grid") from None
        descs.append(Desc(obj_desc.type, obj_desc.color, obj_desc.loc, targets))
        poss.append(tuple(sorted(_cell(p) for p in obj_desc.obj_poss)))
        return len(descs) - 1

    def slot() -> int:
        counters["slot"] += 1
        return counters["slot"] - 1

    def node(instr: Any) -> Node:
        kind = type(instr).__name__
        strict = bool(getattr(instr, "strict", False))
        if kind in ("BeforeInstr", "AfterInstr", "AndInstr"):
            number = counters["node"]
            counters["node"] += 1
            op = {"BeforeInstr": "before", "AfterInstr": "after", "AndInstr": "and"}[kind]
            a = node(instr.instr_a)
            return Seq(op, a, node(instr.instr_b), number, strict)
        if kind == "GoToInstr":
            return GoTo(desc(instr.desc))
        if kind == "OpenInstr":
            return Open(desc(instr.desc), strict)
        if kind == "PickupInstr":
            return Pickup(desc(instr.desc), slot(), strict)
        if kind == "PutNextInstr":
            move = desc(instr.desc_move)
            return PutNext(move, desc(instr.desc_fixed), slot(), strict)
        raise InstanceNotFoundError(f"{env_id}: unsupported instruction {kind}")

    root = node(u.instrs)
    mission = Mission(str(u.mission), root, tuple(descs), counters["node"], counters["slot"])
    progress = Progress(tuple(poss), (0,) * (2 * mission.nodes), (NONE,) * mission.slots)
    start = State(_cell(u.agent_pos), int(u.agent_dir), carrying, tuple(positions), tuple(door_states),
                  progress, held_at)
    return Instance(env_id, seed, grid.width, grid.height, int(u.room_size), int(u.num_rows), int(u.num_cols),
                    frozenset(walls), tuple(doors), tuple(things), mission, start, int(u.max_steps))


def observe(env: Any, instance: Instance) -> tuple[Cell, int, tuple, tuple[int, ...], tuple]:
    """The comparable part of a live environment's state, in the instance's numbering:
    (agent cell, direction, carried object's (type, color) or None, door states, object (type, color, cell)
    multiset). Objects are compared by type, colour and cell since minigrid's identities are not ours."""
    u = env.unwrapped
    doors = []
    objects = []
    for index, obj in enumerate(u.grid.grid):
        if obj is None or obj.type == "wall":
            continue
        cell = (index % u.grid.width, index // u.grid.width)
        if obj.type == "door":
            doors.append(LOCKED if obj.is_locked else OPEN if obj.is_open else CLOSED)
        else:
            objects.append((obj.type, obj.color, cell))
    carried = None if u.carrying is None else (u.carrying.type, u.carrying.color)
    return _cell(u.agent_pos), int(u.agent_dir), carried, tuple(doors), tuple(sorted(objects))
