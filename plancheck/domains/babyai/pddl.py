"""BabyAI instances as PDDL: one shared domain, one problem per instance, built as plancheck's PDDL
model and printed by its writer, like every world's.

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

from functools import cache

from plancheck.domains.babyai.instance import DIR_VEC, DIRECTIONS, LOCKED, OPEN, Instance
from plancheck.domains.babyai.mission import GoTo, Open, Pickup, PutNext, Seq, door_index
from plancheck.domains.babyai.rules import Action
from plancheck.errors import Location, PDDLError
from plancheck.translators.pddl_model import (
    TOTAL_COST,
    And,
    Atom,
    Condition,
    Domain,
    Effect,
    ForAll,
    FTerm,
    Imply,
    Increase,
    Literal,
    Metric,
    Not,
    Number,
    Param,
    Pred,
    Problem,
)
from plancheck.translators.pddl_model import Action as PAction
from plancheck.translators.pddl_writer import domain_text as write_domain
from plancheck.translators.pddl_writer import problem_text as write_problem

DOMAIN_NAME = "babyai"
TYPES = {"cell": "object", "dir": "object", "thing": "object", "door": "object", "leaf": "object"}
REQUIREMENTS = (":strips", ":typing", ":negative-preconditions", ":universal-preconditions",
                ":disjunctive-preconditions", ":action-costs")
_KIND = {"?c": "cell", "?c2": "cell", "?here": "cell", "?cf": "cell", "?d": "dir", "?d2": "dir", "?o": "thing",
         "?k": "thing", "?f": "thing", "?b": "thing", "?dr": "door", "?lf": "leaf", "?pre": "leaf"}
PREDICATES = {"at": ("?c",), "facing": ("?d",), "next": ("?c", "?c2", "?d"), "left-of": ("?d", "?d2"),
              "adjacent": ("?c", "?c2"), "floor": ("?c",), "clear": ("?c",), "door-at": ("?dr", "?c"),
              "opened": ("?dr",), "locked": ("?dr",), "obj-at": ("?o", "?c"), "holding": ("?o",), "handempty": (),
              "key-for": ("?k", "?dr"), "box": ("?b",), "empty-box": ("?b",), "inside": ("?o", "?b"), "fresh": (),
              "done": ("?lf",), "after": ("?lf", "?pre"), "goto-thing": ("?lf", "?o"), "goto-door": ("?lf", "?dr"),
              "pickup-target": ("?lf", "?o"), "open-target": ("?lf", "?dr"), "move-target": ("?lf", "?o"),
              "fixed-thing": ("?lf", "?f"), "fixed-door": ("?lf", "?dr")}


def _p(name: str, *args: str) -> Pred:
    return Pred(name, args)


def _params(*names: str) -> tuple[Param, ...]:
    return tuple(Param(name, (_KIND[name],)) for name in names)


def _add(name: str, *args: str) -> Literal:
    return Literal(_p(name, *args))


def _del(name: str, *args: str) -> Literal:
    return Literal(_p(name, *args), False)


def _cost(amount: int = 1) -> Increase:
    return Increase(FTerm(TOTAL_COST), Number(amount))


def _facing(cell: str) -> list[Condition]:
    """The agent stands on ``?here`` heading ``?d`` with ``cell`` in front."""
    return [_p("at", "?here"), _p("facing", "?d"), _p("next", "?here", cell, "?d")]


def _active() -> list[Condition]:
    """Leaf ``?lf`` is not done and every leaf it comes after is."""
    return [Not(_p("done", "?lf")), ForAll(_params("?pre"), Imply(_p("after", "?lf", "?pre"), _p("done", "?pre")))]


def _action(name: str, params: tuple[str, ...], precondition: list[Condition], effects: list[Effect]) -> PAction:
    return PAction(name, _params(*params), And(tuple(precondition)), tuple(effects))


def _with_leaf(name: str, params: tuple[str, ...], precondition: list[Condition], effects: list[Effect],
               extra: list[Condition]) -> list[PAction]:
    """The plain action, and its variant that also completes an active leaf (``extra`` conditions)."""
    plain = _action(name, params, precondition, [*effects, _del("fresh"), _cost()])
    achieving = _action(f"{name}-for", ("?lf", *params), [*precondition, *_active(), *extra],
                        [*effects, _add("done", "?lf"), _del("fresh"), _cost()])
    return [plain, achieving]


def _actions() -> list[PAction]:
    turn = [_add("facing", "?d2"), _del("facing", "?d"), _del("fresh"), _cost()]
    move = [_add("at", "?c"), _del("at", "?here"), _del("fresh"), _cost()]
    acts = [
        _action("turn-left", ("?d", "?d2"), [_p("facing", "?d"), _p("left-of", "?d2", "?d")], turn),
        _action("turn-right", ("?d", "?d2"), [_p("facing", "?d"), _p("left-of", "?d", "?d2")], turn),
        _action("forward", ("?here", "?c", "?d"), [*_facing("?c"), _p("clear", "?c")], move),
        _action("forward-door", ("?here", "?c", "?d", "?dr"),
                [*_facing("?c"), _p("door-at", "?dr", "?c"), _p("opened", "?dr")], move),
        _action("close", ("?here", "?c", "?d", "?dr"), [*_facing("?c"), _p("door-at", "?dr", "?c"),
                                                       _p("opened", "?dr")],
                [_del("opened", "?dr"), _del("fresh"), _cost()]),
        _action("open-box", ("?here", "?c", "?d", "?b"),
                [*_facing("?c"), _p("obj-at", "?b", "?c"), _p("box", "?b"), _p("empty-box", "?b")],
                [_del("obj-at", "?b", "?c"), _add("clear", "?c"), _del("fresh"), _cost()]),
        _action("open-box-with", ("?here", "?c", "?d", "?b", "?o"),
                [*_facing("?c"), _p("obj-at", "?b", "?c"), _p("box", "?b"), _p("inside", "?o", "?b")],
                [_del("obj-at", "?b", "?c"), _add("obj-at", "?o", "?c"), _del("fresh"), _cost()]),
        _action("reach-thing", ("?lf", "?here", "?c", "?d", "?o"),
                [*_facing("?c"), _p("obj-at", "?o", "?c"), _p("goto-thing", "?lf", "?o"), Not(_p("fresh")),
                 *_active()], [_add("done", "?lf"), _cost(0)]),
        _action("reach-door", ("?lf", "?here", "?c", "?d", "?dr"),
                [*_facing("?c"), _p("door-at", "?dr", "?c"), _p("goto-door", "?lf", "?dr"), Not(_p("fresh")),
                 *_active()], [_add("done", "?lf"), _cost(0)]),
    ]
    acts += _with_leaf("pickup", ("?here", "?c", "?d", "?o"),
                       [*_facing("?c"), _p("obj-at", "?o", "?c"), _p("handempty")],
                       [_add("holding", "?o"), _del("obj-at", "?o", "?c"), _del("handempty"), _add("clear", "?c")],
                       [_p("pickup-target", "?lf", "?o")])
    acts += _with_leaf("open", ("?here", "?c", "?d", "?dr"),
                       [*_facing("?c"), _p("door-at", "?dr", "?c"), Not(_p("opened", "?dr")),
                        Not(_p("locked", "?dr"))],
                       [_add("opened", "?dr")], [_p("open-target", "?lf", "?dr")])
    acts += _with_leaf("unlock", ("?here", "?c", "?d", "?dr", "?k"),
                       [*_facing("?c"), _p("door-at", "?dr", "?c"), _p("locked", "?dr"), _p("holding", "?k"),
                        _p("key-for", "?k", "?dr")],
                       [_add("opened", "?dr"), _del("locked", "?dr")], [_p("open-target", "?lf", "?dr")])
    drop_pre: list[Condition] = [*_facing("?c"), _p("holding", "?o"), _p("clear", "?c")]
    drop_eff: list[Effect] = [_add("obj-at", "?o", "?c"), _del("clear", "?c"), _add("handempty"), _del("holding", "?o")]
    acts.append(_action("drop", ("?here", "?c", "?d", "?o"), drop_pre, [*drop_eff, _del("fresh"), _cost()]))
    acts.append(_action("drop-next-to-thing", ("?lf", "?here", "?c", "?d", "?o", "?f", "?cf"),
                        [*drop_pre, *_active(), _p("move-target", "?lf", "?o"), _p("fixed-thing", "?lf", "?f"),
                         _p("obj-at", "?f", "?cf"), _p("adjacent", "?c", "?cf")],
                        [*drop_eff, _add("done", "?lf"), _del("fresh"), _cost()]))
    acts.append(_action("drop-next-to-door", ("?lf", "?here", "?c", "?d", "?o", "?dr", "?cf"),
                        [*drop_pre, *_active(), _p("move-target", "?lf", "?o"), _p("fixed-door", "?lf", "?dr"),
                         _p("door-at", "?dr", "?cf"), _p("adjacent", "?c", "?cf")],
                        [*drop_eff, _add("done", "?lf"), _del("fresh"), _cost()]))
    return acts


@cache
def domain() -> Domain:
    """The BabyAI domain, shared by every instance."""
    return Domain(DOMAIN_NAME, REQUIREMENTS, TYPES,
                  predicates={name: _params(*args) for name, args in PREDICATES.items()},
                  functions={TOTAL_COST: ()}, actions={a.name: a for a in _actions()})


@cache
def domain_text() -> str:
    return write_domain(domain())


# -- problems --------------------------------------------------------------------------------------

def _cell(x: int, y: int) -> str:
    return f"c{x}_{y}"


def problem(instance: Instance) -> Problem:
    """The PDDL problem of an instance's start state and mission."""
    start = instance.start
    floor = [(x, y) for y in range(instance.height) for x in range(instance.width) if (x, y) not in instance.walls]
    cells = {xy: _cell(*xy) for xy in floor}
    dirs = list(DIRECTIONS)
    things = [f"t{i}_{t.color}_{t.kind}" for i, t in enumerate(instance.things)]
    doors = [f"door{i}_{door.color}" for i, door in enumerate(instance.doors)]
    leaves_, after = _mission_leaves(instance)
    leaf_names = [f"leaf{i}" for i in range(len(leaves_))]
    init: set[Atom] = {("facing", dirs[start.dir]), ("at", cells[start.pos]), ("fresh",)}
    init.update(("left-of", dirs[(i + 3) % 4], dirs[i]) for i in range(4))
    door_cells = {door.pos: i for i, door in enumerate(instance.doors)}
    occupied = {cell for cell in start.objects if cell is not None}
    for (x, y), cell in cells.items():
        init.add(("floor", cell))
        if (x, y) not in door_cells and (x, y) not in occupied:
            init.add(("clear", cell))
        for i, (dx, dy) in enumerate(DIR_VEC):
            other = cells.get((x + dx, y + dy))
            if other is not None:
                init.add(("next", cell, other, dirs[i]))
                init.add(("adjacent", cell, other))
    for i, door in enumerate(instance.doors):
        init.add(("door-at", doors[i], cells[door.pos]))
        if start.doors[i] == OPEN:
            init.add(("opened", doors[i]))
        elif start.doors[i] == LOCKED:
            init.add(("locked", doors[i]))
        init.update(("key-for", things[j], doors[i]) for j, t in enumerate(instance.things)
                    if t.kind == "key" and t.color == door.color)
    for i, (thing, cell) in enumerate(zip(instance.things, start.objects)):
        if cell is not None:
            init.add(("obj-at", things[i], cells[cell]))
        if thing.kind == "box":
            init.add(("box", things[i]))
            init.add(("inside", things[thing.contains], things[i]) if thing.contains is not None
                     else ("empty-box", things[i]))
    init.add(("holding", things[start.carrying]) if start.carrying >= 0 else ("handempty",))
    descs = instance.mission.descs

    def targets(desc: int, thing_pred: str, door_pred: str, leaf: str) -> list[Atom]:
        return [(door_pred, leaf, doors[door_index(t)]) if t < 0 else (thing_pred, leaf, things[t])
                for t in descs[desc].targets]

    for leaf, node in zip(leaf_names, leaves_):
        if isinstance(node, GoTo):
            init.update(targets(node.desc, "goto-thing", "goto-door", leaf))
        elif isinstance(node, Pickup):
            init.update(("pickup-target", leaf, things[t]) for t in descs[node.desc].targets if t >= 0)
        elif isinstance(node, Open):
            init.update(("open-target", leaf, doors[door_index(t)]) for t in descs[node.desc].targets if t < 0)
        elif isinstance(node, PutNext):
            init.update(("move-target", leaf, things[t]) for t in descs[node.move].targets if t >= 0)
            init.update(targets(node.fixed, "fixed-thing", "fixed-door", leaf))
    init.update(("after", leaf_names[later], leaf_names[first]) for later, first in after)
    objects = {**{c: "cell" for c in cells.values()}, **{d: "dir" for d in dirs}, **{t: "thing" for t in things},
               **{d: "door" for d in doors}, **{leaf: "leaf" for leaf in leaf_names}}
    name = instance.id.replace("/seed=", "-s").replace("_", "-").lower()
    return Problem(name, DOMAIN_NAME, objects, frozenset(init), {(TOTAL_COST,): 0.0},
                   And(tuple(_p("done", leaf) for leaf in leaf_names)), Metric("minimize", FTerm(TOTAL_COST)))


def problem_text(instance: Instance) -> str:
    return write_problem(problem(instance), domain())


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
    for line, step in enumerate(steps, start=1):
        name = (step.strip("()").split() or [""])[0]
        if name.startswith("reach-"):
            continue
        if name not in _TO_ACTION:
            raise PDDLError(f"{step!r} is not an action of the BabyAI domain", Location("plan", line))
        actions.append(_TO_ACTION[name])
    return tuple(actions)
