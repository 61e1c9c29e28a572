"""IQA pictures: the kitchen from above, the agent's path from its seeded start as the replies move it, the
objects the question asks about and a contains question's receptacles marked; an answer record's own seed is
the start evaluate replays and draws."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from plancheck.cli import main
from plancheck.domains.langsuite.iqa.convert import convert
from plancheck.domains.langsuite.iqa.render import states
from plancheck.domains.langsuite.iqa.rules import Task
from plancheck.domains.langsuite.picture import Room
from plancheck.episodes.log import read_episodes
from plancheck.errors import BadInputError
from plancheck.registry import get_world

WORLD = get_world("iqa")
CONTAINS = "FloorPlan2-contains-apple-fridge"


def _path(worlds, room):
    points = [room.at(w.pose.x, w.pose.y) for w in worlds]
    return [(round(x, 6), round(y, 6)) for i, (x, y) in enumerate(points) if i == 0 or (x, y) != points[i - 1]]


def test_the_optimal_episode_is_drawn_from_its_seed_with_the_apples_marked(tmp_path):
    log = tmp_path / "optimal.jsonl"
    assert main(["play", "iqa", "FloorPlan1-existence-apple", "--policy", "optimal", "--seed", "7", "-o",
                 str(log)]) == 0
    episode = next(iter(read_episodes(log)))
    task = Task(WORLD.episodes.instance("FloorPlan1-existence-apple"))
    picture = WORLD.render(task.question, episode)
    worlds = states(task, 7, [step.reply for step in episode.steps])
    assert len(picture.frames) == len(worlds) == len(episode.steps) + 1
    drawn = picture.still.roles("agent-path")
    expected = _path(worlds, Room(task.scene))
    assert len(expected) > 1 and [(round(x - 8, 6), round(y - 8, 6)) for x, y in drawn[0].points] == expected
    apples = sorted({t.id for t in task.scene.nodes.values() if t.object_type == "Apple"})
    assert [s.title for s in picture.still.roles("asked")] == [f"{a}: asked about" for a in apples] and apples
    assert not picture.still.roles("receptacle")  # an existence question names no receptacle
    other = WORLD.render(task.question, json.dumps([step.reply for step in episode.steps]), seed=5)
    assert other.still.roles("agent-start")[0].x != picture.still.roles("agent-start")[0].x \
        or other.still.roles("agent-start")[0].y != picture.still.roles("agent-start")[0].y  # another seed's start


def test_a_contains_question_marks_its_receptacles_and_a_removed_class_has_nothing_to_mark():
    contains = WORLD.render(WORLD.episodes.instance(CONTAINS), json.dumps(["YES", "Act: answer [True]"]))
    assert [s.title for s in contains.still.roles("receptacle")] == \
        [f"{key}: the receptacle asked about" for key in sorted(
            {t.id for t in Task(WORLD.episodes.instance(CONTAINS)).scene.nodes.values() if t.object_type == "Fridge"})]
    texts = " ".join(getattr(s, "text", "") for s in contains.still.shapes)
    assert "(answer: True)" in texts and "correct 1.00" in texts
    removed = WORLD.render(WORLD.episodes.instance("FloorPlan1-existence-apple-removed"))
    assert not removed.still.roles("asked") and not removed.still.roles("agent-path") and not removed.frames
    assert "(0 in the room)" in " ".join(getattr(s, "text", "") for s in removed.still.shapes)


CONSOLE = Path(__file__).parent.parent / "data" / "console" / "iqa"


def test_an_unseeded_log_is_drawn_from_the_one_start_it_fits(monkeypatch):
    """LangSuitE's console log of the optimal episode from seed 0's start, converted without the seed: one start
    point gives its messages, and the picture is the seeded one's but for its title."""
    from plancheck.domains.langsuite.iqa import world

    monkeypatch.setattr(world, "_optimum", lambda *a: None)  # not drawn; each costs a search
    monkeypatch.setattr(world, "_optimum_at", lambda *a: None)
    path = CONSOLE / "data_type_2_idx_1_.jl"
    (unseeded,) = convert(path)
    (seeded,) = convert(path, seed=0)
    question = WORLD.episodes.instance(unseeded.header.instance)
    picture, expected = WORLD.render(question, unseeded), WORLD.render(question, seeded)
    assert picture.still.roles("agent-path") == expected.still.roles("agent-path") != []
    assert picture.still.roles("agent-start") == expected.still.roles("agent-start")
    assert "unseeded, start (" in " ".join(getattr(s, "text", "") for s in picture.still.shapes)


def test_an_unseeded_log_that_several_starts_fit_is_refused_saying_how_many():
    (episode,) = convert(CONSOLE / "data_type_1_idx_3_.jl")  # high level: its gotos end alike from 6 starts
    with pytest.raises(BadInputError, match=r"6 start points LangSuitE can draw give every one of its messages"):
        WORLD.render(WORLD.episodes.instance(episode.header.instance), episode)


def test_evaluate_replays_each_record_from_its_own_seed(tmp_path, capsys):
    replies = ["YES", "Act: turn_left", "Act: answer [True]"]
    answers = tmp_path / "answers.jsonl"
    answers.write_text("".join(json.dumps(line) + "\n" for line in (
        {"id": "FloorPlan1-existence-apple", "output": replies, "seed": 3},
        {"id": "FloorPlan1-existence-apple", "output": replies},
        {"id": "FloorPlan1-existence-apple", "output": replies, "seed": "3"})))
    assert main(["evaluate", "iqa", str(answers), "-o", str(tmp_path / "rows.jsonl"), "--no-progress"]) == 0
    rows = [json.loads(line) for line in (tmp_path / "rows.jsonl").read_text().splitlines()]
    assert [row.get("verdict", {}).get("metrics", {}).get("seed") for row in rows] == [3, 0, None]
    assert rows[0]["seed"] == 3 and "seed must be an integer" in rows[2]["error"]
    one = WORLD.check(WORLD.episodes.instance("FloorPlan1-existence-apple"), replies, seed=3)
    assert rows[0]["verdict"]["optimal"] == one.optimal and rows[0]["verdict"]["scores"] == one.scores
