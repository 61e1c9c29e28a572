"""``evaluate --resume`` (issue 22, item 4): real runs killed with SIGKILL at random moments, then resumed until one
finishes, give the output of an uninterrupted run byte for byte (every record scored exactly once) and its summary;
a resume over changed inputs or other settings is refused."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from plancheck.cli import main

REPO = Path(__file__).resolve().parent.parent


def _batch(shared_data: Path, folder: Path, files: int) -> Path:
    """Published baseline answers of a few grid sets, a GPT-3.5 sample, and broken lines."""
    folder.mkdir()
    for path in sorted((shared_data / "grasp" / "baselines" / "random").glob("*.jsonl"))[:files]:
        (folder / path.name).write_bytes(path.read_bytes())
    llm = (shared_data / "grasp" / "llm" / "gpt35_responses.jsonl").read_text().splitlines()[:200]
    (folder / "gpt35.jsonl").write_text("\n".join(llm[:100] + ["{not json", '{"instance": "nowhere-1"}'] + llm[100:])
                                        + "\n")
    return folder


def _run(folder: Path, out: Path, *extra: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "plancheck", "evaluate", "grasp", str(folder), "-o", str(out),
                             "--summary", "--json", "--no-progress", "--resume", *extra],
                            cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)


def _kill_and_resume(folder: Path, out: Path, seed: int, kills: int, full: int,
                     extra: tuple[str, ...] = ()) -> tuple[int, str]:
    """Runs killed at random moments (seeded) until one finishes: (how many were killed, the summary printed).
    A moment is a random point of the output still to write (``full``: its size when complete), so that a kill
    lands mid-run however fast the machine is; after ``kills`` kills the next run finishes."""
    rng = random.Random(seed)
    partial = out.with_name(out.name + ".partial")
    killed = 0
    while True:
        run = _run(folder, out, *extra)
        if killed < kills:
            written = partial.stat().st_size if partial.exists() else 0
            target = written + rng.uniform(0.05, 0.6) * (full - written)
            deadline = time.monotonic() + 120
            while run.poll() is None and not (partial.exists() and partial.stat().st_size >= target):
                assert time.monotonic() < deadline, "the run wrote nothing for two minutes"
                time.sleep(0.005)
            if run.poll() is None:
                run.send_signal(signal.SIGKILL)
                run.wait()
                killed += 1
                continue
        run.wait()
        assert run.returncode == 0
        return killed, run.stdout.read().decode()


def _reference(folder: Path, out: Path, capsys) -> str:
    capsys.readouterr()
    assert main(["evaluate", "grasp", str(folder), "-o", str(out), "--summary", "--json", "--no-progress"]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_runs_killed_at_random_moments_resume_to_the_uninterrupted_output(shared_data, tmp_path, capsys, jobs):
    folder = _batch(shared_data, tmp_path / "answers", files=2)
    expected = _reference(folder, tmp_path / "reference.jsonl", capsys)
    out = tmp_path / "out.jsonl"
    full = (tmp_path / "reference.jsonl").stat().st_size
    killed, summary = _kill_and_resume(folder, out, seed=int(jobs), kills=2, full=full, extra=("--jobs", jobs))
    assert killed >= 1
    assert out.read_bytes() == (tmp_path / "reference.jsonl").read_bytes()
    assert json.loads(summary) == json.loads(expected)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["answers", "out.jsonl", "reference.jsonl"]


@pytest.mark.slow
def test_many_kills_at_random_moments(shared_data, tmp_path, capsys):
    folder = _batch(shared_data, tmp_path / "answers", files=10)
    expected = _reference(folder, tmp_path / "reference.jsonl", capsys)
    for seed in range(3):
        out = tmp_path / f"out{seed}.jsonl"
        full = (tmp_path / "reference.jsonl").stat().st_size
        killed, summary = _kill_and_resume(folder, out, seed=seed, kills=4, full=full,
                                           extra=("--jobs", str(1 + seed % 2)))
        assert killed >= 3
        assert out.read_bytes() == (tmp_path / "reference.jsonl").read_bytes()
        assert json.loads(summary) == json.loads(expected)


def _partial_run(folder: Path, out: Path) -> None:
    """A run killed once it has written some of its output."""
    run = _run(folder, out)
    partial = out.with_name(out.name + ".partial")
    deadline = time.monotonic() + 120
    while not (partial.exists() and partial.stat().st_size > 10_000):
        assert run.poll() is None and time.monotonic() < deadline, "the run ended before it could be killed"
        time.sleep(0.02)
    run.send_signal(signal.SIGKILL)
    run.wait()


def test_a_resume_over_changed_inputs_or_other_settings_is_refused(shared_data, tmp_path, capsys):
    folder = _batch(shared_data, tmp_path / "answers", files=10)
    out = tmp_path / "out.jsonl"
    _partial_run(folder, out)
    assert main(["evaluate", "grasp", str(folder), "-o", str(out), "--resume", "--rule", "delivered"]) == 2
    assert "the run began with other settings (options)" in capsys.readouterr().err
    changed = sorted(folder.glob("*.jsonl"))[0]
    changed.write_text(changed.read_text() + changed.read_text().splitlines()[0] + "\n")
    assert main(["evaluate", "grasp", str(folder), "-o", str(out), "--resume"]) == 2
    assert f"input {changed} changed since the run began" in capsys.readouterr().err
    (folder / "new.jsonl").write_text("")
    changed.unlink()
    assert main(["evaluate", "grasp", str(folder), "-o", str(out), "--resume"]) == 2
    assert "is gone since the run began" in capsys.readouterr().err
    assert out.with_name("out.jsonl.partial").stat().st_size > 10_000  # refusing kept the partial output
    assert main(["evaluate", "grasp", str(folder), "-o", str(out), "--no-progress"]) == 0  # starting again works
    assert not out.with_name("out.jsonl.partial").exists()


def test_a_torn_last_line_is_cut_off_and_written_again(shared_data, tmp_path, capsys):
    """A kill can land inside a line: the resumed run drops the torn piece and writes the whole line once (and a
    partial output with no complete line starts from the beginning)."""
    folder = _batch(shared_data, tmp_path / "answers", files=2)
    expected = _reference(folder, tmp_path / "reference.jsonl", capsys)
    reference = (tmp_path / "reference.jsonl").read_bytes()
    out = tmp_path / "out.jsonl"
    _partial_run(folder, out)
    left = {path: path.read_bytes() for path in tmp_path.glob("out.jsonl?*")}  # the partial output, the manifest
    partial = out.with_name("out.jsonl.partial")
    whole = left[partial][:left[partial].rindex(b"\n") + 1]
    assert whole.count(b"\n") >= 2 and reference.startswith(whole)
    for torn in ("inside a line", "inside the first line"):
        for path, data in left.items():
            path.write_bytes(data)
        cut = whole.rindex(b"\n", 0, len(whole) - 1) + 1 if torn == "inside a line" else 0
        partial.write_bytes(whole[:cut] + reference[cut:reference.index(b"\n", cut) - 7])
        capsys.readouterr()
        assert main(["evaluate", "grasp", str(folder), "-o", str(out), "--summary", "--json", "--no-progress",
                     "--resume"]) == 0
        assert out.read_bytes() == reference, torn
        assert json.loads(capsys.readouterr().out) == json.loads(expected)


def test_resume_needs_an_output_file(tmp_path, capsys):
    (tmp_path / "a.jsonl").write_text("")
    assert main(["evaluate", "grasp", str(tmp_path / "a.jsonl"), "--resume"]) == 2
    assert "--resume needs -o FILE" in capsys.readouterr().err


def test_pool_processes_die_with_a_killed_run(shared_data, tmp_path):
    folder = _batch(shared_data, tmp_path / "answers", files=10)
    out = tmp_path / "out.jsonl"
    run = subprocess.Popen([sys.executable, "-m", "plancheck", "evaluate", "grasp", str(folder), "-o", str(out),
                            "--jobs", "2", "--no-progress"], cwd=REPO)
    partial = out.with_name("out.jsonl.partial")
    deadline = time.monotonic() + 120
    while not (partial.exists() and partial.stat().st_size > 10_000):
        assert run.poll() is None and time.monotonic() < deadline
        time.sleep(0.02)
    run.send_signal(signal.SIGKILL)
    run.wait()
    deadline = time.monotonic() + 10
    while _processes_naming(out):  # the pool's processes were forked from the run: their command line names out
        assert time.monotonic() < deadline, "pool processes outlived the run"
        time.sleep(0.1)


def _processes_naming(path: Path) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and int(entry.name) != os.getpid():
            try:
                if str(path).encode() in (entry / "cmdline").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


def test_a_resumed_run_finds_the_same_duplicates_and_skips_them_as_an_uninterrupted_one(shared_data, tmp_path, capsys):
    folder = _batch(shared_data, tmp_path / "answers", files=1)
    repeated = (folder / "gpt35.jsonl").read_text().splitlines()[:60]
    (folder / "zz_repeated.jsonl").write_text("\n".join(repeated) + "\n")  # read last: each repeats an earlier one
    capsys.readouterr()
    assert main(["evaluate", "grasp", str(folder), "-o", str(tmp_path / "reference.jsonl"), "--summary", "--json",
                 "--no-progress", "--duplicates", "first"]) == 0
    expected = json.loads(capsys.readouterr().out)
    assert expected["duplicates"] == 60
    out = tmp_path / "out.jsonl"
    full = (tmp_path / "reference.jsonl").stat().st_size
    killed, summary = _kill_and_resume(folder, out, seed=7, kills=2, full=full,
                                       extra=("--duplicates", "first", "--jobs", "2"))
    assert killed >= 1
    assert out.read_bytes() == (tmp_path / "reference.jsonl").read_bytes()
    assert json.loads(summary) == expected
    assert sum("skipped" in json.loads(line) for line in out.read_text().splitlines()) == 60
