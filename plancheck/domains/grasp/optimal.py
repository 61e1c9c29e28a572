"""Reference plans for GRASP environments from a chosen planner, each one certified before it is reported.

* ``native``: the exact solver (:mod:`.grasp_exact`); optimality is proven by its search.
* ``fast-downward``: A* with the blind heuristic on the planning model (optimal);
  ``symk``: SymK's symbolic bidirectional search on the same model (optimal).
* ``pyperplan`` ignores action costs, and the planning model's costs differ (steps, forgone
  energy), so it is reported as unsupported rather than run.

A planner that is missing, fails or runs out of time gives a result with that status (never an
exception). A plan that is returned is read back into GRASP actions, replayed on the full rules,
and must score exactly the value its cost claims; otherwise :class:`CertificationError`.

>>> from plancheck.domains.grasp.grid import Grid
>>> from plancheck.domains.grasp.instance import Environment, GridInfo, Setting
>>> env = Environment(Grid(1, 4, " EE ", (0, 0)), Setting(4, None, 0.3), GridInfo("doc", 0, "random", "free", "inner"))
>>> result = solve(env, "paper")
>>> result.status.value, result.plan, result.values, result.proven_optimal
('solved', ('RIGHT', 'TAKE', 'RIGHT', 'DROP'), {'paper': 0.8, 'delivered': -1.2}, True)
>>> solve(env, "paper", "pyperplan").status.value
'unsupported'
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial

from plancheck.domains.grasp.certify import certify, certify_plan
from plancheck.domains.grasp.exact import solve_exact
from plancheck.domains.grasp.instance import Environment
from plancheck.domains.grasp.pddl import Scale, count_limit, planning_domain, planning_problem
from plancheck.domains.grasp.pddl_plan import read_plan
from plancheck.errors import CertificationError, PDDLError
from plancheck.solvers.external import PlannerRun, run_fast_downward, run_symk
from plancheck.solvers.result import SolveResult, Status

PLANNERS = ("native", "fast-downward", "symk", "pyperplan")

_EXTERNAL: dict[str, Callable[..., PlannerRun]] = {
    "fast-downward": partial(run_fast_downward, search="astar(blind())"),
    "symk": run_symk,
}


def _native(env: Environment, rule: str) -> SolveResult:
    optimum = solve_exact(env, rule)
    values = certify(env, optimum)
    return SolveResult(env.id, "native", Status.SOLVED, tuple(str(a) for a in optimum.plan), values, True,
                       optimum.seconds, extra={"rule": rule, "value": optimum.value, "nodes": optimum.nodes})


def _external(env: Environment, rule: str, planner: str, timeout: float, memory_limit: str | None) -> SolveResult:
    started = time.perf_counter()
    run = _EXTERNAL[planner](planning_domain(), planning_problem(env, rule), timeout=timeout,
                             memory_limit=memory_limit)
    if run.status is not Status.SOLVED or run.plan is None or run.cost is None:
        return SolveResult(env.id, planner, run.status, seconds=time.perf_counter() - started, message=run.message,
                           extra={"rule": rule})
    claimed = Scale.of(env.setting.step_cost).value(run.cost, count_limit(env))
    try:
        plan = read_plan(run.plan, source=f"{planner} plan")
    except PDDLError as error:
        raise CertificationError(f"{env.id}: {planner} returned a plan that is not a GRASP plan: {error}") from None
    values = certify_plan(env, rule, plan, claimed)
    return SolveResult(env.id, planner, Status.SOLVED, tuple(str(a) for a in plan), values, run.optimal,
                       time.perf_counter() - started,
                       extra={"rule": rule, "value": round(float(claimed), 9), "cost": run.cost,
                              "planner_seconds": round(run.seconds, 3)})


def solve(env: Environment, rule: str = "paper", planner: str = "native", *, timeout: float = 300.0,
          memory_limit: str | None = None) -> SolveResult:
    """The best plan ``planner`` finds for ``env`` under ``rule``, certified (see the module docstring).

    ``timeout`` (seconds) and ``memory_limit`` (e.g. ``"4G"``) apply to external planners.
    """
    if planner not in PLANNERS:
        raise ValueError(f"unknown planner {planner!r}; known: {', '.join(PLANNERS)}")
    if planner == "native":
        return _native(env, rule)
    if planner == "pyperplan":
        return SolveResult(env.id, planner, Status.UNSUPPORTED, extra={"rule": rule},
                           message="pyperplan ignores action costs, and GRASP's planning model needs them "
                                   "(steps and forgone energy cost differently)")
    return _external(env, rule, planner, timeout, memory_limit)

