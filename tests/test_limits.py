"""The shared limits (plancheck/limits.py) and the answer-file readers built on them (plancheck/files.py)."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plancheck.cli import main
from plancheck.errors import BadInputError, LimitError
from plancheck.files import answer_entries, answer_lines
from plancheck.limits import MAX_NESTING, Limits, _decoded, _digit_runs, load_json
from plancheck.verifier.records import BrokenRecord

JSON = st.recursive(st.none() | st.booleans() | st.integers(-10 ** 30, 10 ** 30) | st.text(max_size=10)
                    | st.floats(allow_nan=False, allow_infinity=False),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
                    max_leaves=30)


@settings(max_examples=200, deadline=None)
@given(JSON)
def test_within_the_limits_load_json_is_json_loads(value):
    text = json.dumps(value)
    assert load_json(text) == json.loads(text)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="0123456789x \u00e9\u0663\ud800", max_size=300), st.integers(1, 120))
def test_the_byte_search_for_long_digit_runs_finds_what_the_pattern_finds(text, digits):
    # load_json's pre-check (no hook per integer unless a long run of ASCII digits is in the text)
    assert (b"0" * digits in _digit_runs(text)) == (re.search(f"[0-9]{{{digits}}}", text) is not None)


PIECES = ('{', '}', '[', ']', '"a"', ':', ',', ' ', '1', '-', '.5', 'e3', 'true', 'null', '\n', '\r', '"\\u00e9"', '"x',
          '\t', '0')


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=8).map("".join))
def test_the_direct_scan_decodes_and_refuses_as_json_decode_does(text):
    decoder = json.JSONDecoder()
    outcomes = []
    for decode in (decoder.decode, lambda text: _decoded(decoder, text)):
        try:
            outcomes.append(("value", decode(text)))
        except json.JSONDecodeError as error:
            outcomes.append(("error", str(error)))
    assert outcomes[0] == outcomes[1]


def test_each_limit_is_exact(tmp_path):
    assert load_json("[" * 100 + "]" * 100) == json.loads("[" * 100 + "]" * 100)
    with pytest.raises(LimitError, match="max_nesting 100 exceeded: a value nests deeper"):
        load_json("[" * 101 + "]" * 101)
    assert load_json('["[[[[", {"a": "{{{{"}]', Limits(nesting=2)) == ["[[[[", {"a": "{{{{"}]  # strings are not nesting
    assert load_json("1" * 100) == int("1" * 100)
    with pytest.raises(LimitError, match="max_digits 100 exceeded: a value is a number of 101 digits"):
        load_json("1" * 101)
    with pytest.raises(LimitError, match="field 'x' is a number of 101 digits"):
        load_json('{"x": 0.' + "1" * 100 + "}")
    assert load_json('{"x": "' + "1" * 500 + '"}') == {"x": "1" * 500}  # digits in a string are text
    with pytest.raises(BadInputError, match="field 'a.b' is too large a number"):
        load_json('{"a": {"b": 1e999}}')
    path = tmp_path / "a.jsonl"
    path.write_bytes(b'{"a": "' + b"x" * 90 + b'"}\n{"a": "' + b"x" * 91 + b'"}\n')
    first, second = answer_lines(path, Limits(answer_bytes=99))
    assert first == (1, {"a": "x" * 90}) and isinstance(second, BrokenRecord)
    assert second.reason == "max_answer_bytes 99 exceeded: the record has 100 bytes"


@pytest.mark.parametrize("fields", [{"nesting": 0}, {"digits": -1}, {"answer_bytes": 1.5},
                                    {"nesting": MAX_NESTING + 1}])
def test_limits_are_whole_numbers_the_readers_can_take(fields):
    name = "max_" + next(iter(fields))
    with pytest.raises(BadInputError) as error:
        Limits(**fields)
    assert error.value.option == name


def test_the_flags_set_the_limits_and_refuse_nonsense(tmp_path, capsys):
    answer = tmp_path / "a.txt"
    answer.write_text("[UP, TAKE]")
    assert main(["check", "grasp", "gen7_outer_spiral_block-0-0-1-1", str(answer), "--max-answer-bytes", "9"]) == 2
    err = capsys.readouterr().err
    assert err == f"plancheck: error: {answer}: --max-answer-bytes 9 exceeded: the answer has 10 bytes\n"
    with pytest.raises(SystemExit) as done:
        main(["check", "grasp", "gen7_outer_spiral_block-0-0-1-1", str(answer), "--max-nesting", "0"])
    assert done.value.code == 2
    assert main(["check", "grasp", "gen7_outer_spiral_block-0-0-1-1", str(answer), "--max-nesting", "500"]) == 2
    assert "--max-nesting may be at most 200" in capsys.readouterr().err


def test_max_answer_words_bounds_words_and_marks_and_is_named_by_its_flag(tmp_path, capsys):
    answer = tmp_path / "a.txt"
    answer.write_text("[UP, TAKE, LEFT]")  # 3 words, 7 words and marks
    instance = "gen7_outer_spiral_block-0-0-1-1"
    assert main(["check", "grasp", instance, str(answer), "--max-answer-words", "2"]) == 2
    assert capsys.readouterr().err == \
        f"plancheck: error: {answer}: --max-answer-words 2 exceeded: the answer holds 3 words\n"
    answer.write_text("[UP, TAKE, LEFT]" + "\n" * 6)  # 3 words; 13 words, marks and line breaks
    assert main(["check", "grasp", instance, str(answer), "--max-answer-words", "3"]) == 2
    assert capsys.readouterr().err == (f"plancheck: error: {answer}: --max-answer-words 3 exceeded: the answer holds "
                                       "13 words, marks and line breaks (at most 12, four a word)\n")
    assert main(["check", "grasp", instance, str(answer), "--max-answer-words", "4"]) == 0  # read, and valid
    assert "actions: UP, TAKE, LEFT" in capsys.readouterr().out
    records = tmp_path / "a.jsonl"
    records.write_text(json.dumps({"instance": instance, "response": "[UP, TAKE, LEFT]"}) + "\n")
    verdicts = tmp_path / "v.jsonl"
    assert main(["evaluate", "grasp", str(records), "--no-progress", "--max-answer-words", "2", "-o",
                 str(verdicts)]) == 2  # no record could be scored
    assert "--max-answer-words 2 exceeded: the answer holds 3 words" in capsys.readouterr().err
    assert json.loads(verdicts.read_text())["error"].endswith("max_answer_words 2 exceeded: the answer holds 3 words")
    assert Limits().answer_words == 50_000


def _old_answer_lines(raw: bytes) -> list:
    """What answer_lines gave before it read line by line: the whole file decoded, then split at newlines."""
    found = []
    for number, line in enumerate(raw.decode("utf-8-sig", errors="replace").split("\n"), start=1):
        if line.strip():
            try:
                found.append((number, json.loads(line)))
            except json.JSONDecodeError:
                found.append(number)
    return found


@settings(max_examples=200, deadline=None)
@given(lines=st.lists(st.one_of(JSON.map(lambda v: json.dumps(v, ensure_ascii=False).encode()), st.binary(max_size=30)),
                      max_size=8), bom=st.booleans(), crlf=st.booleans())
def test_reading_line_by_line_reads_what_reading_the_whole_file_did(lines, bom, crlf, tmp_path_factory):
    raw = (b"\xef\xbb\xbf" if bom else b"") + (b"\r\n" if crlf else b"\n").join(lines)
    path = tmp_path_factory.mktemp("lines") / "a.jsonl"
    path.write_bytes(raw)
    read = [item.line if isinstance(item, BrokenRecord) else item for item in answer_lines(path)]
    expected = _old_answer_lines(raw)
    assert [x if isinstance(x, int) else x[0] for x in read] == [x if isinstance(x, int) else x[0] for x in expected]
    assert [x for x in read if not isinstance(x, int)] == [x for x in expected if not isinstance(x, int)
                                                            and _plain(x[1])]


def _plain(value) -> bool:
    """Whether a value the old reader accepted is within the default limits (NaN and Infinity never are)."""
    try:
        load_json(json.dumps(value))
    except BadInputError:
        return False
    return True


def test_an_entry_of_a_whole_json_file_is_limited_on_its_own(tmp_path):
    path = tmp_path / "a.json"
    path.write_text(json.dumps([{"a": "x" * 10}, {"a": "x" * 200}, {"a": 1}], indent=1))
    first, second, third = answer_entries(path, limits=Limits(answer_bytes=100))
    assert first == (2, {"a": "x" * 10}) and third == (8, {"a": 1})
    assert isinstance(second, BrokenRecord) and second.line == 5 and "max_answer_bytes 100 exceeded" in second.reason
    path.write_text('[{"a": 1},\n {"b": [[[[1]]]]}]')
    (broken,) = answer_entries(path, limits=Limits(nesting=3))
    assert broken.line == 2
    assert broken.reason == "column 9: max_nesting 3 exceeded: field 'b' nests deeper than 3 levels"
