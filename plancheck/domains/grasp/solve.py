"""Reference plans for GRASP environments from the named planners, each certified before it is reported.

* ``native``: the exact solver (:mod:`.exact`); optimality is proven by its search.
* ``fast-downward``: A* with the blind heuristic on the planning model (optimal);
  ``symk``: SymK's symbolic bidirectional search on the same model (optimal). Both go through
  the shared PDDL pipeline (:mod:`plancheck.solvers.pipeline`): the plan is read back into GRASP
  actions, replayed on the full rules, and must score exactly the value its cost claims.
* ``pyperplan`` ignores action costs, and the planning model's costs differ (steps, forgone
  energy), so it is reported as unsupported rather than run.
* ``greedy``, ``random``: the paper's baselines (seeded), scored by replay.

>>> from plancheck.domains.grasp.grid import Grid
>>> from plancheck.domains.grasp.instance import Environment, GridInfo, Setting
>>> env = Environment(Grid(1, 4, " EE ", (0, 0)), Setting(4, None, 0.3), GridInfo("doc", 0, "random", "free", "inner"))
>>> result = solve(env, "native")
>>> result.status.value, result.plan, result.values, result.proven_optimal
('solved', ('RIGHT', 'TAKE', 'RIGHT', 'DROP'), {'paper': 0.8, 'delivered': -1.2}, True)
>>> solve(env, "pyperplan").status.value
'unsupported'
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from plancheck.domains.grasp import scoring
from plancheck.domains.grasp.baselines import BASELINES
from plancheck.domains.grasp.certify import certify, certify_plan
from plancheck.domains.grasp.exact import solve_exact
from plancheck.domains.grasp.instance import Environment
from plancheck.domains.grasp.pddl import Scale, count_limit, planning_domain, planning_problem
from plancheck.domains.grasp.pddl_plan import read_plan
from plancheck.domains.grasp.rules import Action, GraspRules
from plancheck.errors import BadInputError
from plancheck.rules import Unknown
from plancheck.solvers.external import PlannerRun
from plancheck.solvers.pipeline import Certified, solve_pddl
from plancheck.solvers.result import SolveResult, Status
from plancheck.verifier.execute import execute

PLANNERS = ("native", "fast-downward", "symk", "pyperplan")


def _native(env: Environment, rule: str) -> SolveResult:
    optimum = solve_exact(env, rule)
    values = certify(env, optimum)
    return SolveResult(env.id, "native", Status.SOLVED, tuple(str(a) for a in optimum.plan), values, True,
                       optimum.seconds, extra={"rule": rule, "value": optimum.value, "nodes": optimum.nodes})


def _external(env: Environment, rule: str, planner: str, timeout: float, memory_limit: str | None) -> SolveResult:
    def certified(plan: Sequence[Action | Unknown], run: PlannerRun) -> Certified:
        claimed = Scale.of(env.setting.step_cost).value(run.cost, count_limit(env))
        values = certify_plan(env, rule, plan, claimed)
        return Certified(tuple(str(a) for a in plan), values, run.optimal, {"value": round(float(claimed), 9)})

    return solve_pddl(env.id, planner, planning_domain(), planning_problem(env, rule),
                      read=lambda steps: read_plan(steps, source=f"{planner} plan"), certify=certified,
                      timeout=timeout, memory_limit=memory_limit, extra={"rule": rule},
                      costs="GRASP's planning model needs them (steps and forgone energy cost differently)")


def _baseline(env: Environment, planner: str, seed: int) -> SolveResult:
    start = time.perf_counter()
    plan = BASELINES[planner](env, random.Random(f"{env.id}/{seed}"))
    seconds = time.perf_counter() - start
    trace = execute(GraspRules(env), plan)
    return SolveResult(env.id, planner, Status.SOLVED, tuple(a.value for a in plan), scoring.scores(env, trace),
                       proven_optimal=False, seconds=seconds, message=f"baseline, seed {seed}")


def solve(env: Environment, planner: str = "native", *, rule: str = "paper", timeout: float = 300.0, seed: int = 0,
          memory_limit: str | None = None) -> SolveResult:
    """Run ``planner`` on ``env``; the reported values come from replaying the plan.

    ``timeout`` (seconds) and ``memory_limit`` (e.g. ``"4G"``) apply to external planners.
    """
    if planner == "native":
        return _native(env, rule)
    if planner in BASELINES:
        return _baseline(env, planner, seed)
    if planner not in PLANNERS:
        raise BadInputError(f"unknown GRASP planner {planner!r}; known: {', '.join((*PLANNERS, *BASELINES))}")
    return _external(env, rule, planner, timeout, memory_limit)
