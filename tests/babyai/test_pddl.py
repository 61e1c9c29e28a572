"""BabyAI as PDDL: Fast Downward on the exported problems finds the native optimum, and the
exported files are accepted by unified-planning's PDDL reader.

The default suite uses hand-built two-room scenes, one per mission kind (go to, pick up, open a
locked door, put next, and the "then" / "after you" / "and" combinations), where Fast Downward
takes well under a second; the slow suite adds generated levels of the benchmark.
"""

from __future__ import annotations

import pytest

from plancheck.domains.babyai.extract import extract, load_instance
from plancheck.domains.babyai.pddl import domain_text, plan_actions, problem_text
from plancheck.domains.babyai.references import optimal_plan, replay_in_minigrid
from plancheck.solvers.external import run_fast_downward
from plancheck.solvers.result import Status
from tests.babyai.scenes import SCENES, scene, success_step


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
SLOW_LEVELS = [("BabyAI-Open-v0", 1), ("BabyAI-Pickup-v0", 1), ("BabyAI-UnblockPickup-v0", 2),
               ("BabyAI-GoToSeq-v0", 4),  # go to a ball and go to the blue key after you go to ... and go to ...
               ("BabyAI-GoToSeq-v0", 12),  # go to the grey ball after you go to a green box
               ("BabyAI-BossLevel-v0", 96),  # put a red ball next to the purple key and open a door, then go to ...
               ("BabyAI-BossLevel-v0", 18),  # open the blue door in front of you and go to a blue door
               ("BabyAI-BossLevel-v0", 42),  # put the blue key next to a ball
               ("BabyAI-SynthLoc-v0", 44)]  # open a red door (locked: its key first)


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
    import unified_planning.io as up
    instance = _exported(name)
    (tmp_path / "domain.pddl").write_text(domain_text())
    (tmp_path / "problem.pddl").write_text(problem_text(instance))
    problem = up.PDDLReader().parse_problem(str(tmp_path / "domain.pddl"), str(tmp_path / "problem.pddl"))
    assert {a.name for a in problem.actions} >= {"forward", "pickup-for", "unlock", "drop-next-to-thing"}
    floor = instance.width * instance.height - len(instance.walls)
    assert len(problem.all_objects) == floor + 4 + len(instance.things) + len(instance.doors) + len(
        problem.goals[0].args if problem.goals[0].is_and() else problem.goals)


def test_plancheck_reads_back_the_model_it_printed():
    from plancheck.domains.babyai.pddl import domain, problem
    from plancheck.translators.pddl_reader import read_domain, read_problem

    instance = extract(scene(SCENES["then"]), "scene-then", 0)  # open the red door, then pick up the green ball
    assert read_domain(domain_text()) == domain()
    read = read_problem(problem_text(instance), read_domain(domain_text()))
    assert read.init == problem(instance).init and read.objects == problem(instance).objects
    assert str(read.goal) == "(and (done leaf0) (done leaf1))" and ("after", "leaf1", "leaf0") in read.init
