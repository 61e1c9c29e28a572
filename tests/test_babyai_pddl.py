"""BabyAI as PDDL: Fast Downward on the exported problems finds the native optimum, and the
exported files are accepted by unified-planning's PDDL reader.

The default suite uses hand-built two-room scenes, one per mission kind (go to, pick up, open a
locked door, put next, and the "then" / "after you" / "and" combinations), where Fast Downward
takes well under a second; the slow suite adds generated levels of the benchmark.
"""

from __future__ import annotations

import pytest
from babyai_scenes import scene, success_step

from plancheck.domains.babyai.extract import extract, load_instance
from plancheck.domains.babyai.references import optimal_plan, replay_in_minigrid
from plancheck.solvers.external import fast_downward_driver, run_fast_downward
from plancheck.solvers.result import Status
from plancheck.translators.babyai_pddl import domain_text, plan_actions, problem_text

needs_fd = pytest.mark.skipif(fast_downward_driver() is None, reason="Fast Downward (up-fast-downward) is missing")


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


SCENES = {"go to": _goto, "pick up behind a blocker": _pickup_behind_a_blocker, "open a locked door": _open_locked,
          "put next": _put_next, "then": _then, "after you": _after, "and": _and}


@needs_fd
@pytest.mark.parametrize("kind", SCENES)
def test_fast_downward_finds_the_native_optimum_for_every_mission_kind(kind):
    env = scene(SCENES[kind])
    instance = extract(env, f"scene-{kind.replace(' ', '-')}", 0)
    native = optimal_plan(instance)
    assert native.status is Status.SOLVED
    assert success_step(scene(SCENES[kind]), native.plan) == native.cost  # minigrid agrees with the optimum
    run = run_fast_downward(domain_text(), problem_text(instance), search="astar(blind())", timeout=60)
    assert run.status is Status.SOLVED and run.optimal, run.message
    actions = plan_actions(run.plan)
    assert run.cost == len(actions) == native.cost, (env.instrs.surface(env), run.plan)
    assert success_step(scene(SCENES[kind]), actions) == len(actions)  # the PDDL plan works in minigrid


LEVELS = [("BabyAI-GoToLocal-v0", 1), ("BabyAI-PutNextLocal-v0", 2), ("BabyAI-PickupLoc-v0", 2)]
SLOW_LEVELS = [("BabyAI-Open-v0", 1), ("BabyAI-Pickup-v0", 1), ("BabyAI-GoToSeq-v0", 4),
               ("BabyAI-UnblockPickup-v0", 2)]


@needs_fd
@pytest.mark.parametrize("env_id, seed", LEVELS + [pytest.param(*case, marks=pytest.mark.slow) for case in SLOW_LEVELS])
def test_fast_downward_finds_the_native_optimum_on_generated_levels(env_id, seed):
    instance = load_instance(env_id, seed)
    run = run_fast_downward(domain_text(), problem_text(instance), search="astar(blind())", timeout=300)
    assert run.status is Status.SOLVED, run.message
    actions = plan_actions(run.plan)
    assert run.cost == len(actions) == optimal_plan(instance).cost
    assert replay_in_minigrid(instance, actions).exact


def _exported(name: str):
    if name == "scene":
        return extract(scene(SCENES["and"]), "scene-and", 0)
    env_id, seed = name.split("/")
    return load_instance(env_id, int(seed))


@pytest.mark.parametrize("name", ["scene"] + [pytest.param(n, marks=pytest.mark.slow) for n in
                                              ("BabyAI-GoToLocal-v0/1", "BabyAI-BossLevel-v0/3")])
def test_unified_planning_reads_the_exported_domain_and_problem(tmp_path, name):
    up = pytest.importorskip("unified_planning.io")
    instance = _exported(name)
    (tmp_path / "domain.pddl").write_text(domain_text())
    (tmp_path / "problem.pddl").write_text(problem_text(instance))
    problem = up.PDDLReader().parse_problem(str(tmp_path / "domain.pddl"), str(tmp_path / "problem.pddl"))
    assert {a.name for a in problem.actions} >= {"forward", "pickup-for", "unlock", "drop-next-to-thing"}
    floor = instance.width * instance.height - len(instance.walls)
    assert len(problem.all_objects) == floor + 4 + len(instance.things) + len(instance.doors) + len(
        problem.goals[0].args if problem.goals[0].is_and() else problem.goals)
