"""The runtime: crafter's seeding, the fixed despawn order across processes, rendering's random draws."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from plancheck.domains.smartplay.crafter import engine

REPO = Path(__file__).resolve().parents[3]

# Run in a fresh interpreter: play seeded random actions (on past the player's death: crafter keeps
# stepping the world, its creatures and the balancing) and print one digest of the whole state per step.
CHILD = """
import hashlib, sys
import numpy as np
from plancheck.domains.smartplay.crafter import engine
seed, steps, fixed = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3] == "fixed"
env = engine.make_env(seed, fixed_order=fixed)
env.reset()
rng = np.random.RandomState(seed)
digest = hashlib.sha256()
for step in range(steps):
    env.step(int(rng.randint(17)))
    world = env._world
    digest.update(world._mat_map.tobytes())
    for obj in world.objects:
        digest.update(f"{type(obj).__name__}{obj.pos.tolist()}{obj.health}".encode())
    digest.update(repr(env._player.inventory).encode() + world.random.get_state()[1].tobytes())
    if step % 100 == 99:
        print(step + 1, len(world.objects), digest.hexdigest()[:16], flush=True)
"""


def _play(seeds: list[int], steps: int, order: str) -> list[subprocess.Popen]:
    env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONHASHSEED": "random"}
    return [subprocess.Popen([sys.executable, "-c", CHILD, str(seed), str(steps), order], stdout=subprocess.PIPE,
                             text=True, env=env) for seed in seeds]


def _same_in_two_processes(seeds: list[int], steps: int) -> None:
    first, second = _play(seeds, steps, "fixed"), _play(seeds, steps, "fixed")
    for a, b in zip(first, second, strict=True):
        out_a, out_b = a.communicate(timeout=300)[0], b.communicate(timeout=300)[0]
        assert a.returncode == b.returncode == 0
        assert out_a.splitlines() == out_b.splitlines()
        assert len(out_a.splitlines()) == steps // 100


def test_the_same_seed_and_actions_replay_identically_in_separate_processes():
    _same_in_two_processes([0, 1], 1000)


@pytest.mark.slow
def test_many_seeds_replay_identically_over_5000_steps():
    _same_in_two_processes([2, 3, 4, 5, 6, 7], 5000)


def _state(env) -> bytes:
    world = env._world
    parts = [world._mat_map.tobytes(), world.random.get_state()[1].tobytes(), repr(env._player.inventory).encode()]
    parts += [f"{type(o).__name__}{o.pos.tolist()}{o.health}".encode() for o in world.objects]
    return hashlib.sha256(b"|".join(parts)).digest()


def test_skipping_the_pictures_draws_the_same_night_noise():
    drawn, skipped = engine.make_env(4, render=True), engine.make_env(4, render=False)
    drawn.reset(), skipped.reset()
    rng = np.random.RandomState(4)
    nights = 0
    for _ in range(330):  # the first night is steps ~148-272
        action = int(rng.randint(17))
        image = drawn.step(action)[0]
        assert image.shape == (64, 64, 3) and skipped.step(action)[0] is None
        nights += drawn._world.daylight < 0.5
        assert _state(drawn) == _state(skipped)
    assert nights > 100


def test_without_the_pictures_a_night_step_still_draws_3087_numbers():
    env = engine.make_env(4)
    env.reset()
    env._step = 199  # night
    before = env._world.random.get_state()[2]
    state = env._world.random.get_state()
    env._update_time()
    env._obs()
    probe = np.random.RandomState()
    probe.set_state(state)
    probe.uniform(32, 127, (63, 49))
    assert env._world.daylight < 0.5 and before == state[2]
    assert (env._world.random.get_state()[1] == probe.get_state()[1]).all()
    assert env._world.random.get_state()[2] == probe.get_state()[2]


def test_the_fix_is_on_one_env_only():
    import crafter

    fixed, plain = engine.make_env(1), crafter.Env(seed=1)
    assert type(fixed._world).__name__ == "FixedOrderWorld" and type(plain._world) is crafter.engine.World
    engine.install_fixed_order(plain)
    assert isinstance(plain._world, crafter.engine.World) and type(plain._world) is type(fixed._world)
    assert type(crafter.Env(seed=2)._world) is crafter.engine.World


def test_the_chunks_list_objects_in_the_order_they_were_added():
    env = engine.make_env(0)
    env.reset()
    for _ in range(40):
        env.step(0)
    index = {id(obj): i for i, obj in enumerate(env._world._objects) if obj}
    for objs in env._world.chunks.values():
        order = [index[id(obj)] for obj in objs]
        assert order == sorted(order)
    assert sum(len(objs) for objs in env._world.chunks.values()) == len(env._world.objects)


def test_smartplay_seeds_follow_numpys_global_draw():
    np.random.seed(11)
    assert engine.smartplay_crafter_seed(11) == np.random.randint(0, 2**31 - 1)


def test_a_kept_reset_env_replays_as_a_fresh_one():
    fresh = engine.make_env(6)
    fresh.reset()
    kept, again = engine.reset_env(6), engine.reset_env(6)
    rng = np.random.RandomState(6)
    for _ in range(200):
        action = int(rng.randint(17))
        for env in (fresh, kept, again):
            env.step(action)
        assert _state(fresh) == _state(kept) == _state(again)
    assert type(kept._world).__name__ == "FixedOrderWorld"
