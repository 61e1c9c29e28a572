"""An IQA evidence problem as PDDL, and PDDL plans back to LangSuitE actions.

Objects: the poses ``p<n>`` the level's moves reach, the containers ``c<i>`` the plans may open, the
facts ``f<i>`` (``seen``/``checked``/``found``, epistemic fluents: what LangSuitE's messages have told
the agent). Static facts say what the engine computed: the moves (``left``, ``right``, ``ahead`` on the
pose lattice; ``edge`` for ``goto``), which facts a pose shows (``shows``; ``shows1``/``shows2`` when one or
two containers must be open), which containers ``open`` accepts there (``opener``; ``opener1`` when a
parent must be open) and what opening reveals (``reveals``). Moves make the facts their pose shows
known (conditional effects); the goal asks for the facts the answer needs (a disjunction when one
of several suffices). Requirements: typing, negative and disjunctive preconditions, existential
preconditions and conditional effects.
"""

from __future__ import annotations

from collections.abc import Sequence

from plancheck.domains.langsuite.iqa.problem import Evidence
from plancheck.translators.pddl_model import (
    Action,
    And,
    Atom,
    Domain,
    Exists,
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

DOMAIN_FILE = "langsuite-iqa-domain.pddl"


def _p(name: str, *args: str) -> Pred:
    return Pred(name, args)


def _learn(q: str) -> tuple:
    F, C, D = Param("?f", ("fact",)), Param("?c", ("container",)), Param("?d", ("container",))
    return (ForAllEffect((F,), (When(_p("shows", q, "?f"), (Literal(_p("known", "?f")),)),)),
            ForAllEffect((F, C), (When(And((_p("shows1", q, "?f", "?c"), _p("open", "?c"))),
                                        (Literal(_p("known", "?f")),)),)),
            ForAllEffect((F, C, D), (When(And((_p("shows2", q, "?f", "?c", "?d"), _p("open", "?c"), _p("open", "?d"))),
                                           (Literal(_p("known", "?f")),)),)))


def iqa_domain() -> Domain:
    P, Q = Param("?p", ("pose",)), Param("?q", ("pose",))
    C, D, F = Param("?c", ("container",)), Param("?d", ("container",)), Param("?f", ("fact",))

    def move(name: str, edge: str) -> Action:
        return Action(name, (P, Q), And((_p("at", "?p"), _p(edge, "?p", "?q"))),
                      (Literal(_p("at", "?p"), False), Literal(_p("at", "?q"))) + _learn("?q"))

    actions = {
        "turn_left": move("turn_left", "left"), "turn_right": move("turn_right", "right"),
        "move_ahead": move("move_ahead", "ahead"), "goto": move("goto", "edge"),
        "open": Action("open", (P, C), And((
            _p("at", "?p"), Not(_p("open", "?c")),
            Or((_p("opener", "?p", "?c"), Exists((D,), And((_p("opener1", "?p", "?c", "?d"), _p("open", "?d")))))))),
            (Literal(_p("open", "?c")),
             ForAllEffect((F,), (When(_p("reveals", "?c", "?f"), (Literal(_p("known", "?f")),)),)))),
    }
    predicates = {
        "at": (P,), "left": (P, Q), "right": (P, Q), "ahead": (P, Q), "edge": (P, Q), "open": (C,), "known": (F,),
        "shows": (P, F), "shows1": (P, F, C), "shows2": (P, F, C, D), "opener": (P, C), "opener1": (P, C, D),
        "reveals": (C, F),
    }
    return Domain("langsuite-iqa",
                  (":typing", ":negative-preconditions", ":disjunctive-preconditions", ":existential-preconditions",
                   ":universal-preconditions", ":conditional-effects"),
                  {"pose": "object", "container": "object", "fact": "object"}, {}, predicates, {}, actions)


def _bits(mask: int) -> list[int]:
    return [i for i in range(mask.bit_length()) if mask >> i & 1]


def iqa_problem(problem: Evidence, name: str) -> tuple[PDDLProblem, dict[tuple[int, int], str]]:
    """The PDDL problem and, at the high level, the target of each goto edge."""
    poses = problem.all_poses()
    pose = [f"p{i}" for i in range(len(poses))]
    cont = [f"c{i}" for i in range(len(problem.containers))]
    fact = [f"f{i}" for i in range(len(problem.facts))]
    objects = {n: "pose" for n in pose} | {n: "container" for n in cont} | {n: "fact" for n in fact}
    init: set[Atom] = {("at", pose[0])}
    init |= {("known", fact[i]) for i in _bits(problem.start_facts)}
    targets: dict[tuple[int, int], str] = {}
    for p in range(len(poses)):
        for (word, oid), q in problem.moves(p):
            if word == "goto":
                targets.setdefault((p, q), oid)
                init.add(("edge", pose[p], pose[q]))
            else:
                init.add(({"turn_left": "left", "turn_right": "right", "move_ahead": "ahead"}[word], pose[p], pose[q]))
        for facts, needs in problem.events(p):
            need = [cont[i] for i in _bits(needs)]
            if len(need) > 2:
                raise ValueError(f"a name at pose {p} needs {len(need)} containers open; the domain takes two")
            for f in _bits(facts):
                init.add(("shows", pose[p], fact[f]) if not need else
                         ("shows1", pose[p], fact[f], need[0]) if len(need) == 1 else
                         ("shows2", pose[p], fact[f], need[0], need[1]))
        for c, needs in problem.openers(p):
            need = [cont[i] for i in _bits(needs)]
            if len(need) > 1:
                raise ValueError(f"a container at pose {p} needs {len(need)} containers open to be opened")
            ci = cont[c.bit_length() - 1]
            init.add(("opener", pose[p], ci) if not need else ("opener1", pose[p], ci, need[0]))
    for c, facts in problem.open_facts.items():
        for f in _bits(facts):
            init.add(("reveals", cont[c.bit_length() - 1], fact[f]))
    need_all, need_any = problem.goal
    goal = [_p("known", fact[f]) for f in _bits(need_all)]
    if need_any:
        goal.append(Or(tuple(_p("known", fact[f]) for f in _bits(need_any))))
    return PDDLProblem(name, "langsuite-iqa", objects, frozenset(init), {}, And(tuple(goal))), targets


def export(problem: Evidence, instance_id: str) -> dict[str, str]:
    domain = iqa_domain()
    pddl_problem, _ = iqa_problem(problem, f"iqa-{instance_id.lower()}-{problem.seed}")
    return {DOMAIN_FILE: domain_text(domain), f"{instance_id}-{problem.seed}.pddl": problem_text(pddl_problem, domain)}


def from_pddl_plan(problem: Evidence, steps: Sequence[str]) -> list[tuple[str, str | None]]:
    """PDDL plan steps (``(open p3 c0)``) as the native plan's (word, object id) pairs."""
    _, targets = iqa_problem(problem, "read")
    out: list[tuple[str, str | None]] = []
    for step in steps:
        words = step.strip("()").split()
        name, args = words[0], words[1:]
        if name in ("turn_left", "turn_right", "move_ahead"):
            out.append((name, None))
        elif name == "goto":
            out.append(("goto", targets[(int(args[0][1:]), int(args[1][1:]))]))
        elif name == "open":
            out.append(("open", problem.containers[int(args[1][1:])]))
        else:
            raise ValueError(f"unknown PDDL action {step!r}")
    return out
