"""Plans for GRASP environments from the named planners, each re-validated by the verifier.

The paper's baselines (``greedy``, ``random``) run here; the optimal planners (``native``,
``fast-downward``, ``symk``, ``pyperplan``) are :func:`plancheck.domains.grasp.optimal.solve`,
which certifies every plan against the claimed optimum.
"""

from __future__ import annotations

import random
import time

from plancheck.domains.grasp import optimal as grasp_solve
from plancheck.domains.grasp import scoring
from plancheck.domains.grasp.baselines import BASELINES
from plancheck.domains.grasp.instance import Environment
from plancheck.domains.grasp.rules import GraspRules
from plancheck.errors import BadInputError
from plancheck.solvers.result import SolveResult, Status
from plancheck.verifier.execute import execute


def solve(env: Environment, planner: str, *, rule: str = "paper", timeout: float = 300.0, seed: int = 0
          ) -> SolveResult:
    """Run ``planner`` on ``env``; the reported values come from replaying the plan."""
    if planner in grasp_solve.PLANNERS:
        return grasp_solve.solve(env, rule, planner, timeout=timeout)
    if planner not in BASELINES:
        known = ", ".join((*grasp_solve.PLANNERS, *BASELINES))
        raise BadInputError(f"unknown GRASP planner {planner!r}; known: {known}")
    start = time.perf_counter()
    plan = BASELINES[planner](env, random.Random(f"{env.id}/{seed}"))
    seconds = time.perf_counter() - start
    trace = execute(GraspRules(env), plan)
    return SolveResult(env.id, planner, Status.SOLVED, tuple(a.value for a in plan), scoring.scores(env, trace),
                       proven_optimal=False, seconds=seconds, message=f"baseline, seed {seed}")
