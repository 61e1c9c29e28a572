"""The native GRASP optimum against an exhaustive search over the full rules, and its certificates.

The exhaustive route knows nothing of the solver's abstraction: it enumerates every state the
benchmark's rules (``GraspRules.step``, all actions, drops anywhere, re-taking dropped units)
can reach within the horizon, and scores each at the fewest steps that reach it.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plancheck.domains.grasp.certify import certify, certify_plan
from plancheck.domains.grasp.exact import solve_exact
from plancheck.domains.grasp.grid import Grid
from plancheck.domains.grasp.instance import SETTINGS, Environment, GridInfo, Setting
from plancheck.domains.grasp.published import SET_NAMES, published_set
from plancheck.domains.grasp.rules import Action, GraspRules
from plancheck.domains.grasp.scoring import RULES, scores
from plancheck.errors import CertificationError
from plancheck.verifier.execute import execute

INFO = GridInfo("test", 0, "random", "free", "inner", published=False)


def exhaustive_optimum(env: Environment, rule: str) -> Fraction:
    """max over every action sequence of length <= horizon of the rule's score (breadth-first)."""
    rules = GraspRules(env)
    cost = Fraction(str(env.setting.step_cost))
    cols = env.grid.cols
    start = env.grid.start[0] * cols + env.grid.start[1]
    initial = rules.initial_state()
    actions = list(rules.actions(initial))

    def counted(state) -> int:
        where = state.position[0] * cols + state.position[1] if rule == "paper" else start
        return state.energy[where]

    key = (initial.position, initial.carried, initial.energy)
    seen = {key}
    layer = [initial]
    best = Fraction(counted(initial))
    for depth in range(1, env.step_limit + 1):
        following = []
        for state in layer:
            for action in actions:
                outcome = rules.step(state, action)
                if not outcome.ok:
                    continue  # a no-op only adds cost: its state is already scored at a lower depth
                nxt = outcome.state
                key = (nxt.position, nxt.carried, nxt.energy)
                if key in seen:
                    continue
                seen.add(key)
                following.append(nxt)
                best = max(best, counted(nxt) - cost * depth)
        layer = following
    return best


def random_env(rng: random.Random, rows: tuple[int, int], cols: tuple[int, int],
               horizon: tuple[int, int]) -> Environment:
    r, c = rng.randint(*rows), rng.randint(*cols)
    cells = [rng.choice("EEE  O") for _ in range(r * c)]
    start = (rng.randrange(r), rng.randrange(c))
    cells[start[0] * c + start[1]] = " "
    setting = Setting(rng.choice((4, 8)), rng.choice((None, 2)), rng.choice((0.0, 0.3)))
    return Environment(Grid(r, c, "".join(cells), start), setting, INFO, rng.randint(*horizon))


@pytest.mark.parametrize("seed", range(6))
def test_matches_exhaustive_search_on_random_small_grids(seed):
    rng = random.Random(seed)
    for _ in range(60):
        env = random_env(rng, (1, 4), (2, 4), (0, 11))
        for rule in RULES:
            optimum = solve_exact(env, rule)
            assert optimum.fraction == exhaustive_optimum(env, rule), (env, rule)
            certify(env, optimum)


@st.composite
def environments(draw) -> Environment:
    rows, cols = draw(st.integers(1, 3)), draw(st.integers(1, 4))
    cells = draw(st.lists(st.sampled_from("E O"), min_size=rows * cols, max_size=rows * cols))
    start = draw(st.integers(0, rows * cols - 1))
    cells[start] = " "
    setting = Setting(draw(st.sampled_from((4, 8))), draw(st.sampled_from((None, 2))),
                      draw(st.sampled_from((0.0, 0.3))))
    return Environment(Grid(rows, cols, "".join(cells), divmod(start, cols)), setting, INFO, draw(st.integers(0, 9)))


@given(environments(), st.sampled_from(RULES))
@settings(max_examples=150, deadline=None, derandomize=True)
def test_matches_exhaustive_search_on_generated_grids(env, rule):
    optimum = solve_exact(env, rule)
    assert optimum.fraction == exhaustive_optimum(env, rule)
    certify(env, optimum)


def test_matches_exhaustive_search_on_tiny_grids_with_long_horizons():
    """Tight carry limits and long horizons: where dropping elsewhere and re-taking could pay off."""
    rng = random.Random(99)
    for _ in range(40):
        env = random_env(rng, (1, 3), (2, 3), (9, 14))
        for rule in RULES:
            assert solve_exact(env, rule).fraction == exhaustive_optimum(env, rule), (env, rule)


def _check_published_grids(shared_data, seed: int, count: int, horizons: tuple[int, int]) -> None:
    """``count`` random published grids, the settings in turn, horizons drawn from ``horizons``."""
    rng = random.Random(seed)
    for number in range(count):
        info, grid = published_set(shared_data, rng.choice(SET_NAMES))[rng.randrange(100)]
        env = Environment(grid, SETTINGS[number % 8], info, rng.randint(*horizons))
        for rule in RULES:
            assert solve_exact(env, rule).fraction == exhaustive_optimum(env, rule), (env.id, env.step_limit, rule)


def test_matches_exhaustive_search_on_published_grids_with_short_horizons(shared_data):
    _check_published_grids(shared_data, seed=7, count=24, horizons=(4, 7))


@pytest.mark.slow
def test_matches_exhaustive_search_on_many_published_grids(shared_data):
    _check_published_grids(shared_data, seed=8, count=400, horizons=(6, 8))


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(6, 30))
def test_matches_exhaustive_search_on_many_random_grids(seed):
    rng = random.Random(seed)
    for _ in range(100):
        env = random_env(rng, (1, 4), (2, 5), (0, 12))
        for rule in RULES:
            assert solve_exact(env, rule).fraction == exhaustive_optimum(env, rule), (env, rule)


def test_known_values():
    line = Grid(1, 5, " EEEE", (0, 0))
    free = Environment(line, Setting(4, None, 0.0), INFO)
    assert solve_exact(free, "paper").value == 4  # walk right taking 3 units, drop on the 4th
    assert solve_exact(free, "delivered").value == 4
    limited = Environment(line, Setting(4, 2, 0.0), INFO, step_limit=10)
    assert solve_exact(limited, "delivered").value == 2  # a second trip does not fit in 10 steps
    empty = Environment(Grid(3, 3, " " * 9, (1, 1)), Setting(8, 2, 0.3), INFO)
    for rule in RULES:
        best = solve_exact(empty, rule)
        assert (best.value, best.plan) == (0, ())


def test_step_cost_trades_units_for_steps():
    grid = Grid(1, 4, " E E", (0, 0))
    # paper: stepping onto the first unit scores 1 - 0.3; taking it to the far unit as well
    # costs a take, two moves and a drop for one more unit: 2 - 1.5
    assert solve_exact(Environment(grid, Setting(4, None, 0.3), INFO), "paper").value == pytest.approx(0.7)
    assert solve_exact(Environment(grid, Setting(4, None, 0.0), INFO), "paper").value == 2


def test_certify_rejects_a_wrong_claim_and_a_no_op():
    env = Environment(Grid(1, 3, " E ", (0, 0)), Setting(4, None, 0.0), INFO)
    assert certify_plan(env, "paper", [Action.RIGHT], 1) == {"paper": 1.0, "delivered": 0.0}
    with pytest.raises(CertificationError, match="scores 1"):
        certify_plan(env, "paper", [Action.RIGHT], 2)
    with pytest.raises(CertificationError, match="not strictly valid"):
        certify_plan(env, "paper", [Action.RIGHT, Action.DROP], 1)
    with pytest.raises(CertificationError, match="step limit"):
        certify_plan(Environment(env.grid, env.setting, INFO, step_limit=0), "paper", [Action.RIGHT], 1)


def _greedy_answers(shared_data, set_name: str) -> dict[tuple[int, str], list[Action]]:
    path = shared_data / "grasp" / "baselines" / "greedy" / f"{set_name}.jsonl"
    answers = {}
    for line in path.read_text().splitlines():
        record = json.loads(line)
        setting = Setting.from_baseline(record["movement_prompt"], record["energy_limit_prompt"],
                                        record["cost_of_step_prompt"])
        answers[record["index"], setting.flags] = [Action(a.upper()) for a in record["answer"]]
    return answers


def test_optimum_is_never_below_the_published_greedy_answer(shared_data):
    for set_name in SET_NAMES:
        greedy = _greedy_answers(shared_data, set_name)
        for info, grid in published_set(shared_data, set_name)[:2]:
            for setting in SETTINGS:
                env = Environment(grid, setting, info)
                replayed = scores(env, execute(GraspRules(env), greedy[info.index, setting.flags]))
                for rule in RULES:
                    optimum = solve_exact(env, rule)
                    assert certify(env, optimum)[rule] == optimum.value
                    assert optimum.value >= replayed[rule] - 1e-9, (env.id, rule)


@pytest.mark.slow
def test_optimum_is_never_below_greedy_on_every_published_environment(shared_data):
    for set_name in SET_NAMES:
        greedy = _greedy_answers(shared_data, set_name)
        for info, grid in published_set(shared_data, set_name):
            for setting in SETTINGS:
                env = Environment(grid, setting, info)
                replayed = scores(env, execute(GraspRules(env), greedy[info.index, setting.flags]))
                for rule in RULES:
                    optimum = solve_exact(env, rule)
                    certify(env, optimum)
                    assert optimum.value >= replayed[rule] - 1e-9, (env.id, rule)


def test_the_shipped_optimum_table_holds_the_certified_optima(shared_data):
    from plancheck.domains.grasp.optima import published_optima

    table = published_optima()
    assert len(table) == 16000
    rng = random.Random(4)
    for _ in range(40):
        info, grid = published_set(shared_data, rng.choice(SET_NAMES))[rng.randrange(100)]
        env = Environment(grid, rng.choice(SETTINGS), info)
        assert table[env.id] == {rule: solve_exact(env, rule).value for rule in RULES}, env.id
