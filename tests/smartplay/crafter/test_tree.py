"""The tech tree: native rules vs their PDDL (random walks), shortest sequences by three routes."""

from __future__ import annotations

import random

import pytest

from plancheck.domains.smartplay.crafter import pddl, rules
from plancheck.domains.smartplay.crafter.rules import ACTIONS, TechTree, TreeState
from plancheck.solvers.search import breadth_first_search
from plancheck.translators.pddl_reader import read_domain, read_problem
from plancheck.translators.pddl_writer import problem_text
from plancheck.verifier.pddl_exec import PddlRules

SHORTEST = {"collect_coal": 6, "collect_diamond": 18, "collect_drink": 1, "collect_iron": 9, "collect_sapling": 1,
            "collect_stone": 6, "collect_wood": 1, "defeat_skeleton": 3, "defeat_zombie": 5, "eat_cow": 3,
            "make_iron_pickaxe": 17, "make_iron_sword": 17, "make_stone_pickaxe": 8, "make_stone_sword": 8,
            "make_wood_pickaxe": 5, "make_wood_sword": 5, "place_furnace": 10, "place_plant": 2, "place_stone": 7,
            "place_table": 3}


def test_recipes_are_crafters_data():
    from crafter import constants

    for name, info in constants.make.items():
        recipe = rules.RECIPES[f"make_{name}"]
        assert (dict(recipe.uses), recipe.nearby, recipe.gives) == (info["uses"], tuple(info["nearby"]), name)
    for name, info in constants.place.items():
        assert dict(rules.RECIPES[f"place_{name}"].uses) == info["uses"]
    for material, info in constants.collect.items():
        gives = next(iter(info["receive"]))
        action = "collect_drink" if gives == "drink" else f"collect_{gives}"
        assert dict(rules.RECIPES[action].requires) == info["require"]
    assert sorted(rules.TREE_ACHIEVEMENTS + rules.TIMED) == sorted(constants.achievements)


def _random_state(rng: random.Random) -> TreeState:
    counts = tuple(rng.choice((0, 0, 0, 1, 1, 2, 4, 8, 9)) for _ in rules.ITEMS)
    foes = tuple(rng.randint(1, full) for _, full in rules.CREATURES.values())
    return TreeState(counts, rng.random() < 0.5, rng.random() < 0.5, rng.random() < 0.5, foes)


def test_the_pddl_and_the_rules_agree_on_random_walks():
    rng = random.Random(5)
    domain = read_domain(pddl.export("collect_wood")[pddl.DOMAIN_FILE])  # read back: the text is what is tested
    applied = rejected = 0
    seen: set[str] = set()
    for walk in range(80):
        state = TreeState() if walk < 20 else _random_state(rng)
        problem = read_problem(problem_text(pddl.tree_problem("collect_wood", state), domain), domain)
        checker = PddlRules(domain, problem)
        atoms = checker.initial_state()
        assert atoms == pddl.state_atoms(state)
        for _ in range(60):
            # half the time an applicable action, so that deep states are reached
            usable = [a for a in ACTIONS if rules.step(state, a).ok]
            action = rng.choice(usable if rng.random() < 0.5 else ACTIONS)
            native = rules.step(state, action)
            outcome = checker.step(atoms, pddl.to_pddl_step(state, action))
            assert native.ok == outcome.ok, (state, action, getattr(outcome, "reason", ""))
            if native.ok:
                state, atoms = native.state, outcome.state
                assert atoms == pddl.state_atoms(state)
                applied += 1
                seen.add(action)
            else:
                rejected += 1
    assert applied > 1000 and rejected > 1000, (applied, rejected)
    assert seen == set(ACTIONS)  # every action was applied somewhere


def test_shortest_tree_sequences_by_native_search():
    for achievement, length in SHORTEST.items():
        result = breadth_first_search(TechTree(achievement, prune=True))
        assert result.cost == length, achievement
        state = TreeState()
        for action in result.plan:
            outcome = rules.step(state, action)
            assert outcome.ok
            state = outcome.state
        assert achievement in state.unlocked


@pytest.mark.parametrize("achievement", [a for a, n in SHORTEST.items() if n <= 8])
def test_leaving_out_irrelevant_actions_keeps_the_optimum(achievement):
    assert breadth_first_search(TechTree(achievement)).cost == SHORTEST[achievement]


@pytest.mark.slow
@pytest.mark.parametrize("achievement", [a for a, n in SHORTEST.items() if n > 8])
def test_leaving_out_irrelevant_actions_keeps_the_long_optima(achievement):
    assert breadth_first_search(TechTree(achievement)).cost == SHORTEST[achievement]


def test_the_closed_form_bound_is_the_breadth_first_optimum_from_random_states():
    rng = random.Random(11)
    goals = [a for a in rules.TREE_ACHIEVEMENTS if any(r.unlocks == a for r in rules.RECIPES.values())]
    for _ in range(300):
        state = TreeState(tuple(rng.choice((0, 0, 0, 1, 2, 5)) for _ in rules.ITEMS), rng.random() < 0.5,
                          rng.random() < 0.5)
        goal = rng.choice(goals)
        count, must = rules.lower_bound(state, goal)
        plan = breadth_first_search(TechTree(goal, state, prune=True)).plan
        assert count == len(plan), (goal, state)
        collected = {RECIPES_GIVES[a] for a in plan if a.startswith("collect_") and RECIPES_GIVES[a]}
        assert must <= collected | {"drink"}, (goal, state)


RECIPES_GIVES = {name: recipe.gives for name, recipe in rules.RECIPES.items()}
