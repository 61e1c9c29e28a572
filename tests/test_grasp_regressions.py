"""Regression tests for problems found in the review of GRASP and the core (one test per finding)."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from plancheck.errors import AnswerParseError
from plancheck.translators.grasp_answer import ParsePolicy, parse_answer

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
