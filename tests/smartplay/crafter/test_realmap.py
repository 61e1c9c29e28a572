"""Certified shortest unlocks on real maps, replayed in crafter."""

from __future__ import annotations

import pytest

from plancheck.domains.smartplay.crafter import prompts
from plancheck.domains.smartplay.crafter.realmap import certify_unlock

BASIC = ("collect_wood", "place_table", "make_wood_pickaxe", "collect_stone")


@pytest.mark.parametrize("seed", [0, 1])
def test_the_basic_unlocks_are_proven_shortest_in_the_real_game(seed, started):
    lengths = []
    for goal in BASIC:
        unlock = certify_unlock(seed, goal, game=started(seed))
        assert unlock.static_optimal and unlock.static_ok and unlock.real_ok and unlock.real_optimal, unlock
        assert unlock.relaxed_bound <= unlock.real_bound <= unlock.static_bound == unlock.length
        game = started(seed)  # the plan, played again from the reset: it unlocks at its last action
        steps = [game.step(prompts.ACTIONS.index(action)) for action in unlock.smartplay_actions]
        assert [goal in step.info["unlocked"] for step in steps] == [False] * (len(steps) - 1) + [True]
        lengths.append(unlock.length)
    assert lengths == sorted(lengths)  # each goal needs the one before it


@pytest.mark.slow
def test_when_a_cow_blocks_every_shortest_plan_a_longer_one_is_found_and_said(started):
    unlock = certify_unlock(5, "place_table", game=started(5))
    assert (unlock.static_bound, unlock.real_bound, unlock.length) == (13, 13, 14)
    assert unlock.real_ok and not unlock.static_optimal and not unlock.real_optimal
    assert unlock.to_json()["real_lower_bound"] == 13
