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


def _traced_verdict(environment, tokens, unknown):
    """The verdict as the generic route makes it: the executor's trace, then ``from_trace`` (check.py's route
    before GraspRules.run)."""
    from plancheck.domains.grasp.check import describe
    from plancheck.domains.grasp.optima import optimum_of
    from plancheck.domains.grasp.parse import parse_tokens
    from plancheck.verifier.verdict import from_trace

    parsed = parse_tokens(tokens)
    actions = parsed.actions(unknown)
    trace = execute(GraspRules(environment), actions)
    return from_trace("grasp", environment.id, parsed, trace, scores=scoring.scores(environment, trace),
                      metrics=scoring.metrics(environment, trace, len(actions)), has_goal=False,
                      describe_state=describe, executed=actions, optimal=optimum_of(environment))


NAMES = ("up", "down", "left", "right", "upleft", "upright", "downleft", "downright", "take", "drop", "TAKE", "north",
         "jump", "drop")


@pytest.mark.parametrize("spec", ["gen3_inner_cluster_block", "gen5_outer_random_free"])
def test_the_fast_run_gives_the_traced_verdict_field_for_field(spec):
    """check_answer runs answers through GraspRules.run (no object per step); on random answers under every
    setting (moves off the grid and into obstacles, diagonals with 4 directions, TAKE at the limit and on empty
    cells, DROP with nothing, unknown names, lists past the step limit) its verdict, its JSON with and without
    the per-step trace, and its feedback equal the generic executor's, as text and as a list."""
    import random

    from plancheck.domains.grasp.catalog import environment
    from plancheck.domains.grasp.check import check_answer

    rng = random.Random(spec)
    for mv in (0, 1):
        for lim in (0, 1):
            for cost in (0, 1):
                for index in range(2):
                    environment_ = environment(f"{spec}-{index}-{mv}-{lim}-{cost}", None)
                    for _ in range(6):
                        tokens = [rng.choice(NAMES) for _ in range(rng.choice((0, 1, 3, 12, 20, 21, 26)))]
                        for unknown in ("noop", "skip"):
                            expected = _traced_verdict(environment_, tokens, unknown)
                            fast = check_answer(environment_, tokens, unknown=unknown)
                            assert fast.to_json(with_steps=False) == expected.to_json(with_steps=False)
                            assert fast.to_json() == expected.to_json()
                            assert fast == expected
                            if unknown == "skip":
                                continue
                            text = check_answer(environment_, "[" + ", ".join(tokens) + "]", unknown=unknown)
                            assert text.to_json()["steps"] == expected.to_json()["steps"]
                            assert text.feedback() == expected.feedback()


def test_the_fast_run_rejects_what_step_rejects_with_its_words():
    e = env(directions=4, limit=2)
    run_ = GraspRules(e).run([U, T, Action.UPLEFT, D, T, T, L, L, T, P, P])
    assert run_.first_rejected == 3 and run_.rejection.reason == "UPLEFT is not allowed with 4 directions (only UP, " \
        "DOWN, LEFT, RIGHT)"
    assert run_.before_rejection.position == (0, 1) and run_.before_rejection.carried == 1
    assert run_.executed == 11 and run_.rejected == 6 and run_.final == (((1, 0), 0, (1, 0, 0, 1, 0, 0, 1, 0, 1), 1))
