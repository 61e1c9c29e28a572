"""Regression tests for problems found in the review of GRASP and the core (one test per finding)."""

from __future__ import annotations

import json
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from plancheck.cli import main
from plancheck.domains.grasp.parse import ParsePolicy, parse_answer
from plancheck.domains.grasp.records import read_answers
from plancheck.domains.grasp.world import WORLD
from plancheck.errors import AnswerParseError
from plancheck.world import BrokenRecord, Record

_VOCABULARY = ["UP", "down", "Take", "DROP", "upleft", "JUMP", "foo", "go", "1.", "2)", "-", "[", "]", ",", ";",
               "\n", "(3, 4)", "'", "**", "# note", "// why", "move right", "x", "!", "```", "Step 3:"]
_POLICIES = st.builds(ParsePolicy.of, st.sampled_from(("first", "last", "only")),
                      st.sampled_from(("accept", "reject")), st.sampled_from(("reject", "scan")))


_NUMBERING = re.compile(r"^[ \t\r]*(?:\*\*)?step[ \t]*\d{1,4}[ \t]*[.):]", re.I | re.M)  # "Step 3:" is layout


def _uncovered_letters(text: str, answer) -> list[str]:
    covered = [False] * len(text)
    read = [(i.start, i.end) for i in answer.items] + [(s.start, s.end) for s in answer.spans]
    for start, end in read + [m.span() for m in _NUMBERING.finditer(text)]:
        covered[start:end] = [True] * (end - start)
    return [ch for ch, seen in zip(text, covered) if ch.isalpha() and not seen]


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.lists(st.sampled_from(_VOCABULARY), max_size=30), _POLICIES)
def test_no_word_is_dropped_silently_under_any_policy(words, policy):
    """Every letter is in an action or a reported span, whatever the policy (scan mode used to drop prose)."""
    text = " ".join(words)
    try:
        answer = parse_answer(text, policy)
    except AnswerParseError as error:
        assert error.location is not None
        return
    assert _uncovered_letters(text, answer) == [], (text, policy, answer)


def test_prose_scan_reports_the_prose_it_skipped():
    answer = parse_answer("I would go up and then take the energy.", ParsePolicy.of(prose="scan"))
    assert [str(i.action) for i in answer.items] == ["UP", "TAKE"]
    assert [(s.kind.value, s.text) for s in answer.spans] == [
        ("outside the answer", "I would"), ("outside the answer", "and then"), ("outside the answer", "the energy.")]


def test_a_comment_on_its_own_in_a_list_is_not_an_action_slot():
    """``[UP, # go up`` puts the comment after the comma; it must not become a no-op step."""
    answer = parse_answer("[UP, # go up\n TAKE, // take it\n DROP]")
    assert [str(i.action) for i in answer.items] == ["UP", "TAKE", "DROP"]
    assert [(s.kind.value, s.text) for s in answer.spans] == [("unreadable", "# go up"), ("unreadable", "// take it")]
    assert [str(i.action) for i in parse_answer("[UP, JUMP, DROP]").items] == ["UP", "JUMP", "DROP"]


def test_a_code_fence_swallows_only_a_language_tag():
    """The fence's info string used to run to the next backtick, so a one-line fenced answer was lost."""
    assert [str(i.action) for i in parse_answer("```[UP, TAKE, DROP]```").items] == ["UP", "TAKE", "DROP"]
    assert [str(i.action) for i in parse_answer("UP ``` DOWN").items] == ["UP", "DOWN"]
    fenced = parse_answer("```python\n[UP]\n```")
    assert [str(i.action) for i in fenced.items] == ["UP"] and fenced.spans == ()
    odd = parse_answer("```pythonic\n[UP]\n```")
    assert [(s.kind.value, s.text) for s in odd.spans] == [("outside the answer", "pythonic")]


def test_plain_jsonl_may_name_the_instance_custom_id(shared_data, tmp_path):
    """``{"custom_id", "response": text}`` is the plain form; it used to be read as a broken OpenAI record."""
    path = tmp_path / "answers.jsonl"
    path.write_text(json.dumps({"custom_id": "inner_random_free.jsonl-0-0-0-0", "response": "[UP, TAKE]"}) + "\n"
                    + json.dumps({"custom_id": "inner_random_free.jsonl-1-0-0-0", "response": None,
                                  "error": {"code": "x"}}) + "\n")
    records = list(read_answers(path))
    assert isinstance(records[0], Record) and records[0].text == "[UP, TAKE]"
    assert isinstance(records[1], BrokenRecord) and "the request failed" in records[1].reason


def test_a_lone_surrogate_in_a_json_answer_does_not_crash_evaluate(shared_data, tmp_path, capsys):
    path = tmp_path / "answers.jsonl"
    path.write_text('{"instance": "inner_random_free.jsonl-0-0-0-0", "response": "[UP, \\ud800, TAKE]"}\n')
    assert main(["evaluate", "grasp", str(path), "--data", str(shared_data), "--no-progress"]) == 0
    verdict = json.loads(capsys.readouterr().out)["verdict"]
    assert verdict["actions"] == ["UP", "\ud800", "TAKE"] and verdict["unread"][0]["kind"] == "unknown action"


def test_unknown_names_in_a_token_list_are_reported_as_spans(shared_data):
    env = next(iter(WORLD.instances(["inner_random_free.jsonl-0-0-0-0"], shared_data)))
    verdict = WORLD.check(env, ["up", "jump", "take"])
    assert [(s.kind.value, s.text) for s in verdict.spans] == [("unknown action", "jump")]
    assert verdict.metrics["executed"] == 3


def test_summary_line_counts_unparseable_answers(shared_data, tmp_path, capsys):
    path = tmp_path / "answers.jsonl"
    path.write_text(json.dumps({"instance": "inner_random_free.jsonl-0-0-0-0", "response": "[UP]"}) + "\n"
                    + json.dumps({"instance": "inner_random_free.jsonl-1-0-0-0", "response": "no plan"}) + "\n")
    assert main(["evaluate", "grasp", str(path), "--data", str(shared_data), "--summary"]) == 0
    assert "2 records scored, 0 broken; 1 answer(s) could not be parsed" in capsys.readouterr().out


def test_cli_messages_for_a_folder_answer_and_a_reversed_index_range(shared_data, tmp_path, capsys):
    env = "inner_random_free.jsonl-0-0-0-0"
    assert main(["check", "grasp", env, str(tmp_path), "--data", str(shared_data)]) == 2
    assert "is a folder" in capsys.readouterr().err
    assert main(["instances", "grasp", "inner_random_free", "--indices", "5-3", "--data", str(shared_data)]) == 2
    assert "--indices '5-3'" in capsys.readouterr().err


def test_an_unwritable_output_file_is_bad_input_not_a_traceback(shared_data, tmp_path, capsys):
    answers = tmp_path / "answers.jsonl"
    answers.write_text(json.dumps({"instance": "inner_random_free.jsonl-0-0-0-0", "response": "[UP]"}) + "\n")
    out = tmp_path / "missing-folder" / "out.jsonl"
    assert main(["evaluate", "grasp", str(answers), "-o", str(out), "--data", str(shared_data)]) == 2
    assert "missing-folder" in capsys.readouterr().err


def test_a_byte_order_mark_is_not_part_of_the_answer(shared_data, tmp_path, capsys):
    answer = tmp_path / "answer.txt"
    answer.write_bytes(b"\xef\xbb\xbfUP, DOWN")
    assert main(["check", "grasp", "inner_random_free.jsonl-0-0-0-0", str(answer), "--data", str(shared_data)]) == 0
    assert "bare actions with 2 action(s)" in capsys.readouterr().out
    answers = tmp_path / "answers.jsonl"
    answers.write_bytes(b"\xef\xbb\xbf" + json.dumps({"instance": "inner_random_free.jsonl-0-0-0-0",
                                                      "response": "[UP]"}).encode() + b"\n")
    assert isinstance(next(read_answers(answers)), Record)


def test_a_missing_grid_file_path_is_named_as_a_file(shared_data, tmp_path, capsys):
    assert main(["instances", "grasp", str(tmp_path / "grids.jsonl"), "--data", str(shared_data)]) == 2
    assert "grid file" in capsys.readouterr().err
