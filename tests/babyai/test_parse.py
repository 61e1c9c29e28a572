"""Reading BabyAI answers: the published formats, reported leftovers, and totality on any text."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plancheck.domains.babyai.parse import parse_langsuite, parse_plan, parse_state, parse_subgoals
from plancheck.domains.babyai.rules import Action
from plancheck.domains.babyai.tasks import IGAction, Subgoal
from plancheck.errors import AnswerParseError
from plancheck.rules import Unknown
from plancheck.translators.answer import SpanKind, UnknownPolicy, line_and_column


def test_plan_reads_after_the_marker_and_reports_what_the_harness_drops():
    text = "Reasoning...\nThe LLM's action sequence is: left, forward, Forward , go, left.\nDone"
    answer = parse_plan(text)
    assert answer.actions(UnknownPolicy.SKIP) == [Action.left, Action.forward, Action.forward]
    unknown = [s.text for s in answer.spans if s.kind is SpanKind.UNKNOWN]
    assert unknown == ["go", "left.\nDone"]  # the harness keeps only exact names: "left." is dropped
    assert [s.text for s in answer.spans if s.kind is SpanKind.OUTSIDE] == ["Reasoning..."]
    assert answer.actions(UnknownPolicy.NOOP)[3] == Unknown("go")


def test_plan_marker_is_case_insensitive_first_occurrence_and_required_by_default():
    answer = parse_plan("THE LLM'S ACTION SEQUENCE IS: toggle. the llm's action sequence is: left")
    assert [str(item.action) for item in answer.items] == ["toggle. the llm's action sequence is: left"]
    with pytest.raises(AnswerParseError) as error:
        parse_plan("left, right")
    assert error.value.location.line == 1
    assert parse_plan("left, right", marker="optional").actions() == [Action.left, Action.right]


def test_markers_are_found_without_shifting_offsets():
    """"İ".lower() is two characters: text before the marker shifted every offset ("left" was read as "t")."""
    answer = parse_plan("İİİ The LLM's action sequence is: left, forward")
    assert answer.actions() == [Action.left, Action.forward] and [s.text for s in answer.spans] == ["İİİ"]
    state = parse_state("İ" * 40 + " THE AGENT'S FINAL STATE IS: ((3, 4), 2)")
    assert (state.x, state.y, state.dir) == (3, 4, 2) and [s.text for s in state.spans] == ["İ" * 40]


def test_predict_reads_the_state_or_falls_back_to_three_integers_like_the_harness():
    answer = parse_state("so... The agent's final state is: (( 3,4 ),  2)")
    assert (answer.x, answer.y, answer.dir, answer.form) == (3, 4, 2, "((x, y), dir)")
    fallback = parse_state("The agent's final state is: x=5, y=abc7 and facing 1")
    assert (fallback.x, fallback.y, fallback.dir) == (5, 7, 1) and fallback.notes
    assert parse_state("The agent's final state is: (-1, 2) then ((6, 6), 0)").x == 6
    with pytest.raises(AnswerParseError):
        parse_state("The agent's final state is: ((3, 4))")
    with pytest.raises(AnswerParseError):
        parse_state("((3, 4), 2)")


def test_numbers_too_long_for_a_coordinate_are_typed_errors_not_crashes():
    """int() refuses 4,300 digits and float() 309: both crashed check on such an answer."""
    for digits in (400, 5000):
        big = "9" * digits
        for text in (f"The agent's final state is: (({big}, 1), 2)", f"The agent's final state is: {big} 1 2"):
            with pytest.raises(AnswerParseError, match=f"an integer of {digits} digits") as error:
                parse_state(text)
            assert error.value.location.column == 29
        answer = parse_subgoals(f"<START>\n(GoNextToSubgoal, ({big}, 1))\n(PickupSubgoal)\n<END>")
        assert answer.actions(UnknownPolicy.SKIP) == [Subgoal("PickupSubgoal")] and len(answer.spans) == 1
    assert parse_state("The agent's final state is: ((" + "9" * 100 + ", 1), 2)").x == int("9" * 100)


def test_decompose_reads_the_block_and_lists_unknown_lines():
    text = "Plan\n<START>\n(GoNextToSubgoal, (3, 5))\nOpenSubgoal\n\n(PickupSubgoal, (1, 2))\n(Fly)\n" \
           "(GoNextToSubgoal, (1, 2, 3))\n(DropSubgoal)\n<END>\nbye"
    answer = parse_subgoals(text)
    subgoals = [a for a in answer.actions(UnknownPolicy.SKIP)]
    assert subgoals == [Subgoal("GoNextToSubgoal", (3, 5)), Subgoal("OpenSubgoal"), Subgoal("PickupSubgoal"),
                        Subgoal("DropSubgoal")]
    assert [s.text for s in answer.spans if s.kind is SpanKind.UNKNOWN] == ["(Fly)", "(GoNextToSubgoal, (1, 2, 3))"]
    assert [s.text for s in answer.spans if s.kind is SpanKind.OUTSIDE] == ["Plan", "bye"]
    assert parse_subgoals("<start>\n(DropSubgoal)").notes  # no end marker: noted, read to the end
    with pytest.raises(AnswerParseError):
        parse_subgoals("(DropSubgoal)")


def test_decompose_empty_list_and_windows_line_ends():
    """"<START>\n<END>" is an empty list (its <END> was read as a subgoal, with a note that <END> was
    missing); lines ending in \r\n are read like lines ending in \n (the answer was unreadable)."""
    empty = parse_subgoals("Nothing to do.\n<START>\n<END>")
    assert empty.items == () and empty.notes == () and [s.text for s in empty.spans] == ["Nothing to do."]
    crlf = parse_subgoals("Plan:\r\n<start>\r\n(GoNextToSubgoal, (3, 5))\r\n(PickupSubgoal)\r\n<end>\r\n")
    assert crlf.actions() == [Subgoal("GoNextToSubgoal", (3, 5)), Subgoal("PickupSubgoal")]
    assert crlf.notes == () and [s.text for s in crlf.spans] == ["Plan:"]
    assert parse_subgoals("<START>\r\n<END>").items == ()


def test_langsuite_reads_one_action_per_response():
    answer = parse_langsuite(["Thought: the ball is ahead.\nAct: pick_up [red ball]", "Act: move_ahead",
                              "turn_left and turn_right", "Act: stop [N/A]"])
    assert answer.actions() == [IGAction("pick_up", "red", "ball"), IGAction("move_ahead"),
                                Unknown("turn_left and turn_right"), IGAction("stop")]
    assert [s.text for s in answer.spans] == ["turn_left and turn_right"]
    assert (answer.reading.status.value, answer.reading.why) == ("ambiguous", "3 of 4 replies read clearly; "
                                                                 "ambiguous at step(s) 3")
    unread = parse_langsuite(["YES", "Act: move_ahead", "I am not sure"])  # the opening reply is not a step
    assert (unread.reading.status.value, unread.reading.why) == ("clear", "1 of 2 replies read clearly; "
                                                                 "no action at step(s) 2")


def test_langsuite_s_one_match_is_not_clear_when_the_response_commits_to_no_action_or_another():
    """LangSuitE takes the one action its pattern finds; the response reads clear only when that is its committed
    answer (an action named in a thought or rejected is not)."""
    answer = parse_langsuite(["Act: move_ahead", "Thought: I must not move_ahead, a wall is there.",
                              "Act: pick_up [red ball]"], opening="none")
    assert answer.actions() == [IGAction("move_ahead"), IGAction("move_ahead"), IGAction("pick_up", "red", "ball")]
    assert answer.reading.status.value == "ambiguous"
    assert answer.reading.why.endswith("the benchmark's rule took an action the reply does not commit to at step(s) 2")
    assert "response(s) 2: LangSuitE's one action match is not the response's committed answer" in answer.notes[-1]
    plain = parse_langsuite(["Act: turn_left", "I will pick_up the red ball"], opening="none")
    assert plain.reading.status.value == "clear"


def test_langsuite_positions_stay_true_after_characters_that_lower_case_lengthens():
    text = "İİİ Act: TURN_left"  # "İ".lower() is two characters long
    item = parse_langsuite(text, opening="none").items[0]
    assert item.action == IGAction("turn_left") and text[item.start:item.end] == "TURN_left"


def test_langsuite_finds_action_words_where_langsuite_does():
    """LangSuitE finds its action pattern anywhere in the lower-cased response, inside words too;
    these responses were read as one action (or none) and scored as steps LangSuitE refuses."""
    answer = parse_langsuite(["Thought: the door is toggled. Act: move_ahead",  # toggle + move_ahead: refused
                              "Act: move_ahead, I have not stopped",  # move_ahead + stop: refused
                              "I dropped it",  # a drop
                              "Act: pick_up [red_ball]", "Act: toggle [boxes]", "Act: PICK_UP [Grey  Key]",
                              "Act: pick_up [ball red]", "Act: toggle [greenblue door]", "nonstop"])
    assert answer.actions() == [Unknown("Thought: the door is toggled. Act: move_ahead"),
                                Unknown("Act: move_ahead, I have not stopped"), IGAction("drop"),
                                IGAction("pick_up", "red", "ball"), IGAction("toggle", None, "box"),
                                IGAction("pick_up", "grey", "key"), IGAction("pick_up", None, "ball"),
                                IGAction("toggle", "blue", "door"), IGAction("stop")]
    assert [s.text for s in answer.spans] == ["Thought: the door is toggled. Act: move_ahead",
                                              "Act: move_ahead, I have not stopped"]


def test_langsuite_opening_replies_follow_its_released_code():
    """LangSuitE starts the game at the first reply holding neither "not" nor "don't" (case-sensitive,
    inside words too); the replies up to it are not steps."""
    conversation = ["I do not see a map.", "nothing to add", "Yes, I can play.", "Act: move_ahead"]  # nothing: not
    answer = parse_langsuite(conversation, opening="langsuite")
    assert answer.actions() == [IGAction("move_ahead")]
    assert [s.text for s in answer.spans if s.kind is SpanKind.OUTSIDE] == conversation[:3]
    assert "the first 3 responses" in answer.notes[0]
    assert parse_langsuite(["NOT NOW", "Act: turn_left", "Act: move_ahead"], opening="langsuite").actions() == [
        IGAction("turn_left"), IGAction("move_ahead")]  # "NOT" is not "not": that reply starts the game
    assert parse_langsuite(["YES", "Act: turn_left"], opening="none").actions() == [Unknown("YES"),
                                                                                   IGAction("turn_left")]
    # auto: an answer that begins with an action has no opening; one that begins with talk does
    assert parse_langsuite(["Act: turn_left", "Act: move_ahead"]).actions() == [IGAction("turn_left"),
                                                                               IGAction("move_ahead")]
    assert parse_langsuite(["Yes, I can play this game.", "Act: turn_left"]).actions() == [IGAction("turn_left")]
    with pytest.raises(ValueError, match="opening"):
        parse_langsuite(["YES"], opening="sometimes")


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=300))
def test_readers_are_total_on_any_text(text):
    for reader in (parse_plan, parse_state, parse_subgoals):
        for prefix in ("", "The LLM's action sequence is: ", "The agent's final state is: ", "<START>\n"):
            try:
                reader(prefix + text)
            except AnswerParseError as error:
                assert error.location is not None
    lines = len([line for line in text.split("\n") if line.strip()])
    assert len(parse_langsuite(text, opening="none").items) == lines
    for opening in ("auto", "langsuite"):  # every response is a step or part of the opening
        answer = parse_langsuite(text, opening=opening)
        assert len(answer.items) + sum(s.kind is SpanKind.OUTSIDE for s in answer.spans) == lines


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(["left", "right", "forward", "pickup", "drop", "toggle", "jump", "", " "]),
                max_size=30))
def test_plan_keeps_every_named_action_in_order(tokens):
    answer = parse_plan("The LLM's action sequence is: " + ", ".join(tokens))
    names = [t for t in tokens if t in ("left", "right", "forward", "pickup", "drop", "toggle")]
    assert [str(a) for a in answer.actions(UnknownPolicy.SKIP)] == names
    assert [s.text for s in answer.spans] == [t for t in tokens if t == "jump"]


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="ab\n\r", max_size=40), st.data())
def test_line_and_column_counts_line_breaks(text, data):
    """Positions come from a table of line starts made once per text (counting the line breaks for
    every span made 180,000 unknown items of a 900 kB Plan answer take 26 s to read)."""
    offset = data.draw(st.integers(0, len(text)))
    assert line_and_column(text, offset) == (text.count("\n", 0, offset) + 1,
                                             offset - (text.rfind("\n", 0, offset) + 1) + 1)


def test_many_spans_keep_their_positions():
    many = parse_plan("The LLM's action sequence is:" + " foo,\n" * 2000)
    assert [(s.line, s.column) for s in many.spans[-2:]] == [(1999, 2), (2000, 2)]
