"""Reference answers for MANGO, certified: shortest routes (RF) and true destinations (DF).

* RF: a shortest route on the map the walkthrough prefix reveals (``graph="known"``, the default)
  or on the whole evaluation graph (``graph="evaluation"``), found by breadth-first search; its
  length is checked against networkx's shortest path, or found by Fast Downward on the exported
  PDDL (``planner="fast-downward"``) and checked against the search.
* DF: every place the question's actions can lead to (all branches), with the question's own path
  as the trajectory to one of them.

Every reference answer is written out as the prompts ask, read back by the answer parser and
scored; it is reported as optimal only when it scores 1 under every rule and the two routes agree.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass

import networkx as nx

from plancheck.domains.mango.check import check_answer
from plancheck.domains.mango.graph import Move, shortest_route
from plancheck.domains.mango.instance import MangoInstance, graph_of, moves_of
from plancheck.domains.mango.parse import format_answer
from plancheck.domains.mango.pddl import domain_text, problem_text
from plancheck.domains.mango.questions import DFQuestion
from plancheck.domains.mango.scoring import walk
from plancheck.errors import BadInputError, CertificationError
from plancheck.solvers.external import PlannerRun
from plancheck.solvers.pipeline import Certified, solve_pddl
from plancheck.solvers.result import SolveResult, Status

logger = logging.getLogger(__name__)

PLANNERS = ("bfs", "fast-downward")


@dataclass(frozen=True, slots=True)
class Reference:
    """The reference answer to one question: a trajectory (None: no route) and, for DF, the destinations."""

    trajectory: tuple[Move, ...] | None
    destinations: tuple[str, ...] = ()


def reference(instance: MangoInstance, graph: str = "known") -> Reference:
    """The reference answer, by the native search (RF) or the exhaustive walk (DF)."""
    question = instance.question
    if isinstance(question, DFQuestion):
        reached = walk(instance.game.moves, question.src, question.actions)
        return Reference(question.path, tuple(sorted(reached[-1])) if reached else ())
    return Reference(shortest_route(moves_of(instance, graph), question.src, question.dst))


def oracle_answer(instance: MangoInstance, graph: str = "known") -> str | None:
    """The reference answer as the model should have written it (None: the question has no route)."""
    found = reference(instance, graph).trajectory
    return None if found is None else format_answer(found)


def _values(instance: MangoInstance, route: tuple[Move, ...]) -> dict[str, float]:
    """The reference answer's scores, through the same parser and scorer as any answer."""
    verdict = check_answer(instance, format_answer(route), source="reference answer")
    if not verdict.parsed or any(value != 1.0 for value in verdict.scores.values()):
        raise CertificationError(f"{instance.id}: the reference answer does not score 1 "
                                 f"({verdict.parse_error or dict(verdict.scores)})")
    return dict(verdict.scores)


def _result(instance: MangoInstance, planner: str, route: tuple[Move, ...], seconds: float, optimal: bool,
            **extra: object) -> SolveResult:
    return SolveResult(instance.id, planner, Status.SOLVED, tuple(m.action for m in route),
                       _values(instance, route), optimal, seconds, "",
                       {"route": [[m.before, m.action, m.after] for m in route], "length": len(route),
                        "answer": format_answer(route), **extra})


def solve(instance: MangoInstance, planner: str = "bfs", graph: str = "known", timeout: float = 60.0) -> SolveResult:
    """The certified reference answer of one question."""
    if planner not in PLANNERS:
        raise BadInputError(f"unknown planner {planner!r}; expected one of {', '.join(PLANNERS)}")
    start = time.perf_counter()
    question = instance.question
    found = reference(instance, graph)
    if isinstance(question, DFQuestion):
        return _result(instance, "walk", question.path, time.perf_counter() - start, True,
                       destinations=list(found.destinations))
    routes = graph_of(instance, graph)
    if found.trajectory is None:
        reachable = nx.has_path(routes, question.src, question.dst)
        if reachable:
            raise CertificationError(f"{instance.id}: networkx finds a route the search missed")
        return SolveResult(instance.id, planner, Status.UNSOLVABLE, seconds=time.perf_counter() - start,
                           message=f"no route from {question.src!r} to {question.dst!r} on the {graph} map"
                                   f" at cutoff {instance.cutoff}")
    length = len(found.trajectory)
    if planner == "bfs":
        if nx.shortest_path_length(routes, question.src, question.dst) != length:
            raise CertificationError(f"{instance.id}: networkx disagrees on the shortest length {length}")
        return _result(instance, "bfs", found.trajectory, time.perf_counter() - start, True)
    problem, naming = problem_text(instance.id, moves_of(instance, graph), question.src, question.dst)

    def certified(route: Sequence[Move], run: PlannerRun) -> Certified:
        if len(route) != length and run.optimal:
            raise CertificationError(f"Fast Downward's optimal plan has {len(route)} steps, the search's {length}")
        result = _result(instance, "fast-downward", tuple(route), 0.0, run.optimal and len(route) == length)
        return Certified(result.plan or (), result.values, result.proven_optimal, result.extra)

    return solve_pddl(instance.id, "fast-downward", domain_text(), problem, read=naming.read_plan,
                      certify=certified, timeout=timeout)
