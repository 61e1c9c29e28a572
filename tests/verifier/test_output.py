"""Output ready for analysis: the JSON Schemas hold for every world's verdicts and rows, every world with one-shot
answers reads the same answer-file keys, rows keep the input record's own fields, and CSV/Parquet carry the rows."""

from __future__ import annotations

import csv
import importlib
import json
from dataclasses import replace
from pathlib import Path

import pytest

from plancheck.cli import main
from plancheck.episodes.check import check_episode
from plancheck.episodes.log import write_episodes
from plancheck.registry import get_world, world_names, world_package
from plancheck.verifier.batch import evaluate_records
from plancheck.verifier.records import ANSWER_KEYS, INSTANCE_KEYS, BrokenRecord, Record
from plancheck.verifier.rows import answer_row, flat
from plancheck.verifier.schema import NAMES, schema
from plancheck.world import Capability, EpisodeExample, Example


def _validator(name: str):
    """A validator of the shipped schema ``name`` (the test is skipped without jsonschema, after what it checked
    without it)."""
    jsonschema = pytest.importorskip("jsonschema", reason="the schema checks need jsonschema (the test extra)")
    referencing = pytest.importorskip("referencing", reason="the schema checks need jsonschema (the test extra)")
    registry = referencing.Registry().with_resources(
        (schema(other)["$id"], referencing.Resource.from_contents(schema(other))) for other in NAMES)
    found = schema(name)
    jsonschema.Draft202012Validator.check_schema(found)
    return jsonschema.Draft202012Validator(found, registry=registry)


def _examples(name: str) -> tuple:
    found = importlib.import_module(world_package(name) + ".examples").EXAMPLES
    return tuple(found.get(name, ()) if isinstance(found, dict) else found)


def _usable(name: str):
    world = get_world(name)
    if world.missing():
        pytest.skip(f"the {name} world needs {', '.join(world.missing())}: pip install 'plancheck[{world.extra}]'")
    return world


def _answer(name: str) -> tuple[str, object]:
    """An instance id and an answer of the world's contract corpus, as a plain record holds them."""
    for example in _examples(name):
        if isinstance(example, Example):
            return example.instance, example.answer if isinstance(example.answer, str) else list(example.answer)
        if isinstance(example, EpisodeExample) and example.valid:
            return example.episode.header.instance, [step.reply for step in example.episode.steps]
    raise AssertionError(f"{name} has no example answer")


ANSWER_WORLDS = [name for name in world_names() if get_world(name).supports(Capability.ANSWERS)]


@pytest.mark.parametrize("name", world_names())
def test_every_verdict_of_the_contract_corpus_fits_the_verdict_schema(name, shared_data):
    world = _usable(name)
    validator = _validator("verdict")
    checked = 0
    for example in _examples(name):
        if isinstance(example, Example):
            instance = next(iter(world.instances([example.instance], shared_data)))
            verdict = world.check(instance, example.answer, **dict(example.options))
        else:
            verdict = check_episode(world.episodes, example.episode)
        for data in (verdict.to_json(), verdict.to_json(with_steps=False)):
            errors = [f"{list(e.path)}: {e.message}" for e in validator.iter_errors(data)]
            assert not errors, (example, errors)
        assert verdict.feedback() and verdict.to_json()["feedback"] == verdict.feedback()
        checked += 1
    assert checked >= 5


def test_the_schema_rejects_what_it_must():
    validator = _validator("verdict")
    from plancheck.verifier.verdict import Verdict

    good = Verdict("w", "i").to_json()
    assert validator.is_valid(good)
    assert not validator.is_valid({**good, "surprise": 1})  # a field the schema does not know
    assert not validator.is_valid({**good, "scores": {"paper": "high"}})
    assert not validator.is_valid({k: v for k, v in good.items() if k != "feedback"})
    row = _validator("row")
    assert not row.is_valid({"world": "w"})
    assert not row.is_valid({"world": "w", "instance": "i", "model": "m", "source": "s", "line": 1, "passed": None,
                             "semantics": "strict", "score": None, "rule": None, "read": None,
                             "versions": {"plancheck": "0", "data": None}})  # neither verdict nor error


@pytest.mark.parametrize("name", ANSWER_WORLDS)
@pytest.mark.parametrize("id_key", INSTANCE_KEYS)
@pytest.mark.parametrize("answer_key", ANSWER_KEYS)
def test_every_world_reads_the_same_answer_keys_and_keeps_the_other_fields(name, id_key, answer_key, tmp_path,
                                                                          shared_data):
    world = _usable(name)
    instance, answer = _answer(name)
    line = {id_key: instance, answer_key: answer, "model": "m-1", "temperature": 0.7, "passed": "theirs"}
    path = tmp_path / "answers.jsonl"
    path.write_text(json.dumps(line) + "\n", encoding="utf-8")
    records = list(world.read_answers(path, shared_data))
    assert len(records) == 1 and isinstance(records[0], Record), records
    record = records[0]
    assert record.instance == instance and record.model == "m-1"
    assert record.fields == {"model": "m-1", "temperature": 0.7, "passed": "theirs"}
    [item] = evaluate_records(world, records, shared_data)
    assert item.verdict is not None, item.error
    row = answer_row(name, item, versions=world.versions())
    assert row["temperature"] == 0.7 and row["input_passed"] == "theirs" and row["model"] == "m-1"
    assert "input_model" not in row  # the same value as the row's own
    assert row["passed"] is item.verdict.passed() and row["versions"] == world.versions()
    assert _validator("answer-record").is_valid(line)
    errors = [e.message for e in _validator("row").iter_errors(row)]
    assert not errors, errors


EPISODIC_WORLDS = [name for name in world_names() if get_world(name).supports(Capability.PLAY)]


@pytest.mark.parametrize("name", EPISODIC_WORLDS)
def test_every_interactive_world_writes_rows_that_keep_the_episode_header_fields(name, tmp_path, capsys):
    world = _usable(name)
    example = next(e for e in _examples(name) if isinstance(e, EpisodeExample) and e.valid)
    header = replace(example.episode.header, model="m-1", extra={**example.episode.header.extra, "temperature": 0.7})
    log = tmp_path / "episodes.jsonl"
    write_episodes(log, [replace(example.episode, header=header)])
    assert main(["evaluate", name, str(log), "-o", str(tmp_path / "rows.jsonl"), "--no-progress"]) == 0
    [row] = [json.loads(line) for line in (tmp_path / "rows.jsonl").read_text().splitlines()]
    verdict = check_episode(world.episodes, replace(example.episode, header=header))
    assert (row["world"], row["instance"], row["model"], row["line"]) == (name, header.instance, "m-1", 1)
    assert row["temperature"] == 0.7 and row["seed"] == header.seed and row["policy"] == header.policy
    assert row["settings"] == dict(header.settings) and "input_model" not in row
    assert row["passed"] is verdict.passed() and row["versions"] == world.versions()
    assert (row["rule"], row["score"]) == next(iter(verdict.scores.items()), (None, None))
    assert row["verdict"] == json.loads(json.dumps(verdict.to_json(with_steps=False)))
    errors = [e.message for e in _validator("row").iter_errors(row)]
    assert not errors, errors


def test_a_broken_record_and_a_record_of_an_unknown_instance_make_rows_that_fit_the_schema():
    world = get_world("hanoi")
    records = [BrokenRecord(3, "not JSON", "a.jsonl"), Record(4, "hanoi-99x", "A->C", "a.jsonl", fields={"k": 1})]
    rows = [answer_row("hanoi", item, versions=world.versions()) for item in evaluate_records(world, records, None)]
    assert rows[0]["error"] == "not JSON" and rows[0]["passed"] is None and rows[0]["instance"] is None
    assert "hanoi-99x" in rows[1]["error"] and rows[1]["k"] == 1 and "verdict" not in rows[1]
    validator = _validator("row")
    assert [validator.is_valid(row) for row in rows] == [True, True]


def test_the_headline_score_follows_the_rule_asked_for():
    world = get_world("grasp")
    instance = next(iter(world.instances(["gen7_outer_spiral_block-0-0-1-1"], None)))
    verdict = world.check(instance, "[UP, TAKE, LEFT, TAKE, LEFT, DROP]")
    record = Record(1, instance.id, "x", "a.jsonl")
    from plancheck.verifier.batch import BatchItem

    paper = answer_row("grasp", BatchItem(record, verdict), rule="paper")
    delivered = answer_row("grasp", BatchItem(record, verdict), rule="delivered", semantics="benchmark")
    assert (paper["rule"], paper["score"]) == ("paper", 1.2)
    assert (delivered["rule"], delivered["score"], delivered["semantics"]) == ("delivered", -1.8, "benchmark")


def _answers_file(tmp_path: Path) -> Path:
    path = tmp_path / "answers.jsonl"
    lines = [{"id": "hanoi-2", "output": "A->B\nA->C\nB->C", "model": "m1", "temperature": 0.0},
             {"id": "hanoi-2", "output": "A->C\nA->C", "model": "m1", "temperature": 0.7},
             {"id": "hanoi-3", "output": "no moves here", "model": "m2", "temperature": 1.0},
             "not a record"]
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    return path


def test_evaluate_writes_the_same_rows_as_jsonl_csv_and_parquet(tmp_path, capsys):
    answers = _answers_file(tmp_path)
    assert main(["evaluate", "hanoi", str(answers), "-o", str(tmp_path / "rows.jsonl"), "--no-progress"]) == 0
    rows = [json.loads(line) for line in (tmp_path / "rows.jsonl").read_text().splitlines()]
    assert [row.get("passed") for row in rows] == [True, False, False, None]
    assert [row.get("temperature") for row in rows] == [0.0, 0.7, 1.0, None]
    assert main(["evaluate", "hanoi", str(answers), "-o", str(tmp_path / "rows.csv"), "--no-progress"]) == 0
    with open(tmp_path / "rows.csv", encoding="utf-8", newline="") as stream:
        table = list(csv.DictReader(stream))
    assert [r["passed"] for r in table] == ["True", "False", "False", ""]
    assert [r["temperature"] for r in table] == ["0.0", "0.7", "1.0", ""]
    assert table[1]["verdict.failure.reason"] == "A->C puts disk 1 on the smaller disk 0"
    assert "verdict.failure" not in table[0]  # only its parts are columns
    assert table[3]["error"].startswith("expected a JSON object")
    assert list(table[0]) == list(dict.fromkeys(name for row in rows for name in flat(row)
                                                if name != "verdict.failure"))
    pyarrow_parquet = pytest.importorskip("pyarrow.parquet", reason="Parquet needs pyarrow")
    assert main(["evaluate", "hanoi", str(answers), "-o", str(tmp_path / "rows.parquet"), "--no-progress"]) == 0
    frame = pyarrow_parquet.read_table(tmp_path / "rows.parquet").to_pylist()
    assert [r["passed"] for r in frame] == [True, False, False, None]
    assert [r["verdict.scores.score"] for r in frame] == [2.0, 1.0, None, None]
    validator = _validator("row")
    assert all(validator.is_valid(row) for row in rows)


def test_parquet_needs_a_file(tmp_path, capsys):
    assert main(["evaluate", "hanoi", str(_answers_file(tmp_path)), "--format", "parquet"]) == 2
    assert "Parquet output needs a file" in capsys.readouterr().err


def test_stats_give_n_the_standard_error_and_a_bootstrap_interval_per_model_and_in_total(tmp_path, capsys):
    answers = _answers_file(tmp_path)
    assert main(["evaluate", "hanoi", str(answers), "--stats", "--no-progress"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("Pass rate (strict) and mean score (score) per model")
    assert out[1].split() == ["model", "n", "passed", "SE", "95%", "CI", "scored", "score", "SE", "95%", "CI"]
    assert out[3].split()[:4] == ["m1", "2", "0.50", "0.50"] and out[4].split()[:3] == ["m2", "1", "0.00"]
    assert out[5].split()[:3] == ["all", "3", "0.33"]
    assert out[-2:] == ["3 records scored, 1 broken; 1 answer(s) could not be parsed; 1 duplicate(s) (each scored)",
                        "read: 2 clear, 0 ambiguous, 1 none"]
    assert main(["evaluate", "hanoi", str(answers), "--stats", "--json", "--no-progress"]) == 0
    data = json.loads(capsys.readouterr().out)
    groups = data["statistics"]["groups"]
    assert groups["m1"]["passed"]["n"] == 2 and groups["all"]["score"]["n"] == 2  # the unread answer has no score
    low, high = groups["m1"]["passed"]["ci95"]
    assert low <= 0.5 <= high and data["versions"]["plancheck"]


def test_markdown_tables_fit_100_columns(shared_data, capsys):
    baselines = shared_data / "grasp" / "baselines"
    assert main(["evaluate", "grasp", str(baselines / "greedy"), str(baselines / "random"), "--indices", "0-1",
                 "--summary", "--stats", "--markdown", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert max(len(line) for line in out.splitlines()) <= 100
    assert "| Average |" in out and "| greedy |" in out and "| all |" in out
    assert out.count("| Control | Setting |") >= 2  # the paper's table, split by columns, keeps its row labels
