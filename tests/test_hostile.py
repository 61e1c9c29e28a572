"""Hostile input never crashes plancheck and never costs the rest of a batch (issue 22): one regression test per
case that once did, in every world where it applies. Each bad record gets an error naming its file, line and
field; the other records are scored; exit codes keep their meaning (3 only for a bug, never 1)."""

from __future__ import annotations

import importlib
import io
import json
import re
import tracemalloc
from pathlib import Path

import pytest

from plancheck.cli import main
from plancheck.episodes.log import episode_lines
from plancheck.registry import get_world, world_names, world_package
from plancheck.world import Capability, EpisodeExample

HUGE = "9" * 5000


def _corpus(name: str) -> list:
    found = importlib.import_module(world_package(name) + ".examples").EXAMPLES
    return list(found.get(name, ()) if isinstance(found, dict) else found)


def _played(name: str) -> bool:
    """Whether the world's batches are episode logs (an interactive world) rather than answer records."""
    return get_world(name).supports(Capability.PLAY)


def _good(name: str) -> tuple[list[str], list[str]]:
    """Lines every world scores as one unit (an answer record, or an episode's header and steps from its corpus),
    and the flags that keep checking them quick."""
    example = _corpus(name)[0]
    if _played(name):
        return [json.dumps(line) for line in episode_lines(example.episode)], []
    flags = ["--no-optimal"] if name == "babyai" else []
    return [json.dumps({"instance": example.instance, "response": example.answer})], flags


def _answer(name: str) -> tuple[str, str, list[str]] | None:
    """An instance and an answer file's text that ``check`` reads, for a world that takes answers."""
    world = get_world(name)
    if not world.supports(Capability.ANSWERS):
        return None
    example = _corpus(name)[0]
    if isinstance(example, EpisodeExample):  # an interactive world that also takes the list of replies
        return example.episode.header.instance, json.dumps([step.reply for step in example.episode.steps]), []
    return example.instance, example.answer, _good(name)[1]


def _evaluate(tmp_path: Path, name: str, lines: list[str], capsys, *flags: str) -> tuple[int, list[dict], str]:
    answers = tmp_path / "answers.jsonl"
    answers.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code = main(["evaluate", name, str(answers), "--no-progress", *_good(name)[1], *flags])
    captured = capsys.readouterr()
    return code, [json.loads(line) for line in captured.out.splitlines()], captured.err


def _batch(name: str, field: str, value: str) -> tuple[list[str], int]:
    """A batch of three units whose middle one has ``field`` (of an answer record; of the first step of an
    episode) holding the JSON text ``value``; and the line number of that field."""
    good = _good(name)[0]
    if _played(name):
        bad = [good[0], f'{{"step": 1, "reply": "x", "{field}": {value}}}']
    else:
        bad = [good[0][:-1] + f', "{field}": {value}}}']
    return good + bad + good, len(good) + len(bad)


def _scored_around(rows: list[dict], line: int) -> None:
    assert [("verdict" in row) for row in rows] == [True, False, True], rows
    assert rows[1]["line"] == line


@pytest.mark.parametrize("name", world_names())
def test_a_huge_integer_costs_its_record_only(name, tmp_path, capsys, shared_data, monkeypatch):
    monkeypatch.setenv("PLANCHECK_DATA", str(shared_data))
    lines, bad = _batch(name, "seed", HUGE)
    code, rows, err = _evaluate(tmp_path, name, lines, capsys)
    assert code == 0
    _scored_around(rows, bad)
    assert "max_digits 100 exceeded: field 'seed' is a number of 5000 digits" in rows[1]["error"]
    assert f"answers.jsonl, line {bad}: column" in err and "--max-digits 100 exceeded" in err


@pytest.mark.parametrize("name", world_names())
def test_deeply_nested_json_costs_its_record_only(name, tmp_path, capsys, shared_data, monkeypatch):
    monkeypatch.setenv("PLANCHECK_DATA", str(shared_data))
    lines, bad = _batch(name, "deep", '{"a": ' + "[" * 100_000 + "]" * 100_000 + "}")
    code, rows, _ = _evaluate(tmp_path, name, lines, capsys)
    assert code == 0
    _scored_around(rows, bad)
    assert "max_nesting 100 exceeded: field 'deep.a' nests deeper than 100 levels" in rows[1]["error"]


@pytest.mark.parametrize("name", world_names())
def test_a_5000_digit_id_is_bad_input_not_a_crash(name, tmp_path, capsys, shared_data, monkeypatch):
    monkeypatch.setenv("PLANCHECK_DATA", str(shared_data))
    digits = {"grasp": f"gen{HUGE}_outer_spiral_block-0-0-1-1", "hanoi": f"hanoi-{HUGE}",
              "babyai": f"BabyAI-GoToLocal-v0/seed={HUGE}", "mango": f"{HUGE}/rf/{HUGE}"}.get(name, HUGE)
    if (answer := _answer(name)) is not None:
        path = tmp_path / "answer.txt"
        path.write_text(answer[1])
        assert main(["check", name, digits, str(path), *answer[2]]) == 2
        assert capsys.readouterr().err.startswith("plancheck: error:")
    good = _good(name)[0]
    unit = json.loads(good[0])
    bad = [json.dumps({**unit, "instance": digits}), *good[1:]]
    code, rows, _ = _evaluate(tmp_path, name, good + bad + good, capsys)
    assert code == 0
    _scored_around(rows, len(good) + 1)


@pytest.mark.parametrize("seeded", [True, False], ids=["replayed", "read-from-the-text"])
@pytest.mark.parametrize("name", [n for n in world_names() if _played(n)])
def test_a_5000_digit_number_in_an_observation_is_read_as_text_not_a_crash(name, seeded, tmp_path, capsys,
                                                                           shared_data, monkeypatch):
    monkeypatch.setenv("PLANCHECK_DATA", str(shared_data))
    good = _good(name)[0]
    if not seeded:  # a log without its seed is checked from what its texts show
        good = [json.dumps({**json.loads(good[0]), "seed": None}), *good[1:]]
    step = json.loads(good[1])
    assert re.search(r"\d", step["observation"]), "the first observation shows a number to blow up"
    bad = [good[0], json.dumps({**step, "observation": re.sub(r"\d+", HUGE, step["observation"])}), *good[2:]]
    code, rows, err = _evaluate(tmp_path, name, good + bad + good, capsys, "--debug")
    assert code == 0 and "internal error" not in err
    assert [("verdict" in row) for row in rows] == [True, True, True], rows
    assert not rows[1]["verdict"]["consistent"] and rows[1]["verdict"]["failure"]["step"] == 1


def test_an_infinite_grasp_index_costs_its_record_only(shared_data, tmp_path, capsys):
    folder = tmp_path / "greedy"
    folder.mkdir()
    lines = (shared_data / "grasp" / "baselines" / "greedy" / "inner_random_free.jsonl").read_text().splitlines()[:5]
    lines[1] = lines[1].replace('"index": 1,', '"index": Infinity,')
    lines[3] = lines[3].replace('"index": 3,', '"index": 3.5,')
    (folder / "inner_random_free.jsonl").write_text("\n".join(lines) + "\n")
    assert main(["evaluate", "grasp", str(folder), "--data", str(shared_data), "--no-progress"]) == 0
    captured = capsys.readouterr()
    rows = [json.loads(line) for line in captured.out.splitlines()]
    assert [("verdict" in row) for row in rows] == [True, False, True, False, True]
    assert "field 'index' holds Infinity, which is not a JSON number" in rows[1]["error"]
    assert rows[3]["error"] == "baseline field 'index' is 3.5: expected a whole number"


def test_an_8_million_token_answer_list_is_refused_unread(tmp_path, capsys):
    good = json.dumps({"instance": "gen7_outer_spiral_block-0-0-1-1", "answer": ["UP", "TAKE"]})
    path = tmp_path / "huge.jsonl"
    with open(path, "w") as file:
        file.write(good + '\n{"instance": "gen7_outer_spiral_block-0-0-1-1", "answer": [')
        file.write('"UP", ' * 8_000_000 + '"UP"]}\n' + good + "\n")
    _evaluate(tmp_path, "grasp", [good], capsys)  # modules and grammars loaded before memory is measured
    tracemalloc.start()
    try:
        assert main(["evaluate", "grasp", str(path), "--no-progress"]) == 0
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [("verdict" in row) for row in rows] == [True, False, True]
    assert rows[1]["error"] == "max_answer_bytes 1048576 exceeded: the record has 48000065 bytes"
    assert peak < 10_000_000  # the 48 MB line is skipped in chunks, never held whole


def test_a_list_longer_than_the_limit_names_its_field(tmp_path, capsys):
    record = json.dumps({"instance": "gen7_outer_spiral_block-0-0-1-1", "answer": ["UP"] * 1001})
    good = _good("grasp")[0]
    code, rows, _ = _evaluate(tmp_path, "grasp", good + [record] + good, capsys, "--max-list-length", "1000")
    assert code == 0
    _scored_around(rows, 2)
    assert rows[1]["error"] == "max_list_length 1000 exceeded: field 'answer' holds 1001 elements"


def test_mango_lone_surrogates_are_written_as_json_escapes(shared_data, tmp_path, capsys):
    answer = tmp_path / "answer.txt"  # the escape is MANGO's literal syntax: the reader turns it into U+D800
    answer.write_text("[{'location_before': 'bedroom\\ud800', 'action': 'east', 'location_after': 'living room'}]")
    assert main(["check", "mango", "905/rf/eaaf7386", str(answer), "--json", "--data", str(shared_data)]) == 1
    out = capsys.readouterr().out
    assert '"bedroom\\ud800 -> living room"' in out  # the state holds the lone surrogate, escaped as JSON escapes it
    assert json.loads(out)["steps"][0]["state"] == "bedroom\ud800 -> living room"
    record = json.dumps({"instance": "905/rf/eaaf7386", "response": answer.read_text()})
    code, rows, _ = _evaluate(tmp_path, "mango", [record], capsys, "--data", str(shared_data))
    assert code == 0 and rows[0]["verdict"]["actions"] == ["east"]


def test_mango_lone_surrogates_reach_pictures_and_the_html_report(shared_data, tmp_path, capsys, monkeypatch):
    answer = tmp_path / "answer.txt"
    answer.write_text("[{'location_before': 'bedroom\\ud800', 'action': 'east', 'location_after': 'living room'}]")
    render = ["render", "mango", "905/rf/eaaf7386", "--answer", str(answer), "--data", str(shared_data), "-o"]
    assert main([*render, str(tmp_path / "answer.svg")]) == 0
    assert "bedroom\\ud800" in (tmp_path / "answer.svg").read_text(encoding="utf-8")
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="surrogateescape")  # a C locale's stdout
    monkeypatch.setattr("sys.stdout", out)
    assert main([*render, "-"]) == 0
    out.flush()
    assert "bedroom\\ud800" in out.buffer.getvalue().decode("utf-8")
    monkeypatch.undo()
    record = json.dumps({"instance": "905/rf/eaaf7386", "response": answer.read_text()})
    code, _, _ = _evaluate(tmp_path, "mango", [record], capsys, "--data", str(shared_data), "--html",
                           str(tmp_path / "report.html"))
    assert code == 0 and "bedroom\\ud800" in (tmp_path / "report.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("as_json", [False, True])
def test_check_on_an_ascii_only_terminal(tmp_path, monkeypatch, as_json):
    answer = tmp_path / "answer.txt"
    answer.write_text("Plan: [UP, é, TAKE]", encoding="utf-8")
    out = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    monkeypatch.setattr("sys.stdout", out)
    code = main(["check", "grasp", "gen7_outer_spiral_block-0-0-1-1", str(answer)] + (["--json"] if as_json else []))
    out.flush()
    text = out.buffer.getvalue().decode("ascii")
    assert code == 1
    if as_json:
        assert "\\u00e9" in text and json.loads(text)["actions"] == ["UP", "é", "TAKE"]
    else:
        assert "[unknown action]: '\\xe9'" in text


def test_validate_refuses_deep_formulas_and_never_prints_infinity(tmp_path, capsys):
    domain = ("(define (domain d) (:requirements :strips :action-costs) (:predicates (p)) (:functions (total-cost))"
              " (:action a :parameters () :precondition {pre} :effect (and (p) (increase (total-cost) {cost}))))")
    problem = tmp_path / "p.pddl"
    problem.write_text("(define (problem q) (:domain d) (:init) (:goal (p)) (:metric minimize (total-cost)))")
    plan = tmp_path / "plan"
    plan.write_text("(a)\n(a)\n")

    def validate(pre: str, cost: str, *flags: str) -> tuple[int, str, str]:
        path = tmp_path / "d.pddl"
        path.write_text(domain.format(pre=pre, cost=cost))
        code = main(["validate", str(path), str(problem), str(plan), "--json", *flags])
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    code, _, err = validate("(not " * 400 + "(p)" + ")" * 400, "1")
    assert code == 2 and "d.pddl, line 1, column 632: --max-nesting 100 exceeded" in err
    assert validate("(not " * 196 + "(p)" + ")" * 196, "1", "--max-nesting", "200")[0] == 1  # 199 levels: read
    code, _, err = validate("(and)", "9" * 400)
    assert code == 2 and "--max-digits 100 exceeded: a number of 400 digits" in err
    code, out, _ = validate("(and)", "9" * 308 + ".0", "--max-digits", "400")
    report = json.loads(out, parse_constant=lambda name: pytest.fail(f"{name} in JSON"))
    assert code == 0 and report["cost"] is None and "too large for a number" in report["notes"][0]
    code, out, _ = validate("(and)", "(/ 1 0)")
    assert code == 1 and "divides by zero" in json.loads(out)["failure"]["reason"]


def test_duplicates_are_reported_counted_and_follow_the_policy(tmp_path, capsys):
    record = {"instance": "gen7_outer_spiral_block-0-0-1-1", "response": "[UP, TAKE]"}
    lines = [json.dumps(record), json.dumps({**record, "model": "b"}), json.dumps(record),
             json.dumps({**record, "instance": "gen7_outer_spiral_block.jsonl-0-0-1-1"})]  # the same environment
    for policy, scored, broken in (("each", 4, 0), ("first", 2, 0), ("error", 2, 2)):
        code, rows, err = _evaluate(tmp_path, "grasp", lines, capsys, "--duplicates", policy)
        assert code == 0 and sum("verdict" in row for row in rows) == scored
        assert sum("error" in row for row in rows) == broken, rows
        assert [row.get("duplicate_of") for row in rows] == [None, None] + [f"{tmp_path / 'answers.jsonl'}, line 1"] * 2
        assert "2 record(s) repeat an earlier record" in err
    code = main(["evaluate", "grasp", str(tmp_path / "answers.jsonl"), "--summary", "--json", "--no-progress"])
    summary = json.loads(capsys.readouterr().out)
    assert code == 0 and (summary["records"], summary["broken"], summary["duplicates"]) == (4, 0, 2)


def test_an_internal_error_exits_3_with_one_line_and_debug_shows_the_traceback(tmp_path, capsys, monkeypatch):
    world = get_world("grasp")

    def broken_check(*args, **kwargs):
        raise ZeroDivisionError("injected\nfault")

    monkeypatch.setattr(type(world), "check", broken_check)
    answer = tmp_path / "answer.txt"
    answer.write_text("[UP]")
    assert main(["check", "grasp", "gen7_outer_spiral_block-0-0-1-1", str(answer)]) == 3
    err = capsys.readouterr().err
    assert err == ("plancheck: internal error (a bug in plancheck): ZeroDivisionError: injected fault; rerun with "
                   "--debug for the traceback\n")
    assert main(["check", "grasp", "gen7_outer_spiral_block-0-0-1-1", str(answer), "--debug"]) == 3
    assert "Traceback (most recent call last)" in capsys.readouterr().err
    lines = [json.dumps({"instance": "gen7_outer_spiral_block-0-0-1-1", "response": "[UP]"}), "{oops"]
    code, rows, err = _evaluate(tmp_path, "grasp", lines, capsys)
    assert code == 3 and rows[0]["error"].startswith("internal error (a bug in plancheck): ZeroDivisionError")
    assert "not JSON" in rows[1]["error"] and "rerun with --debug" in err.splitlines()[-1]
