"""Outputs are safe (issue 22, item 3): never written over an input or inside an input folder, renamed into place
whole, one run at a time; temporary folders go on SIGINT and SIGTERM; a folder's unreadable entries are named."""

from __future__ import annotations

import fcntl
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plancheck.cli import main
from plancheck.cli.common import _LineEncoder, json_line

REPO = Path(__file__).resolve().parent.parent
ENV = "inner_cluster_block.jsonl-0-0-0-0"
RECORD = json.dumps({"instance": ENV, "response": "[DOWN, TAKE, UP, DROP]"}) + "\n"


def _cli(*args: str, **kwargs) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "plancheck", *args], cwd=REPO, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, **kwargs)


def _answers(folder: Path, count: int = 3) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "answers.jsonl"
    path.write_text(RECORD * count)
    return path


def test_an_output_that_is_an_input_or_inside_an_input_folder_is_refused(tmp_path, capsys):
    answers = _answers(tmp_path / "in")
    before = answers.read_bytes()
    assert main(["evaluate", "grasp", str(answers), "-o", str(answers)]) == 2
    assert "is also an input" in capsys.readouterr().err
    assert answers.read_bytes() == before
    inside = tmp_path / "in" / "verdicts.jsonl"
    assert main(["evaluate", "grasp", str(tmp_path / "in"), "-o", str(inside)]) == 2
    assert "lies inside the input folder" in capsys.readouterr().err
    assert not inside.exists() and not inside.with_name("verdicts.jsonl.partial").exists()
    grids = tmp_path / "mine.jsonl"
    grids.write_text("{}\n")
    assert main(["prompt", "grasp", str(grids), "-o", str(grids)]) == 2  # a selector that is a file is an input
    assert grids.read_text() == "{}\n"


def test_a_finished_run_leaves_the_output_alone_no_partial_file_and_no_manifest(tmp_path, capsys):
    answers = _answers(tmp_path / "in")
    out = tmp_path / "out.jsonl"
    assert main(["evaluate", "grasp", str(answers), "-o", str(out), "--no-progress"]) == 0
    assert len(out.read_text().splitlines()) == 3
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in", "out.jsonl"]


def test_a_second_run_on_the_same_output_is_refused_while_the_first_runs(tmp_path):
    out = tmp_path / "out.jsonl"
    out.write_text("the previous results\n")
    first = _cli("evaluate", "grasp", "-", "-o", str(out), "--no-progress", stdin=subprocess.PIPE)
    partial = tmp_path / "out.jsonl.partial"
    _wait_for(lambda: partial.exists() and _locked(partial))
    second = _cli("evaluate", "grasp", str(_answers(tmp_path / "in")), "-o", str(out), "--no-progress")
    assert second.wait(60) == 2
    assert "is being written by another plancheck run" in second.stderr.read()
    assert out.read_text() == "the previous results\n"  # the first run has not finished: the old output stands
    first.stdin.write(RECORD * 2)
    first.stdin.close()
    assert first.wait(60) == 0
    assert len(out.read_text().splitlines()) == 2 and not partial.exists()


def _locked(path: Path) -> bool:
    with open(path, "rb") as file:
        try:
            fcntl.flock(file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        fcntl.flock(file, fcntl.LOCK_UN)
        return False


def _wait_for(condition, seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def _sigint_as_a_terminal_gives_it() -> None:
    """Ctrl-C's default: a suite started in the background by a non-interactive shell ignores SIGINT, its
    children inherit that, and Python then installs no KeyboardInterrupt handler (the run rightly ignores it)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize("signum, code", [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_temporary_folders_are_removed_on_sigint_and_sigterm(tmp_path, signum, code):
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    out = tmp_path / "out.jsonl"
    out.write_text("old\n")
    run = _cli("evaluate", "grasp", "-", "-o", str(out), stdin=subprocess.PIPE,
               env={**os.environ, "TMPDIR": str(temporary)}, preexec_fn=_sigint_as_a_terminal_gives_it)
    _wait_for(lambda: any(temporary.iterdir()))  # the spool of standard input exists, the run reads stdin
    run.stdin.write(RECORD)
    run.stdin.flush()
    run.send_signal(signum)
    assert run.wait(60) == code
    assert list(temporary.iterdir()) == []
    assert out.read_text() == "old\n"  # never half written


def test_unreadable_entries_fifos_and_dangling_links_of_a_folder_are_named_and_the_rest_scored(
        tmp_path, capsys, monkeypatch):
    folder = tmp_path / "answers"
    _answers(folder)
    os.mkfifo(folder / "pipe.jsonl")
    (folder / "gone.jsonl").symlink_to(folder / "missing.jsonl")
    (folder / "loop.jsonl").symlink_to(folder / "loop.jsonl")
    locked = folder / "secret.jsonl"
    locked.write_text(RECORD)
    real_open = os.open

    def refusing_open(path, flags, *rest, **named):  # root reads any file: a non-root user's refusal, by hand
        if Path(path) == locked:
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, flags, *rest, **named)

    monkeypatch.setattr("plancheck.cli.evaluate.os.open", refusing_open)
    out = tmp_path / "out.jsonl"
    assert main(["evaluate", "grasp", str(folder), "-o", str(out), "--summary", "--no-progress"]) == 0
    err = capsys.readouterr()
    assert f"broken record: {folder / 'pipe.jsonl'} (the whole file): not a regular file (a FIFO)" in err.err
    assert f"broken record: {folder / 'gone.jsonl'} (the whole file): a link to a missing file" in err.err
    assert f"{folder / 'loop.jsonl'} (the whole file): cannot be read: Too many levels of symbolic links" in err.err
    assert f"{folder / 'secret.jsonl'} (the whole file): cannot be read: Permission denied" in err.err
    assert "3 records scored, 4 broken" in err.out
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [line.get("error", "scored")[:12] for line in lines] == (
        ["scored"] * 3 + ["a link to a ", "cannot be re", "not a regula", "cannot be re"])


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their mode (the test above covers it)")
def test_a_file_without_read_permission_is_named(tmp_path, capsys):
    folder = tmp_path / "answers"
    _answers(folder)
    (folder / "secret.jsonl").write_text(RECORD)
    (folder / "secret.jsonl").chmod(0)
    assert main(["evaluate", "grasp", str(folder), "--summary", "--no-progress"]) == 0
    assert "secret.jsonl (the whole file): cannot be read: Permission denied" in capsys.readouterr().err


def test_export_writes_every_file_whole(tmp_path, capsys):
    out = tmp_path / "pddl"
    assert main(["export", "grasp", ENV, "--out", str(out)]) == 0
    names = sorted(p.name for p in out.iterdir())
    assert names and not [name for name in names if name.endswith(".tmp")]


_SIGNAL_ELSEWHERE = """
import signal, sys, threading, time
threading.Thread(target=time.sleep, args=(3600,), daemon=True).start()
signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGTERM])  # the kernel now hands SIGTERM to the other thread
from plancheck.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_a_sigterm_that_does_not_interrupt_the_read_of_standard_input_still_ends_the_run(tmp_path):
    """A signal that lands just before a blocking read (or in another thread) interrupts no system call:
    the handler runs only when Python code runs again. The stdin spool must not sleep in one long read."""
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    out = tmp_path / "out.jsonl"
    run = subprocess.Popen([sys.executable, "-c", _SIGNAL_ELSEWHERE, "evaluate", "grasp", "-", "-o", str(out)],
                           cwd=REPO, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, env={**os.environ, "TMPDIR": str(temporary)})
    _wait_for(lambda: any(temporary.iterdir()))
    run.stdin.write(RECORD)
    run.stdin.flush()
    time.sleep(0.5)  # the run is asleep, waiting for more input
    run.send_signal(signal.SIGTERM)
    try:
        assert run.wait(30) == 143
    finally:
        run.kill()
    assert list(temporary.iterdir()) == [] and not out.exists()


JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers(-10 ** 30, 10 ** 30) | st.text(max_size=8)
                           | st.floats(), lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(st.text(max_size=5), inner, max_size=4), max_leaves=25)


@settings(max_examples=150, deadline=None)
@given(st.lists(JSON_VALUES, min_size=1, max_size=8))
def test_output_lines_are_what_json_dumps_writes_across_encoder_renewals(values):
    # json_line keeps json's C encoder for many lines (renewed to bound its memo of keys); each line must still be
    # json.dumps(ensure_ascii=False), or its ASCII form when it holds a lone surrogate
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_LineEncoder, "RENEW", 3)
        encode = _LineEncoder()
        patch.setattr("plancheck.cli.common._unicode_json", encode)
        for value in values:
            line = json_line(value)
            unicode = json.dumps(value, ensure_ascii=False) + "\n"
            assert line == unicode or line == json.dumps(value) + "\n" and not _utf8(unicode)
            assert 0 <= encode.left < 3  # a new encoder every third line


def _utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
