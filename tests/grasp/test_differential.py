"""Differential check of GRASP: plancheck's verdicts against an independent reference simulator.

The reference below was written from the fact sheet (``shared/benchmarks/grasp.md``) alone, before
reading ``plancheck/domains/grasp/rules.py`` or ``scoring.py``. It is a small mutable simulator
that reads grids from their published text with its own parser. The tests draw random grids
(published and generated, all 8 settings) and random action sequences (unknown tokens, diagonals
under 4 directions, more than 20 actions, TAKE at the carry limit, DROP anywhere, DROP then TAKE
again) and require plancheck's verdict, through the token route ``WORLD.check(env, tokens)`` and
the text route ``WORLD.check(env, "[...]")``, to agree with the reference on both scores, the
executed steps, the no-op count, the energy collected, what is carried at the end, returned to
start, strict validity, the first failing step and the position after every step.

Reference semantics (one reading of the fact sheet; a "no-op" is an action that changes nothing,
and strict validity fails at the first one):
* a move into the boundary or an obstacle, a diagonal under 4 directions, TAKE on an empty cell or
  at the carry limit, DROP while carrying nothing and an unknown token are no-ops;
* only the first 20 actions run and pay the step cost; a longer plan is strictly invalid at step 21;
* ``paper`` = energy lying on the final cell - cost x executed; ``delivered`` = energy lying on the
  start cell - cost x executed; "energy collected" counts successful TAKEs.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from plancheck.domains.grasp.generate import generate_grid
from plancheck.domains.grasp.grid import render_grid
from plancheck.domains.grasp.instance import Environment, Setting
from plancheck.domains.grasp.published import published_grid
from plancheck.domains.grasp.world import WORLD

# -- the reference ------------------------------------------------------------------------------

MOVES = {"UP": (-1, 0), "DOWN": (1, 0), "LEFT": (0, -1), "RIGHT": (0, 1),
         "UPLEFT": (-1, -1), "UPRIGHT": (-1, 1), "DOWNLEFT": (1, -1), "DOWNRIGHT": (1, 1)}
FOUR = ("UP", "DOWN", "LEFT", "RIGHT")
ACTIONS = (*MOVES, "TAKE", "DROP")
STEP_LIMIT = 20
NO_LIMIT = 100


@dataclass
class RefGrid:
    """A grid read from its published text: energy units per cell, obstacles, start, size."""

    energy: dict[tuple[int, int], int]
    obstacles: set[tuple[int, int]]
    start: tuple[int, int]
    rows: int
    cols: int


def read_grid(text: str) -> RefGrid:
    energy: dict[tuple[int, int], int] = {}
    obstacles: set[tuple[int, int]] = set()
    start = None
    rows = cols = 0
    for line in text.split("\n"):
        if "|" not in line:
            continue
        cells = line.split("|")[1:-1]
        cols = len(cells)
        for c, cell in enumerate(cells):
            assert len(cell) == 3 and cell[0] == cell[2] == " ", cell
            mark = cell[1]
            if mark == "E":
                energy[(rows, c)] = 1
            elif mark == "O":
                obstacles.add((rows, c))
            elif mark == "A":
                start = (rows, c)
            else:
                assert mark == " ", mark
        rows += 1
    assert start is not None
    return RefGrid(energy, obstacles, start, rows, cols)


@dataclass
class RefResult:
    paper: float
    delivered: float
    executed: int
    noops: int
    collected: int
    carried: int
    returned: bool
    first_failure: int | None
    ok: list[bool]
    positions: list[tuple[int, int]]


def simulate(grid: RefGrid, directions: int, carry_limit: int | None, cost: float, actions: list[str]) -> RefResult:
    """Run canonical action names (anything else is an unknown token) under the benchmark rules."""
    energy = dict(grid.energy)
    capacity = NO_LIMIT if carry_limit is None else carry_limit
    row, col = grid.start
    carried = collected = 0
    ok: list[bool] = []
    positions: list[tuple[int, int]] = []
    for name in actions[:STEP_LIMIT]:
        changed = False
        if name in MOVES and (directions == 8 or name in FOUR):
            dr, dc = MOVES[name]
            r, c = row + dr, col + dc
            if 0 <= r < grid.rows and 0 <= c < grid.cols and (r, c) not in grid.obstacles:
                row, col = r, c
                changed = True
        elif name == "TAKE":
            if carried < capacity and energy.get((row, col), 0) > 0:
                energy[(row, col)] -= 1
                carried += 1
                collected += 1
                changed = True
        elif name == "DROP":
            if carried > 0:
                energy[(row, col)] = energy.get((row, col), 0) + carried
                carried = 0
                changed = True
        ok.append(changed)
        positions.append((row, col))
    executed = len(ok)
    charge = cost * executed
    first = next((i + 1 for i, good in enumerate(ok) if not good), None)
    if first is None and len(actions) > STEP_LIMIT:
        first = STEP_LIMIT + 1
    return RefResult(
        paper=energy.get((row, col), 0) - charge,
        delivered=energy.get(grid.start, 0) - charge,
        executed=executed,
        noops=ok.count(False),
        collected=collected,
        carried=carried,
        returned=(row, col) == grid.start,
        first_failure=first,
        ok=ok,
        positions=positions,
    )


# -- environments -------------------------------------------------------------------------------

SETS = tuple(f"{s}_{e}_{o}" for s in ("inner", "outer")
             for e in ("random", "upDown", "leftRight", "cluster", "spiral") for o in ("free", "block"))
FLAGS = tuple((mv, lim, cost) for mv in (0, 1) for lim in (0, 1) for cost in (0, 1))


@cache
def published_texts(data: Path) -> dict[tuple[str, int], str]:
    """The published grid texts, read straight from the JSONL files (not through plancheck)."""
    texts = {}
    for name in SETS:
        path = data / "grasp" / "grids" / f"{name}.jsonl"
        for line in path.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            texts[(name, record["index"])] = record["grid"]
    return texts


def published_env(data: Path, set_name: str, index: int,
                  flags: tuple[int, int, int]) -> tuple[Environment, RefGrid]:
    info, grid = published_grid(data, set_name, index)
    return Environment(grid, Setting.from_flags(*flags), info), read_grid(published_texts(data)[(set_name, index)])


def generated_env(seed: int, start: str, energy: str, obstacle: str, index: int,
                  flags: tuple[int, int, int]) -> tuple[Environment, RefGrid]:
    info, grid = generate_grid(seed, start, energy, obstacle, index=index)
    return Environment(grid, Setting.from_flags(*flags), info), read_grid(render_grid(grid))


# -- how each route writes an action --------------------------------------------------------------

UNKNOWN = ("JUMP", "WAIT", "STAY", "MOVE", "upper", "noop", "x")
TOKEN_FORMS = {name: (name, name.lower(), name.capitalize()) for name in ACTIONS}
TOKEN_FORMS.update({"UPLEFT": ("UPLEFT", "upleft", "up_left", "Up-Left"),
                    "DOWNRIGHT": ("DOWNRIGHT", "downright", "down_right")})
TEXT_FORMS = {name: (name, name.lower(), f"'{name}'", f'"{name.lower()}"') for name in ACTIONS}
for name in FOUR:
    TEXT_FORMS[name] += (f"MOVE {name}", f"move_{name.lower()}")
TEXT_FORMS["UPLEFT"] += ("UP-LEFT", "up left")
TEXT_FORMS["TAKE"] += ("pick up", "COLLECT")
TEXT_FORMS["DROP"] += ("put down",)


def written(name: str, forms: dict[str, tuple[str, ...]], rng: random.Random) -> str:
    return rng.choice(forms[name]) if name in forms else name


def verdict_matches(env: Environment, ref: RefResult, verdict, length: int) -> None:
    assert verdict.parsed, verdict.parse_error
    assert verdict.scores["paper"] == pytest.approx(ref.paper, abs=1e-9)
    assert verdict.scores["delivered"] == pytest.approx(ref.delivered, abs=1e-9)
    metrics = verdict.metrics
    assert metrics["length"] == length
    assert metrics["executed"] == ref.executed == len(verdict.steps)
    assert verdict.ignored == length - ref.executed
    assert metrics["noops"] == ref.noops
    assert metrics["energy_collected"] == ref.collected
    assert metrics["carried_at_end"] == ref.carried
    assert metrics["returned_to_start"] is ref.returned
    assert verdict.valid is (ref.first_failure is None)
    assert (verdict.failure.step if verdict.failure else None) == ref.first_failure
    assert [s.ok for s in verdict.steps] == ref.ok
    for step, position in zip(verdict.steps, ref.positions):
        assert step.state.startswith(f"at {position},"), (step, position)
        assert step.ok or step.reason, step


def check_both_routes(env: Environment, grid: RefGrid, names: list[str], rng: random.Random) -> None:
    setting = env.setting
    ref = simulate(grid, setting.directions, setting.carry_limit, setting.step_cost, names)
    tokens = [written(name, TOKEN_FORMS, rng) for name in names]
    verdict_matches(env, ref, WORLD.check(env, tokens), len(names))
    text = "[" + ", ".join(written(name, TEXT_FORMS, rng) for name in names) + "]"
    verdict_matches(env, ref, WORLD.check(env, text), len(names))


# -- action sequences ---------------------------------------------------------------------------

def random_actions(rng: random.Random, max_length: int = 30) -> list[str]:
    """Biased towards collecting: TAKE often, moves in all 8 directions, some DROPs and unknowns."""
    pool = [*MOVES] * 2 + ["TAKE"] * 6 + ["DROP"] * 2 + [rng.choice(UNKNOWN)]
    return [rng.choice(pool) for _ in range(rng.randint(0, max_length))]


action_names = st.lists(st.one_of(st.sampled_from(ACTIONS), st.just("TAKE"), st.sampled_from(UNKNOWN)),
                        max_size=28)
published_specs = st.tuples(st.just("published"), st.sampled_from(SETS), st.integers(0, 99), st.sampled_from(FLAGS))
generated_specs = st.tuples(st.just("generated"), st.integers(0, 10**6), st.sampled_from(("inner", "outer")),
                            st.sampled_from(("random", "upDown", "leftRight", "cluster", "spiral")),
                            st.sampled_from(("free", "block")), st.integers(0, 50), st.sampled_from(FLAGS))


@settings(max_examples=500, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(published_specs, generated_specs), action_names, st.randoms(use_true_random=False))
def test_hypothesis_grids_and_actions_agree_with_the_reference(shared_data: Path, spec, names, rng):
    kind, *args = spec
    env, grid = published_env(shared_data, *args) if kind == "published" else generated_env(*args)
    check_both_routes(env, grid, names, rng)


def test_many_seeded_random_cases_agree_with_the_reference(shared_data: Path):
    rng = random.Random(20240701)
    for case in range(3000):
        flags = FLAGS[case % 8]
        if case % 3:
            env, grid = published_env(shared_data, rng.choice(SETS), rng.randrange(100), flags)
        else:
            env, grid = generated_env(rng.randrange(10**6), rng.choice(("inner", "outer")),
                                      rng.choice(("random", "upDown", "leftRight", "cluster", "spiral")),
                                      rng.choice(("free", "block")), rng.randrange(50), flags)
        check_both_routes(env, grid, random_actions(rng), rng)


def test_take_at_the_limit_and_drop_then_retake_agree_with_the_reference(shared_data: Path):
    """Walks that collect a lot: TAKE after every move, DROP mid-way, TAKE the dropped units again."""
    rng = random.Random(7)
    hit_limit = retaken = 0
    for case in range(600):
        env, grid = published_env(shared_data, rng.choice(SETS), rng.randrange(100), FLAGS[case % 8])
        names: list[str] = []
        while len(names) < 24:
            names += [rng.choice(FOUR if case % 2 else tuple(MOVES)), "TAKE"]
            if rng.random() < 0.15:
                names += ["DROP", "TAKE", "TAKE"]
        ref = simulate(grid, env.setting.directions, env.setting.carry_limit, env.setting.step_cost, names)
        hit_limit += env.setting.carry_limit is not None and ref.carried == env.setting.carry_limit
        retaken += any(names[i] == "DROP" and ref.ok[i] and ref.ok[i + 1] for i in range(len(ref.ok) - 1))
        check_both_routes(env, grid, names, rng)
    assert hit_limit > 50 and retaken > 5  # the cases really exercise the limit and re-taking


def _baseline_records(data: Path, baseline: str, every: int):
    folder = data / "grasp" / "baselines" / baseline
    for name in SETS:
        for number, line in enumerate((folder / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()):
            if number % every == 0:
                yield name, json.loads(line)


def _replay_baselines(data: Path, every: int) -> int:
    rng = random.Random(3)
    count = 0
    for baseline in ("greedy", "random"):
        for name, record in _baseline_records(data, baseline, every):
            setting = Setting.from_baseline(record["movement_prompt"], record["energy_limit_prompt"],
                                            record["cost_of_step_prompt"])
            flags = (int(setting.directions == 8), int(setting.carry_limit is not None), int(setting.step_cost > 0))
            env, grid = published_env(data, name, record["index"], flags)
            check_both_routes(env, grid, [token.upper() for token in record["answer"]], rng)
            count += 1
    return count


def test_published_baseline_answers_agree_with_the_reference_sample(shared_data: Path):
    assert _replay_baselines(shared_data, every=40) == 2 * 20 * 20


@pytest.mark.slow
def test_all_published_baseline_answers_agree_with_the_reference(shared_data: Path):
    assert _replay_baselines(shared_data, every=1) == 32_000


def test_the_reference_alone_reproduces_the_papers_baseline_averages(shared_data: Path):
    """Independent confirmation of rule ``paper``: Table 1 averages over grid indices 0-9 (1600 records each)."""
    texts = published_texts(shared_data)
    averages = {}
    for baseline in ("greedy", "random"):
        values = []
        for name, record in _baseline_records(shared_data, baseline, every=1):
            if record["index"] <= 9:
                limit = None if record["energy_limit_prompt"] >= NO_LIMIT else record["energy_limit_prompt"]
                result = simulate(read_grid(texts[(name, record["index"])]), record["movement_prompt"], limit,
                                  record["cost_of_step_prompt"], [token.upper() for token in record["answer"]])
                values.append(result.paper)
        assert len(values) == 1600
        averages[baseline] = round(sum(values) / len(values), 2)
    assert averages == {"greedy": 0.35, "random": -1.14}
