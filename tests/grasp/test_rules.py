"""GRASP's rules and scores under the benchmark and strict semantics, on hand-made grids."""

from __future__ import annotations

import pytest

from plancheck.domains.grasp import scoring
from plancheck.domains.grasp.grid import Grid
from plancheck.domains.grasp.instance import Environment, GridInfo, Setting
from plancheck.domains.grasp.rules import Action, GraspRules
from plancheck.domains.grasp.world import WORLD
from plancheck.rules import Unknown
from plancheck.verifier.execute import StopReason, execute

U, D, L, R, T, P = Action.UP, Action.DOWN, Action.LEFT, Action.RIGHT, Action.TAKE, Action.DROP
INFO = GridInfo("test", 0, "random", "block", "inner", published=False)

# 0 1 2
# E E .    row 0
# . A O    row 1   (A = start (1, 1), O at (1, 2))
# E . E    row 2
GRID = Grid(3, 3, "EE " + "  O" + "E E", (1, 1))


def env(directions=4, limit=None, cost=0.0, grid=GRID) -> Environment:
    return Environment(grid, Setting(directions, limit, cost), INFO)


def run(environment, actions):
    return execute(GraspRules(environment), actions)


def test_move_take_return_drop_delivers_energy():
    e = env()
    trace = run(e, [U, T, L, T, R, D, P])
    assert trace.strictly_valid
    assert trace.final.position == (1, 1) and trace.final.carried == 0
    assert scoring.scores(e, trace) == {"paper": 2.0, "delivered": 2.0}
    assert scoring.metrics(e, trace, 7)["energy_collected"] == 2


def test_blocked_moves_are_no_ops_that_still_cost_a_step():
    e = env(cost=0.3)
    trace = run(e, [R, R, U, T])  # R into the obstacle, twice
    assert [s.ok for s in trace.steps] == [False, False, True, True]
    assert trace.steps[0].reason == "RIGHT from (1, 1) is blocked by an obstacle at (1, 2)"
    assert trace.final.position == (0, 1) and trace.final.carried == 1
    assert scoring.scores(e, trace)["paper"] == pytest.approx(0 - 4 * 0.3)
    assert not trace.strictly_valid and trace.strict_failure() == (1, trace.steps[0].reason)


def test_boundary_and_empty_take_and_empty_drop_are_rejected_with_reasons():
    trace = run(env(), [U, U, P, T, T])
    reasons = [s.reason for s in trace.steps]
    assert reasons == [None, "UP from (0, 1) would leave the grid", "DROP at (0, 1): carrying no energy", None,
                       "TAKE at (0, 1): the cell holds no energy"]


def test_carry_limit_blocks_the_third_unit():
    grid = Grid(1, 4, " EEE", (0, 0))
    e = env(limit=2, grid=grid)
    trace = run(e, [R, T, R, T, R, T])
    assert trace.final.carried == 2
    assert trace.steps[-1].reason == "TAKE at (0, 3): already carrying 2, the carry limit"
    unlimited = run(env(grid=grid), [R, T, R, T, R, T])
    assert unlimited.final.carried == 3


def test_diagonals_only_with_eight_directions_and_no_corner_rule():
    four = run(env(4), [Action.UPLEFT])
    assert not four.steps[0].ok and "not allowed with 4 directions" in four.steps[0].reason
    eight = run(env(8), [Action.UPLEFT, T, Action.DOWNRIGHT, Action.DOWNRIGHT])
    assert eight.final.position == (2, 2) and eight.final.carried == 1  # passes beside the obstacle


def test_drop_puts_all_units_on_the_cell_and_they_can_be_taken_again():
    e = env()
    trace = run(e, [U, T, L, T, P, T, R, D, P])
    assert trace.final.energy[0] == 1 and trace.final.carried == 0
    assert scoring.scores(e, trace) == {"paper": 1.0, "delivered": 1.0}


def test_paper_rule_counts_energy_on_the_final_cell_even_if_never_collected():
    e = env()
    trace = run(e, [D, L])  # ends on (2, 0) which holds one unit
    assert scoring.scores(e, trace) == {"paper": 1.0, "delivered": 0.0}


def test_delivered_rule_counts_only_the_start_cell():
    e = env(cost=0.3)
    trace = run(e, [U, T, D, P, U])
    assert scoring.scores(e, trace) == {"paper": pytest.approx(0 - 1.5), "delivered": pytest.approx(1 - 1.5)}


def test_only_the_first_20_actions_are_executed_and_charged():
    e = env(cost=0.3)
    trace = run(e, [U, D] * 15)
    assert len(trace.steps) == 20 and trace.ignored == 10 and trace.stop is StopReason.HORIZON
    assert scoring.scores(e, trace)["delivered"] == pytest.approx(-6.0)
    assert trace.strict_failure() == (21, "the plan has 30 actions but the step limit is 20")


def test_unknown_tokens_are_no_ops_that_use_a_step():
    trace = run(env(), [U, Unknown("JUMP"), T])
    assert trace.steps[1].reason == "'JUMP' is not a GRASP action"
    assert trace.final.carried == 1 and len(trace.steps) == 3


def test_strict_failure_is_reported_in_plain_words_with_its_step(shared_data):
    environment = next(WORLD.instances(["inner_cluster_block.jsonl-0-0-0-0"], shared_data))
    verdict = WORLD.check(environment, "[UP, UP, UP, UP, UP, UP, LEFT]")
    assert not verdict.valid
    assert str(verdict.failure) == "step 6: UP from (0, 3) would leave the grid"
    blocked = WORLD.check(environment, "[UP, UP, UP, UP, UP, LEFT, LEFT]")
    assert str(blocked.failure) == "step 7: LEFT from (0, 2) is blocked by an obstacle at (0, 1)"
    assert blocked.metrics["noops"] == 1 and blocked.metrics["executed"] == 7


def test_verdict_json_lists_unread_text_and_scores(shared_data):
    environment = next(WORLD.instances(["inner_cluster_block.jsonl-0-0-0-0"], shared_data))
    data = WORLD.check(environment, "My plan: [DOWN, TAKE, up, DROP] (I think)").to_json()
    assert data["actions"] == ["DOWN", "TAKE", "UP", "DROP"]
    assert data["valid"] is True and data["scores"]["delivered"] == 1.0
    assert [u["text"] for u in data["unread"]] == ["My plan:", "(I think)"]
    assert [s["ok"] for s in data["steps"]] == [True] * 4
