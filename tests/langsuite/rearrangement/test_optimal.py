"""Certified optima: the native A* and Fast Downward on the PDDL compilation agree; the engine replays both."""

from __future__ import annotations

import random

import pytest

from plancheck.domains.langsuite.rearrangement import pddl, search
from plancheck.domains.langsuite.rearrangement.instance import episode, episode_ids
from plancheck.domains.langsuite.rearrangement.problem import Problem, restored
from plancheck.domains.langsuite.rearrangement.rules import Task
from plancheck.domains.langsuite.rearrangement.solve import certify, optimal, replay, to_acts
from plancheck.solvers.external import fast_downward_driver, run_fast_downward
from plancheck.solvers.result import Status


def _sample(n: int, seed: int) -> list[str]:
    return random.Random(seed).sample(episode_ids(), n)


@pytest.mark.parametrize("eid", _sample(12, 1))
def test_native_optimum_is_certified_and_meets_its_bound(eid):
    ref = optimal(Task(episode(eid)))
    assert ref.certified, ref.reason
    assert ref.bound <= ref.length
    assert ref.timesteps == ref.length + 2 <= 100


def test_an_episode_with_nothing_to_move_is_solved_by_stopping():
    eid = next(e for e in _sample(200, 3) if not Problem(Task(episode(e))).movers)
    ref = optimal(Task(episode(eid)))
    assert ref.length == 0 and ref.certified


def test_shorter_plans_fail_and_the_replay_names_the_failure():
    task = Task(episode("FloorPlan422_21"))
    ref = optimal(task)
    acts = list(ref.acts)
    assert not replay(task, acts[:-1]).valid  # without its last action the goal is not reached
    assert restored(task, replay(task, acts[:-1]).final.scene, bool(replay(task, acts[:-1]).final.inventory))
    blocked = certify(task, "test", [a for a in acts if a.name != "PickUp"])
    assert not blocked.certified and "refuses" in blocked.reason


needs_fd = pytest.mark.skipif(fast_downward_driver() is None, reason="Fast Downward (plancheck[planners]) missing")


def _agree(eid: str) -> None:
    task = Task(episode(eid))
    problem = Problem(task)
    native = search.solve(problem)
    files = pddl.export(problem)
    run = run_fast_downward(files[pddl.DOMAIN_FILE], files[f"{eid}.pddl"], search="astar(hmax())", timeout=600)
    assert run.status is Status.SOLVED
    assert run.cost == native.length
    assert certify(task, "fd", to_acts(pddl.from_pddl_plan(problem, run.plan))).certified


@needs_fd
@pytest.mark.parametrize("eid", ["FloorPlan422_21", "FloorPlan425_40"])
def test_fast_downward_agrees_on_small_episodes(eid):
    _agree(eid)


@pytest.mark.slow
@needs_fd
@pytest.mark.parametrize("eid", _sample(24, 11))
def test_fast_downward_agrees(eid):
    _agree(eid)
