"""The GRASP exact solver against its previous version (``exact_reference.py``): the same value and the same plan.

The solver's bound and tables were changed for speed (a trip-by-trip bound, parity on 4-direction grids,
tables shared between searches); a tighter admissible bound prunes only subtrees that cannot beat the best
plan found so far, so the search must find the very same plan, tie-breaks included. These tests check it on
fresh generator grids of every set and setting, on published grids, and against the shipped optimum table.
"""

from __future__ import annotations

import random

import pytest

from plancheck.domains.grasp.exact import solve_exact
from plancheck.domains.grasp.generate import generate_grid
from plancheck.domains.grasp.instance import DISTRIBUTIONS, OBSTACLES, SETTINGS, STARTS, Environment
from plancheck.domains.grasp.published import SET_NAMES, published_set
from plancheck.domains.grasp.scoring import RULES
from tests.grasp.exact_reference import solve_exact as reference

SPECS = [(start, energy, obstacle) for start in STARTS for energy in DISTRIBUTIONS for obstacle in OBSTACLES]


def _same(env: Environment) -> None:
    for rule in RULES:
        new, old = solve_exact(env, rule), reference(env, rule)
        assert (new.fraction, new.plan) == (old.fraction, old.plan), (env.id, rule)
        assert new.nodes <= old.nodes, (env.id, rule)  # the bound only prunes more


def _fresh(seed: int, count: int) -> list[Environment]:
    """``count`` generated environments: random generator sets, grid indices and settings."""
    rng = random.Random(seed)
    envs = []
    for _ in range(count):
        info, grid = generate_grid(rng.randrange(1000), *rng.choice(SPECS), index=rng.randrange(50))
        envs.append(Environment(grid, rng.choice(SETTINGS), info))
    return envs


def test_same_optima_and_plans_as_the_previous_solver_on_fresh_grids():
    for env in _fresh(0, 12):
        _same(env)


def test_same_optima_and_plans_on_published_grids_and_the_shipped_table(shared_data):
    from plancheck.domains.grasp.optima import published_optima

    table = published_optima()
    rng = random.Random(1)
    for _ in range(4):
        info, grid = published_set(shared_data, rng.choice(SET_NAMES))[rng.randrange(100)]
        env = Environment(grid, rng.choice(SETTINGS), info)
        _same(env)
        assert {rule: solve_exact(env, rule).value for rule in RULES} == table[env.id], env.id


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(1, 5))
def test_same_optima_and_plans_on_thousands_of_fresh_grids(seed):
    for env in _fresh(seed, 800):
        _same(env)


@pytest.mark.slow
@pytest.mark.parametrize("set_name", SET_NAMES)
def test_same_optima_and_plans_on_every_published_environment(shared_data, set_name):
    from plancheck.domains.grasp.optima import published_optima

    table = published_optima()
    for info, grid in published_set(shared_data, set_name):
        for setting in SETTINGS:
            env = Environment(grid, setting, info)
            _same(env)
            assert {rule: solve_exact(env, rule).value for rule in RULES} == table[env.id], env.id
