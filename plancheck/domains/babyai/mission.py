"""The BabyAI instruction tree and a pure version of minigrid's mission verifier.

minigrid checks the mission after every step (``RoomGridLevel.step`` -> ``instrs.verify``). Its
verifier keeps state in the instruction objects; here that state is explicit data
(:class:`Progress`) and :func:`verify` is a pure function that reproduces minigrid exactly, quirks
included:

* A description's target positions (``obj_poss``) are fixed at reset and refreshed only after a
  ``drop`` action (successful or not), so a picked-up target keeps its old position until then.
* ``PickupInstr`` / ``PutNextInstr`` remember what was carried when they were last verified
  (``preCarrying``, None at reset). A leaf is verified only while its combinator lets it run, so
  the second part of "A, then B" starts from None when A completes.
* "A, then B" verifies B in the very step A succeeds; "A and B" verifies both every step until each
  succeeds and ignores failures; strict leaves (debug levels) fail on a wrong door or pickup.

References to things are ints: objects are 0, 1, ... and door ``d`` is ``-(d + 1)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

Cell = tuple[int, int]

NONE = -1  # "carrying nothing" in preCarrying slots
RUNNING, SUCCESS, FAILURE = 0, 1, 2
PENDING = 0  # a combinator's a_done / b_done before success or failure

PICKUP, DROP, TOGGLE = 3, 4, 5  # minigrid action numbers used by the verifier


def door_ref(index: int) -> int:
    return -(index + 1)


def door_index(ref: int) -> int:
    return -ref - 1


@dataclass(frozen=True, slots=True)
class Desc:
    """An object description and the things it resolved to at reset (minigrid's ``obj_set``)."""

    kind: str | None
    color: str | None
    loc: str | None
    targets: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {"type": self.kind, "color": self.color, "loc": self.loc, "targets": list(self.targets)}


@dataclass(frozen=True, slots=True)
class GoTo:
    desc: int


@dataclass(frozen=True, slots=True)
class Open:
    desc: int
    strict: bool = False


@dataclass(frozen=True, slots=True)
class Pickup:
    desc: int
    slot: int
    strict: bool = False


@dataclass(frozen=True, slots=True)
class PutNext:
    move: int
    fixed: int
    slot: int
    strict: bool = False


@dataclass(frozen=True, slots=True)
class Seq:
    """``before`` ("A, then B"), ``after`` ("A after you B": B first) or ``and`` (any order)."""

    kind: str
    a: Node
    b: Node
    node: int
    strict: bool = False


Node = GoTo | Open | Pickup | PutNext | Seq
LEAVES = (GoTo, Open, Pickup, PutNext)


@dataclass(frozen=True, slots=True)
class Mission:
    """The instruction tree, its descriptions, and the sizes of its progress record."""

    text: str
    root: Node
    descs: tuple[Desc, ...]
    nodes: int
    slots: int


@dataclass(frozen=True, slots=True)
class Progress:
    """minigrid's verifier state: target positions per description, a_done/b_done per combinator,
    preCarrying per Pickup/PutNext leaf, and the episode result (RUNNING, SUCCESS or FAILURE)."""

    poss: tuple[tuple[Cell, ...], ...]
    done: tuple[int, ...]
    pre: tuple[int, ...]
    result: int = RUNNING


@dataclass(frozen=True, slots=True)
class StepFacts:
    """What the verifier sees after the world has stepped."""

    action: int
    front: Cell
    front_ref: int | None  # the thing in the front cell (None: empty or wall)
    front_door_open: bool
    carrying: int
    cur_pos: Any  # callable ref -> minigrid's cur_pos of an object (for PutNext)


def verify(mission: Mission, progress: Progress, after: StepFacts, located: Any) -> Progress:
    """The verifier's state after one step (``located(ref)`` gives a thing's cell on the grid or None).

    Mirrors ``RoomGridLevel.step``: on a drop, every description's positions are refreshed first;
    then the tree is verified and a success or failure ends the episode.
    """
    if progress.result != RUNNING:
        return progress
    poss = progress.poss
    if after.action == DROP:
        poss = tuple(tuple(sorted(c for c in map(located, d.targets) if c is not None)) for d in mission.descs)
    run = _Run(mission.descs, after, poss, list(progress.done), list(progress.pre))
    status = run.verify(mission.root)
    result = SUCCESS if status == SUCCESS else FAILURE if status == FAILURE else RUNNING
    return Progress(poss, tuple(run.done), tuple(run.pre), result)


@dataclass(slots=True)
class _Run:
    """One verification pass: the step's facts and the progress record being updated."""

    descs: tuple[Desc, ...]
    after: StepFacts
    poss: tuple[tuple[Cell, ...], ...]
    done: list[int]
    pre: list[int]

    def verify(self, node: Node) -> int:
        after = self.after
        if isinstance(node, GoTo):
            return SUCCESS if after.front in self.poss[node.desc] else RUNNING
        if isinstance(node, Seq):
            return self.verify_seq(node)
        if isinstance(node, Open):
            if after.action != TOGGLE:
                return RUNNING
            if after.front_door_open and after.front_ref in self.descs[node.desc].targets:
                return SUCCESS
            if node.strict and after.front_ref is not None and after.front_ref < 0:
                return FAILURE
            return RUNNING
        before = self.pre[node.slot]
        self.pre[node.slot] = after.carrying
        if isinstance(node, Pickup):
            if after.action != PICKUP:
                return RUNNING
            if before == NONE and after.carrying in self.descs[node.desc].targets:
                return SUCCESS
            return FAILURE if node.strict and after.carrying != NONE else RUNNING
        if node.strict and after.action == PICKUP and after.carrying != NONE:
            return FAILURE
        if after.action != DROP or before == NONE or before not in self.descs[node.move].targets:
            return RUNNING
        x, y = after.cur_pos(before)
        return SUCCESS if any(abs(x - u) + abs(y - v) == 1 for u, v in self.poss[node.fixed]) else RUNNING

    def verify_seq(self, node: Seq) -> int:
        done = self.done
        ia, ib = 2 * node.node, 2 * node.node + 1
        if node.kind == "and":
            if done[ia] != SUCCESS:
                done[ia] = self.verify(node.a)
            if done[ib] != SUCCESS:
                done[ib] = self.verify(node.b)
            return SUCCESS if done[ia] == SUCCESS and done[ib] == SUCCESS else RUNNING
        # "before" runs a then b; "after" runs b then a: one machine with the roles swapped
        first, second, i1, i2 = (node.a, node.b, ia, ib) if node.kind == "before" else (node.b, node.a, ib, ia)
        if done[i1] != SUCCESS:
            done[i1] = self.verify(first)
            if done[i1] == FAILURE:
                return FAILURE
            if done[i1] != SUCCESS:
                if node.strict and self.verify(second) == SUCCESS:
                    return FAILURE
                return RUNNING
        done[i2] = self.verify(second)
        return done[i2]


# -- JSON ------------------------------------------------------------------------------------------

def node_to_json(node: Node) -> dict[str, Any]:
    if isinstance(node, Seq):
        return {"op": node.kind, "a": node_to_json(node.a), "b": node_to_json(node.b), "node": node.node,
                "strict": node.strict}
    if isinstance(node, GoTo):
        return {"op": "goto", "desc": node.desc}
    if isinstance(node, Open):
        return {"op": "open", "desc": node.desc, "strict": node.strict}
    if isinstance(node, Pickup):
        return {"op": "pickup", "desc": node.desc, "slot": node.slot, "strict": node.strict}
    return {"op": "putnext", "move": node.move, "fixed": node.fixed, "slot": node.slot, "strict": node.strict}


def node_from_json(data: dict[str, Any]) -> Node:
    op = data["op"]
    if op in ("before", "after", "and"):
        return Seq(op, node_from_json(data["a"]), node_from_json(data["b"]), int(data["node"]), bool(data["strict"]))
    if op == "goto":
        return GoTo(int(data["desc"]))
    if op == "open":
        return Open(int(data["desc"]), bool(data["strict"]))
    if op == "pickup":
        return Pickup(int(data["desc"]), int(data["slot"]), bool(data["strict"]))
    if op == "putnext":
        return PutNext(int(data["move"]), int(data["fixed"]), int(data["slot"]), bool(data["strict"]))
    raise ValueError(f"unknown instruction {op!r}")


def pending_leaves(node: Node, done: tuple[int, ...], found: list,
                   before: set[tuple[int, int]] | None = None) -> list[int]:
    """Append the leaves not yet completed (by the combinators' ``done`` record) to ``found``;
    return their indices there, and add to ``before`` which must complete before which."""
    if not isinstance(node, Seq):
        found.append(node)
        return [len(found) - 1]
    a = pending_leaves(node.a, done, found, before) if done[2 * node.node] != SUCCESS else []
    b = pending_leaves(node.b, done, found, before) if done[2 * node.node + 1] != SUCCESS else []
    if before is not None and node.kind == "before":
        before.update((i, j) for i in a for j in b)
    elif before is not None and node.kind == "after":
        before.update((j, i) for i in a for j in b)
    return a + b


def descs_of(leaf: Node) -> tuple[int, ...]:
    """The descriptions a leaf instruction names."""
    return (leaf.move, leaf.fixed) if isinstance(leaf, PutNext) else (leaf.desc,)


def leaves(node: Node) -> list[Node]:
    """The leaf instructions in left-to-right order."""
    return leaves(node.a) + leaves(node.b) if isinstance(node, Seq) else [node]
