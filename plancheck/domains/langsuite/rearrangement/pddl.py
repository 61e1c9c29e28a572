"""A Rearrangement episode's reference problem as PDDL, and PDDL plans back to LangSuitE actions.

Objects: the lattice poses ``p<n>`` the agent can reach (with the movers out of the way), the
movers ``m<i>`` and the containers ``c<i>``. Static facts say what the engine computed for each
pose: its turns and move (``left``, ``right``, ``ahead``), which movers it can pick up (``sees``:
the mover's root meets its view sector), where a drop puts a mover in its goal region
(``can-drop``), which containers it can open or close (``reach``), which moves a mover blocks at its
start (``start-blocks``) and after a drop from a pose (``drop-blocks``). Fluent ``obstructs``
tracks the moves blocked now. Requirements: typing, negative preconditions, universal
preconditions and conditional effects (Fast Downward's translator grounds them).

Plans come back as ``(move_ahead p3 p4)`` ... and are mapped to LangSuitE's actions; the engine then
replays them like every other plan.
"""

from __future__ import annotations

from plancheck.domains.langsuite.rearrangement.problem import Problem
from plancheck.translators.pddl_model import (
    Action,
    And,
    Atom,
    Domain,
    ForAll,
    ForAllEffect,
    Literal,
    Not,
    Or,
    Param,
    Pred,
    When,
)
from plancheck.translators.pddl_model import Problem as PDDLProblem
from plancheck.translators.pddl_writer import domain_text, problem_text

DOMAIN_FILE = "langsuite-rearrangement-domain.pddl"


def _p(name: str, *args: str) -> Pred:
    return Pred(name, args)


def rearrangement_domain() -> Domain:
    P, Q, X = Param("?p", ("pose",)), Param("?q", ("pose",)), Param("?x", ("pose",))
    M, C, M2 = Param("?m", ("mover",)), Param("?c", ("container",)), Param("?n", ("mover",))
    actions = {
        "turn_left": Action("turn_left", (P, Q), And((_p("at", "?p"), _p("left", "?p", "?q"))),
                            (Literal(_p("at", "?p"), False), Literal(_p("at", "?q")))),
        "turn_right": Action("turn_right", (P, Q), And((_p("at", "?p"), _p("right", "?p", "?q"))),
                             (Literal(_p("at", "?p"), False), Literal(_p("at", "?q")))),
        "move_ahead": Action("move_ahead", (P, Q), And((
            _p("at", "?p"), _p("ahead", "?p", "?q"), ForAll((M2,), Not(_p("obstructs", "?n", "?p"))))),
            (Literal(_p("at", "?p"), False), Literal(_p("at", "?q")))),
        "pick_up": Action("pick_up", (P, M), And((
            _p("at", "?p"), _p("at-start", "?m"), _p("hand-free"), _p("sees", "?p", "?m"),
            ForAll((C,), Or((Not(_p("inside", "?m", "?c")), _p("open", "?c")))))),
            (Literal(_p("at-start", "?m"), False), Literal(_p("held", "?m")), Literal(_p("hand-free"), False),
             ForAllEffect((X,), (When(_p("start-blocks", "?m", "?x"), (Literal(_p("obstructs", "?m", "?x"),
                                                                                 False),)),)))),
        "drop": Action("drop", (P, M), And((_p("at", "?p"), _p("held", "?m"), _p("can-drop", "?m", "?p"))),
                       (Literal(_p("held", "?m"), False), Literal(_p("hand-free")), Literal(_p("placed", "?m")),
                        ForAllEffect((X,), (When(_p("drop-blocks", "?m", "?p", "?x"),
                                                 (Literal(_p("obstructs", "?m", "?x")),)),)))),
        "open": Action("open", (P, C), And((_p("at", "?p"), _p("reach", "?p", "?c"), Not(_p("open", "?c")))),
                       (Literal(_p("open", "?c")),)),
        "close": Action("close", (P, C), And((_p("at", "?p"), _p("reach", "?p", "?c"), _p("open", "?c"))),
                        (Literal(_p("open", "?c"), False),)),
    }
    pose, mover, container = ("pose",), ("mover",), ("container",)
    predicates = {
        "at": (Param("?p", pose),), "left": (P, Q), "right": (P, Q), "ahead": (P, Q),
        "at-start": (M,), "held": (M,), "placed": (M,), "hand-free": (),
        "sees": (P, M), "can-drop": (M, P), "inside": (M, C), "open": (C,), "reach": (P, C),
        "start-blocks": (M, X), "drop-blocks": (M, P, X), "obstructs": (M, X),
    }
    del mover, container
    return Domain("langsuite-rearrangement",
                  (":typing", ":negative-preconditions", ":universal-preconditions", ":conditional-effects",
                   ":disjunctive-preconditions"),
                  {"pose": "object", "mover": "object", "container": "object"}, {}, predicates, {}, actions)


def rearrangement_problem(problem: Problem) -> PDDLProblem:
    lat = problem.lattice
    movers, containers = problem.movers, problem.containers
    pose = [f"p{i}" for i in range(len(lat))]
    mover = {o: f"m{i}" for i, o in enumerate(movers)}
    cont = {c: f"c{i}" for i, c in enumerate(containers)}
    objects = {name: "pose" for name in pose} | {m: "mover" for m in mover.values()} | \
        {c: "container" for c in cont.values()}
    init: set[Atom] = {("at", pose[0]), ("hand-free",)}
    for p in range(len(lat)):
        init.add(("left", pose[p], pose[lat.left[p]]))
        init.add(("right", pose[p], pose[lat.right[p]]))
        if lat.ahead[p] >= 0:
            init.add(("ahead", pose[p], pose[lat.ahead[p]]))
    for o in movers:
        m = mover[o]
        init.add(("at-start", m))
        anchor = problem.anchor[o]
        for p in problem.sees[anchor]:
            init.add(("sees", pose[p], m))
        if anchor in cont and anchor != o:
            init.add(("inside", m, cont[anchor]))
        for p in problem.drops[o]:
            init.add(("can-drop", m, pose[p]))
            for x in problem.blocks(o, p):
                init.add(("drop-blocks", m, pose[p], pose[x]))
        if problem.is_root(o):
            for p, stop in lat.blockers.items():
                if o in stop:
                    init.add(("start-blocks", m, pose[p]))
                    init.add(("obstructs", m, pose[p]))
    for c, name in cont.items():
        if problem.start.thing(c).is_open:
            init.add(("open", name))
        for p in range(len(lat)):
            if problem.container_visible(c, p):
                init.add(("reach", pose[p], name))
    goal = [_p("placed", mover[o]) for o in movers]
    goal += [_p("open", cont[c]) if problem.goal_open(c) else Not(_p("open", cont[c])) for c in containers]
    return PDDLProblem(f"rearrange-{problem.task.episode.id.lower()}", "langsuite-rearrangement", objects,
                       frozenset(init), {}, And(tuple(goal)))


def export(problem: Problem) -> dict[str, str]:
    domain = rearrangement_domain()
    return {DOMAIN_FILE: domain_text(domain),
            f"{problem.task.episode.id}.pddl": problem_text(rearrangement_problem(problem), domain)}


def from_pddl_plan(problem: Problem, steps) -> list[tuple[str, str | None]]:
    """PDDL plan steps (``(pick_up p7 m0)``) as the native plan's (word, object id) pairs."""
    movers = {f"m{i}": o for i, o in enumerate(problem.movers)}
    conts = {f"c{i}": c for i, c in enumerate(problem.containers)}
    out: list[tuple[str, str | None]] = []
    for step in steps:
        words = step.strip("()").split()
        name, args = words[0], words[1:]
        if name in ("turn_left", "turn_right", "move_ahead"):
            out.append((name, None))
        elif name in ("pick_up", "drop"):
            out.append((name, movers[args[1]]))
        elif name in ("open", "close"):
            out.append((name, conts[args[1]]))
        else:
            raise ValueError(f"unknown PDDL action {step!r}")
    return out
