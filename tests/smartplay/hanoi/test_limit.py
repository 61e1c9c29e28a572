"""Optimal under SmartPlay's 30-step limit (issue 21, item 8): from 5 disks on, the goal cannot be reached
within the rollout, and the reference is the best score reachable within it, proven two ways."""

from __future__ import annotations

import pytest

from plancheck.domains.smartplay.hanoi.instance import HanoiInstance
from plancheck.domains.smartplay.hanoi.rules import HanoiRules, Move, apply, initial_state
from plancheck.domains.smartplay.hanoi.scoring import best_disks, optimum
from plancheck.domains.smartplay.hanoi.solve import best_within_limit, recursive_plan, solve
from plancheck.domains.smartplay.hanoi.world import WORLD
from plancheck.solvers.result import Status
from plancheck.verifier.execute import execute


def layered_best(disks: int, limit: int) -> int:
    """Independent of the solver: the states after exactly k steps, k = 0..limit (an invalid step changes
    nothing), and the most disks on C in any of them."""
    layer = {initial_state(disks)}
    best = 0
    for _ in range(limit + 1):
        best = max(best, *(len(state[2]) for state in layer))
        layer = layer | {outcome.state for state in layer for move in Move if (outcome := apply(state, move)).ok}
    return best


@pytest.mark.parametrize("disks", [1, 2, 3, 4, 5, 6, 7, 10, 20])
def test_the_best_score_within_30_steps_by_three_routes(disks):
    plan, best, states = best_within_limit(HanoiInstance(disks))
    assert best == best_disks(disks, 30) == layered_best(disks, 30) == min(disks, 4)
    trace = execute(HanoiRules(HanoiInstance(disks)), plan)
    assert len(plan) <= 30 and not trace.rejected_count and len(trace.final[2]) == best
    assert states <= 243  # only the five smallest disks can move within 30 steps


def test_other_limits_follow_the_closed_form():
    for limit in (0, 1, 2, 3, 7, 14, 15, 31, 63):
        for disks in (3, 6):
            assert layered_best(disks, limit) == best_disks(disks, limit), (limit, disks)


def test_solve_reports_the_best_plan_within_the_limit_not_the_cut_off_goal_plan():
    result = solve(HanoiInstance(5))
    assert result.status is Status.SOLVED and result.proven_optimal and len(result.plan) == 15
    assert result.values == {"score": 4, "normalised": 0.8, "completion": 0, "reward": 0}
    assert "best score within it, 4 disks on C" in result.message and result.extra["goal_moves"] == 31
    assert optimum(HanoiInstance(5)) == result.values and optimum(HanoiInstance(4))["completion"] == 1


@pytest.mark.parametrize("planner", ["pyperplan", "fast-downward"])
def test_a_planners_goal_plan_beyond_the_limit_is_never_called_optimal(planner):
    result = solve(HanoiInstance(5), planner, timeout=120)
    assert result.status is Status.SOLVED and len(result.plan) == 31 and not result.proven_optimal
    assert "cuts it off" in result.message and result.values["completion"] == 0


def test_answers_are_compared_with_the_optimum_within_the_limit():
    five = HanoiInstance(5)
    verdict = WORLD.check(five, "\n".join(str(m) for m in recursive_plan(5)))
    assert verdict.optimal == {"score": 4, "normalised": 0.8, "completion": 0, "reward": 0}
    assert verdict.scores["score"] == 4 and verdict.ratio("score") == 1.0  # its first 30 moves do as well
    assert WORLD.stats(["hanoi-4", "hanoi-5"], None).rows[1][-1] == 4
