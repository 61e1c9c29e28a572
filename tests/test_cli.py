"""The command line: help everywhere, exit codes 0 / 1 / 2, JSON output."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from plancheck.cli import build_parser, main
from plancheck.registry import get_world, world_names
from tests.extras import needs_fast_downward, needs_minigrid

VALID = "[DOWN, TAKE, UP, DROP]"
ENV = "inner_cluster_block.jsonl-0-0-0-0"


def test_help_is_available_for_every_command_and_world(capsys):
    parser = build_parser()
    with pytest.raises(SystemExit) as top:
        parser.parse_args(["--help"])
    assert top.value.code == 0
    for world in world_names():
        for command in get_world(world).commands():  # what a world does not offer has no parser
            with pytest.raises(SystemExit) as done:
                parser.parse_args([command, world, "--help"])
            assert done.value.code == 0
    assert "--semantics" in capsys.readouterr().out


def test_usage_errors_exit_2():
    with pytest.raises(SystemExit) as done:
        main(["check"])
    assert done.value.code == 2


@pytest.mark.parametrize("answer, semantics, code", [
    (VALID, "strict", 0),
    ("[UP, UP, UP, UP, UP, UP]", "strict", 1),
    ("[UP, UP, UP, UP, UP, UP]", "benchmark", 0),
    ("no plan at all", "strict", 1),
])
def test_check_exit_codes(shared_data, tmp_path, answer, semantics, code):
    path = tmp_path / "answer.txt"
    path.write_text(answer)
    assert main(["check", "grasp", ENV, str(path), "--semantics", semantics, "--data", str(shared_data)]) == code


def test_check_bad_input_names_the_problem(shared_data, tmp_path, capsys):
    assert main(["check", "grasp", ENV, str(tmp_path / "missing.txt"), "--data", str(shared_data)]) == 2
    assert "does not exist" in capsys.readouterr().err
    (tmp_path / "a.txt").write_text(VALID)
    assert main(["check", "grasp", "inner_cluster_block.jsonl-0-0-0", str(tmp_path / "a.txt")]) == 2
    assert "not a GRASP id" in capsys.readouterr().err
    # a data folder without GRASP grids: the copy shipped inside the package serves (issue 23: pip users need none)
    assert main(["check", "grasp", ENV, str(tmp_path / "a.txt"), "--data", str(tmp_path)]) == 0
    assert capsys.readouterr().err == ""
    out = tmp_path / "no-such-folder" / "out.jsonl"  # an output that cannot be written: path and reason, no errno
    assert main(["solve", "grasp", ENV, "-o", str(out), "--data", str(shared_data), "--no-progress"]) == 2
    assert capsys.readouterr().err == f"plancheck: error: {out}: No such file or directory\n"


def test_check_json_output(shared_data, tmp_path, capsys):
    (tmp_path / "a.txt").write_text("Answer: " + VALID)
    assert main(["check", "grasp", ENV, str(tmp_path / "a.txt"), "--json", "--data", str(shared_data)]) == 0
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["valid"] and verdict["scores"] == {"paper": 1.0, "delivered": 1.0}
    assert verdict["unread"][0]["text"] == "Answer:" and len(verdict["steps"]) == 4


def test_instances_and_stats(shared_data, capsys):
    assert main(["instances", "grasp", "outer_random_free", "--indices", "7", "--data", str(shared_data)]) == 0
    ids = capsys.readouterr().out.split()
    assert len(ids) == 8 and all(i.startswith("outer_random_free.jsonl-7-") for i in ids)
    assert main(["stats", "grasp", "all", "--json", "--data", str(shared_data)]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert sum(s["grids"] for s in stats["sets"].values()) == 2000


def test_module_entry_point_runs():
    done = subprocess.run([sys.executable, "-m", "plancheck", "--version"], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.startswith("plancheck ")


def test_model_text_cannot_drive_the_terminal(shared_data, tmp_path, capsys):
    (tmp_path / "a.txt").write_text("[UP, \x1b[2J\x07, DOWN]")
    assert main(["check", "grasp", ENV, str(tmp_path / "a.txt"), "--data", str(shared_data)]) == 1
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out and "\\x1b" in out


def test_evaluate_reads_stdin(shared_data, monkeypatch, capsys):
    lines = [json.dumps({"instance": ENV, "response": VALID}), "not json"]
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO("\n".join(lines).encode())))
    assert main(["evaluate", "grasp", "-", "--data", str(shared_data)]) == 0
    captured = capsys.readouterr()
    items = [json.loads(line) for line in captured.out.splitlines()]
    assert [item["source"] for item in items] == ["<stdin>", "<stdin>"]
    assert items[0]["verdict"]["valid"] is True and "not JSON" in items[1]["error"]
    assert "broken record: <stdin>, line 2" in captured.err


@pytest.mark.parametrize("answer, rule", [
    ("[UP, UP, TAKE, UPLEFT, TAKE, TAKE, JUMP, DOWN, DOWN, DROP, DROP]", "paper"),
    ("[UP, UP, TAKE, UPLEFT, TAKE, TAKE, JUMP, DOWN, DOWN, DROP, DROP]", "delivered"),
    ("[" + ", ".join(["RIGHT", "TAKE"] * 12) + "]", "paper"),  # past the 20-step limit
])
def test_check_writes_the_answer_as_a_validation_plan_that_validates(shared_data, tmp_path, capsys, answer, rule):
    env = "inner_random_block.jsonl-10-0-0-0"
    (tmp_path / "a.txt").write_text(answer)
    plan = tmp_path / "a.plan"
    data = ["--data", str(shared_data)]
    # each answer is invalid (JUMP is no action; the last runs past the 20-step limit), yet its plan validates
    assert main(["check", "grasp", env, str(tmp_path / "a.txt"), "--rule", rule, "--pddl-plan", str(plan), *data]) == 1
    problem = f"{env}.{rule}.validation.pddl"
    assert problem in capsys.readouterr().err
    assert main(["export", "grasp", env, "--out", str(tmp_path / "pddl"), *data]) == 0
    capsys.readouterr()
    domain = tmp_path / "pddl" / "grasp-validation-domain.pddl"
    assert main(["validate", str(domain), str(tmp_path / "pddl" / problem), str(plan), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    steps = [line for line in plan.read_text().splitlines() if line.startswith("(")]
    assert report["valid"] and report["steps"] == len(steps) == min(20, answer.count(",") + 1) + 1
    assert steps[-1].startswith(f"(score-{rule} ")


def test_pddl_plan_needs_a_readable_answer_and_a_world_with_a_validation_model(shared_data, tmp_path, capsys):
    (tmp_path / "a.txt").write_text("no list here")
    plan = tmp_path / "a.plan"
    assert main(["check", "grasp", ENV, str(tmp_path / "a.txt"), "--pddl-plan", str(plan),
                 "--data", str(shared_data)]) == 1
    assert not plan.exists() and "no PDDL plan written" in capsys.readouterr().err
    (tmp_path / "h.txt").write_text("A->C")
    with pytest.raises(SystemExit) as usage:  # only worlds with a validation model offer the option
        main(["check", "hanoi", "hanoi-3", str(tmp_path / "h.txt"), "--pddl-plan", str(plan)])
    assert usage.value.code == 2 and not plan.exists()
    assert "unrecognized arguments: --pddl-plan" in capsys.readouterr().err


def test_an_answer_with_bytes_that_are_not_utf8_is_read_and_the_bytes_are_located(shared_data, tmp_path, capsys):
    answer = tmp_path / "a.txt"
    answer.write_bytes(b"[UP,\n TAKE, \xff\xfe DROP]")
    assert main(["check", "grasp", ENV, str(answer), "--data", str(shared_data)]) == 1  # the bytes are unread text
    out, err = capsys.readouterr()
    assert f"{answer}, line 2, column 8: bytes that are not UTF-8 were read as U+FFFD" in err
    assert "actions: UP, TAKE" in out


def test_selections_the_filters_leave_empty_are_bad_input_naming_the_filter(shared_data, capsys):
    data = ["--data", str(shared_data)]
    assert main(["instances", "grasp", "inner_cluster_block", "--indices", "100-200", *data]) == 2
    assert "no instance matches inner_cluster_block with --indices 100-200" in capsys.readouterr().err
    assert main(["instances", "mango", "905/rf", "--answerable", "--cutoff", "1", *data]) == 2
    assert "no instance matches 905/rf with --answerable\n" in capsys.readouterr().err
    assert main(["stats", "grasp", "inner_cluster_block", "--indices", "200", *data]) == 2
    assert main(["instances", "grasp", "inner_cluster_block", "--indices", "98-200", *data]) == 0
    assert capsys.readouterr().out.count("\n") == 16


@needs_minigrid
def test_library_notes_reach_stderr_once_and_export_counts_what_has_no_pddl(shared_data, tmp_path, capsys):
    for _ in range(2):  # a second call in the same process adds no second handler
        assert main(["instances", "babyai", "langsuite", "--data", str(shared_data)]) == 0
        err = capsys.readouterr().err
        assert err.count("plancheck: note: minigrid lacks 5 LangSuitE task(s), left out: TestGoToBlocked-8") == 1
    assert main(["export", "mango", "905/df", "--out", str(tmp_path), "--data", str(shared_data)]) == 2
    err = capsys.readouterr().err
    assert "none of the 16 selected instances has a PDDL form" in err and "destination-finding question" in err
    assert main(["export", "mango", "905", "--out", str(tmp_path), "--data", str(shared_data)]) == 0
    out = capsys.readouterr().out
    assert "16 instance(s) have no PDDL form, e.g. 905/df/" in out and not out.startswith("wrote 0")


@needs_minigrid
def test_bad_lines_in_published_babyai_files_are_bad_input_with_their_line(tmp_path, capsys):
    (tmp_path / "babybench").mkdir()
    (tmp_path / "babybench" / "x.jsonl").write_text('{"env_name": "BabyAI-GoToLocal-v0", "seed": 1}\n{"seed": 1}\n')
    assert main(["instances", "babyai", "samples", "--data", str(tmp_path)]) == 2
    assert 'x.jsonl, line 2: a sample record needs "env_name"' in capsys.readouterr().err
    (tmp_path / "langsuite").mkdir()
    (tmp_path / "langsuite" / "babyai_task_list.txt").write_text("GoToLocalS5N2-5\nGoToLocalS5N2-x\n")
    assert main(["instances", "babyai", "langsuite", "--data", str(tmp_path)]) == 2
    assert "babyai_task_list.txt, line 2: 'GoToLocalS5N2-x' is not a LangSuitE task" in capsys.readouterr().err


@needs_fast_downward
def test_mango_solve_passes_its_timeout_to_fast_downward(shared_data, monkeypatch, capsys):
    import plancheck.solvers.pipeline as pipeline

    seen = []
    original = pipeline.PLANNERS["fast-downward"]
    monkeypatch.setitem(pipeline.PLANNERS, "fast-downward",
                        lambda *a, **k: seen.append(k["timeout"]) or original(*a, **k))
    assert main(["solve", "mango", "advent/rf/c02f71b0", "--planner", "fast-downward", "--timeout", "42",
                 "--data", str(shared_data)]) == 0
    assert seen == [42.0] and json.loads(capsys.readouterr().out)["status"] == "solved"


def test_a_missing_extra_is_named_with_its_pip_install_and_exit_2(monkeypatch, capsys):
    from plancheck.registry import get_world

    monkeypatch.setattr(type(get_world("hanoi")), "requires", ("no_such_module_for_this_test",))
    monkeypatch.setattr(type(get_world("hanoi")), "extra", "hanoi")
    assert main(["check", "hanoi", "hanoi-3", "-"]) == 2
    err = capsys.readouterr().err
    assert "no_such_module_for_this_test" in err and "pip install 'plancheck[hanoi]'" in err and "Traceback" not in err
