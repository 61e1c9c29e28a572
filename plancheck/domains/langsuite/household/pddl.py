"""A Household reference problem as PDDL (the scene-state graph and the pose lattice), and plans back to actions.

Objects: the scene states ``s<i>`` of :class:`~.problem.Problem` (each a real engine state after
LangSuitE's physics) and the poses ``p<n>`` of the lattice. Static facts say what the engine
computed: the moves (``left``, ``right``, ``ahead``), the moves a root box blocks in a scene state
(``blocked``), where each manipulation is accepted (``manip-<k> s p s'``: one predicate per kind of
manipulation, so that plans read back as LangSuitE's actions) and where ``stop`` scores a success
(``ends s p``). The plan is a shortest path through states and poses, ended by ``stop``; the
planner's search is checked against the native A*, the state graph itself against the engine's
replay of every plan. Requirements: typing, negative preconditions.
"""

from __future__ import annotations

from collections.abc import Sequence

from plancheck.domains.langsuite.engine.actions import Act
from plancheck.domains.langsuite.household.problem import Problem
from plancheck.translators.pddl_model import Action, And, Atom, Domain, Literal, Not, Param, Pred
from plancheck.translators.pddl_model import Problem as PDDLProblem
from plancheck.translators.pddl_writer import domain_text, problem_text

DOMAIN_FILE = "langsuite-household-domain.pddl"
KINDS = ("PickUp", "Put", "Open", "ToggleOn", "Slice")


def _p(name: str, *args: str) -> Pred:
    return Pred(name, args)


def household_domain() -> Domain:
    S, T, P, Q = Param("?s", ("state",)), Param("?t", ("state",)), Param("?p", ("pose",)), Param("?q", ("pose",))

    def move(name: str, edge: str, check_block: bool) -> Action:
        pre = (_p("now", "?s"), _p("at", "?p"), _p(edge, "?p", "?q")) + \
            ((Not(_p("blocked", "?s", "?p")),) if check_block else ())
        return Action(name, (S, P, Q), And(pre), (Literal(_p("at", "?p"), False), Literal(_p("at", "?q"))))

    actions = {"turn_left": move("turn_left", "left", False), "turn_right": move("turn_right", "right", False),
               "move_ahead": move("move_ahead", "ahead", True)}
    for kind in KINDS:
        name = f"manip-{kind.lower()}"
        actions[name] = Action(name, (S, P, T), And((_p("now", "?s"), _p("at", "?p"), _p(name, "?s", "?p", "?t"))),
                               (Literal(_p("now", "?s"), False), Literal(_p("now", "?t"))))
    actions["stop"] = Action("stop", (S, P), And((_p("now", "?s"), _p("at", "?p"), _p("ends", "?s", "?p"))),
                             (Literal(_p("stopped")),))
    predicates = {"now": (S,), "at": (P,), "left": (P, Q), "right": (P, Q), "ahead": (P, Q), "blocked": (S, P),
                  "ends": (S, P), "stopped": ()}
    predicates |= {f"manip-{k.lower()}": (S, P, T) for k in KINDS}
    return Domain("langsuite-household", (":typing", ":negative-preconditions"), {"state": "object", "pose": "object"},
                  {}, predicates, {}, actions)


def household_problem(problem: Problem, name: str) -> PDDLProblem:
    lat = problem.lattice
    state = [f"s{i}" for i in range(len(problem.nodes))]
    pose = [f"p{n}" for n in range(len(lat))]
    objects = {s: "state" for s in state} | {p: "pose" for p in pose}
    init: set[Atom] = {("now", state[0]), ("at", pose[0])}
    for p in range(len(lat)):
        init.add(("left", pose[p], pose[lat.left[p]]))
        init.add(("right", pose[p], pose[lat.right[p]]))
        if lat.ahead[p] >= 0:
            init.add(("ahead", pose[p], pose[lat.ahead[p]]))
    for i, node in enumerate(problem.nodes):
        for p in problem.blocked(node):
            init.add(("blocked", state[i], pose[p]))
        for edge in problem.edges[i]:
            for p in edge.poses:
                init.add((f"manip-{edge.act.name.lower()}", state[i], pose[p], state[edge.target]))
        if problem.may_end(i):
            for p in range(len(lat)):
                if problem.ends(i, p):
                    init.add(("ends", state[i], pose[p]))
    return PDDLProblem(name, "langsuite-household", objects, frozenset(init), {}, And((_p("stopped"),)))


def export(problem: Problem, instance_id: str) -> dict[str, str]:
    domain = household_domain()
    return {DOMAIN_FILE: domain_text(domain),
            f"{instance_id}.pddl": problem_text(household_problem(problem, f"household-{instance_id.lower()}"), domain)}


def from_pddl_plan(problem: Problem, steps: Sequence[str]) -> list[Act]:
    """PDDL plan steps as LangSuitE actions (``stop`` dropped: the replies add it)."""
    moves = {"turn_left": "TurnLeft", "turn_right": "TurnRight", "move_ahead": "MoveAhead"}
    out: list[Act] = []
    for step in steps:
        words = step.strip("()").split()
        name, args = words[0], words[1:]
        if name in moves:
            out.append(Act(moves[name]))
        elif name.startswith("manip-"):
            i, p, target = int(args[0][1:]), int(args[1][1:]), int(args[2][1:])
            edge = next(e for e in problem.edges[i] if e.target == target and e.act.name.lower() == name[6:]
                        and p in e.poses)  # several dumps of clutter lead to one scene state
            out.append(edge.act)
        elif name != "stop":
            raise ValueError(f"unknown PDDL action {step!r}")
    return out
