"""The MANGO answer grammar: every recorded answer, the accepted forms, positioned failures, totality."""

from __future__ import annotations

import json
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plancheck.domains.mango.graph import Move
from plancheck.domains.mango.parse import MAX_CANDIDATES, format_answer, parse_answer, unquote
from plancheck.errors import AnswerParseError, LimitError
from plancheck.limits import Limits
from plancheck.translators.answer import Pick, ReadStatus, SpanKind, within_limits

ROW = "{'location_before': 'hall', 'action': 'north', 'location_after': 'attic'}"


def moves_of(text: str) -> list[tuple[str, str, str]]:
    return [(i.action.before, i.action.action, i.action.after) for i in parse_answer(text).items]


def test_every_recorded_answer_reads_or_is_empty(shared_data):
    files = sorted((shared_data / "mango" / "examples").rglob("*.json"))
    read = 0
    for path in files:
        record = json.loads(path.read_text())
        if not record["response"]:
            with pytest.raises(AnswerParseError, match="empty"):
                parse_answer(record["response"])
            assert record["answerable"] is False
            continue
        answer = parse_answer(record["response"])
        read += 1
        assert answer.form == "location_before/action/location_after" and not answer.spans
        assert answer.items[0].action.before == record["src_node"]
        if record["task"] == "desti_finding":
            assert [i.action.action for i in answer.items] == record["action_list"]
    assert read == 32


def test_key_styles_quotes_commas_fences_and_comments():
    assert moves_of('[{"prev_node": "hall", "action": "north", "node": "attic"},]') == [("hall", "north", "attic")]
    text = "```python\n[\n  " + ROW + ",  # first\n  {'location_before': \"attic\", 'action': 'down',\n" \
           "   'location_after': 'hall'},\n]\n```"
    assert moves_of(text) == [("hall", "north", "attic"), ("attic", "down", "hall")]
    mixed = parse_answer("[" + ROW + ", {'prev_node': 'attic', 'action': 'down', 'node': 'hall'}]")
    assert mixed.notes == ("the dicts mix key styles: location_before/action/location_after, prev_node/action/node",)


def test_text_around_the_list_and_extra_keys_are_reported_not_dropped():
    text = "Here's the route:\n[{'location_before': 'hall', 'step': 1, 'action': 'north', " \
           "'location_after': 'attic'}]\nHope this helps!"
    answer = parse_answer(text)
    assert [(s.kind, s.text, s.line) for s in answer.spans] == [
        (SpanKind.OUTSIDE, "Here's the route:", 1), (SpanKind.UNREAD, "'step': 1", 2),
        (SpanKind.OUTSIDE, "Hope this helps!", 3)]


def test_the_first_trajectory_list_is_the_answer_by_the_earlier_rule():
    text = "Actions: ['north']. Path: [" + ROW + "] or [{'location_before': 'x', 'action': 'y', " \
           "'location_after': 'z'}]"
    answer = parse_answer(text, pick=Pick.FIRST)
    assert [i.action.before for i in answer.items] == ["hall"]
    assert answer.reading.status is ReadStatus.AMBIGUOUS and "--pick first" in answer.reading.why  # was a note
    assert answer.spans[0].text.startswith("Actions: ['north']")
    committed = parse_answer(text)  # the committed policy: the last of two lists introduced alike
    assert [i.action.before for i in committed.items] == ["x"] and committed.reading.status is ReadStatus.AMBIGUOUS


@pytest.mark.parametrize("text, message, line, column", [
    ("", "empty", 1, 1),
    ("I cannot answer.", "no list found", 1, 1),
    ("[]", "the list is empty", 1, 1),
    ("['north', 'east']", "element 1 is a string", 1, 2),
    ("[\n {'location_before': 'hall', 'location_after': 'attic'}]", "lacks the key 'action'", 2, 2),
    ("[{'location_before': 'hall', 'action': None, 'location_after': 'attic'}]", "bare word None", 1, 40),
    ("[{'location_before': hall room, 'action': 'n', 'location_after': 'a'}]", "unexpected \"room, 'action'", 1, 27),
    ("[{'location_before': 'hall', 'action': 'north', 'location_after': 'att", "never closed", 1, 67),
    ("[{'location_before': 'hall', 'action': 'north', 'location_after': 'attic'}", "never closed", 1, 75),
    ("[{'location_before': 'hall' 'action': 'north'}]", "expected ',' or '}'", 1, 37),
    ("[{1: 'hall'}]", "key that is the number 1", 1, 3),
])
def test_failures_say_what_and_where(text, message, line, column):
    with pytest.raises(AnswerParseError) as error:
        parse_answer(text, source="answer.txt")
    assert message in error.value.message
    assert (error.value.location.source, error.value.location.line, error.value.location.column) == \
        ("answer.txt", line, column)


def test_escapes_follow_python():
    assert unquote(r"'a\'b\"c\\d\n'") == "a'b\"c\\d\n"
    assert unquote(r"'\x41\u00e9\U0001F600\N{BULLET}\101\q'") == "A\u00e9\U0001F600\u2022A\\q"
    assert moves_of("[{'location_before': 'soldiers\\' barracks' 'x', 'action': 'n', 'location_after': \"a\"}]") == \
        [("soldiers' barracksx", "n", "a")]


def test_size_and_candidate_limits():
    with pytest.raises(LimitError, match="max_answer_bytes 10 exceeded"):  # the shared limit, checked before reading
        within_limits("[" + ROW + "]", Limits(answer_bytes=10))
    text = "[x] " * (MAX_CANDIDATES + 5) + "[" + ROW + "]"
    with pytest.raises(AnswerParseError):
        parse_answer(text)
    for hostile in ("[" * 150_000, "[" * 100_000 + "1 1", "[{'a': [" * 20_000, "[" * 101 + "]" * 101):
        start = time.perf_counter()
        with pytest.raises(LimitError, match="max_nesting 100 exceeded: the brackets nest deeper than 100 levels"):
            parse_answer(hostile)
        assert time.perf_counter() - start < 5  # refused at the 101st level, not read to the end
    with pytest.raises(AnswerParseError, match="element 1 is a list"):  # 100 levels are read, not refused
        parse_answer("[" * 98 + "[" + ROW + "]" + "]" * 98)  # 99 lists and a dict
    with pytest.raises(LimitError, match="line 1, column 9: max_nesting 3 exceeded"):
        parse_answer("[[{'a': [" + ROW + "]}]]", limits=Limits(nesting=3))
    text = "[{'location_before': '[[[[[', 'action': 'up', 'location_after': 'attic'}]"  # brackets in a string
    assert moves_of(text) == [("[[[[[", "up", "attic")] and parse_answer(text, limits=Limits(nesting=2)).items
    with pytest.raises(LimitError, match="max_answer_words 3 exceeded"):
        parse_answer("[" + ROW + "]", limits=Limits(answer_words=3))


def test_a_list_inside_a_broken_one_is_still_found():
    answer = parse_answer("[ [" + ROW + "] oops ]")
    assert moves_of("[ [" + ROW + "] oops ]") == [("hall", "north", "attic")]
    assert [s.text for s in answer.spans] == ["[", "oops ]"]
    with pytest.raises(AnswerParseError, match="element 1 is a list"):
        parse_answer("[[" + ROW + "]]")


names = st.text(st.characters(blacklist_categories=("Cs",)), max_size=30)
moves = st.lists(st.builds(Move, names, names, names), min_size=1, max_size=8).map(tuple)


@given(moves, st.sampled_from(["location_before", "prev_node"]))
@settings(max_examples=300, deadline=None)
def test_written_answers_read_back_exactly(trajectory, style):
    answer = parse_answer("Sure!\n" + format_answer(trajectory, style) + "\nDone.")
    assert tuple(item.action for item in answer.items) == trajectory
    as_json = json.dumps([{"prev_node": m.before, "action": m.action, "node": m.after} for m in trajectory])
    assert tuple(item.action for item in parse_answer(as_json).items) == trajectory


fragments = st.lists(st.sampled_from(["[", "]", "{", "}", ",", ":", " ", "\n", "'", '"', "\\", "#", "u'x'", "None",
                                      "'location_before'", "'action'", "'location_after'", "'hall'", '"a b"',
                                      "1.5", "```", "Sure"]) | st.characters(), max_size=60).map("".join)


@given(st.one_of(st.text(max_size=300), fragments))
@settings(max_examples=400, deadline=None)
def test_any_text_parses_or_fails_with_a_position(text):
    try:
        answer = parse_answer(text)
    except AnswerParseError as error:
        assert error.location is not None and error.location.line >= 1 and error.location.column >= 1
    else:
        assert answer.items
        for item in answer.items:
            assert text[item.start] == "{" and text[item.end - 1] == "}"


def test_the_cap_on_candidate_lists_is_said_only_when_lists_were_left_untried():
    trajectory = "[{'location_before': 'hall', 'action': 'up', 'location_after': 'attic'}]"
    assert len(parse_answer(" ".join(f"[{i}]" for i in range(31)) + " " + trajectory).items) == 1
    with pytest.raises(AnswerParseError, match=r"only the first 32 '\[' of the answer were tried"):
        parse_answer(" ".join(f"[{i}]" for i in range(32)) + " " + trajectory)
    with pytest.raises(AnswerParseError) as tried_all:
        parse_answer("[1] " * 30 + "[ [[4]] ,")
    assert "only the first" not in str(tried_all.value)
