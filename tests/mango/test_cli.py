"""The MANGO world through the generic CLI, and its prompts against the recorded ones."""

from __future__ import annotations

import json

import pytest

from plancheck import cli, registry
from plancheck.domains.mango.instance import select
from plancheck.domains.mango.prompts import prompt_text

RF_ID = "905/rf/eaaf738614c91b5413010a5f2804b6f2825739c0b69a0ac35d16d1e231b87478"  # bedroom -> driveway
GOOD = ("[{'location_before': 'bedroom', 'action': 'east', 'location_after': 'living room'}, "
        "{'location_before': 'living room', 'action': 'south', 'location_after': 'driveway'}]")


@pytest.fixture
def run(monkeypatch, capsys, shared_data):
    """``plancheck ...`` with the data folder set; returns (exit code, stdout)."""
    monkeypatch.setattr(registry, "WORLDS", {"mango": registry.WORLDS["mango"]})
    monkeypatch.setenv("PLANCHECK_DATA", str(shared_data))

    def invoke(*argv: str) -> tuple[int, str]:
        code = cli.main(list(argv))
        return code, capsys.readouterr().out
    return invoke


def test_prompts_are_byte_identical_to_the_recorded_ones(shared_data):
    compared = 0
    for path in sorted((shared_data / "mango" / "examples").rglob("*.json")):
        record = json.loads(path.read_text())
        if "question" not in record:
            continue
        task = "rf" if record["task"] == "route_finding" else "df"
        [instance] = select([f"905/{task}/{record['sample_id']}"], shared_data)
        expected = (f"!!! Here is a walkthrough of a text game:\n{record['walkthrough_text']}\n\n"
                    f"The allowed actions are: {record['action_space_list']}.\n"
                    f"The list of locations are: {record['location_space_list']}.\n{record['question']}")
        assert prompt_text(instance) == expected
        compared += 1
    assert compared == 32


def test_stats_and_instances(run):
    code, out = run("stats", "mango", "905", "zork1", "--json")
    table = json.loads(out)
    assert code == 0 and table["games"]["905"]["RF answerable"] == 16 and table["total"]["DF"] == 16 + 397
    code, out = run("stats", "mango", "905", "--cutoff", "10")
    assert code == 0 and "cutoff T = 10" in out
    code, out = run("instances", "mango", "905/rf", "--answerable")
    assert code == 0 and len(out.split()) == 16


def test_prompt_command(run):
    code, out = run("prompt", "mango", RF_ID, "--json")
    message = json.loads(out)["messages"]
    assert code == 0 and len(message) == 1 and message[0]["content"].endswith("Start your response with '['.")


@pytest.mark.parametrize("answer, expected, parsed", [
    (GOOD, 0, True),
    (GOOD.replace("'south', 'location_after': 'driveway'", "'north', 'location_after': 'driveway'"), 1, True),
    ("I would go east.", 1, False),  # no readable answer: the check fails
])
def test_check_exit_codes(run, tmp_path, answer, expected, parsed):
    path = tmp_path / "answer.txt"
    path.write_text(answer)
    code, out = run("check", "mango", RF_ID[:16], str(path), "--json")
    verdict = json.loads(out)
    assert code == expected and verdict["instance"] == RF_ID
    assert verdict["parsed"] == parsed


def test_evaluate_the_recorded_answers(run, shared_data):
    code, out = run("evaluate", "mango", str(shared_data / "mango" / "examples"), "--summary", "--json")
    summary = json.loads(out)
    assert code == 0 and summary["records"] == 36 and summary["broken"] == 0
    rows = {(r["game"], r["task"], r["subset"]): r for r in summary["rows"]}
    assert rows["all", "rf", "all"]["unanswerable"] == 4 and rows["all", "rf", "all"]["scored"] == 16


def test_evaluate_plain_jsonl(run, tmp_path):
    answers = tmp_path / "answers.jsonl"
    answers.write_text(json.dumps({"instance": RF_ID, "response": GOOD, "model": "me"}) + "\n" +
                       json.dumps({"instance": "905/rf/ffffffff", "response": GOOD}) + "\n")
    out_file = tmp_path / "verdicts.jsonl"
    code, out = run("evaluate", "mango", str(answers), "-o", str(out_file), "--summary")
    lines = [json.loads(line) for line in out_file.read_text().splitlines()]
    assert code == 0 and "me" in out and "1 records scored, 1 broken" in out
    assert lines[0]["verdict"]["scores"]["strict"] == 1.0 and "no 905/rf question" in lines[1]["error"]


def test_solve_and_export(run, tmp_path):
    code, out = run("solve", "mango", RF_ID, "905/df/2c07f44a")
    results = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and results[0]["plan"] == ["east", "south"] and results[0]["proven_optimal"]
    assert results[1]["destinations"] == ["driveway"]
    code, out = run("export", "mango", "905", "--answerable", "--out", str(tmp_path))
    files = sorted(p.name for p in tmp_path.iterdir())
    assert code == 0 and "mango-domain.pddl" in files and len(files) == 1 + 16
