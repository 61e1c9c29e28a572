"""Every benchmark script still runs (on a small workload) and prints its result lines.

The scripts sit outside the package, so nothing else would notice when a rename breaks one (it
happened: a planner renamed in the package, a script kept the old name). The numbers they print are
measurements, so only their shape is checked here.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from plancheck.solvers.external import fast_downward_driver
from tests.extras import needs_minigrid

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def run(script: str, *args: str, data: Path | None = None) -> str:
    extra = ["--data", str(data)] if data is not None else []
    done = subprocess.run([sys.executable, str(BENCHMARKS / script), *args, *extra],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"{script} failed:\n{done.stderr[-2000:]}"
    return done.stdout


@needs_minigrid
def test_babyai_scripts_run_on_a_few_seeds(tmp_path):
    small = ("--levels", "BabyAI-GoToObj-v0", "--seeds", "1-2", "--limit", "5")
    assert re.search(r"\n2 instances in \d+ s$", run("babyai_optimal.py", *small).rstrip())
    assert "ALL" in run("babyai_abstraction.py", *small)
    assert "violations 0" in run("babyai_transport_check.py", "--levels", "BabyAI-GoToObj-v0", "--seeds", "1",
                                 "--limit", "5")
    rooms = tmp_path / "rooms.jsonl"
    run("babyai_optimal.py", "--plan-rooms", "--seeds", "1", "--limit", "5", "--out", str(rooms))
    assert [line.split()[0] for line in run("babyai_pose_bfs.py", str(rooms)).splitlines()[-4:]] == [
        "Small", "Medium", "Large", "Ultra"]
    best = run("babyai_best_known.py").splitlines()
    assert [line.split()[:5] for line in best if line.startswith("BossLevel")] == [
        ["BossLevel", "70", "93", "53", "146"], ["BossLevel", "81", "60", "55", "115"]]


@needs_minigrid
@pytest.mark.slow  # 11 s; the whole proof is the slow test below
def test_the_boss_level_70_bound_holds_for_plans_that_leave_the_ball_in_place():
    """Half of the proof that BossLevel 70's optimum is 146 (the other half takes 5 minutes: slow)."""
    out = run("babyai_boss70_bound.py", "--case", "ball-in-place")
    assert out.startswith("ball in place at the unlock: at least 146 actions, met by a plan that unlocks after 93")


def test_scoring_scripts_run(shared_data):
    assert "disagreements: 0" in run("hanoi_check.py", "--answers", "50")
    mango = run("mango_oracle.py", "--repeat", "1", "--fd", "1", "--games", "3", data=shared_data)
    assert re.search(r"^3 games, (\d+) answerable questions.*\n(?:.*\n)*.*oracle scores 1\.0 on \1/\1$", mango, re.M)
    if fast_downward_driver() is not None:  # an optional extra: the script leaves the comparison out without it
        assert "1/1 optimal and equal to the search" in mango
    assert "ratio library / naive" in run("grasp_scoring.py", "--files", "2", data=shared_data)


def test_the_fuzz_benchmark_runs_on_small_inputs(shared_data):
    out = run("fuzz.py", "--sizes", "100,1000", "--rounds", "20", "--worlds", "grasp,bandits", "--no-memory")
    assert re.search(r"^grasp +answer +", out, re.M) and re.search(r"^bandits +episode reply +", out, re.M)
    assert re.search(r"^validate +plan +", out, re.M) and re.search(r"^  grasp +0 crash\(es\)$", out, re.M)


def test_the_grasp_bulk_optima_script_runs():
    out = run("grasp_bulk_optima.py", "--environments", "160", "--jobs", "2", "--profile", "16")
    assert re.search(r"^--jobs 2 +160 environments, all certified optimal, in [\d.]+ s: [\d.]+ environments/s, "
                     r"100,000 in [\d.]+ min \([\d.]+x the target\); [\d.]+ s CPU: .* two idle cores in [\d.]+ min "
                     r"\([\d.]+x the target\); load average [\d.]+$", out, re.M)
    assert "grasp/exact.py" in out.split("\nprofile of 16 environments on one core: ")[1]


@pytest.mark.slow
def test_the_boss_level_70_bound_is_146():
    assert run("babyai_boss70_bound.py").splitlines()[-1] == "every plan has at least 146 actions"


@pytest.mark.slow
def test_long_scripts_run(shared_data):
    assert "grid-40x40" in run("pddl_validate.py", "--repeat", "1")
    assert run("grasp_optimum.py", "--fd-sample", "0", data=shared_data)


def test_messenger_scripts_run():
    rate = run("messenger_check_rate.py", "--episodes", "3", "--passes", "2")
    assert re.search(r"^slowest \(best of 2 passes\): \d+ steps/s \(target 20,000\); load average [\d.]+$", rate,
                     re.M)
    assert re.search(r"^MessengerL3, unseeded \(observational\) +3 +\d+ +\d+ +[\d.]+ +\d+ +0$", rate, re.M)
    reference = run("messenger_reference.py", "--levels", "2", "--seeds", "0-1")
    assert re.search(r"^L2 +planner +2 +1\.000 +1\.000 +2 +0", reference, re.M)
    assert "GPT-4-0613 (paper)" in reference


def test_the_smartplay_episode_benchmark_runs():
    out = run("smartplay_episodes.py", "--episodes", "4")
    assert [line.split()[:2] for line in out.splitlines()] == [["bandits", "without"], ["bandits", "with"],
                                                               ["rps", "without"], ["rps", "with"]]
    assert all("steps/s checked" in line for line in out.splitlines())


def test_langsuite_rearrangement_script_runs():
    out = run("langsuite_rearrangement.py", "--episodes", "2", "--steps", "20")
    assert re.search(r"^engine: [\d.]+ ms a step", out, re.M) and re.search(r"^certify: median [\d.]+ s", out, re.M)
