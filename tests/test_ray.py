"""``--ray`` (issue 22, item 7) on a Ray instance of this machine: evaluate, solve, play and export as Ray tasks
over shards of the input give a single process's output byte for byte; a killed Ray run resumes by shard."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from plancheck.cli import main
from plancheck.cli.parallel import RAY_CHUNK

REPO = Path(__file__).resolve().parent.parent
ray = pytest.importorskip("ray", reason="needs the distributed extra: pip install 'plancheck[distributed]'")
pytestmark = pytest.mark.slow  # a Ray instance takes 10-40 s to start on this machine


def _descendants(pid: int) -> set[int]:
    """The processes below ``pid`` (children, their children, ...), read from /proc."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # the process ended meanwhile
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found, todo = set(), [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


def _alive(pids: set[int]) -> set[int]:
    """The processes of ``pids`` still running (zombies count as gone)."""
    alive = set()
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            alive.add(pid)
    return alive


@pytest.fixture(scope="module")
def local_ray():
    """A Ray instance of this machine, without the dashboard; yields its address. Every test connects to it (a
    ``--ray`` run that starts its own instance and is killed leaves that instance's dashboard and runtime-env
    agents behind: they ignore SIGTERM). After ``ray.shutdown()`` no process it started may be left: any that
    is still there after 15 s is killed (by its id) and fails the test."""
    context = ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False,
                       runtime_env={"py_modules": [str(REPO / "plancheck")]})
    yield context.address_info["gcs_address"]
    started = _descendants(os.getpid())
    ray.shutdown()
    deadline = time.monotonic() + 15
    while _alive(started) and time.monotonic() < deadline:
        time.sleep(0.2)
    left = {}
    for pid in _alive(started):
        try:
            left[pid] = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[0].decode()
            os.kill(pid, signal.SIGKILL)
        except OSError:  # it ended meanwhile
            left.pop(pid, None)
    assert not left, f"Ray processes outlived ray.shutdown(): {sorted(left.values())}"


def test_evaluate_solve_play_and_export_on_ray_give_a_single_process_output(local_ray, shared_data, tmp_path,
                                                                           capsys):
    answers = [str(shared_data / "grasp" / "baselines" / "random"), "--indices", "0-6"]  # 1120 records, 2 shards
    assert main(["evaluate", "grasp", *answers, "-o", str(tmp_path / "here.jsonl"), "--summary"]) == 0
    here = capsys.readouterr().out
    assert main(["evaluate", "grasp", *answers, "-o", str(tmp_path / "ray.jsonl"), "--summary", "--ray"]) == 0
    assert capsys.readouterr().out == here
    assert (tmp_path / "ray.jsonl").read_bytes() == (tmp_path / "here.jsonl").read_bytes()
    assert len((tmp_path / "ray.jsonl").read_text().splitlines()) > RAY_CHUNK

    solved = []
    for extra in ([], ["--ray"]):
        out = tmp_path / f"solved{len(extra)}.jsonl"
        assert main(["solve", "grasp", "gen5_outer_spiral_block", "--count", "2", "--setting", "1-1-1", "-o",
                     str(out), "--no-progress", *extra]) == 0
        solved.append([{k: v for k, v in json.loads(line).items() if k != "seconds"}
                       for line in out.read_text().splitlines()])
    assert solved[0] == solved[1] and len(solved[0]) == 2

    logs = []
    for extra in ([], ["--ray"]):
        out = tmp_path / f"log{len(extra)}.jsonl"
        assert main(["play", "rps", "RockPaperScissorBasic", "--policy", "bayes", "--episodes", "3", "-o", str(out),
                     *extra]) == 0
        logs.append(out.read_bytes())
    assert logs[0] == logs[1]

    files = []
    for extra in ([], ["--ray"]):
        folder = tmp_path / f"pddl{len(extra)}"
        assert main(["export", "hanoi", "hanoi-3", "hanoi-4", "--out", str(folder), *extra]) == 0
        files.append({p.name: p.read_bytes() for p in folder.iterdir()})
    assert files[0] == files[1]


def test_a_killed_ray_run_resumes_by_shard(local_ray, shared_data, tmp_path, capsys):
    answers = [str(shared_data / "grasp" / "baselines" / "random")]  # 16,000 records, 16 shards
    assert main(["evaluate", "grasp", *answers, "-o", str(tmp_path / "here.jsonl")]) == 0
    out = tmp_path / "out.jsonl"
    run = subprocess.Popen([sys.executable, "-m", "plancheck", "evaluate", "grasp", *answers, "-o", str(out),
                            f"--ray={local_ray}"], cwd=REPO, stderr=subprocess.DEVNULL)
    partial = out.with_name("out.jsonl.partial")
    deadline = time.monotonic() + 300
    while not (partial.exists() and partial.stat().st_size > 0):  # the first shard is written
        assert run.poll() is None and time.monotonic() < deadline
        time.sleep(0.05)
    run.send_signal(signal.SIGKILL)
    run.wait()
    done = len(partial.read_bytes().split(b"\n")) - 1
    assert 0 < done < 16_000
    assert main(["evaluate", "grasp", *answers, "-o", str(out), "--resume"]) == 0
    assert out.read_bytes() == (tmp_path / "here.jsonl").read_bytes()
