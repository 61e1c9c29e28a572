"""Rearrangement pictures: the room from above, the agent's path as the replies move it, the moved objects
coloured as LangSuitE's corrected score judges them."""

from __future__ import annotations

import json

from plancheck.cli import main
from plancheck.domains.langsuite.picture import Room
from plancheck.domains.langsuite.rearrangement.render import states
from plancheck.domains.langsuite.rearrangement.rules import Task
from plancheck.drawing.shapes import ENERGY, OPTIMUM
from plancheck.episodes.log import read_episodes
from plancheck.registry import get_world

EID = "FloorPlan21_0"
WORLD = get_world("rearrangement")


def test_the_optimal_episode_moves_the_agent_and_places_the_spatula(tmp_path):
    log = tmp_path / "optimal.jsonl"
    assert main(["play", "rearrangement", EID, "--policy", "optimal", "-o", str(log)]) == 0
    episode = next(iter(read_episodes(log)))
    instance = WORLD.episodes.instance(EID)
    picture = WORLD.render(instance, episode)
    task = Task(instance)
    replies = [step.reply for step in episode.steps]
    worlds = states(task, replies)
    room = Room(task.start_scene)
    path = picture.still.roles("agent-path")[0]
    expected = [room.at(w.pose.x, w.pose.y) for w in worlds]
    expected = [p for i, p in enumerate(expected) if i == 0 or p != expected[i - 1]]
    assert [(round(x - 8, 6), round(y - 8, 6)) for x, y in path.points] == [(round(x, 6), round(y, 6))
                                                                            for x, y in expected]
    placed = picture.still.roles("placed")
    assert [shape.title for shape in placed] == ["Spatula|+00.78|+00.88|-00.05 at the end: as the goal wants"]
    assert placed[0].fill == OPTIMUM and not picture.still.roles("misplaced")
    assert len(picture.frames) == len(worlds) == len(episode.steps) + 1


def test_an_answer_that_stops_at_once_leaves_the_object_where_it_started():
    instance = WORLD.episodes.instance(EID)
    picture = WORLD.render(instance, json.dumps(["YES.", "Act: stop"]))
    assert not picture.still.roles("agent-path")  # the agent never moved
    assert [s.stroke for s in picture.still.roles("start")] == [ENERGY]
    assert not picture.still.roles("placed")
    shown = [getattr(s, "text", "") for s in picture.still.shapes]
    assert any(text.startswith("success 0.00") for text in shown)
