"""IQA's evidence-gathering optimum: native A* and Fast Downward agree, every plan certified by replay."""

from __future__ import annotations

import random

import pytest

from plancheck.domains.langsuite.iqa.instance import question, question_ids
from plancheck.domains.langsuite.iqa.problem import Evidence
from plancheck.domains.langsuite.iqa.rules import Task
from plancheck.domains.langsuite.iqa.solve import certify, optimal, solve_episode
from tests.extras import needs_fast_downward


def test_the_optimum_shows_the_evidence_and_answers_right():
    ref = optimal(Task(question("FloorPlan1-counting-apple")), 0)
    assert ref.certified and ref.plan is not None
    assert ref.replies[0] == "YES" and ref.replies[-1] == "answer [1]"
    assert ref.timesteps == ref.actions + 2


def test_an_answer_without_the_evidence_is_not_certified():
    problem = Evidence(Task(question("FloorPlan1-counting-apple")), 0)
    ref = certify(problem, [])  # the right count, but the fridge and the microwave were never opened
    assert not ref.certified and "the messages do not show" in ref.reason


def test_no_evidence_means_no_plan_not_a_guess():
    ref = optimal(Task(question("FloorPlan16-existence-lettuce-removed"), "high"), 85)  # no goto leaves the start
    assert ref.plan is None and "no evidence can be gathered" in ref.reason


def _cases(n: int, seed: int):
    rng = random.Random(seed)
    ids = question_ids()
    return [(rng.choice(ids), rng.choice(["low", "high"]), rng.randrange(100)) for _ in range(n)]


@needs_fast_downward
@pytest.mark.slow
@pytest.mark.parametrize(("qid", "level", "seed"), _cases(16, 7))
def test_native_and_fast_downward_agree(qid, level, seed):
    task = Task(question(qid), level)
    native = solve_episode(task, qid, seed, "native")
    planner = solve_episode(task, qid, seed, "fast-downward", timeout=300)
    if native.status.value == "unsolvable":  # Fast Downward may give up on such a task, but must find no plan
        assert planner.status.value != "solved", planner.message
    else:
        assert native.status.value == planner.status.value
    if native.status.value == "solved":
        assert native.proven_optimal and planner.proven_optimal
        assert native.values["actions"] == planner.values["actions"]


def test_the_native_search_stops_at_the_timeout_with_the_bound_it_proved():
    task = Task(question("FloorPlan1-counting-apple"))  # 22 actions; the search starts past a deadline of 0 s
    result = solve_episode(task, "FloorPlan1-counting-apple", 0, "native", timeout=0.0)
    assert result.status.value == "timed out" and result.plan is None and not result.proven_optimal
    assert 1 <= result.extra["lower_bound"] <= 22 and "--timeout" in result.message
    assert solve_episode(task, "FloorPlan1-counting-apple", 0, "native", timeout=60.0).status.value == "solved"
