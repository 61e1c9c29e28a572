"""The tech tree's shortest sequences by every planner, certified; the timed achievements against crafter."""

from __future__ import annotations

import pytest

from plancheck.domains.smartplay.crafter import rules, solve, timing
from plancheck.solvers.external import fast_downward_driver
from plancheck.solvers.result import Status

from .test_tree import SHORTEST

needs_fd = pytest.mark.skipif(fast_downward_driver() is None, reason="Fast Downward is an optional extra")


@needs_fd
@pytest.mark.parametrize("goal", ["make_wood_pickaxe", "collect_diamond", "defeat_zombie"])
def test_fast_downward_agrees_with_the_native_search(goal):
    result = solve.solve_tree(goal, "fast-downward", timeout=120)
    assert result.status is Status.SOLVED and result.proven_optimal, result.message
    assert len(result.plan) == SHORTEST[goal] == result.extra["native_optimum"]


@pytest.mark.slow
@needs_fd
@pytest.mark.parametrize("goal", sorted(SHORTEST))
def test_fast_downward_agrees_on_every_goal(goal):
    result = solve.solve_tree(goal, "fast-downward", timeout=300)
    assert result.proven_optimal and len(result.plan) == SHORTEST[goal]


@pytest.mark.parametrize("goal", ["collect_stone", "place_furnace"])
def test_pyperplan_agrees_where_it_grounds(goal):
    pytest.importorskip("pyperplan")
    result = solve.solve_tree(goal, "pyperplan", timeout=120)
    assert result.proven_optimal and len(result.plan) == SHORTEST[goal]


def test_pyperplan_is_not_offered_for_the_iron_recipes():
    result = solve.solve_tree("make_iron_pickaxe", "pyperplan")
    assert result.status is Status.UNSUPPORTED and "10^8" in result.message


def test_native_sequences_are_replayed_and_timed_ones_counted():
    for goal, length in SHORTEST.items():
        result = solve.solve_tree(goal)
        assert result.proven_optimal and len(result.plan) == length
    assert len(solve.solve_tree("wake_up").plan) == 42 and len(solve.solve_tree("eat_plant").plan) == 304
    assert solve.solve_tree("wake_up", "fast-downward").status is Status.UNSUPPORTED
    assert solve.replays("collect_stone", ("collect_wood",) * 3 + ("place_table", "collect_stone")) == (
        False, "action 5 (collect_stone): collect_stone needs 1 wood_pickaxe")


def test_the_sleep_clock_is_crafters(started):
    game = started(3)
    plan = timing.wake_up_plan()
    player = game.env._player
    clock = timing.AFTER_RESET
    assert (player._fatigue, player.inventory["energy"], player.sleeping) == clock
    for index, action in enumerate(plan, start=1):
        clock, woke = timing.tick(clock, action == "sleep")
        step = game.step("Sleep" if action == "sleep" else "Noop")
        assert (player._fatigue, player.inventory["energy"], player.sleeping) == clock
        assert ("wake_up" in step.info["unlocked"]) == woke == (index == len(plan))


def test_a_plant_is_eaten_304_actions_after_the_first_do_when_nothing_disturbs_it(started):
    game = started(0)
    world, player = game.env._world, game.env._player

    def calm():  # no creature near the plant (the count assumes none)
        for obj in world.objects:
            if obj is not player and type(obj).__name__ != "Plant":
                world.remove(obj)
    calm()
    while player.inventory["sapling"] == 0:  # the 10 % draw: the plan counts the lucky Do
        game.step("Do")
        calm()
    actions = [{"do": "Do", "place_plant": "Place Plant", "noop": "Noop"}[a] for a in timing.eat_plant_plan()[1:]]
    for index, action in enumerate(actions, start=2):
        if index == len(actions):  # one action early: not ripe yet
            early = game.env._world.objects
            assert all(not getattr(o, "ripe", False) for o in early)
        step = game.step(action)
        calm()
        assert ("eat_plant" in step.info["unlocked"]) == (index == len(actions) + 1)
    assert rules.TIMED == ("eat_plant", "wake_up")
