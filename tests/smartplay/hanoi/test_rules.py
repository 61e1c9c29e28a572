"""Hanoi rules, texts and scores against SmartPlay's recorded rollouts (byte for byte)."""

from __future__ import annotations

import json

import pytest

from plancheck.domains.smartplay.hanoi import prompts, scoring
from plancheck.domains.smartplay.hanoi.instance import HanoiInstance, parse_id, select
from plancheck.domains.smartplay.hanoi.rules import HanoiRules, Move, apply, goal_state, initial_state
from plancheck.domains.smartplay.hanoi.solve import recursive_plan
from plancheck.errors import InstanceNotFoundError
from plancheck.rules import Unknown
from plancheck.solvers.search import breadth_first_search
from plancheck.verifier.execute import StopReason, execute


@pytest.fixture(scope="module")
def rollouts(shared_data):
    return json.loads((shared_data / "smartplay" / "hanoi_optimal_rollouts.json").read_text())


@pytest.fixture(scope="module")
def invalid_example(shared_data):
    return json.loads((shared_data / "smartplay" / "hanoi3_invalid_and_score_drop_example.json").read_text())


@pytest.mark.parametrize("disks", [3, 4])
def test_manual_is_byte_identical(shared_data, rollouts, disks):
    expected = (shared_data / "smartplay" / f"hanoi{disks}_manual.txt").read_text()
    assert prompts.manual(disks) == expected == rollouts[f"Hanoi{disks}Disk"]["manual"]


def test_action_list_and_reset(rollouts):
    for record in rollouts.values():
        assert [move.sentence for move in Move] == record["action_list"]
        assert prompts.observation(initial_state(record["num_disks"])) == record["reset"]["obs"]
        assert record["reset"]["history"] == "" and record["reset"]["score"] == 0


@pytest.mark.parametrize("name", ["Hanoi3Disk", "Hanoi4Disk"])
def test_optimal_rollouts_replay_exactly(rollouts, name):
    record = rollouts[name]
    instance = parse_id(record["env_id"])
    trace = execute(HanoiRules(instance), [Move(i) for i in record["optimal_plan_action_indices"]])
    assert [info.to_json() for info in scoring.episode(trace)] == record["steps"]  # obs and history included
    assert scoring.scores(instance, trace) == {"score": instance.disks, "normalised": 1.0, "completion": 1,
                                               "reward": 100}


def test_invalid_moves_and_score_drop_replay_exactly(invalid_example):
    instance = parse_id(invalid_example["env"])
    steps = invalid_example["steps"]
    trace = execute(HanoiRules(instance), [Move(step["action"]) for step in steps])
    for info, recorded in zip(scoring.episode(trace), steps, strict=True):
        data = info.to_json()
        assert {key: data[key] for key in recorded} == recorded
    assert [s["score"] for s in steps] == [info.score for info in scoring.episode(trace)]
    assert scoring.scores(instance, trace) == {"score": steps[-1]["score"], "normalised": steps[-1]["score"] / 3,
                                               "completion": 0, "reward": sum(s["reward"] for s in steps)}


def test_rejections_explain_themselves():
    state = initial_state(3)
    assert apply(state, Move.BA).reason == "B->A moves from rod B, which is empty"
    after = apply(state, Move.AC).state
    rejected = apply(after, Move.AC)
    assert rejected.reason == "A->C puts disk 1 on the smaller disk 0" and rejected.unmet == ("(smaller d1 d0)",)
    assert HanoiRules(HanoiInstance(3)).step(state, Unknown("jump")).reason == "'jump' is not a Hanoi move"


def test_goal_ends_the_episode_and_the_step_limit_cuts():
    rules = HanoiRules(HanoiInstance(2))
    trace = execute(rules, [Move.AB, Move.AC, Move.BC, Move.CA])
    assert trace.stop is StopReason.GOAL and trace.goal_step == 3 and trace.ignored == 1
    assert not trace.strictly_valid and trace.strict_failure() == (
        4, "the goal is reached at step 3 but the plan goes on with 1 more action(s), which the episode does not run")
    assert execute(rules, [Move.AB, Move.AC, Move.BC]).strictly_valid
    long = execute(HanoiRules(HanoiInstance(5)), recursive_plan(5))
    assert long.stop is StopReason.HORIZON and len(long.steps) == 30 and long.ignored == 1
    assert long.strict_failure() == (31, "the plan has 31 actions but the step limit is 30")


@pytest.mark.parametrize("disks", [1, 2, 3, 4, 5])
def test_breadth_first_search_confirms_2_to_the_n_minus_1(disks):
    result = breadth_first_search(HanoiRules(HanoiInstance(disks, step_limit=10 ** 6)))
    assert result.cost == 2 ** disks - 1 == len(recursive_plan(disks))
    assert execute(HanoiRules(HanoiInstance(disks, step_limit=10 ** 6)), recursive_plan(disks)).final == \
        goal_state(disks)


def test_history_keeps_the_last_five_observations():
    observations = [f"obs {i}" for i in range(8)]
    assert prompts.history(observations, 0) == ""
    shown = prompts.history(observations, 7)
    assert shown.startswith("Most recent 5 steps of the player's in-game observation:\n\nPlayer Observation Step 2:")
    assert shown.endswith("Player Observation Step 6:\nobs 6")


def test_instance_ids():
    assert [i.id for i in select(["all", "Hanoi4Disk", "hanoi-1..2", "hanoi5"])] == \
        ["hanoi-3", "hanoi-4", "hanoi-4", "hanoi-1", "hanoi-2", "hanoi-5"]
    assert parse_id("hanoi-3").env_id == "Hanoi3Disk-v0"
    for bad in ("hanoi-0", "tower-3", "hanoi-99"):
        with pytest.raises(InstanceNotFoundError):
            parse_id(bad)
