"""Reading Hanoi answers: every supported spelling, the policies, and nothing dropped silently."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plancheck.domains.smartplay.hanoi.check import check_answer
from plancheck.domains.smartplay.hanoi.instance import HanoiInstance
from plancheck.domains.smartplay.hanoi.parse import ParsePolicy, _parser, parse_answer, parse_token, smartplay_match
from plancheck.domains.smartplay.hanoi.rules import Move
from plancheck.errors import AnswerParseError, LimitError
from plancheck.limits import Limits
from plancheck.rules import Unknown
from plancheck.translators.answer import SpanKind, leaf_tokens


def moves(text: str, policy: ParsePolicy = ParsePolicy()) -> list[str]:
    return [str(item.action) for item in parse_answer(text, policy).items]


@pytest.mark.parametrize("answer, expected", [
    ("Move the top disk of rod A to the top of rod C\nMove the top disk of rod A to the top of rod B",
     ["A->C", "A->B"]),
    ("move the top disk of rod a to the top of rod c.", ["A->C"]),
    ("A->C, A->B, C->B", ["A->C", "A->B", "C->B"]),
    ("A → C then a => b", ["A->C", "A->B"]),
    ("A to C\nrod B onto rod C", ["A->C", "B->C"]),
    ("Move disk 0 from A to C.\nMove a disk from peg B to peg A", ["A->C", "B->A"]),
    ("(move d0 a c d1 c)\n(MOVE d1 a b d2 b)\n(move c b)", ["A->C", "A->B", "C->B"]),
    ("action 2\nAction #6", ["A->C", "C->B"]),
    ("Step 1: A -> C\nStep 2: A -> B", ["A->C", "A->B"]),
    ("- A -> C\n- A -> B", ["A->C", "A->B"]),
    ('["Move the top disk of rod A to the top of rod C", "A->B"]', ["A->C", "A->B"]),
    ("```\nA -> C\nA -> B\n```", ["A->C", "A->B"]),
    ("**Answer:** A -> C, A -> B", ["A->C", "A->B"]),
])
def test_spellings(answer, expected):
    assert moves(answer) == expected


def test_numbered_lines_commentary_and_unknown_slots():
    text = "Plan:\n1. A -> C (smallest)\n2. hop over\n\n3. A -> B because it is free\nGood luck"
    with pytest.raises(AnswerParseError, match="numbered lines are prose"):  # line 2 is no move: not a plan
        parse_answer(text)
    answer = parse_answer(text, ParsePolicy.of(pick="last"))  # today's rule: one slot per numbered line
    assert [str(i.action) for i in answer.items] == ["A->C", "hop over", "A->B"]
    assert isinstance(answer.items[1].action, Unknown)
    assert [(s.kind, s.text, s.line) for s in answer.spans] == [
        (SpanKind.COMMENTARY, "(smallest)", 2), (SpanKind.UNKNOWN, "hop over", 3),
        (SpanKind.COMMENTARY, "because it is free", 5), (SpanKind.OUTSIDE, "Good luck", 6)]
    assert answer.form == "numbered lines"


def test_bracket_list_elements():
    committed = parse_answer('So: ["A->C", "fly", "A->B" twice]')  # the repetition word is read, and said
    assert [str(i.action) for i in committed.items] == ["A->C", "fly", "A->B", "A->B"]
    assert committed.notes == ("repetition: 'A->B twice' (line 1, column 22) read as 2 x A->B",)
    answer = parse_answer('So: ["A->C", "fly", "A->B" twice]', ParsePolicy.of(pick="last"))
    assert [str(i.action) for i in answer.items] == ["A->C", "fly", "A->B"]
    assert [(s.kind, s.text) for s in answer.spans] == [
        (SpanKind.OUTSIDE, "So:"), (SpanKind.UNKNOWN, "fly"), (SpanKind.UNREAD, "twice")]


def test_echoed_configuration_is_not_the_answer():
    answer = parse_answer("- A: |bottom, [2, 1, 0], top|\n- B: |bottom, [], top|\nA -> C")
    assert [str(i.action) for i in answer.items] == ["A->C"]
    assert [s.kind for s in answer.spans] == [SpanKind.OUTSIDE, SpanKind.OUTSIDE]


def test_pick_policy():
    text = "Draft:\n1. A -> B\nFinal:\n1. A -> C\n2. A -> B"
    assert moves(text) == ["A->C", "A->B"]
    assert moves(text, ParsePolicy.of(pick="first")) == ["A->B"]
    with pytest.raises(AnswerParseError, match="2 lists of moves") as caught:
        parse_answer(text, ParsePolicy.of(pick="only"))
    assert (caught.value.location.line, caught.value.location.column) == (4, 4)
    reading = parse_answer(text, ParsePolicy.of(pick="last")).reading  # the read status replaces the note
    assert reading.status.value == "ambiguous" and "--pick last" in reading.why and len(reading.candidates) == 2
    assert parse_answer(text).reading.why == ("the only candidate answer, introduced as the answer: 'Final:'; 1 "
                                              "list(s) introduced as explanation, recap or example, not as the "
                                              "answer")  # the draft


def test_prose_is_refused_unless_scanned():
    text = "First I move the top disk of rod A to the top of rod C, then A to B."
    with pytest.raises(AnswerParseError, match="moves appear only inside prose"):
        parse_answer(text)
    scanned = parse_answer(text, ParsePolicy.of(read="scan"))
    assert [str(i.action) for i in scanned.items] == ["A->C", "A->B"] and scanned.notes
    with pytest.raises(AnswerParseError, match="no list of moves found"):
        parse_answer("I give up.")


def test_smartplay_rule_takes_the_earliest_action_text():
    text = ("Not 'move the top disk of rod B to the top of rod C'? No: "
            "Move the top disk of rod A to the top of rod B. A->C")
    answer = parse_answer(text, ParsePolicy.of(read="smartplay"))
    assert [i.action for i in answer.items] == [Move.BC] and answer.form == "SmartPlay action match"
    assert smartplay_match("nothing here") is None
    fallback = parse_answer("  no idea ", ParsePolicy.of(read="smartplay"))
    assert fallback.items[0].action == Unknown("no idea") and "action 0" in fallback.notes[0]


def test_tokens_of_a_list_answer():
    assert parse_token("A->C") is Move.AC
    assert parse_token("Move the top disk of rod B to the top of rod A") is Move.BA
    assert parse_token("A->C and A->B") == Unknown("A->C and A->B")
    assert parse_token("") == Unknown("")


def test_size_limit():  # the limit is the shared one (plancheck.limits), checked before reading
    with pytest.raises(LimitError, match="max_answer_bytes 20 exceeded: the answer has 50 bytes"):
        check_answer(HanoiInstance(3), "A->C\n" * 10, limits=Limits(answer_bytes=20))


_FRAGMENTS = st.sampled_from([
    "A->C", "b to a", "Move the top disk of rod C to the top of rod B", "(move d0 a b)", "action 3", "1.", "- ",
    "Step 2:", "[", "]", ",", ".", "then", "Answer:", "(note)", "hello", "42", "```", "**", '"', "\n", "\n\n", " ",
    "disk", "rod", "é", "!", "->", "(", ")", "a", "b", "c", " to ", "onto", "A->A", "peg", "from", "\u2192"])


@settings(max_examples=300, deadline=None)
@given(st.lists(_FRAGMENTS, max_size=40).map("".join), st.sampled_from(["plan", "scan", "smartplay"]),
       st.sampled_from(["first", "last", "only"]))
def test_total_and_nothing_dropped(text, read, pick):
    """Any text is read or refused with AnswerParseError; every word of it is an action or a reported span."""
    try:
        answer = parse_answer(text, ParsePolicy.of(read, pick))
    except AnswerParseError as error:
        assert error.location is not None
        return
    covered = [(item.start, item.end) for item in answer.items] + [(s.start, s.end) for s in answer.spans]
    if read == "smartplay":
        assert len(answer.items) == 1
        return
    for token in leaf_tokens(_parser().parse(text)):
        if token.type in ("WORD", "NUMBER", "OTHER", "REMARK", "SENTENCE", "PHRASE", "ARROW", "PDDL", "INDEX"):
            assert any(start <= token.start_pos < end for start, end in covered), (token, answer)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_arbitrary_text_never_crashes(text):
    try:
        parse_answer(text)
    except AnswerParseError:
        pass


def test_smartplay_match_positions_survive_characters_that_lower_case_longer():
    """'İ'.lower() is two characters: the offset found in the lower-cased text was off by one per 'İ'."""
    text = "İİ: Move the top disk of rod A to the top of rod C"
    move, start = smartplay_match(text)
    assert text[start:start + len(move.sentence)] == move.sentence
    answer = parse_answer(text, ParsePolicy.of("smartplay"))
    item = answer.items[0]
    assert text[item.start:item.end] == move.sentence and [s.text for s in answer.spans] == ["İİ:"]
