"""MessengerL1's rules and its reference scores by exact enumeration."""

from __future__ import annotations

from fractions import Fraction

from plancheck.domains.smartplay.messenger.instance import Layout
from plancheck.domains.smartplay.messenger.rules import Action, L1Rules, L1State, l1_step
from plancheck.domains.smartplay.messenger.scoring import POLICIES, expected_score, l1_layouts, l1_references
from plancheck.verifier.execute import execute

LAYOUT = Layout(enemy=(5, 3), message=(7, 5), goal=(3, 5), has_message=False)


def test_reaching_the_message_wins_and_ends_l1():
    state = l1_step(LAYOUT, l1_step(LAYOUT, L1State(), Action.SOUTH), Action.SOUTH)
    assert (state.avatar, state.reward, state.ended) == ((7, 5), 1.0, True)


def test_the_goal_without_the_message_and_the_enemy_lose():
    goal = l1_step(LAYOUT, l1_step(LAYOUT, L1State(), Action.NORTH), Action.NORTH)
    enemy = l1_step(LAYOUT, l1_step(LAYOUT, L1State(), Action.WEST), Action.WEST)
    assert (goal.reward, goal.ended, enemy.reward, enemy.ended) == (-1.0, True, -1.0, True)


def test_with_the_message_the_goal_wins_and_the_message_loses():
    held = L1State(has_message=True)
    assert l1_step(LAYOUT, l1_step(LAYOUT, held, Action.NORTH), Action.NORTH).reward == 1.0
    assert l1_step(LAYOUT, l1_step(LAYOUT, held, Action.SOUTH), Action.SOUTH).reward == -1.0


def test_the_grid_edge_stops_the_avatar():
    state = L1State(avatar=(0, 9))
    assert l1_step(LAYOUT, state, Action.NORTH).avatar == (0, 9)
    assert l1_step(LAYOUT, state, Action.EAST).avatar == (0, 9)


def test_the_executor_stops_at_the_win_within_four_steps():
    trace = execute(L1Rules(LAYOUT), [Action.STAY, Action.SOUTH, Action.SOUTH, Action.NORTH])
    assert trace.goal_step == 3 and trace.final.reward == 1.0


def test_starts_are_24_placements_with_the_message_one_time_in_five():
    starts = l1_layouts()
    assert len(starts) == 48 and sum(p for _, p in starts) == 1
    assert sum(p for layout, p in starts if layout.has_message) == Fraction(1, 5)


def test_reference_scores_by_exact_enumeration():
    assert expected_score(POLICIES["optimal"]) == 1
    assert expected_score(POLICIES["random"]) == Fraction(-2, 25)  # win 8 %, loss 16 %
    assert expected_score(POLICIES["north"]) == Fraction(-1, 4)
    assert l1_references() == {"optimal": 1.0, "random": 0.46, "north": 0.375}
