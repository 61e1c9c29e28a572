"""Certified optimal Tower of Hanoi plans under SmartPlay's 30-step limit.

Optimal means optimal as the benchmark scores: SmartPlay runs at most 30 steps. Up to 4 disks the
recursive 2^n - 1 plan fits and reaches the goal. From 5 disks on it does not (31 moves and more:
the benchmark would cut it off), and the optimum is the best score reachable within the limit: the
most disks on rod C, 4, by the 15-move plan that moves the four smallest disks there. That value is
proven twice: by exhaustive breadth-first search over every state reachable within the limit
(:func:`best_within_limit`; only the five smallest disks can move in 30 steps, so there are at most
243 such states for any n) and by the closed form :func:`~.scoring.best_disks`.

Every plan is certified before it is reported: replayed on the native rules (every move valid) and,
when it reaches the goal, accepted by the PDDL validator on the exported task. A goal plan is
reported optimal only when the solver claims optimality, its length is 2^n - 1 (the proven
minimum) and it fits the limit. A classical planner's plan longer than the limit is reported with
the values of its first 30 moves and never as optimal.
"""

from __future__ import annotations

import time
from collections import deque
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


def best_within_limit(instance: HanoiInstance) -> tuple[list[Move], int, int]:
    """By exhaustive search: a shortest plan reaching the most disks on rod C within the step limit, that
    number, and how many states lie within the limit. Invalid moves change nothing, so every run of at
    most ``limit`` steps ends in a state the search visits."""
    start = initial_state(instance.disks)
    parent: dict[State, tuple[State, Move] | None] = {start: None}
    frontier, depth, best = deque([start]), {start: 0}, start
    while frontier:
        state = frontier.popleft()
        if len(state[2]) > len(best[2]):
            best = state
        if depth[state] == instance.step_limit or state == goal_state(instance.disks):
            continue  # the limit, or the goal, which ends the episode
        for move in Move:
            outcome = apply(state, move)
            if outcome.ok and outcome.state not in parent:
                parent[outcome.state] = (state, move)
                depth[outcome.state] = depth[state] + 1
                frontier.append(outcome.state)
    plan: list[Move] = []
    at = best
    while (step := parent[at]) is not None:
        at, move = step
        plan.append(move)
    return plan[::-1], len(best[2]), len(parent)


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
    """The plan's values once :func:`certify` accepts it (else :class:`CertificationError`); optimal only
    when it is the 2^n - 1 plan and the benchmark runs all of it."""
    problem = certify(instance, list(moves))
    if problem is not None:
        raise CertificationError(f"the plan is invalid: {problem}")
    trace = execute(HanoiRules(instance), moves)
    message = ""
    if len(moves) > instance.step_limit:
        best = scoring.optimum(instance)["score"]
        message = (f"the plan needs {len(moves)} moves, more than SmartPlay's {instance.step_limit}-step limit: the "
                   f"benchmark cuts it off, so it is not optimal there, and its values are those of its first "
                   f"{instance.step_limit} moves; the best within the limit is {best} disks on C (--planner native)")
    return Certified(tuple(str(m) for m in moves), scoring.scores(instance, trace),
                     claims_optimal and len(moves) == instance.optimal_moves <= instance.step_limit, message=message,
                     extra={"moves": len(moves), "action_indices": [m.value for m in moves]})


def _within_limit(instance: HanoiInstance) -> Certified:
    """The optimum when the goal does not fit the limit: the search's plan, proven by two routes."""
    plan, best, states = best_within_limit(instance)
    closed_form = scoring.best_disks(instance.disks, instance.step_limit)
    if best != closed_form or len(plan) > instance.step_limit:
        raise CertificationError(f"the exhaustive search finds {best} disks on C within {instance.step_limit} moves "
                                 f"({len(plan)} moves), the closed form {closed_form}")
    trace = execute(HanoiRules(instance), plan)
    if trace.rejected_count or len(trace.final[2]) != best:
        raise CertificationError("the plan does not replay to its score on the rules")
    values = scoring.scores(instance, trace)
    message = (f"the goal needs {instance.optimal_moves} moves, more than SmartPlay's {instance.step_limit}-step "
               f"limit: the optimum is the best score within it, {best} disks on C, proven by exhaustive search over "
               f"the {states} states reachable in {instance.step_limit} moves (and the closed form: m disks on C "
               f"take 2^m - 1 moves)")
    return Certified(tuple(str(m) for m in plan), values, True, message=message,
                     extra={"moves": len(plan), "action_indices": [m.value for m in plan], "goal_moves":
                            instance.optimal_moves, "states_within_limit": states})


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
    try:
        certified = (_certified(instance, recursive_plan(instance.disks), True)
                     if instance.optimal_moves <= instance.step_limit else _within_limit(instance))
    except CertificationError as error:
        return SolveResult(instance.id, planner, Status.FAILED, None, seconds=time.perf_counter() - start,
                           message=str(error))
    return SolveResult(instance.id, planner, Status.SOLVED, certified.plan, certified.values, certified.optimal,
                       time.perf_counter() - start, certified.message, certified.extra)
