"""The static-material model against crafter itself (creatures removed), and the map search's optimality."""

from __future__ import annotations

import random

import numpy as np
import pytest

from plancheck.domains.smartplay.crafter import prompts
from plancheck.domains.smartplay.crafter.mapmodel import ID, MapRules, MapState, StaticMap
from plancheck.domains.smartplay.crafter.mapsearch import Heuristic, shortest_plan
from plancheck.domains.smartplay.crafter.realmap import static_model
from plancheck.domains.smartplay.crafter.rules import ITEMS
from plancheck.solvers.search import breadth_first_search

MODELLED = [a for a in prompts.CRAFTER_ACTIONS if a not in ("sleep", "place_plant")]


def _clear_creatures(env) -> None:
    for obj in env._world.objects:
        if obj is not env._player:
            env._world.remove(obj)
    for vital in ("health", "food", "drink", "energy"):
        env._player.inventory[vital] = 9


@pytest.mark.parametrize("seed", [0, 3])
def test_the_static_model_steps_as_crafter_does_without_creatures(seed, started):
    env = started(seed).env
    _clear_creatures(env)
    player = env._player
    rng = random.Random(seed)
    if seed == 3:  # a full inventory: every recipe can fire
        for item in ITEMS:
            player.inventory[item] = rng.choice((1, 5, 9))
    model = MapRules(StaticMap.from_array(env._world._mat_map), MapState(
        (int(player.pos[0]), int(player.pos[1])), tuple(int(v) for v in player.facing),
        tuple(int(player.inventory[i]) for i in ITEMS)), "collect_diamond")
    state = model.initial_state()
    kinds = set()
    for _ in range(1500):
        action = rng.choice(MODELLED + list(prompts.CRAFTER_ACTIONS[1:5]) * 3)
        target = (state.position[0] + state.facing[0], state.position[1] + state.facing[1])
        if action == "do" and model.material(state, *target) == ID["grass"]:
            continue  # a sapling with probability 0.1: not modelled
        outcome = model.step(state, action)
        if not outcome.ok and "lava" in outcome.reason:
            continue
        env.step(prompts.CRAFTER_ACTIONS.index(action))
        _clear_creatures(env)
        if outcome.ok and outcome.state != state:
            kinds.add(action)
        state = outcome.state if outcome.ok else state
        assert ((int(player.pos[0]), int(player.pos[1])), tuple(int(v) for v in player.facing)) == (
            state.position, state.facing)
        assert tuple(int(player.inventory[i]) for i in ITEMS) == state.counts, action
        assert all(env._world._mat_map[x, y] == m for x, y, m in state.changed)
    grid = np.array([list(column) for column in model.grid.cells], dtype=np.uint8)
    for x, y, m in state.changed:
        grid[x, y] = m
    assert (grid == env._world._mat_map).all()
    assert len(state.changed) >= 5 and len(kinds) >= (7 if seed == 0 else 9), sorted(kinds)


@pytest.fixture
def model(started):
    def build(seed: int, goal: str, relaxed: bool = False) -> MapRules:
        base = static_model(started(seed), goal)
        return MapRules(base.grid, base.start, goal, relaxed=relaxed)
    return build


@pytest.mark.parametrize("seed,goal", [(0, "collect_wood"), (1, "collect_wood"), (2, "collect_drink"),
                                       (1, "place_table")])
def test_a_star_finds_the_breadth_first_optimum(seed, goal, model):
    model = model(seed, goal)
    actions = ("move_left", "move_right", "move_up", "move_down", "do", "place_table")

    class Limited(MapRules):
        def actions(self, state):
            return iter(actions)

    limited = Limited(model.grid, model.start, goal)
    assert shortest_plan(model).cost == breadth_first_search(limited).cost


def test_the_estimate_never_exceeds_the_distance_left_along_shortest_plans(model):
    build = model
    for seed, goal in ((0, "collect_stone"), (1, "place_furnace"), (4, "make_stone_pickaxe")):
        model = build(seed, goal)
        plan = shortest_plan(model)
        estimate, state = Heuristic(model), model.initial_state()
        for left, action in zip(range(len(plan.actions), 0, -1), plan.actions):
            assert estimate(state) <= left
            state = model.step(state, action).state
        assert model.goal_reached(state)


def test_the_relaxed_model_can_turn_in_place_and_lose_a_table(model):
    model = model(0, "place_table", relaxed=True)
    state = model.initial_state()
    turned = model.step(state, "turn_right").state
    assert turned.position == state.position and turned.facing == (1, 0)
    state = MapState(state.position, (1, 0), tuple(2 if i == "wood" else 0 for i in ITEMS))
    placed = model.step(state, "place_table").state
    assert model.creature_effects(placed)[-1] == f"lose:{state.position[0] + 1}:{state.position[1]}"
    lost = model.step(placed, model.creature_effects(placed)[-1]).state
    assert model.material(lost, state.position[0] + 1, state.position[1]) == ID["path"]
    assert model.cost(placed, "lose:1:1") == 0
