"""GRASP's PDDL models are read by real tools, mean what the rules mean, and give the same optimum.

* Both domains and the problems of every setting and rule are read by unified-planning's PDDL
  reader, and Fast Downward solves them.
* The validation model is the benchmark: random answers (blocked moves, diagonals under 4
  directions, empty TAKEs, empty DROPs, unknown tokens, too many steps) become valid plans whose
  cost gives back the rules' score; every rejection's unmet atoms are false in the PDDL state;
  on small grids Fast Downward's optimum of the (unpruned) validation model is the native one.
* The planning model: Fast Downward's optimum equals the native optimum on small grids and on
  published environments (3 cheap ones by default; in the slow test 208: all 20 files under
  the 4-direction settings, the 12 cluster, spiral and random files under the 8-direction
  ones, with SymK where Fast Downward runs out of time).
"""

from __future__ import annotations

import functools
import random
import re
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plancheck.domains.grasp import pddl as grasp_pddl
from plancheck.domains.grasp.exact import solve_exact
from plancheck.domains.grasp.grid import Grid
from plancheck.domains.grasp.instance import SETTINGS, Environment, GridInfo, Setting, parse_id
from plancheck.domains.grasp.pddl import Scale, export_files, planning_domain, validation_domain
from plancheck.domains.grasp.pddl_plan import plan_text, read_plan, validation_plan
from plancheck.domains.grasp.published import SET_NAMES, published_grid, published_set
from plancheck.domains.grasp.rules import Action, GraspRules
from plancheck.domains.grasp.scoring import RULES, scores
from plancheck.domains.grasp.solve import solve
from plancheck.errors import PDDLError
from plancheck.rules import Unknown
from plancheck.solvers.external import run_fast_downward
from plancheck.solvers.result import Status
from plancheck.verifier.execute import execute
from tests.extras import needs_fast_downward, unified_planning

INFO = GridInfo("test", 0, "random", "free", "inner", published=False)
# Published environments whose planning model Fast Downward solves in a few seconds each
CHEAP = ("inner_random_block.jsonl-10-0-0-0", "inner_random_block.jsonl-10-0-1-1", "outer_cluster_block.jsonl-3-0-0-1")


def published_env(shared_data, env_id: str) -> Environment:
    parts = parse_id(env_id)
    info, grid = published_grid(shared_data, parts.set_name, parts.index)
    return Environment(grid, parts.setting, info)


def small_env(rng: random.Random, horizon: int) -> Environment:
    rows, cols = rng.randint(2, 3), rng.randint(2, 4)
    cells = [rng.choice("EE  O") for _ in range(rows * cols)]
    start = (rng.randrange(rows), rng.randrange(cols))
    cells[start[0] * cols + start[1]] = " "
    setting = Setting(rng.choice((4, 8)), rng.choice((None, 2)), rng.choice((0.0, 0.3)))
    return Environment(Grid(rows, cols, "".join(cells), start), setting, INFO, horizon)


def fd_value(env: Environment, domain: str, problem: str, top: int) -> Fraction:
    run = run_fast_downward(domain, problem, search="astar(blind())", timeout=300)
    assert run.status is Status.SOLVED, run.message
    return Scale.of(env.setting.step_cost).value(run.cost, top)


# -- tools read every file ---------------------------------------------------------------------

def _read_exports(shared_data, env_ids) -> int:
    unified_planning()
    from unified_planning.io import PDDLReader

    reader = PDDLReader()
    read = 0
    for env_id in env_ids:
        env = published_env(shared_data, env_id)
        for name, text in export_files(env).items():
            if "domain" in name:
                continue
            domain = validation_domain() if name.endswith("validation.pddl") else planning_domain()
            problem = reader.parse_problem_string(domain, text)
            energy = {f for f, v in problem.explicit_initial_values.items()
                      if v.is_true() and f.fluent().name in ("has-energy", "energy") and f.fluent().arity == 1}
            assert len(energy) == len(env.grid.energy_cells), name
            read += 1
    return read


def test_exported_files_are_read_by_unified_planning(shared_data):
    assert _read_exports(shared_data, ["outer_cluster_block.jsonl-3-1-1-1"]) == 4


@pytest.mark.slow
def test_exported_files_of_every_setting_are_read_by_unified_planning(shared_data):
    env_ids = [f"{SET_NAMES[2 * n + 1]}.jsonl-{n}-{setting.flags}" for n, setting in enumerate(SETTINGS)]
    assert _read_exports(shared_data, env_ids) == 32


def test_identifiers_avoid_names_planners_reject(shared_data):
    env = published_env(shared_data, "outer_cluster_block.jsonl-3-1-1-1")
    for text in export_files(env).values():
        words = set(re.findall(r"[a-z][a-z0-9_-]*", re.sub(r";.*", "", text)))
        assert not words & {"start", "end"}


@pytest.mark.slow
def test_fast_downward_solves_a_published_validation_problem(shared_data):
    """Grounding the full validation model is heavy (about 470,000 operators, 1.5 minutes, 2.7 GB)."""
    env = published_env(shared_data, "inner_random_block.jsonl-10-0-0-0")
    problem = grasp_pddl.validation_problem(env, "paper")
    run = run_fast_downward(validation_domain(), problem, search="lazy_greedy([ff()])", timeout=600)
    assert run.status is Status.SOLVED, run.message
    assert run.plan[-1].startswith("(score-paper")


# -- the validation model is the benchmark ------------------------------------------------------

def random_answer(rng: random.Random, length: int) -> list[Action | Unknown]:
    choices = list(Action) + [Action.TAKE, Action.TAKE, Unknown("JUMP")]
    return [rng.choice(choices) for _ in range(length)]


def test_benchmark_answers_are_valid_validation_plans_with_the_same_score():
    up = unified_planning()
    from unified_planning.io import PDDLReader

    rng = random.Random(3)
    reader = PDDLReader()
    for _ in range(6):
        env = small_env(rng, rng.randint(3, 9))
        for rule in RULES:
            problem = reader.parse_problem_string(validation_domain(), grasp_pddl.validation_problem(env, rule))
            top = grasp_pddl.count_limit(env)
            with up.PlanValidator(problem_kind=problem.kind) as validator:
                for _ in range(4):
                    answer = random_answer(rng, rng.randint(0, env.step_limit + 3))
                    steps = validation_plan(env, answer, rule)
                    plan = reader.parse_plan_string(problem, plan_text(steps))
                    result = validator.validate(problem, plan)
                    assert result.status.name == "VALID", (env, answer, steps)
                    cost = next(iter(result.metric_evaluations.values()))
                    trace = execute(GraspRules(env), answer)
                    expected = scores(env, trace)[rule]
                    assert float(Scale.of(env.setting.step_cost).value(cost, top)) == pytest.approx(expected)
                    names = {step[1:].split()[0] for step in steps}
                    no_ops = {"bump", "take-nothing", "take-over-limit", "drop-nothing", "noop"}
                    if not trace.ignored:
                        assert (not names & no_ops) == trace.strictly_valid
                    executed = [Unknown("noop") if isinstance(a, Unknown) else a for a in answer[:env.step_limit]]
                    assert read_plan(steps) == tuple(executed)


def _holds(state, problem, atom: str) -> bool:
    """The truth of a ground atom, or (with ``?x`` arguments) of its existential closure."""
    name, *args = atom.strip("()").split()
    fluent = problem.fluent(name)
    choices = [[problem.object(a)] if not a.startswith("?") else
               list(problem.objects(fluent.signature[i].type)) for i, a in enumerate(args)]
    combos = [[]]
    for options in choices:
        combos = [c + [o] for c in combos for o in options]
    return any(state.get_value(fluent(*combo)).is_true() for combo in combos)


def test_every_rejection_names_atoms_false_in_the_pddl_state():
    up = unified_planning()
    from unified_planning.io import PDDLReader

    rng = random.Random(5)
    reader = PDDLReader()
    seen = set()
    for _ in range(10):
        env = small_env(rng, 10)
        problem = reader.parse_problem_string(validation_domain(), grasp_pddl.validation_problem(env, "paper"))
        answer = random_answer(rng, 10)
        steps = validation_plan(env, answer, "paper")
        plan = reader.parse_plan_string(problem, plan_text(steps))
        rules, state = GraspRules(env), GraspRules(env).initial_state()
        with up.SequentialSimulator(problem) as simulator:
            pddl_state = simulator.get_initial_state()
            for action, instance in zip(answer, plan.actions[:len(answer)], strict=True):
                outcome = rules.step(state, action)
                if not outcome.ok and not isinstance(action, Unknown):
                    assert outcome.unmet, outcome.reason
                    for atom in outcome.unmet:
                        seen.add(atom.split()[0])
                        assert not _holds(pddl_state, problem, atom), (outcome.reason, atom)
                else:
                    state = outcome.state if outcome.ok else state
                pddl_state = simulator.apply(pddl_state, instance)
    assert seen >= {"(free", "(allowed", "(adjacent", "(has-energy", "(loaded)"}


@needs_fast_downward
def test_validation_model_optimum_matches_native_on_small_grids():
    """Fast Downward on the unpruned model (drops anywhere, re-takes, no-ops) vs the native solver."""
    _check_fd_optimum(seed=11, count=6, horizons=(4, 7), domain=validation_domain(),
                      problem_of=grasp_pddl.validation_problem)


def test_read_plan_reports_bad_steps_with_their_line():
    with pytest.raises(PDDLError, match="line 2"):
        read_plan(["(move c0_0 c0_1 t0 t1)", "(fly c0_1)"])
    with pytest.raises(PDDLError, match="takes 4 or 5 arguments"):
        read_plan(["(move c0_0 c0_1)"])
    with pytest.raises(PDDLError, match="follows the end"):
        read_plan(["(finish-empty)", "(move c0_0 c0_1 t0 t1)"])
    with pytest.raises(PDDLError, match="no move leads"):
        read_plan(["(move c0_0 c0_2 t0 t1)"])


# -- the planning model gives the native optimum ----------------------------------------------------

@needs_fast_downward
def test_planning_model_optimum_matches_native_on_small_grids():
    _check_fd_optimum(seed=12, count=8, horizons=(4, 10), domain=planning_domain(),
                      problem_of=grasp_pddl.planning_problem)


def _check_fd_optimum(seed: int, count: int, horizons: tuple[int, int], domain: str, problem_of) -> None:
    """Fast Downward's optimum of ``problem_of(env, rule)`` equals the native one on small grids."""
    rng = random.Random(seed)
    for _ in range(count):
        env = small_env(rng, rng.randint(*horizons))
        for rule in RULES:
            value = fd_value(env, domain, problem_of(env, rule), grasp_pddl.count_limit(env))
            assert value == solve_exact(env, rule).fraction, (env, rule)


@pytest.mark.parametrize("env_id", [CHEAP[2], *(pytest.param(e, marks=pytest.mark.slow) for e in CHEAP[:2])])
@needs_fast_downward
def test_fast_downward_optimum_equals_native_on_published_environments(shared_data, env_id):
    env = published_env(shared_data, env_id)
    for rule in RULES:
        external = solve(env, "fast-downward", rule=rule, timeout=300)
        native = solve(env, "native", rule=rule)
        assert external.status is Status.SOLVED and external.proven_optimal, external.message
        assert external.extra["value"] == native.extra["value"], (env_id, rule)
        assert external.values[rule] == native.values[rule]


@needs_fast_downward
def test_a_planner_out_of_time_missing_or_unsuited_is_a_result_not_an_error(shared_data, monkeypatch):
    env = published_env(shared_data, "inner_random_free.jsonl-0-1-0-0")
    result = solve(env, "fast-downward", rule="paper", timeout=1)
    assert result.status is Status.TIMEOUT and result.plan is None
    assert solve(env, "pyperplan", rule="paper").status is Status.UNSUPPORTED
    monkeypatch.setattr("plancheck.solvers.external.fast_downward_driver", lambda: None)
    missing = solve(env, "fast-downward", rule="paper")
    assert missing.status is Status.NOT_INSTALLED and "install" in missing.message


@given(st.lists(st.text(alphabet="()abcdefgnt_- 0123456789?\n", max_size=40), max_size=6))
@settings(max_examples=300, deadline=None, derandomize=True)
def test_read_plan_reads_or_reports_any_text(lines):
    try:
        actions = read_plan(lines)
    except PDDLError as error:
        assert error.location is not None and error.location.line is not None
    else:
        assert len(actions) <= len(lines)


@functools.cache
def fd_check_environments(data: Path) -> tuple[str, ...]:
    """208 published environments for the planner check, cheapest first (sparsest grids).

    Every one of the 20 files under the four 4-direction settings, on its two sparsest grids
    (160); then the 12 cluster, spiral and random files under the four 8-direction settings,
    on their sparsest grid (48).
    """
    sparsest = {name: sorted(published_set(data, name), key=lambda g: (len(g[1].energy_cells), g[0].index))
                for name in SET_NAMES}
    chosen = [f"{name}.jsonl-{info.index}-{s.flags}" for name in SET_NAMES
              for info, _ in sparsest[name][:2] for s in SETTINGS[:4]]
    for kind in ("cluster", "spiral", "random"):
        chosen += [f"{name}.jsonl-{sparsest[name][0][0].index}-{s.flags}" for name in SET_NAMES if kind in name
                   for s in SETTINGS[4:]]
    return tuple(chosen)


@pytest.mark.slow
@pytest.mark.parametrize("number", range(208))
def test_planner_optimum_equals_native_on_208_published_environments(shared_data, number):
    """Fast Downward (A*, blind) within 300 s; where it runs out of time, SymK within 900 s."""
    env = published_env(shared_data, fd_check_environments(shared_data)[number])
    for rule in RULES:
        native = solve(env, "native", rule=rule)
        result = solve(env, "fast-downward", rule=rule, timeout=300, memory_limit="8G")
        if result.status is not Status.SOLVED:
            result = solve(env, "symk", rule=rule, timeout=900, memory_limit="8G")
        print(f"\n{env.id} {rule}: native {native.extra['value']}, {result.planner} {result.status.value} "
              f"{result.extra.get('value')} in {result.seconds:.1f} s", end="")
        assert result.status is Status.SOLVED and result.proven_optimal, result.message
        assert result.extra["value"] == native.extra["value"], (env.id, rule)
