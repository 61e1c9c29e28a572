"""Verifier feedback: every verdict of every world renders a short message that names the first problem where it is,
in the API, in JSON and from `check --feedback`."""

from __future__ import annotations

import importlib
import json

import pytest

from plancheck.cli import main
from plancheck.episodes.check import check_episode
from plancheck.registry import get_world, world_names, world_package
from plancheck.world import Example

GRASP = "gen7_outer_spiral_block-0-0-1-1"


def _examples(name: str) -> tuple:
    found = importlib.import_module(world_package(name) + ".examples").EXAMPLES
    return tuple(found.get(name, ()) if isinstance(found, dict) else found)


@pytest.mark.parametrize("name", world_names())
def test_every_verdict_of_every_world_has_feedback_that_names_its_first_problem(name, shared_data):
    world = get_world(name)
    if world.missing():
        pytest.skip(f"the {name} world needs {', '.join(world.missing())}: pip install 'plancheck[{world.extra}]'")
    for example in _examples(name):
        if isinstance(example, Example):
            instance = next(iter(world.instances([example.instance], shared_data)))
            verdict = world.check(instance, example.answer, **dict(example.options))
        else:
            verdict = check_episode(world.episodes, example.episode)
        message = verdict.feedback()
        assert message and len(message) < 1500 and "\n" not in message, message
        if not verdict.parsed:
            assert message.startswith("Your answer could not be read as a plan"), message
            assert "<input>" not in message  # the model does not know the source's name
        elif verdict.failure is not None:
            assert message.startswith(f"Step {verdict.failure.step}: {verdict.failure.reason}"), message
        elif verdict.has_goal and verdict.goal_reached is False:
            assert "the goal is not reached" in message, message
        else:
            assert "valid" in message or "consistent" in message, message
        if verdict.parsed and verdict.has_goal and verdict.goal_reached is False:
            assert "goal is not reached" in message
        for rule, value in verdict.scores.items():
            assert f"{rule} " in message
        if verdict.optimal:
            assert "optim" not in message.lower()  # no hint the benchmark does not give


def test_feedback_says_where_the_plan_was_before_it_failed():
    world = get_world("grasp")
    instance = next(iter(world.instances([GRASP], None)))
    verdict = world.check(instance, "Here is my plan: [RIGHT, RIGHT, RIGHT, DOWN]")
    assert verdict.feedback() == ("Step 3: RIGHT from (9, 8) is blocked by an obstacle at (9, 9). After step 2: at "
                                  "(9, 8), carrying 0, collected 0. Scores: paper -1.2, delivered -1.2.")
    hanoi = get_world("hanoi")
    three = next(iter(hanoi.instances(["hanoi-3"], None)))
    assert hanoi.check(three, "A->C").feedback() == (
        "The one action can be carried out, but the goal is not reached; after the last one: A[2, 1] B[] C[0]. "
        "Scores: score 1, normalised 0.3333, completion 0, reward 0.")
    assert hanoi.check(three, "A->C\nA->B\nC->B\nA->C\nB->A\nB->C\nA->C").feedback().startswith(
        "The plan is valid and reaches the goal at step 7.")


def test_check_feedback_prints_the_message_and_keeps_the_exit_code(tmp_path, capsys):
    answer = tmp_path / "answer.txt"
    answer.write_text("[RIGHT, RIGHT, RIGHT, DOWN]", encoding="utf-8")
    assert main(["check", "grasp", GRASP, str(answer), "--feedback"]) == 1
    printed = capsys.readouterr().out
    assert printed.startswith("Step 3: RIGHT from (9, 8) is blocked") and printed.count("\n") == 1
    assert main(["check", "grasp", GRASP, str(answer), "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["feedback"] == printed.strip()
    answer.write_text("[UP, TAKE, LEFT, TAKE, LEFT, DROP]", encoding="utf-8")
    assert main(["check", "grasp", GRASP, str(answer), "--feedback"]) == 0
    assert capsys.readouterr().out == "The plan is valid (6 actions). Scores: paper 1.2, delivered -1.8.\n"
