"""``plancheck ... babyai`` from the command line: every command, its output and its exit code."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from plancheck import cli, registry
from plancheck.cli.progress import Progress


@pytest.fixture()
def run(monkeypatch, capsys, shared_data):
    monkeypatch.setattr(registry, "WORLDS", {"babyai": "plancheck.domains.babyai.world:WORLD"})
    registry.get_world.cache_clear()

    def invoke(*args: str) -> tuple[int, str, str]:
        code = cli.main([args[0], "babyai", *args[1:], "--data", str(shared_data)])
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    yield invoke
    registry.get_world.cache_clear()


def test_instances_prompt_and_stats(run):
    code, out, _ = run("instances", "samples")
    assert code == 0 and out.splitlines()[0] == "BabyAI-GoToLocal-v0/seed=1" and len(out.splitlines()) == 16
    code, out, _ = run("prompt", "BabyAI-GoToLocal-v0/seed=1", "--task", "predict", "--json")
    prompt = json.loads(out)
    assert code == 0 and "forward, left\n\n" in prompt["messages"][0]["content"]
    code, out, _ = run("prompt", "GoToLocalS5N2-5", "--task", "ig", "--json")
    messages = json.loads(out)["messages"]
    assert code == 0 and messages[0]["role"] == "system" and messages[1]["content"].startswith("Task: go to")
    code, out, _ = run("stats", "langsuite", "--json")
    data = json.loads(out)
    assert code == 0 and len(data["langsuite_missing"]) == 5 and data["environments"]


def test_check_exit_codes(run, tmp_path):
    good, bad, junk = tmp_path / "good.txt", tmp_path / "bad.txt", tmp_path / "junk.txt"
    good.write_text("The LLM's action sequence is: left, forward, forward, left, forward")
    bad.write_text("The LLM's action sequence is: left, forward, forward, forward, left, forward")
    junk.write_text("no marker here")
    room = "CustomBabyAI-GoToRedBall-Small-4Dists-v0/seed=1"
    code, out, _ = run("check", room, str(good))
    assert code == 0 and "goal reached: yes, at step 5" in out
    code, out, _ = run("check", room, str(bad))
    assert code == 1 and "step 4: forward from (1, 4) facing west is blocked by a wall at (0, 4)" in out
    code, _, _ = run("check", room, str(bad), "--semantics", "benchmark")
    assert code == 0
    code, out, _ = run("check", room, str(junk))  # an unreadable answer is an invalid plan, not bad input
    assert code == 1 and "UNPARSEABLE" in out and "junk.txt" in out
    code, _, err = run("check", "BabyAI-Nope-v0/seed=1", str(good))
    assert code == 2 and "error" in err
    code, _, err = run("check", "all/seeds=1-100000", str(good))  # refused after two instances, not 3.2 million
    assert code == 2 and "names several instances; check needs exactly one" in err


def test_evaluate_summary_and_broken_records(run, shared_data):
    code, out, err = run("evaluate", str(shared_data / "babybench" / "regenerated_plan_sample.jsonl"), "--summary",
                         "--json")
    summary = json.loads(out)
    assert code == 0 and summary["records"] == 4 and summary["broken"] == 0
    plans = summary["models"]["regenerated_plan_sample"]["plan"]  # the file's name stands for the model
    assert plans["CustomBabyAI-GoToRedBall-Medium-20Dists-v0"]["success rate (CR)"] == 1.0
    code, out, err = run("evaluate", str(shared_data / "babybench" / "regenerated_decompose_sample.jsonl"))
    assert code == 2 and err.count("broken record") == 6


def test_evaluate_reports_a_record_with_an_unknown_task_and_scores_the_rest(run, tmp_path):
    answers = tmp_path / "answers.jsonl"
    room = "CustomBabyAI-GoToRedBall-Small-4Dists-v0/seed=1"
    records = [("nonsense", "x"), (None, "x"), ("plan", "The LLM's action sequence is: left")]
    answers.write_text("\n".join(json.dumps({"instance": room, "task": task, "response": response})
                                 for task, response in records))
    code, out, err = run("evaluate", str(answers))
    items = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and [("verdict" in item) for item in items] == [False, False, True]
    assert "unknown task 'nonsense' (expected one of predict, plan, decompose, ig)" in items[0]["error"]
    assert err.count("broken record") == 2


def test_solve_certifies_and_export_writes_pddl_that_fast_downward_solves(run, tmp_path):
    code, out, _ = run("solve", "BabyAI-PutNextLocal-v0/seed=2")
    result = json.loads(out)
    assert code == 0 and result["status"] == "solved" and result["proven_optimal"]
    assert result["values"]["length"] == 17 and result["minigrid_success_step"] == 17
    code, out, _ = run("solve", "BabyAI-BossLevel-v0/seed=81", "--timeout", "0.5")  # a hard seed: no claim
    result = json.loads(out)
    assert code == 1 and result["status"] == "timed out" and result["plan"] is None and not result["proven_optimal"]
    code, out, _ = run("solve", "BabyAI-PutNextLocal-v0/seed=2", "--planner", "bot")
    assert code == 0 and json.loads(out)["values"]["length"] == 20 and not json.loads(out)["proven_optimal"]
    code, out, _ = run("export", "BabyAI-GoToLocal-v0/seed=2", "--out", str(tmp_path))
    assert code == 0 and sorted(p.name for p in tmp_path.iterdir()) == ["BabyAI-GoToLocal-v0-seed2.pddl",
                                                                        "babyai-domain.pddl"]
    from plancheck.solvers.external import run_fast_downward

    run_ = run_fast_downward((tmp_path / "babyai-domain.pddl").read_text(),
                             (tmp_path / "BabyAI-GoToLocal-v0-seed2.pddl").read_text(), timeout=120)
    assert run_.cost == 6


def test_a_bot_that_gives_up_says_so(run):
    """The omniscient bot asserts at its first step on most multi-room levels; the message was "AssertionError: "."""
    code, out, _ = run("solve", "BabyAI-BossLevel-v0/seed=1", "--planner", "omniscient-bot")
    result = json.loads(out)
    assert code == 1 and result["status"] == "failed" and result["plan"] is None
    assert result["message"] == "the bot gave up after 0 action(s) (AssertionError in BabyAIBot)"


@pytest.mark.parametrize("value", ["nan", "-1", "inf", "abc"])
def test_time_limits_must_be_a_finite_number(run, value, capsys):
    """--timeout nan searched without any limit (hours on BossLevel 81); -1 timed out at once."""
    with pytest.raises(SystemExit) as stop:
        run("solve", "BabyAI-GoToLocal-v0/seed=1", "--timeout", value)
    assert stop.value.code == 2 and "expected a finite number >= 0" in capsys.readouterr().err


def test_building_the_parser_does_not_import_minigrid():
    code = ("import sys, plancheck.registry as r; r.WORLDS.pop('grasp', None); import plancheck.cli as c; "
            "c.build_parser(); print('minigrid' in sys.modules, 'gymnasium' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]


@pytest.mark.parametrize("value", ["0.5", "inf", "nan"])
def test_weighted_astar_needs_a_finite_weight_of_at_least_one(run, value, capsys):
    try:  # 0.5 is refused by the solver (exit 2), inf and nan by the parser (usage error)
        code, _, err = run("solve", "BabyAI-GoToLocal-v0/seed=1", "--planner", "wastar", "--weight", value)
    except SystemExit as stop:
        code, err = stop.code, capsys.readouterr().err
    assert code == 2 and "finite number" in err


def test_an_empty_seed_range_is_bad_input(run):
    code, out, err = run("instances", "BabyAI-GoTo-v0/seeds=5-1")
    assert code == 2 and out == "" and "seed range is empty" in err


def test_export_of_an_unknown_id_leaves_no_folder(run, tmp_path):
    code, _, err = run("export", "BabyAI-NoSuchLevel-v0/seed=1", "--out", str(tmp_path / "pddl"))
    assert code == 2 and not (tmp_path / "pddl").exists() and err


def test_solve_shows_a_long_search_on_a_terminal_and_clears_it_before_the_result():
    """On a terminal, ``solve`` shows the states expanded and the bound proven so far on one line,
    and wipes that line before the next output; off a terminal it writes nothing."""
    import io

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    screen = Terminal()
    progress = Progress("instances", True, screen)
    report = progress.search("BabyAI-BossLevel-v0/seed=81")
    report(65536, 97)
    report(98304, None)
    progress.tick()
    shown = screen.getvalue()
    assert "\rBabyAI-BossLevel-v0/seed=81: 65,536 states expanded, optimum at least 97\x1b[K" in shown
    assert "98,304 states expanded\x1b[K" in shown and shown.endswith("\r\x1b[K")
    quiet = io.StringIO()
    silent = Progress("instances", True, quiet)
    silent.search("x")(1, 2)
    silent.tick()
    assert quiet.getvalue() == ""
