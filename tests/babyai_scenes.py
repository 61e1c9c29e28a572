"""Hand-built minigrid scenes for BabyAI tests: two 6x6 rooms side by side, laid out and instructed
by a ``build(env)`` function, so that a test can pick the exact corner case or mission it needs."""

from __future__ import annotations


def scene(build, *, max_steps: int = 60):
    """A reset two-room minigrid level (rooms 6x6, the wall between them at x = 5) set up by ``build``."""
    from minigrid.envs.babyai.core.roomgrid_level import RoomGridLevel

    class Scene(RoomGridLevel):
        def __init__(self):
            super().__init__(room_size=6, num_rows=1, num_cols=2, max_steps=max_steps)

        def gen_mission(self):
            build(self)

    env = Scene()
    env.reset(seed=0)
    return env


def success_step(env, actions) -> int | None:
    """Replay ``actions`` in ``env``: the step at which minigrid reports success (None: never)."""
    for step, action in enumerate(actions, start=1):
        _, reward, terminated, truncated, _ = env.step(int(action))
        if terminated or truncated:
            return step if terminated and reward > 0 else None
    return None
