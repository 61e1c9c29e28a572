"""Reading GRASP answers: published formats, the documented policy, and robustness on any input."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plancheck.domains.grasp.catalog import environment
from plancheck.domains.grasp.check import check_answer
from plancheck.domains.grasp.parse import ParsePolicy, parse_answer
from plancheck.domains.grasp.rules import Action
from plancheck.errors import AnswerParseError, LimitError
from plancheck.limits import Limits
from plancheck.rules import Unknown
from plancheck.translators.answer import SpanKind


def names(answer) -> list[str]:
    return [str(item.action) for item in answer.items]


def spans(answer) -> list[tuple[str, str]]:
    return [(span.kind.value, span.text) for span in answer.spans]


def test_every_published_gpt35_response_is_read(shared_data):
    forms = Counter()
    with open(shared_data / "grasp" / "llm" / "gpt35_responses.jsonl") as handle:
        for line in handle:
            text = json.loads(line)["response"]["body"]["choices"][0]["message"]["content"]
            answer = parse_answer(text)
            assert answer.items, text[:80]
            forms[answer.form] += 1
    assert sum(forms.values()) == 1600
    assert forms["bracket list"] > 1000 and forms["unclosed bracket list"] > 100 and forms["numbered lines"] > 50


def test_bare_list():
    assert names(parse_answer("[TAKE, RIGHT, DROP]")) == ["TAKE", "RIGHT", "DROP"]


def test_list_cut_off_by_the_token_limit():
    answer = parse_answer("[RIGHT, RIGHT, DOW")
    assert answer.form == "unclosed bracket list"
    assert names(answer) == ["RIGHT", "RIGHT", "DOW"] and isinstance(answer.items[-1].action, Unknown)
    assert any("never closed" in note for note in answer.notes)
    with pytest.raises(AnswerParseError, match="never closed") as caught:
        parse_answer("Plan:\n  [RIGHT, RIGHT, DOW", ParsePolicy.of(unclosed="reject"))
    assert caught.value.location.line == 2 and caught.value.location.column == 3


def test_numbered_lines_keep_the_leading_action_and_report_commentary():
    text = ("To collect energy:\n\n1. TAKE (3, 3) - Collect energy from cell (3, 3)\n"
            "2. MOVE RIGHT - Move right to cell (4, 3)\n3. Think about it\n4) drop")
    with pytest.raises(AnswerParseError, match="numbered lines are prose"):  # line 3 is no action: no plan
        parse_answer(text)
    committed = parse_answer(text.replace("Think about it", "UP, then think about it"))
    assert names(committed) == ["TAKE", "RIGHT", "UP", "DROP"]
    assert ("commentary", "(3, 3) - Collect energy from cell (3, 3)") in spans(committed)
    answer = parse_answer(text, ParsePolicy.of(pick="last"))  # the earlier rule: one slot per numbered line
    assert answer.form == "numbered lines"
    assert names(answer) == ["TAKE", "RIGHT", "Think about it", "DROP"]
    assert ("commentary", "- Move right to cell (4, 3)") in spans(answer)
    assert ("unknown action", "Think about it") in spans(answer)
    assert ("outside the answer", "To collect energy:") in spans(answer)


def test_lists_in_prose_and_code_fences_with_quotes_synonyms_and_case():
    text = "Sure!\n```python\n['up', \"Take\", move_left, Up-Left, pick up, DOWNRIGHT, put down]\n```\nDone."
    answer = parse_answer(text)
    assert names(answer) == ["UP", "TAKE", "LEFT", "UPLEFT", "TAKE", "DOWNRIGHT", "DROP"]
    assert spans(answer) == [("outside the answer", "Sure!"), ("outside the answer", "Done.")]


def test_words_that_merely_start_like_actions_are_not_actions():
    answer = parse_answer("[upper, downtown, TAKE]")
    assert [type(i.action) for i in answer.items] == [Unknown, Unknown, Action]


def test_junk_next_to_an_action_is_reported_not_dropped():
    answer = parse_answer("[UP # go north\n, TAKE (3, 4), DROP]")
    assert names(answer) == ["UP", "TAKE", "DROP"]
    assert spans(answer) == [("unreadable", "# go north"), ("unreadable", "(3, 4)")]


def test_several_lists_follow_the_pick_policy():
    text = "For example: [STEP, STEP, ...]. First try: [UP, TAKE]. Final answer: [DOWN, TAKE, DROP]"
    assert names(parse_answer(text)) == ["DOWN", "TAKE", "DROP"]
    assert names(parse_answer(text, ParsePolicy.of(pick="first"))) == ["UP", "TAKE"]
    with pytest.raises(AnswerParseError, match="2 candidate lists"):
        parse_answer(text, ParsePolicy.of(pick="only"))
    # the prompt's [STEP, STEP, ...] echo holds no action and is never chosen over a real list
    assert names(parse_answer("[UP] and then [STEP, STEP]")) == ["UP"]


def test_prose_without_a_list_is_refused_unless_scanning_is_asked_for():
    with pytest.raises(AnswerParseError, match="no list of actions") as caught:
        parse_answer("I would go up and then take the energy.")
    assert caught.value.location.line == 1
    answer = parse_answer("I would go up and then take the energy.", ParsePolicy.of(prose="scan"))
    assert names(answer) == ["UP", "TAKE"] and answer.form == "actions scanned from prose"
    assert names(parse_answer("UP, TAKE\nDROP")) == ["UP", "TAKE", "DROP"]


def test_size_limit_is_a_typed_error():  # the limit is the shared one (plancheck.limits), checked before reading
    env = environment("gen7_outer_spiral_block-0-0-1-1", None)
    with pytest.raises(LimitError, match="max_answer_bytes 200000 exceeded: the answer has 250000 bytes"):
        check_answer(env, "[UP] " * 50_000, limits=Limits(answer_bytes=200_000))


@pytest.mark.slow  # 12 s; benchmarks/fuzz.py measures the same shapes
def test_large_and_pathological_inputs_finish():
    assert len(parse_answer("[" + "UP, " * 45_000 + "DOWN]").items) == 45_001
    with pytest.raises(AnswerParseError, match="never closed and holds no action"):
        parse_answer("[" * 190_000)
    assert parse_answer("[" * 190_000 + "UP").form == "unclosed bracket list"
    with pytest.raises(AnswerParseError):
        parse_answer("(" * 190_000)


@pytest.mark.parametrize("text, actions", [("[]", 0), ("[,,,]", 0), ("[UP, TAKE", 2)])
def test_empty_lists_are_the_empty_plan_but_a_lone_bracket_is_no_answer(text, actions):
    assert len(parse_answer(text).items) == actions
    for lone in ("[", "[[[", "Plan: [ "):
        with pytest.raises(AnswerParseError, match="never closed and holds no action"):
            parse_answer(lone)


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_any_text_gives_an_answer_or_a_typed_error(text):
    try:
        answer = parse_answer(text)
    except AnswerParseError as error:
        assert error.location is not None
    else:
        for item in answer.items:
            assert 0 <= item.start <= item.end <= len(text)


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=2000))
def test_binary_input_gives_an_answer_or_a_typed_error(blob):
    try:
        parse_answer(blob.decode("utf-8", errors="replace"))
    except AnswerParseError:
        pass


_VOCABULARY = ["UP", "down", "Take", "DROP", "upleft", "JUMP", "foo", "bar2", "1.", "2)", "-", "[", "]", ",",
               ";", "\n", "(3, 4)", "'", '"', "**", "# note", "move right", "x", "!"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_VOCABULARY), max_size=40))
def test_no_word_is_ever_dropped_silently(words):
    text = " ".join(words)
    try:
        answer = parse_answer(text)
    except AnswerParseError:
        return
    covered = [False] * len(text)
    for item in answer.items:
        for i in range(item.start, item.end):
            covered[i] = True
    for span in answer.spans:
        assert text[span.start:span.end] == span.text
        for i in range(span.start, span.end):
            covered[i] = True
    missed = [text[i] for i, ch in enumerate(text) if ch.isalpha() and not covered[i]]
    assert missed == [], (text, answer)


def test_unknown_policy_controls_whether_unknown_tokens_use_a_step():
    from plancheck.translators.answer import UnknownPolicy

    answer = parse_answer("[UP, JUMP, DOWN]")
    assert len(answer.actions(UnknownPolicy.NOOP)) == 3
    assert answer.actions(UnknownPolicy.SKIP) == [Action.UP, Action.DOWN]
    assert [s.kind for s in answer.spans] == [SpanKind.UNKNOWN]
