"""The Decompose helper: its detours are optimal (interactions first, then length) and its searches
stay bounded on long, arbitrary subgoal lists."""

from __future__ import annotations

import pytest

from plancheck.domains.babyai.extract import extract, load_instance
from plancheck.domains.babyai.levels import BABYBENCH_LEVELS
from plancheck.domains.babyai.rules import Action, BabyAIRules
from plancheck.domains.babyai.search.astar import Model, astar
from plancheck.domains.babyai.subgoals import INTERACTION_COST, Helper
from plancheck.domains.babyai.tasks import Subgoal
from plancheck.domains.babyai.world import WORLD
from plancheck.solvers.result import Status
from tests.babyai.scenes import SCENES, scene


def cost(actions) -> int:
    return sum(INTERACTION_COST if action >= Action.pickup else 1 for action in actions)


def blind_cost(rules: BabyAIRules, goal) -> int:
    model = Model(rules)
    result = astar(model, rules.initial_state(), lambda cid, pose: 0, goal(model),
                   cost=lambda action: INTERACTION_COST if action >= int(Action.pickup) else 1)
    assert result.status is Status.SOLVED
    return result.cost


@pytest.mark.parametrize("kind, cell, interactions, help_", [
    # move the grey ball off the door's approach (GoNextTo + Pickup), open the door on the way (Open)
    ("pick up behind a blocker", (8, 1), 2, 3),
    ("go to", (9, 4), 1, 1),  # the door on the way
    ("put next", (9, 1), 1, 1)])
def test_go_next_to_takes_the_cheapest_detour(kind, cell, interactions, help_):
    rules = BabyAIRules(extract(scene(SCENES[kind]), kind, 0))
    run = Helper(rules).run([Subgoal("GoNextToSubgoal", cell)])
    assert run.steps[0].note == "" and run.final.front == cell
    index = Model(rules).cell(*cell)
    assert cost(run.actions) == blind_cost(rules, lambda model: lambda cid, pose: model.front[pose] == index)
    assert cost(run.actions) // INTERACTION_COST == interactions and run.help == help_


def test_open_fetches_the_key_and_pickup_frees_the_hands():
    rules = BabyAIRules(extract(scene(SCENES["open a locked door"]), "locked", 0))
    run = Helper(rules).run([Subgoal("GoNextToSubgoal", (5, 2)), Subgoal("OpenSubgoal")])
    assert run.success and [str(s) for s in run.steps[1].help] == [  # the detour for the key, cut into subgoals
        "(GoNextToSubgoal, (3, 4))", "(PickupSubgoal)", "(GoNextToSubgoal, (5, 2))"]
    rules = BabyAIRules(extract(scene(SCENES["pick up behind a blocker"]), "blocker", 0))
    run = Helper(rules).run([Subgoal("GoNextToSubgoal", (4, 2)), Subgoal("PickupSubgoal"),
                             Subgoal("GoNextToSubgoal", (7, 1)), Subgoal("PickupSubgoal")])
    # the door on the way is opened (help: Open); with the grey ball in hand, the pickup needs a drop:
    # turn to a free cell, drop, turn back (help: GoNextTo, Drop, GoNextTo; turning is going next to)
    assert run.success and rules.things[run.final.carrying].name == "blue key"
    assert [[str(h) for h in step.help] for step in run.steps] == [
        [], [], ["(OpenSubgoal)"], ["(GoNextToSubgoal, (6, 2))", "(DropSubgoal)", "(GoNextToSubgoal, (7, 1))"]]
    assert run.help == 4


@pytest.mark.parametrize("env_id, seed", [("BabyAI-BossLevel-v0", 3), ("BabyAI-SynthLoc-v0", 7)])
def test_long_arbitrary_lists_end_at_the_step_limit_without_exhausting_a_search(env_id, seed):
    instance = load_instance(env_id, seed)
    subgoals = [s for x in range(1, 20, 3) for y in range(1, 20, 4)
                for s in (Subgoal("GoNextToSubgoal", (x, y)), Subgoal("PickupSubgoal"),
                          Subgoal("GoNextToSubgoal", (y, x)), Subgoal("DropSubgoal"))]
    run = Helper(BabyAIRules(instance)).run(subgoals)
    assert run.stopped == "step limit reached" and len(run.actions) == instance.max_steps
    assert not any("search states" in step.note for step in run.steps) and run.help > 0


@pytest.mark.parametrize("level", BABYBENCH_LEVELS)
def test_solve_subgoals_succeed_without_help_on_every_level(level):
    """``solve``'s subgoal list (the Decompose expert list), answered back: the mission is done with no help.
    GoToSeq 2-4 failed before a move completing part of the mission ("go to ..., then ...") became a subgoal."""
    seeds = (1, 2, 3, 4) if level == "BabyAI-GoToSeq-v0" else (1, 2)
    for seed in seeds:
        item = next(WORLD.instances([f"{level}/seed={seed}"], None, task="decompose"))
        result = WORLD.solve(item, timeout=120)
        assert result.status is Status.SOLVED, seed
        verdict = WORLD.check(item, "<START>\n" + "\n".join(result.extra["subgoals"]) + "\n<END>")
        assert verdict.scores == {"CR": 1.0, "PR": 1.0, "ACI": 1.0} and verdict.metrics["help"] == 0, seed
