"""The one route from a world's PDDL model to a certified plan: compile, run a planner, read back, certify.

A world hands over its domain and problem text, a function that reads the planner's steps back
as the world's actions, and a function that certifies them (replays them on the world's own rules
and checks the planner's claims). Every world gets the same behaviour from here:

* an unknown planner name is a :class:`~plancheck.errors.BadInputError`;
* a planner that is missing, fails, proves the task unsolvable or runs out of time gives a result
  with that status (never an exception);
* a plan that cannot be read back, or that the certifier rejects, gives a ``failed`` result whose
  message says why (a planner's output is a claim, not a fact);
* a certified plan gives a ``solved`` result with the values the world's rules give it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from plancheck.errors import BadInputError, CertificationError
from plancheck.solvers.external import PlannerRun, run_fast_downward, run_pyperplan, run_symk
from plancheck.solvers.result import SolveResult, Status

A = TypeVar("A")

PLANNERS: dict[str, Callable[..., PlannerRun]] = {
    "fast-downward": run_fast_downward,
    "symk": run_symk,
    "pyperplan": run_pyperplan,
}
COST_BLIND = frozenset({"pyperplan"})  # planners that ignore action costs (breadth-first: optimal in steps only)


@dataclass(frozen=True)
class Certified:
    """A plan the world has checked: as the world writes its actions, its values, whether it is optimal."""

    plan: tuple[str, ...]
    values: Mapping[str, float]
    optimal: bool
    extra: Mapping[str, Any] = field(default_factory=dict)
    message: str = ""


def run_planner(planner: str, domain: str, problem: str, *, timeout: float = 300.0, memory_limit: str | None = None,
                search: str | None = None) -> PlannerRun:
    """Run an external planner by name (``search`` is Fast Downward's search, A* with the blind heuristic by
    default; ``memory_limit`` applies to Fast Downward and SymK)."""
    if planner not in PLANNERS:
        raise BadInputError(f"unknown planner {planner!r}; known: {', '.join(PLANNERS)}")
    options: dict[str, Any] = {"timeout": timeout}
    if planner != "pyperplan":
        options["memory_limit"] = memory_limit
    if planner == "fast-downward" and search is not None:
        options["search"] = search
    return PLANNERS[planner](domain, problem, **options)


def solve_pddl(instance: str, planner: str, domain: str, problem: str, *,
               read: Callable[[tuple[str, ...]], Sequence[A]],
               certify: Callable[[Sequence[A], PlannerRun], Certified],
               timeout: float = 300.0, memory_limit: str | None = None, search: str | None = None,
               costs: str | None = None, extra: Mapping[str, Any] | None = None) -> SolveResult:
    """Plan ``instance`` with ``planner`` on the given PDDL and certify the plan (see the module docstring).

    ``costs``: why the model's action costs matter (e.g. "GRASP's planning model needs them"), when they do;
    planners blind to costs are then reported ``unsupported`` instead of run. ``extra`` goes into every
    result (e.g. the scoring rule).
    """
    extra = dict(extra or {})
    if planner not in PLANNERS:
        raise BadInputError(f"unknown planner {planner!r}; known: {', '.join(PLANNERS)}")
    if costs and planner in COST_BLIND:
        return SolveResult(instance, planner, Status.UNSUPPORTED, extra=extra,
                           message=f"{planner} ignores action costs, and {costs}")
    started = time.perf_counter()
    run = run_planner(planner, domain, problem, timeout=timeout, memory_limit=memory_limit, search=search)
    if run.status is not Status.SOLVED or run.plan is None:
        return SolveResult(instance, planner, run.status, seconds=time.perf_counter() - started, message=run.message,
                           extra=extra)
    try:
        certified = certify(read(run.plan), run)
    except (BadInputError, CertificationError) as error:
        what = "cannot be read back" if isinstance(error, BadInputError) else "fails certification"
        return SolveResult(instance, planner, Status.FAILED, seconds=time.perf_counter() - started,
                           message=f"the plan {planner} returned {what}: {error}",
                           extra={**extra, "pddl_plan": list(run.plan)})
    return SolveResult(instance, planner, Status.SOLVED, certified.plan, certified.values, certified.optimal,
                       time.perf_counter() - started, certified.message,
                       {**extra, **certified.extra, "cost": run.cost, "planner_seconds": round(run.seconds, 4)})
