"""What people expect of the command line: a progress bar on a terminal (and none in a pipe), one spelling per
option in every world, instances listed without building them, a warning before a planner run that cannot
finish."""

from __future__ import annotations

import argparse
import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from plancheck.cli import build_parser, main
from plancheck.cli.progress import Progress, line
from plancheck.registry import get_world, world_names

REPO = Path(__file__).resolve().parent.parent
BASELINES = "grasp/baselines/greedy"


def _subparsers(parser: argparse.ArgumentParser):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            yield from action.choices.items()


def _options():
    """(command, world, option strings, dest) of every option of every world command."""
    for command, sub in _subparsers(build_parser()):
        for world, leaf in _subparsers(sub):
            if not get_world(world).supports(command):
                continue
            for action in leaf._actions:
                if action.option_strings:
                    yield command, world, tuple(action.option_strings), action.dest


def test_output_files_are_always_named_with_o_and_output():
    outputs = [(c, w, strings) for c, w, strings, dest in _options() if dest == "output"]
    assert {c for c, _, _ in outputs} >= {"prompt", "evaluate", "solve", "export", "play", "convert", "render"}
    assert all(strings == ("-o", "--output") for _, _, strings in outputs)
    assert not [o for o in _options() if "--out" in o[2]]


def test_json_is_offered_only_where_it_changes_the_output():
    offered = {command for command, _, strings, _ in _options() if "--json" in strings}
    assert offered == {"instances", "prompt", "check", "evaluate", "stats"}


def test_every_option_name_means_one_thing_across_worlds():
    helps: dict[tuple[str, str], set[str]] = {}
    for world in world_names():
        for option in get_world(world).options:
            helps.setdefault((option.name, option.help.split(":")[0]), set()).add(world)
    names = {}
    for name, base in helps:
        names.setdefault(name, set()).add(base)
    shared = {"unknown", "pick", "planner", "timeout"}
    for name in shared:
        assert len(names.get(name, ())) <= 1, (name, names.get(name))
    unknown = [get_world(w) for w in world_names() if any(o.name == "unknown" for o in get_world(w).options)]
    assert {w.name for w in unknown} == {"grasp", "babyai", "hanoi"}
    for world in unknown:
        option = next(o for o in world.options if o.name == "unknown")
        assert {"noop", "skip"} <= set(option.choices) and option.commands == ("check", "evaluate", "render")


def test_instances_of_babyai_are_listed_without_building_an_environment(monkeypatch, capsys):
    pytest.importorskip("minigrid", reason="needs the babyai extra: pip install 'plancheck[babyai]'")
    from plancheck.domains.babyai import extract, levels

    def refuse(*_args, **_kwargs):
        raise AssertionError("an environment was built")

    monkeypatch.setattr(levels, "build_env", refuse)
    monkeypatch.setattr(extract, "reset_env", refuse)
    assert main(["instances", "babyai", "babybench", "--limit", "3"]) == 0
    assert capsys.readouterr().out.split() == ["BabyAI-GoToObj-v0/seed=1", "BabyAI-GoToObj-v0/seed=2",
                                               "BabyAI-GoToObj-v0/seed=3"]
    assert main(["instances", "babyai", "plan-rooms/seeds=1-2"]) == 0
    assert len(capsys.readouterr().out.split()) == 32


def test_a_planner_run_that_cannot_finish_is_warned_about(capsys):
    assert main(["solve", "grasp", "inner_random_free.jsonl-35-0-0-0", "--planner", "fast-downward",
                 "--timeout", "0.2"]) in (0, 1)
    assert "warning" not in capsys.readouterr().err  # 4 directions: Fast Downward finishes
    main(["solve", "grasp", "inner_random_free.jsonl-35-1-0-0", "inner_random_free.jsonl-35-1-0-1",
          "--planner", "symk", "--timeout", "0.2"])
    err = capsys.readouterr().err
    assert ("plancheck: warning: inner_random_free.jsonl-35-1-0-0: symk on an 8-direction grid (37 energy cells) "
            "is not expected to finish within 0.2 s") in err
    assert "the same for 1 more instance(s)" in err


def test_the_progress_line_shows_count_total_and_time_left():
    assert line("records", 0, 100, 0.0).startswith("records [------------------------] 0/100 0%")
    assert "left" not in line("records", 1, 100, 0.5)  # too soon to tell
    assert "about 1 min 30 s left" in line("records", 10, 100, 10.0)

    class Terminal:
        def __init__(self):
            self.text = ""

        def isatty(self):
            return True

        def write(self, text):
            self.text += text

        def flush(self):
            pass

    screen = Terminal()
    progress = Progress("items", True, total=3, stream=screen)
    for _ in range(3):
        progress.tick()
    progress.say("a message")
    progress.done()
    assert "a message\n" in screen.text
    assert "[########################] 3/3 100%" in screen.text
    quiet = Terminal()
    quiet.isatty = lambda: False
    silent = Progress("items", True, total=3, stream=quiet)
    silent.tick()
    silent.done()
    assert quiet.text == ""


def _run(args, terminal: bool) -> str:
    """stderr of ``python -m plancheck ARGS``, on a pseudo-terminal or a pipe."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    if not terminal:
        done = subprocess.run([sys.executable, "-m", "plancheck", *args], capture_output=True, text=True, env=env,
                              cwd=REPO, timeout=300)
        return done.stderr
    leader, follower = pty.openpty()
    process = subprocess.Popen([sys.executable, "-m", "plancheck", *args], stdout=subprocess.DEVNULL,
                               stderr=follower, env=env, cwd=REPO)
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    process.wait(timeout=300)
    os.close(leader)
    return b"".join(chunks).decode()


def test_a_long_evaluate_shows_its_bar_on_a_terminal_only(shared_data):
    args = ["evaluate", "grasp", str(shared_data / BASELINES), "--indices", "0-2", "-o", os.devnull]
    shown = _run(args, terminal=True)
    assert "lines [" in shown and "/16,000 " in shown and "records)" in shown and "100%" in shown
    assert _run(args, terminal=False) == ""
    assert _run(args + ["--no-progress"], terminal=True) == ""


def test_a_bug_while_solving_one_instance_costs_that_instance_only(tmp_path, capsys, monkeypatch):
    """A full `solve iqa all` run once died at its 166th question on one KeyError: the others must go on."""
    world = get_world("hanoi")
    real = type(world).solve

    def failing(self, instance, **options):
        if self.instance_id(instance) == "hanoi-3":
            raise KeyError("a missing entry")
        return real(self, instance, **options)

    monkeypatch.setattr(type(world), "solve", failing)
    out = tmp_path / "plans.jsonl"
    assert main(["solve", "hanoi", "hanoi-2", "hanoi-3", "hanoi-4", "-o", str(out), "--no-progress"]) == 3
    lines = [json.loads(text) for text in out.read_text().splitlines()]
    assert [(x["instance"], x["status"]) for x in lines] == [
        ("hanoi-2", "solved"), ("hanoi-3", "internal error"), ("hanoi-4", "solved")]
    assert "KeyError: 'a missing entry'" in lines[1]["message"]
    err = capsys.readouterr().err
    assert "hanoi-3: internal error (a bug in plancheck): KeyError" in err and "1 internal error" in err
    assert main(["solve", "hanoi", "hanoi-3", "hanoi-4", "--debug"]) == 3  # the run stops, with the traceback
    err = capsys.readouterr()
    assert "Traceback" in err.err and "hanoi-4" not in err.out


def test_bad_input_while_solving_stops_the_run_with_exit_2_not_an_internal_error(tmp_path, capsys, monkeypatch):
    """An instance the world refuses (bad input, or a request it does not support) is the user's to fix: the run
    stops with exit 2 and the world's words, where a bug would cost that instance only (exit 3)."""
    from plancheck.errors import BadInputError, UnsupportedError

    world = get_world("hanoi")
    real = type(world).solve
    for error in (BadInputError("hanoi-3: a refused option"), UnsupportedError("hanoi-3: no such planner here")):
        def refusing(self, instance, error=error, **options):
            if self.instance_id(instance) == "hanoi-3":
                raise error
            return real(self, instance, **options)

        monkeypatch.setattr(type(world), "solve", refusing)
        out = tmp_path / f"{type(error).__name__}.jsonl"
        assert main(["solve", "hanoi", "hanoi-2", "hanoi-3", "hanoi-4", "-o", str(out), "--no-progress"]) == 2
        err = capsys.readouterr().err
        assert f"plancheck: error: {error}" in err and "internal error" not in err
        assert not out.exists()  # written only by a run that finishes
