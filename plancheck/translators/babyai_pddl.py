"""BabyAI instances as PDDL: one shared domain, one problem per instance (built with ``pddl``).

The domain models the agent's cell and heading (turns, forward into a free cell or an open
door), walls (cells that are not ``floor``), doors (open, closed, locked; a locked door opens in one
toggle with a key of its colour), keys, balls and boxes (pickup with empty hands, drop into a free
cell, toggling a box replaces it by its contents), and carrying. Every action costs 1.

The mission is a set of ``leaf`` objects, each to be ``done``; ``(after ?l ?p)`` says leaf ``p``
must be done before ``l`` counts ("then", "after you"; "and" adds nothing). A leaf is done by the
action that achieves it while it is active: go to = a zero-cost ``reach-*`` while facing a target
(after at least one real action, since minigrid verifies only after a step); pick up = picking a
target up; open = toggling a target door open; put next = dropping a moved target next to a fixed
target. The optimum of this model is minigrid's except where minigrid's verifier remembers stale
positions or an outdated "carried before" (see :mod:`plancheck.domains.babyai.mission`); the
native search models those too.
"""

from __future__ import annotations

from pddl.action import Action as PAction
from pddl.core import Domain, Problem
from pddl.formatter import domain_to_string, problem_to_string
from pddl.logic import Predicate, constants, variables
from pddl.logic.base import And, ForallCondition, Imply, Not
from pddl.logic.functions import EqualTo, Increase, Metric, NumericFunction, NumericValue
from pddl.requirements import Requirements

from plancheck.domains.babyai.instance import DIR_VEC, DIRECTIONS, LOCKED, OPEN, Instance
from plancheck.domains.babyai.mission import GoTo, Open, Pickup, PutNext, Seq, door_index
from plancheck.domains.babyai.rules import Action

DOMAIN_NAME = "babyai"
TYPES = {"cell": None, "dir": None, "thing": None, "door": None, "leaf": None}

c, c2, here, cf = variables("c c2 here cf", types=["cell"])
d, d2 = variables("d d2", types=["dir"])
o, k, f, b = variables("o k f b", types=["thing"])
dr = variables("dr", types=["door"])[0]
lf, pre = variables("lf pre", types=["leaf"])

AT, FACING = Predicate("at", c), Predicate("facing", d)
NEXT, LEFT_OF, ADJACENT = Predicate("next", c, c2, d), Predicate("left-of", d, d2), Predicate("adjacent", c, c2)
FLOOR, CLEAR = Predicate("floor", c), Predicate("clear", c)
DOOR_AT, OPENED, LOCK = Predicate("door-at", dr, c), Predicate("opened", dr), Predicate("locked", dr)
OBJ_AT, HOLDING, HANDEMPTY = Predicate("obj-at", o, c), Predicate("holding", o), Predicate("handempty")
KEY_FOR, BOX, EMPTY_BOX, INSIDE = (Predicate("key-for", k, dr), Predicate("box", b), Predicate("empty-box", b),
                                   Predicate("inside", o, b))
FRESH, DONE, AFTER = Predicate("fresh"), Predicate("done", lf), Predicate("after", lf, pre)
GOTO_THING, GOTO_DOOR = Predicate("goto-thing", lf, o), Predicate("goto-door", lf, dr)
PICKUP_TARGET, OPEN_TARGET = Predicate("pickup-target", lf, o), Predicate("open-target", lf, dr)
MOVE_TARGET, FIXED_THING, FIXED_DOOR = (Predicate("move-target", lf, o), Predicate("fixed-thing", lf, f),
                                        Predicate("fixed-door", lf, dr))
TOTAL_COST = NumericFunction("total-cost")
PREDICATES = [AT, FACING, NEXT, LEFT_OF, ADJACENT, FLOOR, CLEAR, DOOR_AT, OPENED, LOCK, OBJ_AT, HOLDING, HANDEMPTY,
              KEY_FOR, BOX, EMPTY_BOX, INSIDE, FRESH, DONE, AFTER, GOTO_THING, GOTO_DOOR, PICKUP_TARGET, OPEN_TARGET,
              MOVE_TARGET, FIXED_THING, FIXED_DOOR]


def _cost(amount: int = 1):
    return Increase(TOTAL_COST, NumericValue(amount))


def _facing(cell) -> list:
    """The agent stands on ``here`` heading ``d`` with ``cell`` in front."""
    return [AT(here), FACING(d), NEXT(here, cell, d)]


def _active():
    return And(Not(DONE(lf)), ForallCondition(Imply(AFTER(lf, pre), DONE(pre)), [pre]))


def _with_leaf(name: str, params: list, precondition: list, effect: list, extra: list) -> list[PAction]:
    """The plain action, and its variant that also completes an active leaf (``extra`` conditions)."""
    plain = PAction(name, params, And(*precondition), And(*effect, Not(FRESH), _cost()))
    achieving = PAction(f"{name}-for", [lf] + params, And(*precondition, _active(), *extra),
                        And(*effect, DONE(lf), Not(FRESH), _cost()))
    return [plain, achieving]


def _actions() -> list[PAction]:
    acts = [
        PAction("turn-left", [d, d2], And(FACING(d), LEFT_OF(d2, d)), And(FACING(d2), Not(FACING(d)), Not(FRESH),
                                                                           _cost())),
        PAction("turn-right", [d, d2], And(FACING(d), LEFT_OF(d, d2)), And(FACING(d2), Not(FACING(d)), Not(FRESH),
                                                                            _cost())),
        PAction("forward", [here, c, d], And(*_facing(c), CLEAR(c)), And(AT(c), Not(AT(here)), Not(FRESH), _cost())),
        PAction("forward-door", [here, c, d, dr], And(*_facing(c), DOOR_AT(dr, c), OPENED(dr)),
                And(AT(c), Not(AT(here)), Not(FRESH), _cost())),
        PAction("close", [here, c, d, dr], And(*_facing(c), DOOR_AT(dr, c), OPENED(dr)),
                And(Not(OPENED(dr)), Not(FRESH), _cost())),
        PAction("open-box", [here, c, d, b], And(*_facing(c), OBJ_AT(b, c), BOX(b), EMPTY_BOX(b)),
                And(Not(OBJ_AT(b, c)), CLEAR(c), Not(FRESH), _cost())),
        PAction("open-box-with", [here, c, d, b, o], And(*_facing(c), OBJ_AT(b, c), BOX(b), INSIDE(o, b)),
                And(Not(OBJ_AT(b, c)), OBJ_AT(o, c), Not(FRESH), _cost())),
        PAction("reach-thing", [lf, here, c, d, o], And(*_facing(c), OBJ_AT(o, c), GOTO_THING(lf, o), Not(FRESH),
                                                        _active()), And(DONE(lf), _cost(0))),
        PAction("reach-door", [lf, here, c, d, dr], And(*_facing(c), DOOR_AT(dr, c), GOTO_DOOR(lf, dr), Not(FRESH),
                                                        _active()), And(DONE(lf), _cost(0))),
    ]
    acts += _with_leaf("pickup", [here, c, d, o], [*_facing(c), OBJ_AT(o, c), HANDEMPTY],
                       [HOLDING(o), Not(OBJ_AT(o, c)), Not(HANDEMPTY), CLEAR(c)], [PICKUP_TARGET(lf, o)])
    acts += _with_leaf("open", [here, c, d, dr], [*_facing(c), DOOR_AT(dr, c), Not(OPENED(dr)), Not(LOCK(dr))],
                       [OPENED(dr)], [OPEN_TARGET(lf, dr)])
    acts += _with_leaf("unlock", [here, c, d, dr, k], [*_facing(c), DOOR_AT(dr, c), LOCK(dr), HOLDING(k),
                                                        KEY_FOR(k, dr)],
                       [OPENED(dr), Not(LOCK(dr))], [OPEN_TARGET(lf, dr)])
    drop_pre = [*_facing(c), HOLDING(o), CLEAR(c)]
    drop_eff = [OBJ_AT(o, c), Not(CLEAR(c)), HANDEMPTY, Not(HOLDING(o))]
    acts.append(PAction("drop", [here, c, d, o], And(*drop_pre), And(*drop_eff, Not(FRESH), _cost())))
    acts.append(PAction("drop-next-to-thing", [lf, here, c, d, o, f, cf],
                        And(*drop_pre, _active(), MOVE_TARGET(lf, o), FIXED_THING(lf, f), OBJ_AT(f, cf),
                            ADJACENT(c, cf)),
                        And(*drop_eff, DONE(lf), Not(FRESH), _cost())))
    acts.append(PAction("drop-next-to-door", [lf, here, c, d, o, dr, cf],
                        And(*drop_pre, _active(), MOVE_TARGET(lf, o), FIXED_DOOR(lf, dr), DOOR_AT(dr, cf),
                            ADJACENT(c, cf)),
                        And(*drop_eff, DONE(lf), Not(FRESH), _cost())))
    return acts


REQUIREMENTS = [Requirements.STRIPS, Requirements.TYPING, Requirements.NEG_PRECONDITION,
                Requirements.UNIVERSAL_PRECONDITION, Requirements.DIS_PRECONDITION, Requirements.ACTION_COSTS]


def domain() -> Domain:
    return Domain(DOMAIN_NAME, requirements=REQUIREMENTS, types=TYPES, predicates=PREDICATES,
                  functions={TOTAL_COST: None}, actions=_actions())


def domain_text() -> str:
    return domain_to_string(domain())


# -- problems --------------------------------------------------------------------------------------

def _cell(x: int, y: int) -> str:
    return f"c{x}_{y}"


def problem(instance: Instance) -> Problem:
    """The PDDL problem of an instance's start state and mission."""
    start = instance.start
    floor = [(x, y) for y in range(instance.height) for x in range(instance.width) if (x, y) not in instance.walls]
    cells = {xy: constants(_cell(*xy), type_="cell")[0] for xy in floor}
    dirs = [constants(name, type_="dir")[0] for name in DIRECTIONS]
    things = [constants(f"t{i}_{t.color}_{t.kind}", type_="thing")[0] for i, t in enumerate(instance.things)]
    doors = [constants(f"door{i}_{door.color}", type_="door")[0] for i, door in enumerate(instance.doors)]
    leaves_, after = _mission_leaves(instance)
    leaf_objs = [constants(f"leaf{i}", type_="leaf")[0] for i in range(len(leaves_))]
    init = [FACING(dirs[start.dir]), AT(cells[start.pos]), FRESH, EqualTo(TOTAL_COST, NumericValue(0))]
    init += [LEFT_OF(dirs[(i + 3) % 4], dirs[i]) for i in range(4)]
    door_cells = {door.pos: i for i, door in enumerate(instance.doors)}
    occupied = {cell for cell in start.objects if cell is not None}
    for (x, y), cell in cells.items():
        init.append(FLOOR(cell))
        if (x, y) not in door_cells and (x, y) not in occupied:
            init.append(CLEAR(cell))
        for i, (dx, dy) in enumerate(DIR_VEC):
            other = cells.get((x + dx, y + dy))
            if other is not None:
                init.append(NEXT(cell, other, dirs[i]))
                init.append(ADJACENT(cell, other))
    for i, door in enumerate(instance.doors):
        init.append(DOOR_AT(doors[i], cells[door.pos]))
        if start.doors[i] == OPEN:
            init.append(OPENED(doors[i]))
        elif start.doors[i] == LOCKED:
            init.append(LOCK(doors[i]))
        init += [KEY_FOR(things[j], doors[i]) for j, t in enumerate(instance.things)
                 if t.kind == "key" and t.color == door.color]
    for i, (thing, cell) in enumerate(zip(instance.things, start.objects)):
        if cell is not None:
            init.append(OBJ_AT(things[i], cells[cell]))
        if thing.kind == "box":
            init.append(BOX(things[i]))
            init.append(INSIDE(things[thing.contains], things[i]) if thing.contains is not None
                        else EMPTY_BOX(things[i]))
    init.append(HOLDING(things[start.carrying]) if start.carrying >= 0 else HANDEMPTY)
    descs = instance.mission.descs

    def targets(desc: int, thing_pred, door_pred, leaf) -> list:
        return [door_pred(leaf, doors[door_index(t)]) if t < 0 else thing_pred(leaf, things[t])
                for t in descs[desc].targets]

    for leaf, node in zip(leaf_objs, leaves_):
        if isinstance(node, GoTo):
            init += targets(node.desc, GOTO_THING, GOTO_DOOR, leaf)
        elif isinstance(node, Pickup):
            init += [PICKUP_TARGET(leaf, things[t]) for t in descs[node.desc].targets if t >= 0]
        elif isinstance(node, Open):
            init += [OPEN_TARGET(leaf, doors[door_index(t)]) for t in descs[node.desc].targets if t < 0]
        elif isinstance(node, PutNext):
            init += [MOVE_TARGET(leaf, things[t]) for t in descs[node.move].targets if t >= 0]
            init += targets(node.fixed, FIXED_THING, FIXED_DOOR, leaf)
    init += [AFTER(leaf_objs[later], leaf_objs[first]) for later, first in sorted(after)]
    objects = list(cells.values()) + dirs + things + doors + leaf_objs
    goal = And(*[DONE(leaf) for leaf in leaf_objs])
    name = instance.id.replace("/seed=", "-s").replace("_", "-").lower()
    return Problem(name, domain_name=DOMAIN_NAME, requirements=REQUIREMENTS, objects=objects, init=init,
                   goal=goal, metric=Metric(TOTAL_COST, Metric.MINIMIZE))


def problem_text(instance: Instance) -> str:
    return problem_to_string(problem(instance))


def _mission_leaves(instance: Instance) -> tuple[list, set[tuple[int, int]]]:
    """The leaves in order, and (later, earlier) pairs from "then" / "after you"."""
    leaves_: list = []
    after: set[tuple[int, int]] = set()

    def walk(node) -> list[int]:
        if not isinstance(node, Seq):
            leaves_.append(node)
            return [len(leaves_) - 1]
        a, b_ = walk(node.a), walk(node.b)
        if node.kind == "before":
            after.update((j, i) for i in a for j in b_)
        elif node.kind == "after":
            after.update((i, j) for i in a for j in b_)
        return a + b_

    walk(instance.mission.root)
    return leaves_, after


_TO_ACTION = {"turn-left": Action.left, "turn-right": Action.right, "forward": Action.forward,
              "forward-door": Action.forward, "pickup": Action.pickup, "pickup-for": Action.pickup,
              "drop": Action.drop, "drop-next-to-thing": Action.drop, "drop-next-to-door": Action.drop,
              "open": Action.toggle, "open-for": Action.toggle, "unlock": Action.toggle, "unlock-for": Action.toggle,
              "close": Action.toggle, "open-box": Action.toggle, "open-box-with": Action.toggle}


def plan_actions(steps: tuple[str, ...]) -> tuple[Action, ...]:
    """minigrid actions of a PDDL plan (``(forward c1_2 c1_3 south)`` -> forward; ``reach-*`` -> none)."""
    actions = []
    for step in steps:
        name = step.strip("()").split()[0]
        if name.startswith("reach-"):
            continue
        actions.append(_TO_ACTION[name])
    return tuple(actions)
