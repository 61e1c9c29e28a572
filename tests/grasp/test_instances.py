"""GRASP instances: the published grids, the 8 settings, ids, and the seeded generator."""

from __future__ import annotations

import json
import math
import os
import pickle
import re
import statistics
import subprocess
import sys

import pytest

from plancheck.domains.grasp.generate import INNER, generate_grid, parse_spec
from plancheck.domains.grasp.grid import Grid, parse_grid_text, render_grid
from plancheck.domains.grasp.instance import SETTINGS, Environment, Setting, parse_id
from plancheck.domains.grasp.published import SET_NAMES, published_grid, published_set
from plancheck.domains.grasp.report import summary
from plancheck.domains.grasp.world import WORLD
from plancheck.errors import BadInputError, InstanceNotFoundError
from plancheck.world import Record


def test_all_2000_published_grids_rerender_byte_for_byte(shared_data):
    count = 0
    for set_name in SET_NAMES:
        lines = (shared_data / "grasp" / "grids" / f"{set_name}.jsonl").read_text().splitlines()
        grids = published_set(shared_data, set_name)
        assert len(grids) == len(lines) == 100
        for line, (info, grid) in zip(lines, grids):
            record = json.loads(line)
            assert render_grid(grid) == record["grid"]
            assert list(grid.start) == record["start"]
            assert (info.energy, info.obstacle, info.start_position) == (
                record["energy"], record["obstacle"], record["start_position"])
            count += 1
    assert count == 2000


def test_eight_distinct_settings_round_trip_their_flags():
    assert len(set(SETTINGS)) == 8
    for setting in SETTINGS:
        mv, lim, cost = (int(flag) for flag in setting.flags.split("-"))
        assert Setting.from_flags(mv, lim, cost) == setting
    assert Setting.from_baseline(8, 100, 0.3) == Setting(8, None, 0.3)
    assert Setting.from_baseline(4, 2, 0) == Setting(4, 2, 0.0)


def test_published_custom_ids_are_environment_ids(shared_data):
    with open(shared_data / "grasp" / "llm" / "gpt35_requests.jsonl") as handle:
        ids = [json.loads(line)["custom_id"] for line in handle]
    assert len(ids) == 1600
    for custom_id in ids:
        parts = parse_id(custom_id)
        info, grid = published_grid(shared_data, parts.set_name, parts.index)
        assert Environment(grid, parts.setting, info).id == custom_id


@pytest.mark.parametrize("bad", ["", "inner_leftRight_free-0-2-0-0", "x y", "inner_leftRight_free.jsonl-0-0-0"])
def test_malformed_ids_are_rejected_with_a_hint(bad):
    with pytest.raises(InstanceNotFoundError, match="not a GRASP id"):
        parse_id(bad)


def test_selectors_expand_to_settings_and_indices(shared_data):
    one = list(WORLD.instances(["inner_leftRight_free.jsonl-3-1-0-1"], shared_data))
    assert [env.id for env in one] == ["inner_leftRight_free.jsonl-3-1-0-1"]
    grid = list(WORLD.instances(["inner_leftRight_free-3"], shared_data))
    assert len(grid) == 8 and {env.setting for env in grid} == set(SETTINGS)
    subset = list(WORLD.instances(["all"], shared_data, indices="0-1", setting="0-0-0"))
    assert len(subset) == 40
    with pytest.raises(InstanceNotFoundError):
        list(WORLD.instances(["inner_nothing_free"], shared_data))
    with pytest.raises(BadInputError):
        list(WORLD.instances(["all"], shared_data, indices="zero"))


def test_a_grid_unpickled_in_another_process_hashes_as_one_built_there():
    # a grid keeps its hash, and string hashes differ between processes: unpickling must build it again
    grid = Grid(2, 2, "E O ", (1, 1))
    code = ("import pickle, sys; from plancheck.domains.grasp.grid import Grid; "
            "g = pickle.loads(sys.stdin.buffer.read()); fresh = Grid(2, 2, 'E O ', (1, 1)); "
            "print(hash(g) == hash(fresh), g == fresh)")
    seed = "1" if os.environ.get("PYTHONHASHSEED") != "1" else "2"
    done = subprocess.run([sys.executable, "-c", code], input=pickle.dumps(grid), capture_output=True, check=True,
                          env={**os.environ, "PYTHONHASHSEED": seed})
    assert done.stdout.split() == [b"True", b"True"]
    assert hash(pickle.loads(pickle.dumps(grid))) == hash(grid)


def test_grid_text_errors_name_the_line():
    with pytest.raises(BadInputError, match="line 3"):
        parse_grid_text("    0   1 \n  +---+---+\n 0| E | Q |\n  +---+---+\n")
    with pytest.raises(BadInputError, match="no agent"):
        parse_grid_text(" 0| E |   |\n")
    with pytest.raises(BadInputError, match="not an empty cell"):
        Grid(1, 2, "EO", (0, 0))


# -- generator --------------------------------------------------------------------------------

def _grids(energy: str, obstacle: str, n: int = 200, seed: int = 11) -> list[Grid]:
    return [generate_grid(seed, start, energy, obstacle, i)[1] for start in ("inner", "outer") for i in range(n // 2)]


def test_generation_is_deterministic_per_seed_and_index():
    a = generate_grid(5, "outer", "cluster", "block", 7)
    assert a == generate_grid(5, "outer", "cluster", "block", 7)
    assert a[1] != generate_grid(6, "outer", "cluster", "block", 7)[1]
    assert a[1] != generate_grid(5, "outer", "cluster", "block", 8)[1]
    assert parse_spec(a[0].set_name) == (5, "outer", "cluster", "block")


def test_generated_environments_are_addressable_by_id():
    env = next(WORLD.instances(["gen5_inner_spiral_block-2-1-1-0"], None))
    assert env.id == "gen5_inner_spiral_block-2-1-1-0"
    assert env.grid == generate_grid(5, "inner", "spiral", "block", 2)[1]
    assert len(list(WORLD.instances(["gen5_inner_spiral_block"], None, count=3))) == 24


def test_start_regions_and_empty_start():
    for start in ("inner", "outer"):
        for i in range(200):
            _, grid = generate_grid(1, start, "random", "block", i)
            assert (grid.start in INNER) == (start == "inner")
            assert grid.at(grid.start) == " "


def test_obstacle_rate_is_one_in_ten():
    block = _grids("random", "block", 400)
    rate = statistics.fmean(len(g.obstacle_cells) for g in block) / 121
    assert abs(rate - 0.1) < 0.01  # 400 grids: standard error ~0.0014
    assert all(not g.obstacle_cells for g in _grids("random", "free", 100))


def test_random_distribution_density_matches_uniform_p():
    fractions = [len(g.energy_cells) / 120 for g in _grids("random", "free", 400)]
    assert abs(statistics.fmean(fractions) - 0.5) < 0.02
    assert 0.2 < min(fractions) and max(fractions) < 0.8
    # Var(fraction) ~ Var(p) = 0.4^2 / 12 for p ~ U(0.3, 0.7); binomial noise adds ~0.002
    assert 0.010 < statistics.pvariance(fractions) < 0.020


@pytest.mark.parametrize("energy, axis", [("leftRight", 0), ("upDown", 1)])
def test_skewed_halves_use_p_and_one_minus_p(energy, axis):
    shares = [sum(cell[axis] <= 5 for cell in g.energy_cells) / 66 for g in _grids(energy, "free", 400)]
    low = [s for s in shares if s < 0.5]
    assert 0.4 < len(low) / len(shares) < 0.6  # p < 0.5 half the time
    assert abs(statistics.fmean(low) - 0.35) < 0.03  # p ~ U(0.3, 0.4)
    high = [s for s in shares if s >= 0.5]
    assert abs(statistics.fmean(high) - 0.65) < 0.03  # p ~ U(0.6, 0.7)
    second = [sum(cell[axis] > 5 for cell in g.energy_cells) / 55 for g in _grids(energy, "free", 400)]
    assert abs(statistics.fmean(a + b for a, b in zip(shares, second)) - 1) < 0.02  # the other half uses 1 - p
    assert statistics.correlation(shares, second) < -0.8


def test_clusters_are_three_to_five_full_blocks():
    seen = set()
    for i in range(300):
        info, grid = generate_grid(2, "outer", "cluster", "free", i)
        seen.add(info.energy_probability)
        energy = set(grid.energy_cells) | {grid.start}
        # every energy cell lies in some full 3x3 block of energy (the start may have been emptied)
        for r, c in grid.energy_cells:
            centres = [(br, bc) for br in range(max(1, r - 1), min(9, r + 1) + 1)
                       for bc in range(max(1, c - 1), min(9, c + 1) + 1)]
            assert any(all((rr, cc) in energy for rr in range(br - 1, br + 2) for cc in range(bc - 1, bc + 2))
                       for br, bc in centres)
    assert seen == {3, 4, 5}


def test_generated_densities_match_the_published_grids(shared_data):
    """Mean energy per distribution within 2.5 standard errors of the published sets' means."""
    for energy in ("random", "upDown", "leftRight", "cluster", "spiral"):
        published = [len(g.energy_cells) for s in SET_NAMES if f"_{energy}_free" in s
                     for _, g in published_set(shared_data, s)]
        generated = [len(g.energy_cells) for g in _grids(energy, "free", 400)]
        error = math.sqrt(statistics.pvariance(published) / len(published)
                          + statistics.pvariance(generated) / len(generated))
        assert abs(statistics.fmean(published) - statistics.fmean(generated)) < 2.5 * error + 0.5, energy


def test_spiral_winds_like_the_published_spirals(shared_data):
    """Most energy lies near an Archimedean spiral r = 0.584 (theta + phase)."""
    import cmath

    def concentration(grid: Grid) -> float:
        points = grid.energy_cells
        return abs(sum(cmath.exp(1j * (math.hypot(r - 5, c - 5) / 0.584 - math.atan2(c - 5, r - 5)))
                       for r, c in points)) / len(points)

    published = statistics.fmean(concentration(g) for _, g in published_set(shared_data, "inner_spiral_free"))
    generated = statistics.fmean(concentration(g) for g in _grids("spiral", "free", 100))
    assert published > 0.5 and abs(published - generated) < 0.1


def test_a_users_grid_file_is_named_by_its_path_and_its_ids_resolve_to_it(shared_data, tmp_path, monkeypatch):
    published = (shared_data / "grasp" / "grids" / "inner_cluster_block.jsonl").read_text().splitlines()
    record = json.loads(published[0])
    record["grid"] = record["grid"].replace("O", " ")  # the same index and set name as a published grid
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "inner_cluster_block.jsonl").write_text(json.dumps(record) + "\n")
    monkeypatch.chdir(tmp_path)
    ids = [env.id for env in WORLD.instances(["sub/inner_cluster_block.jsonl"], shared_data)]
    assert ids[0] == "sub/inner_cluster_block.jsonl-0-0-0-0" and len(ids) == 8
    mine = WORLD.resolve(Record(1, ids[0]), shared_data)
    theirs = WORLD.resolve(Record(1, "inner_cluster_block.jsonl-0-0-0-0"), shared_data)
    assert not mine.grid.obstacle_cells and theirs.grid.obstacle_cells
    with pytest.raises(InstanceNotFoundError, match="no grid with index 4"):
        WORLD.resolve(Record(1, "sub/inner_cluster_block.jsonl-4-0-0-0"), shared_data)
    (tmp_path / "mine.jsonl").write_text(json.dumps(record) + "\n")  # a file name that names no grid set
    other = WORLD.resolve(Record(1, "./mine.jsonl-0-0-0-0"), shared_data)
    rows = {row[0]: row[1:] for row in summary([(Record(1, env.id), WORLD.check(env, "[UP]"))
                                                for env in (mine, other)], table="factors").rows}
    assert rows["average"][0] == 1 and rows["start: inner"][0] == 1 and rows["carry limit: none"][0] == 1


@pytest.mark.parametrize("line, message", [
    ('{"grid": 5}', "'grid' must be the grid's text"),
    ("[1, 2]", "a grid record is a JSON object, not list"),
])
def test_a_malformed_grid_file_is_bad_input_with_its_line(tmp_path, line, message):
    path = tmp_path / "grids.jsonl"
    path.write_text(line + "\n")
    with pytest.raises(BadInputError, match=f"line 1: {re.escape(message)}"):
        list(WORLD.instances([str(path)], None))


def test_the_grids_shipped_in_the_package_are_the_release_files_byte_for_byte(shared_data):
    import gzip

    from plancheck.domains.grasp.published import SET_NAMES, SHIPPED

    for set_name in SET_NAMES:
        shipped = gzip.decompress((SHIPPED / f"{set_name}.jsonl.gz").read_bytes())
        assert shipped == (shared_data / "grasp" / "grids" / f"{set_name}.jsonl").read_bytes(), set_name


def test_without_a_data_folder_the_shipped_grids_serve(tmp_path):
    from plancheck.domains.grasp.catalog import environment

    env = environment("inner_random_free.jsonl-7-0-1-1", None)
    assert env.id == "inner_random_free.jsonl-7-0-1-1" and env.info.published
    assert environment("inner_random_free.jsonl-7-0-1-1", tmp_path).grid == env.grid  # a folder without GRASP data
