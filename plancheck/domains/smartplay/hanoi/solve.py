"""Certified optimal Tower of Hanoi plans: the recursive 2^n - 1 solution or a classical planner.

Every plan is certified before it is reported: it is replayed on the native rules (every move
valid, all disks on C at the end) and, translated to PDDL, accepted by the PDDL validator on the
exported task. It is reported optimal only when the solver claims optimality and its length is
2^n - 1, the proven minimum, so two independent routes agree.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from plancheck.domains.smartplay.hanoi import scoring
from plancheck.domains.smartplay.hanoi.instance import HanoiInstance
from plancheck.domains.smartplay.hanoi.pddl import DOMAIN_FILE, export, from_pddl_plan, to_pddl_plan
from plancheck.domains.smartplay.hanoi.rules import RODS, HanoiRules, Move, State, apply, goal_state, initial_state
from plancheck.errors import BadInputError, CertificationError
from plancheck.solvers.pipeline import Certified, solve_pddl
from plancheck.solvers.result import SolveResult, Status
from plancheck.translators.pddl_plan import plan_text, read_plan
from plancheck.verifier.execute import execute
from plancheck.verifier.pddl_validate import validate_text

PLANNER_NAMES = ("native", "fast-downward", "pyperplan", "symk")


def recursive_plan(disks: int, source: int = 0, target: int = 2, spare: int = 1) -> list[Move]:
    """The optimal plan: move n-1 disks aside, the biggest to the target, the n-1 disks on top.

    >>> [str(move) for move in recursive_plan(2)]
    ['A->B', 'A->C', 'B->C']
    """
    if disks == 0:
        return []
    return (recursive_plan(disks - 1, source, spare, target) + [Move.between(RODS[source], RODS[target])]
            + recursive_plan(disks - 1, spare, target, source))


def certify(instance: HanoiInstance, moves: list[Move]) -> str | None:
    """Why ``moves`` is not a valid solution (native rules or PDDL validator), or None if it is."""
    state: State = initial_state(instance.disks)
    for index, move in enumerate(moves, start=1):
        outcome = apply(state, move)
        if not outcome.ok:
            return f"move {index}: {outcome.reason}"
        state = outcome.state
    if state != goal_state(instance.disks):
        return "the plan does not end with every disk on rod C"
    files = export(instance)
    report = validate_text(files[DOMAIN_FILE], files[f"{instance.id}.pddl"],
                           plan_text(to_pddl_plan(instance, moves)))
    return None if report.valid else f"the PDDL validator rejects the plan: {report.text()}"


def _certified(instance: HanoiInstance, moves: Sequence[Move], claims_optimal: bool) -> Certified:
    """The plan's values once :func:`certify` accepts it (else :class:`CertificationError`)."""
    problem = certify(instance, list(moves))
    if problem is not None:
        raise CertificationError(f"the plan is invalid: {problem}")
    trace = execute(HanoiRules(instance), moves)
    message = ""
    if len(moves) > instance.step_limit:
        message = (f"the optimal plan needs {len(moves)} moves, more than SmartPlay's {instance.step_limit}-step "
                   "limit; the values are those of its first moves")
    return Certified(tuple(str(m) for m in moves), scoring.scores(instance, trace),
                     claims_optimal and len(moves) == instance.optimal_moves, message=message,
                     extra={"moves": len(moves), "action_indices": [m.value for m in moves]})


def solve(instance: HanoiInstance, planner: str = "native", *, timeout: float = 300.0) -> SolveResult:
    """A certified plan for ``instance`` from ``planner`` (``native`` or an external planner)."""
    if planner not in PLANNER_NAMES:
        raise BadInputError(f"unknown planner {planner!r}; choose one of {', '.join(PLANNER_NAMES)}")
    if planner != "native":
        files = export(instance)
        return solve_pddl(instance.id, planner, files[DOMAIN_FILE], files[f"{instance.id}.pddl"],
                          read=lambda steps: from_pddl_plan(read_plan("\n".join(steps)).actions),
                          certify=lambda moves, run: _certified(instance, moves, run.optimal), timeout=timeout)
    start = time.perf_counter()
    moves = recursive_plan(instance.disks)
    try:
        certified = _certified(instance, moves, True)
    except CertificationError as error:
        return SolveResult(instance.id, planner, Status.FAILED, tuple(str(m) for m in moves),
                           seconds=time.perf_counter() - start, message=str(error))
    return SolveResult(instance.id, planner, Status.SOLVED, certified.plan, certified.values, certified.optimal,
                       time.perf_counter() - start, certified.message, certified.extra)
