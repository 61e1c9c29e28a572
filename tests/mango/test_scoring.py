"""MANGO scoring: similarity, snapping, branch walks, the verdicts of the recorded claude-instant-1 records."""

from __future__ import annotations

import json
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plancheck.domains.mango import records as answer_files
from plancheck.domains.mango.check import check_answer
from plancheck.domains.mango.game import load_game
from plancheck.domains.mango.graph import Edge, Move, Moves, evaluation_graph
from plancheck.domains.mango.instance import MangoInstance, find_question, select
from plancheck.domains.mango.parse import format_answer
from plancheck.domains.mango.questions import Task
from plancheck.domains.mango.report import summary
from plancheck.domains.mango.scoring import levenshtein, similarity, snap, walk
from plancheck.world import Record


@cache
def slow_levenshtein(a: str, b: str) -> int:
    if not a or not b:
        return len(a) + len(b)
    return min(slow_levenshtein(a[1:], b) + 1, slow_levenshtein(a, b[1:]) + 1,
               slow_levenshtein(a[1:], b[1:]) + (a[0] != b[0]))


short = st.text("abcAB ", max_size=7)


@given(short, short, short)
@settings(max_examples=300, deadline=None)
def test_levenshtein_is_the_edit_distance(a, b, c):
    assert levenshtein(a, b) == slow_levenshtein(a, b) == levenshtein(b, a)
    assert levenshtein(a, c) <= levenshtein(a, b) + levenshtein(b, c)
    score = similarity(a, b)
    assert 0.0 <= score <= 1.0 and (score == 1.0) == (a.lower() == b.lower() != "")


def test_snapping_is_exact_or_closest_with_alphabetical_ties():
    vocabulary = ("east", "north", "south", "west")
    assert snap("NORTH ", vocabulary, loose=False) == "north"
    assert snap("go north", vocabulary, loose=False) is None
    assert snap("go north", vocabulary, loose=True) == "north"
    assert similarity("est", "east") == similarity("est", "west") and snap("est", vocabulary, loose=True) == "east"
    assert snap("est", tuple(reversed(vocabulary)), loose=True) == "west"  # the vocabulary's order decides


def test_walk_follows_every_branch_and_stops_when_none_continues():
    moves = Moves.of(evaluation_graph([Edge("a", "b", "out"), Edge("a", "c", "out"), Edge("b", "d", "north"),
                                       Edge("c", "c", "north")]))
    assert walk(moves, "A", ["out", "north"]) == (frozenset("bc"), frozenset("dc"))
    assert walk(moves, "a", ["out", "up", "north"]) == (frozenset("bc"), frozenset())
    assert walk(moves, "a", [None, "out"]) == (frozenset(),)


@pytest.fixture(scope="module")
def game905(shared_data):
    return load_game(shared_data / "mango" / "905")


def instance(game, task, src, dst, actions=None):
    questions = [q for q in game.questions(task) if q.src == src and q.dst == dst and
                 (actions is None or list(q.actions) == actions)]
    assert len(questions) == 1
    return MangoInstance(game, questions[0], 70)


def row(before, action, after):
    return f"{{'location_before': '{before}', 'action': '{action}', 'location_after': '{after}'}}"


def test_rf_strict_loose_and_reasoning(game905):
    question = instance(game905, Task.RF, "bedroom", "driveway")
    right = check_answer(question, "[" + row("bedroom", "east", "living room") + ", " +
                         row("living room", "south", "driveway") + "]")
    assert dict(right.scores) == {"strict": 1.0, "loose": 1.0, "loose_similarity": 1.0, "reasoning": 1.0}
    assert right.passed() and right.metrics["shortest"] == 2
    typo = check_answer(question, "[" + row("bedroom", "eats", "living room") + ", " +
                        row("living room", "south", "driveway") + "]")
    assert (typo.scores["strict"], typo.scores["loose"], typo.scores["reasoning"]) == (0.0, 1.0, 0.0)
    assert typo.failure.step == 1 and "no 'eats' move" in typo.failure.reason
    wrong_places = check_answer(question, "[" + row("bedroom", "east", "kitchen") + ", " +
                                row("kitchen", "south", "driveway") + "]")
    assert wrong_places.scores["strict"] == 1.0 and wrong_places.scores["reasoning"] == 0.0
    elsewhere = check_answer(instance(game905, Task.RF, "bedroom", "living room"),
                             "[" + row("bedroom", "south", "bathroom") + "]")
    assert elsewhere.scores["strict"] == elsewhere.scores["loose"] == 0.0
    assert elsewhere.scores["loose_similarity"] == similarity("living room", "bathroom") > 0
    assert elsewhere.metrics["reasoning_failure"] == "the trajectory ends at 'bathroom', not at 'living room'"


def test_df_scores_the_models_destination_not_the_questions(game905):
    question = instance(game905, Task.DF, "bedroom", "driveway", ["east", "south"])
    right = check_answer(question, "[" + row("bedroom", "east", "living room") + ", " +
                         row("living room", "south", "driveway") + "]")
    assert dict(right.scores) == {"strict": 1.0, "loose": 1.0, "reasoning": 1.0}
    wrong = check_answer(question, "[" + row("bedroom", "east", "living room") + ", " +
                         row("living room", "south", "Driveways") + "]")
    assert wrong.scores["strict"] == 0.0 and wrong.scores["loose"] == pytest.approx(1 - 1 / 9)
    other_actions = check_answer(question, "[" + row("bedroom", "south", "bathroom") + ", " +
                                 row("bathroom", "north", "driveway") + "]")
    assert other_actions.scores["strict"] == 1.0 and other_actions.scores["reasoning"] == 0.0
    assert "the question's action 1 is 'east'" in other_actions.metrics["reasoning_failure"]
    short = check_answer(question, "[" + row("bedroom", "east", "living room") + "]")
    assert short.valid and short.metrics["reasoning_failure"].startswith("the trajectory stops after 1")


def test_nondeterministic_df_accepts_any_reached_place(shared_data):
    game = load_game(shared_data / "mango" / "deephome")
    places = game.moves.successors("railcar", "out")
    questions = [q for q in game.df if q.src == "railcar" and q.actions == ("out",)]
    assert len(places) == len(questions) == 2
    for q in questions:
        for place in places:
            verdict = check_answer(MangoInstance(game, q), format_answer((Move("railcar", "out", place),)))
            assert verdict.scores["strict"] == verdict.scores["reasoning"] == 1.0


def test_unparseable_answers_keep_the_question_metrics(game905):
    question = instance(game905, Task.RF, "bedroom", "driveway")
    verdict = check_answer(question, "east, then south")
    assert not verdict.parsed and not verdict.passed() and verdict.metrics["difficulty"] == "easy"
    assert not check_answer(question, ["east", "south"]).parsed


def recorded_verdicts(shared_data):
    results = []
    for path in sorted((shared_data / "mango" / "examples").rglob("*.json")):
        for record in answer_files.read_answers(path):
            assert isinstance(record, Record)
            results.append((record, check_answer(answer_files.resolve(record, shared_data), record.text)))
    return results


def test_recorded_claude_answers(shared_data):
    """Outcomes checked by hand against the 905 map (see docs/mango.md)."""
    results = recorded_verdicts(shared_data)
    assert len(results) == 36 and all(r.meta["model"] == "claude-instant-1" for r, _ in results)
    by_id = {v.instance.split("/")[2][:8]: v for _, v in results}
    assert by_id["21d17dba"].failure.step == 3  # "open front door" is no move of the map
    assert by_id["1f51a779"].scores["strict"] == 0.0  # DF: driveway, not bathroom
    assert by_id["b5fa842f"].metrics["answerable"] is False and not by_id["b5fa842f"].parsed
    table = summary(results)
    rows = {(r[1], r[2], r[3]): r for r in table.rows}
    # RF: 16 answerable, 11 reach the goal (5 fail: open front door, kitchenette, two wrong turns, a dead end)
    assert rows["905", "rf", "all"][4:] == (16, 4, 0, 0.6875, 0.6875, 0.6875)
    assert rows["905", "df", "all"][4:7] == (16, 0, 0) and rows["905", "df", "all"][7] == 0.875
    assert rows["all", "rf", "easy"][4] + rows["all", "rf", "hard"][4] == 16


def test_summary_counts_format_failures_apart(shared_data):
    game = load_game(shared_data / "mango" / "905")
    rf = [i for i in select(["905/rf"], shared_data) if i.answerable][:3]
    results = [(Record(1, rf[0].id, "x", meta={"model": "m"}), check_answer(rf[0], "no list")),
               (Record(2, rf[1].id, "x", meta={"model": "m"}), check_answer(rf[1], "[" + row("a", "b", "c") + "]")),
               (Record(3, rf[2].id, "x", meta={"model": "m"}), check_answer(
                   MangoInstance(game, find_question(game, Task.RF, rf[2].question.id), 0), "no list"))]
    data = {(r["game"], r["subset"]): r for r in summary(results).data["rows"]}
    cell = data["905", "all"]
    assert (cell["records"], cell["unanswerable"], cell["format_failures"], cell["scored"]) == (3, 1, 1, 1)
    assert cell["strict"] == 0.0 and cell["strict_with_failures"] == 0.0


def test_records_must_match_their_question(shared_data, tmp_path):
    path = tmp_path / "records.jsonl"
    good = "905/rf/0853694d864cf82010cd2ed729f6b2535217b158133ff1ce472fc8539a8bf1c8"
    path.write_text("\n".join([
        json.dumps({"instance": good, "response": [{"prev_node": "bedroom", "action": "east", "node": "living room"}],
                    "model": "m", "cutoff": 15}),
        json.dumps({"sample_id": good.split("/")[2], "game_name": "905", "task": "route_finding",
                    "src_node": "bathroom", "dst_node": "living room", "response": "[]"}),
        "{not json", json.dumps({"response": "x"}), json.dumps({"instance": good, "response": 7})]) + "\n")
    records = list(answer_files.read_answers(path))
    assert [type(r).__name__ for r in records] == ["Record", "Record", "BrokenRecord", "BrokenRecord", "BrokenRecord"]
    first = answer_files.resolve(records[0], shared_data)
    assert first.cutoff == 15 and check_answer(first, records[0].text).scores["strict"] == 1.0
    with pytest.raises(Exception, match="src_node 'bathroom' is not the question's 'bedroom'"):
        answer_files.resolve(records[1], shared_data)
