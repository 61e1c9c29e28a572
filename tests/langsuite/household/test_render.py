"""Household pictures: the room from above, the agent's path as the replies move it, the goal's objects and
receptacles marked where they are at the end (an object put is drawn where LangSuitE moved its position, an object
held beside the agent)."""

from __future__ import annotations

import json

from plancheck.cli import main
from plancheck.domains.langsuite.household.render import states
from plancheck.domains.langsuite.household.rules import Task
from plancheck.domains.langsuite.picture import Room
from plancheck.episodes.log import read_episodes
from plancheck.registry import get_world

WORLD = get_world("household")
LAMP = "FloorPlan301-look_at_obj_in_light"
TWO = "FloorPlan1-pick_two_obj_and_place"


def test_the_optimal_episode_walks_to_the_lamp_and_holds_the_boots(tmp_path):
    log = tmp_path / "optimal.jsonl"
    assert main(["play", "household", LAMP, "--policy", "optimal", "-o", str(log)]) == 0
    episode = next(iter(read_episodes(log)))
    task = Task(WORLD.episodes.instance(LAMP))
    picture = WORLD.render(task.task, episode)
    worlds = states(task, [step.reply for step in episode.steps])
    assert len(picture.frames) == len(worlds) == len(episode.steps) + 1
    room = Room(task.scene)
    points = [room.at(w.pose.x, w.pose.y) for w in worlds]
    expected = [(round(x, 6), round(y, 6)) for i, (x, y) in enumerate(points) if i == 0 or (x, y) != points[i - 1]]
    [path] = picture.still.roles("agent-path")
    assert len(expected) > 2 and [(round(x - 8, 6), round(y - 8, 6)) for x, y in path.points] == expected
    [boots] = picture.still.roles("target")
    assert boots.title.startswith("Boots|") and boots.title.endswith("held by the agent")
    [lamp] = picture.still.roles("toggle")
    assert lamp.title.startswith("DeskLamp|") and not picture.still.roles("receptacle")
    texts = " ".join(getattr(s, "text", "") for s in picture.still.shapes)
    assert "success 1.00" in texts and "yellow: its lamp" in texts and "green" not in texts


def test_the_vases_put_on_the_countertop_are_drawn_on_it():
    replies = ["YES", "Act: turn_left", "Act: pick_up [vase_0]", "Act: put [vase_0, countertop_1]",
               "Act: pick_up [vase_1]", "Act: put [vase_1, countertop_1]", "Act: stop"]
    task = WORLD.episodes.instance(TWO)
    picture = WORLD.render(task, json.dumps(replies))
    vases = picture.still.roles("target")
    counter = next(s for s in picture.still.roles("receptacle") if s.title.startswith("CounterTop|+00.69"))
    assert len(vases) == 2 and all(v.title.startswith("Vase|") for v in vases)
    for vase in vases:  # the box centred on the countertop's position, inside its box
        assert counter.x <= vase.x + vase.w / 2 <= counter.x + counter.w
        assert counter.y <= vase.y + vase.h / 2 <= counter.y + counter.h
    before = WORLD.render(task)  # no answer: where they start, off the countertop
    assert {(round(s.x), round(s.y)) for s in before.still.roles("target")} != \
        {(round(s.x), round(s.y)) for s in vases}
