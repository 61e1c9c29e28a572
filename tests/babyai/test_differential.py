"""plancheck's BabyAI rules against the live minigrid environment, step by step.

Each sequence runs in minigrid and in :class:`BabyAIRules` side by side; after every step the
agent's cell and heading, the carried object, every door and every object on the grid, the mission
verifier's memory (target positions, a_done/b_done, preCarrying) and whether the episode ended (so
the step at which the mission succeeded) must be identical. Sequences are
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
from plancheck.domains.babyai.search.astar import Model, astar, mission_goal
from plancheck.domains.babyai.search.heuristic import MissionHeuristic
from plancheck.solvers.result import Status
from tests.babyai.scenes import scene

ENVIRONMENTS = BABYBENCH_LEVELS + PLAN_ROOMS


def identities(env) -> dict[int, int]:
    """id(minigrid object) -> plancheck reference, numbered as extraction numbers them (at reset)."""
    u = env.unwrapped
    refs: dict[int, int] = {}
    doors = objects = 0
    boxes = []
    for obj in u.grid.grid:
        if obj is None or obj.type == "wall":
            continue
        if obj.type == "door":
            doors += 1
            refs[id(obj)] = -doors
        else:
            refs[id(obj)] = objects
            objects += 1
            if obj.type == "box" and obj.contains is not None:
                boxes.append(obj)
    while boxes:
        inner = boxes.pop(0).contains
        refs[id(inner)] = objects
        objects += 1
        if inner.type == "box" and inner.contains is not None:
            boxes.append(inner)
    if u.carrying is not None and id(u.carrying) not in refs:
        refs[id(u.carrying)] = objects
    return refs


def verifier_state(env, refs: dict[int, int]) -> tuple:
    """minigrid's verifier state in plancheck's terms: positions per description (in tree order),
    a_done / b_done per combinator (pre-order), preCarrying per Pickup / PutNext leaf."""
    status = {False: 0, "continue": 0, None: 0, "success": 1, "failure": 2}
    poss, done, pre = [], [], []

    def walk(instr):
        if hasattr(instr, "instr_a"):
            index = len(done)
            done.extend([0, 0])
            walk(instr.instr_a)
            walk(instr.instr_b)
            done[index], done[index + 1] = status[instr.a_done], status[instr.b_done]
            return
        for attr in ("desc", "desc_move", "desc_fixed"):
            if hasattr(instr, attr):
                poss.append(tuple(sorted((int(x), int(y)) for x, y in getattr(instr, attr).obj_poss)))
        if hasattr(instr, "preCarrying"):
            pre.append(-1 if instr.preCarrying is None else refs[id(instr.preCarrying)])

    walk(env.unwrapped.instrs)
    return tuple(poss), tuple(done), tuple(pre)


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
    refs = identities(env)
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
        progress = state.progress
        assert verifier_state(env, refs) == (progress.poss, progress.done, progress.pre), f"{where}: verifiers differ"
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
    stats = run_many(120, seed=1)  # 10,000 in the slow suite
    assert stats["sequences"] == 120
    assert stats["successes"] >= 25, stats  # the completed sequences must reach their missions (30 here)


@pytest.mark.slow
def test_rules_match_minigrid_on_ten_thousand_sequences():
    began = time.perf_counter()
    stats = run_many(10_000, seed=2)
    print(f"\n{stats} in {time.perf_counter() - began:.0f} s")
    assert stats["sequences"] == 10_000
    assert stats["successes"] >= 2_000


# -- hand-built scenes for the verifier's corner cases ---------------------------------------------

def replay_scene(env, actions: list[str], *, tail: int = 0, seed: int = 0) -> int | None:
    """Replay ``actions`` (then ``tail`` random ones) in minigrid and in plancheck, comparing every step."""
    instance = extract(env, "scene", 0)
    rules = BabyAIRules(instance)
    refs = identities(env)
    state = instance.start
    rng = random.Random(seed)
    sequence = [Action[name] for name in actions] + [Action(rng.randrange(7)) for _ in range(tail)]
    for step, action in enumerate(sequence, start=1):
        _, reward, terminated, _, _ = env.step(int(action))
        outcome = rules.step(state, action)
        state = outcome.state if outcome.ok or outcome.state is not None else state
        assert observe(env, instance) == ours(instance, state), f"step {step} ({action}): states differ"
        assert verifier_state(env, refs) == (state.progress.poss, state.progress.done, state.progress.pre), step
        assert terminated == (state.progress.result != RUNNING), f"step {step} ({action})"
        if terminated:
            return step if reward > 0 else -step
    return None


def test_goto_targets_stay_where_they_were_until_a_drop():
    from minigrid.core.world_object import Ball, Key
    from minigrid.envs.babyai.core.verifier import AndInstr, GoToInstr, ObjDesc, PickupInstr

    def build(env):
        env.put_obj(Ball("red"), 3, 2)
        env.put_obj(Key("blue"), 1, 4)
        env.agent_pos, env.agent_dir = (2, 2), 0
        env.instrs = AndInstr(PickupInstr(ObjDesc("key", "blue")), GoToInstr(ObjDesc("ball", "red")))

    # picking the ball up completes "go to" (its old cell is still in front); the drop refreshes it
    assert replay_scene(scene(build), ["pickup", "left", "left", "drop", "left", "forward", "pickup", "drop",
                                       "right", "pickup"]) is None
    assert replay_scene(scene(build), ["pickup", "right", "drop", "right", "forward", "left", "forward",
                                       "pickup"]) == 8
    replay_scene(scene(build), [], tail=60, seed=1)  # random: the step-by-step comparison is the test


def test_then_verifies_the_second_part_with_a_fresh_memory_in_the_same_step():
    from minigrid.core.world_object import Ball
    from minigrid.envs.babyai.core.verifier import AfterInstr, BeforeInstr, GoToInstr, ObjDesc, PickupInstr

    def build(env):
        env.put_obj(Ball("red"), 3, 2)
        env.put_obj(Ball("green"), 2, 4)
        env.agent_pos, env.agent_dir = (2, 2), 0
        env.instrs = BeforeInstr(PickupInstr(ObjDesc("ball", "red")), PickupInstr(ObjDesc("ball")))

    assert replay_scene(scene(build), ["pickup"]) == 1  # both parts succeed on the same pickup

    def build_after(env):
        build(env)
        env.instrs = AfterInstr(GoToInstr(ObjDesc("ball", "green")), PickupInstr(ObjDesc("ball", "red")))

    assert replay_scene(scene(build_after), ["pickup", "right", "forward"]) == 3
    assert replay_scene(scene(build_after), ["right", "forward", "left", "pickup"]) is None  # wrong order


def test_doors_lock_unlock_close_reopen_and_strict_failure():
    from minigrid.core.world_object import Door, Key
    from minigrid.envs.babyai.core.verifier import ObjDesc, OpenInstr

    def build(env, open_=False, strict=False):
        env.grid.set(5, 2, Door("yellow", is_open=open_, is_locked=not open_))
        env.grid.set(5, 3, Door("red"))
        env.put_obj(Key("yellow"), 4, 3)
        env.agent_pos, env.agent_dir = (4, 2), 0
        env.instrs = OpenInstr(ObjDesc("door", "yellow"), strict=strict)

    assert replay_scene(scene(build), ["toggle", "right", "pickup", "left", "toggle"]) == 5
    assert replay_scene(scene(lambda e: build(e, open_=True)), ["toggle", "toggle"]) == 2
    strict = scene(lambda e: build(e, strict=True))
    assert replay_scene(strict, ["right", "pickup", "forward", "left", "toggle"]) == -5  # the wrong door


def test_put_next_boxes_and_failed_drops():
    from minigrid.core.world_object import Ball, Box, Key
    from minigrid.envs.babyai.core.verifier import ObjDesc, PutNextInstr

    def build(env):
        env.put_obj(Key("blue"), 2, 3)
        env.put_obj(Ball("red"), 4, 1)
        env.put_obj(Box("purple", Key("green")), 1, 2)
        env.agent_pos, env.agent_dir = (2, 2), 1
        env.instrs = PutNextInstr(ObjDesc("key", "blue"), ObjDesc("ball", "red"))

    assert replay_scene(scene(build), ["pickup", "right", "drop", "toggle", "left", "left", "forward", "left",
                                       "drop"]) == 9
    for seed in range(3):
        replay_scene(scene(build), ["right", "toggle"], tail=50, seed=seed)  # random tails: compared step by step
