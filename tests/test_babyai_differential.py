"""plancheck's BabyAI rules against the live minigrid environment, step by step.

Each sequence runs in minigrid and in :class:`BabyAIRules` side by side; after every step the
agent's cell and heading, the carried object, every door and every object on the grid, and whether
the episode ended (and so the step at which the mission succeeded) must be identical. Sequences are
random (all seven actions) or a random prefix completed by the optimal plan and a random tail, so
that missions do succeed, on the 16 LLM-BabyBench levels and the Plan rooms.
"""

from __future__ import annotations

import random
import time

import pytest

from plancheck.domains.babyai.extract import extract, observe
from plancheck.domains.babyai.instance import Instance, State
from plancheck.domains.babyai.levels import BABYBENCH_LEVELS, PLAN_ROOMS, reset_env
from plancheck.domains.babyai.mission import NONE, RUNNING
from plancheck.domains.babyai.rules import Action, BabyAIRules
from plancheck.solvers.babyai_heuristic import MissionHeuristic
from plancheck.solvers.babyai_search import Model, astar, mission_goal
from plancheck.solvers.result import Status

ENVIRONMENTS = BABYBENCH_LEVELS + PLAN_ROOMS


def ours(instance: Instance, state: State):
    carried = None if state.carrying == NONE else (instance.things[state.carrying].kind,
                                                    instance.things[state.carrying].color)
    objects = tuple(sorted((t.kind, t.color, c) for t, c in zip(instance.things, state.objects) if c is not None))
    return state.pos, state.dir, carried, state.doors, objects


def completion(rules: BabyAIRules, state: State, budget: float) -> list[Action]:
    model = Model(rules)
    result = astar(model, state, MissionHeuristic(model), mission_goal(model), horizon=rules.horizon,
                   deadline=time.monotonic() + budget)
    return list(result.plan) if result.status is Status.SOLVED else []


def run_sequence(env_id: str, seed: int, rng: random.Random, complete: bool) -> tuple[int, int | None]:
    """Compare one sequence; return (steps compared, success step or None)."""
    env = reset_env(env_id, seed)
    instance = extract(env, env_id, seed)
    rules = BabyAIRules(instance)
    state = instance.start
    assert observe(env, instance) == ours(instance, state), f"{instance.id}: start states differ"
    actions = [Action(rng.randrange(7)) for _ in range(rng.choice((10, 40, 120)) if not complete else rng.randrange(8))]
    step, planned = 0, not complete
    while True:
        if step == len(actions):
            if planned:
                return step, None
            actions += completion(rules, state, 5.0) + [Action(rng.randrange(7)) for _ in range(3)]
            planned = True
            if step == len(actions):
                return step, None
        action = actions[step]
        step += 1
        _, _, terminated, truncated, _ = env.step(int(action))
        outcome = rules.step(state, action)
        state = outcome.state if outcome.ok or outcome.state is not None else state
        where = f"{instance.id} step {step} ({action}) after {[str(a) for a in actions[:step - 1]]}"
        assert observe(env, instance) == ours(instance, state), f"{where}: states differ"
        assert terminated == (state.progress.result != RUNNING), f"{where}: minigrid terminated={terminated}"
        if terminated:
            return step, step
        if truncated:
            return step, None


def run_many(count: int, seed: int) -> dict[str, int]:
    rng = random.Random(seed)
    stats = {"sequences": 0, "steps": 0, "successes": 0}
    for index in range(count):
        env_id = ENVIRONMENTS[index % len(ENVIRONMENTS)]
        complete = index % 4 == 3 and "Ultra" not in env_id
        steps, success = run_sequence(env_id, rng.randrange(1, 10_000), rng, complete)
        stats["sequences"] += 1
        stats["steps"] += steps
        stats["successes"] += success is not None
    return stats


def test_rules_match_minigrid_on_a_few_hundred_sequences():
    stats = run_many(320, seed=1)
    assert stats["sequences"] == 320
    assert stats["successes"] >= 60, stats  # the completed sequences must reach their missions


@pytest.mark.slow
def test_rules_match_minigrid_on_ten_thousand_sequences():
    began = time.perf_counter()
    stats = run_many(10_000, seed=2)
    print(f"\n{stats} in {time.perf_counter() - began:.0f} s")
    assert stats["sequences"] == 10_000
    assert stats["successes"] >= 2_000
