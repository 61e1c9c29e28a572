"""The read status on the command line: ``check`` prints it, the JSON and JSONL verdicts carry it, summaries count
answers by it, and ``--strict-read`` (a shared option of every free-text world) scores ambiguous answers as
unreadable."""

from __future__ import annotations

import json

import pytest

from plancheck.cli import main
from plancheck.registry import get_world, world_names
from plancheck.world import READING, shared_option

ENV = "gen7_outer_spiral_block-0-0-1-1"
AMBIGUOUS = "[UP, TAKE]\nWait, that leaves energy behind. Instead: [UP, TAKE, LEFT, TAKE, LEFT, DROP]"


def test_check_prints_the_read_status_and_the_candidates_when_they_differ(tmp_path, capsys):
    clear = tmp_path / "clear.txt"
    clear.write_text("Here is my plan: [UP, TAKE, LEFT, TAKE, LEFT, DROP]\nThat collects 2 units.")
    assert main(["check", "grasp", ENV, str(clear)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[2] == "read: clear (the only candidate answer, introduced as the answer: 'Here is my plan:')"
    assert "text around the answer (2 span(s)):" in out  # prose around a single list: not a warning
    assert not any(line.startswith("text in the answer") for line in out)
    ambiguous = tmp_path / "ambiguous.txt"
    ambiguous.write_text(AMBIGUOUS)
    assert main(["check", "grasp", ENV, str(ambiguous)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[2] == "read: ambiguous (a correction of the earlier answer: 'Instead')"
    assert out[3:5] == ["  not chosen: line 1, column 1, bracket list: UP, TAKE",
                        "  chosen: line 2, column 43, bracket list, correction: UP, TAKE, LEFT, TAKE, LEFT, DROP"]


def test_strict_read_scores_an_ambiguous_answer_as_unreadable(tmp_path, capsys):
    path = tmp_path / "ambiguous.txt"
    path.write_text(AMBIGUOUS)
    assert main(["check", "grasp", ENV, str(path), "--strict-read", "--json"]) == 1
    verdict = json.loads(capsys.readouterr().out)
    assert not verdict["parsed"] and "--strict-read" in verdict["parse_error"]
    assert verdict["read"]["status"] == "ambiguous" and len(verdict["read"]["candidates"]) == 2
    assert [c["chosen"] for c in verdict["read"]["candidates"]] == [False, True]
    assert main(["check", "grasp", ENV, str(path), "--pick", "first", "--json"]) == 0  # the draft, by position
    assert json.loads(capsys.readouterr().out)["actions"] == ["UP", "TAKE"]


def test_unparseable_answers_read_none(tmp_path, capsys):
    path = tmp_path / "none.txt"
    path.write_text("I would rather not say.")
    assert main(["check", "grasp", ENV, str(path)]) == 1
    assert capsys.readouterr().out.splitlines()[2] == "read: none (no answer could be read)"


def test_unclosed_reject_rejects_instead_of_falling_back(tmp_path, capsys):
    path = tmp_path / "cut.txt"
    path.write_text("Draft: [UP, TAKE]\nFinal answer: [UP, TAKE, LEFT, TAKE, LEFT, DR")
    assert main(["check", "grasp", ENV, str(path), "--unclosed", "reject", "--json"]) == 1
    verdict = json.loads(capsys.readouterr().out)
    assert "cut off" in verdict["parse_error"] and "line 2, column 15" in verdict["parse_error"]
    for pick in ("last", "committed"):  # whichever rule picks the answer, a cut-off answer is rejected
        assert main(["check", "grasp", ENV, str(path), "--unclosed", "reject", "--pick", pick]) == 1
        assert "UNPARSEABLE" in capsys.readouterr().out


def test_evaluate_counts_answers_by_read_status_in_tables_json_and_jsonl(tmp_path, capsys):
    answers = tmp_path / "answers.jsonl"
    lines = [{"instance": ENV, "response": text, "model": "m"} for text in
             ("[UP, TAKE, LEFT, TAKE, LEFT, DROP]", AMBIGUOUS, "no plan here")]
    answers.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    assert main(["evaluate", "grasp", str(answers), "--summary", "--no-progress"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-2:] == ["3 records scored, 0 broken; 1 answer(s) could not be parsed; 2 duplicate(s) (each scored)",
                        "read: 1 clear, 1 ambiguous, 1 none"]  # the same model and instance: duplicates, said
    assert main(["evaluate", "grasp", str(answers), "--summary", "--json", "--no-progress", "--strict-read"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["read"] == {"all": {"clear": 1, "ambiguous": 1, "none": 1},
                               "m": {"clear": 1, "ambiguous": 1, "none": 1}}
    assert main(["evaluate", "grasp", str(answers), "--no-progress"]) == 0
    items = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [item["verdict"]["read"]["status"] for item in items] == ["clear", "ambiguous", "none"]


FREE_TEXT = ("grasp", "hanoi", "babyai", "mango")  # the worlds whose readers follow the committed policy


def test_the_free_text_worlds_are_registered():
    assert set(FREE_TEXT) <= set(world_names())


@pytest.mark.parametrize("name", FREE_TEXT)
def test_every_free_text_world_declares_the_shared_reading_options(name):
    options = {option.name: option for option in get_world(name).options}
    for shared in ("pick", "unclosed", "strict_read"):
        if shared in options:
            assert options[shared].help.startswith(shared_option(shared).help), (name, shared)
            assert set(options[shared].commands) == set(READING)
    assert "strict_read" in options, f"{name} must offer --strict-read"
