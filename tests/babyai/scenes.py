"""Hand-built minigrid scenes for BabyAI tests: two 6x6 rooms side by side, laid out and instructed
by a ``build(env)`` function, so that a test can pick the exact corner case or mission it needs;
``SCENES`` has one scene per mission kind."""

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


def _layout(env, *, door: str = "red", locked: bool = False, door_y: int = 2, things=()):
    """A door between the rooms at (5, door_y), objects ``(obj, x, y)``, the agent at (2, 2) facing east."""
    from minigrid.core.world_object import Door

    env.grid.set(5, door_y, Door(door, is_locked=locked))
    for obj, x, y in things:
        env.put_obj(obj, x, y)
    env.agent_pos, env.agent_dir = (2, 2), 0


def _goto(env):
    from minigrid.core.world_object import Ball
    from minigrid.envs.babyai.core.verifier import GoToInstr, ObjDesc

    _layout(env, things=[(Ball("red"), 8, 3)])
    env.instrs = GoToInstr(ObjDesc("ball", "red"))


def _pickup_behind_a_blocker(env):
    from minigrid.core.world_object import Ball, Key
    from minigrid.envs.babyai.core.verifier import ObjDesc, PickupInstr

    _layout(env, things=[(Key("blue"), 7, 1), (Ball("grey"), 4, 2)])
    env.agent_pos = (2, 3)
    env.instrs = PickupInstr(ObjDesc("key", "blue"))


def _open_locked(env):
    from minigrid.core.world_object import Key
    from minigrid.envs.babyai.core.verifier import ObjDesc, OpenInstr

    _layout(env, door="yellow", locked=True, things=[(Key("yellow"), 3, 4)])
    env.instrs = OpenInstr(ObjDesc("door", "yellow"))


def _put_next(env):
    from minigrid.core.world_object import Ball, Key
    from minigrid.envs.babyai.core.verifier import ObjDesc, PutNextInstr

    _layout(env, door_y=3, things=[(Key("blue"), 2, 4), (Ball("red"), 8, 2)])
    env.instrs = PutNextInstr(ObjDesc("key", "blue"), ObjDesc("ball", "red"))


def _then(env):
    from minigrid.core.world_object import Ball
    from minigrid.envs.babyai.core.verifier import BeforeInstr, ObjDesc, OpenInstr, PickupInstr

    _layout(env, things=[(Ball("green"), 1, 4)])
    env.instrs = BeforeInstr(OpenInstr(ObjDesc("door", "red")), PickupInstr(ObjDesc("ball", "green")))


def _after(env):
    from minigrid.core.world_object import Ball, Key
    from minigrid.envs.babyai.core.verifier import AfterInstr, GoToInstr, ObjDesc, PickupInstr

    _layout(env, things=[(Ball("green"), 3, 2), (Key("blue"), 8, 4)])
    env.instrs = AfterInstr(GoToInstr(ObjDesc("ball", "green")), PickupInstr(ObjDesc("key", "blue")))


def _and(env):
    from minigrid.core.world_object import Ball, Key
    from minigrid.envs.babyai.core.verifier import AndInstr, GoToInstr, ObjDesc, PutNextInstr

    _layout(env, things=[(Ball("green"), 1, 1), (Key("blue"), 7, 4)])
    env.instrs = AndInstr(GoToInstr(ObjDesc("door", "red")), PutNextInstr(ObjDesc("ball", "green"),
                                                                          ObjDesc("key", "blue")))


def key_and_ball(env):
    """One hand for two objects: the yellow key must reach the locked door and the ball the box behind it."""
    from minigrid.core.world_object import Ball, Box, Key
    from minigrid.envs.babyai.core.verifier import ObjDesc, PutNextInstr

    _layout(env, door="yellow", locked=True, things=[(Key("yellow"), 1, 4), (Ball("green"), 3, 1),
                                                      (Box("red"), 9, 4)])
    env.instrs = PutNextInstr(ObjDesc("ball", "green"), ObjDesc("box", "red"))


SCENES = {"go to": _goto, "pick up behind a blocker": _pickup_behind_a_blocker, "open a locked door": _open_locked,
          "put next": _put_next, "then": _then, "after you": _after, "and": _and}
