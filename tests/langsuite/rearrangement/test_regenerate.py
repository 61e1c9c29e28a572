"""The rebuilt start and goal scenes, and the shipped data files."""

from __future__ import annotations

import gzip
import json
import tempfile
from pathlib import Path

import pytest

from plancheck.domains.langsuite import shipdata
from plancheck.domains.langsuite.engine.scene import build_scene
from plancheck.domains.langsuite.rearrangement.instance import episode
from plancheck.domains.langsuite.rearrangement.regenerate import _parents, support
from plancheck.domains.langsuite.rearrangement.rules import Task
from plancheck.domains.langsuite.scenes import floor_plans, world_data

PACKAGE_DATA = Path(__file__).resolve().parents[3] / "plancheck" / "data" / "langsuite"


@pytest.mark.slow
def test_the_support_rule_gives_ai2thor_s_parent_for_nine_in_ten_objects():
    """The documented 1,715 of 1,895 pickupable objects of the 120 default scenes."""
    same = total = 0
    for plan in floor_plans():
        objects = world_data(plan)["objects"]
        parent_of = {o["objectId"]: (_parents(o) or [None])[0] for o in objects}
        for obj in objects:
            if obj["pickupable"]:
                total += 1
                got = support(obj, objects, parent_of)
                same += set(_parents(obj)) == ({got} if got else set())
    assert (same, total) == (1715, 1895)


def test_an_episode_moves_objects_and_sets_openness():
    ep = episode("FloorPlan21_0")
    start, end = ep.start_scene, ep.end_scene
    by_name = {o["name"]: o for o in start["objects"]}
    name, x, y, z, _ = ep.start[0]
    assert by_name[name]["position"] == {"x": x, "y": y, "z": z}
    moved = [p[0] for p, q in zip(ep.start, ep.target) if (p[1], p[3]) != (q[1], q[3])]
    assert moved and all(o["receptacleObjectIds"] is not None for o in end["objects"])
    fridge = episode("FloorPlan21_2")
    if fridge.openable:
        oname, _, s, t = fridge.openable[0]
        assert {o["name"]: o["openness"] for o in fridge.start_scene["objects"]}[oname] == s
        assert {o["name"]: o["openness"] for o in fridge.end_scene["objects"]}[oname] == t
    scene = build_scene(start)
    assert scene.room.bounds == (-3.906414747238159, -4.403754711151123, 1.8673183917999268, 2.6623597145080566)
    task = Task(ep)
    assert (task.start_pose.x, task.start_pose.y) == (ep.agent[0], ep.agent[2])


def test_an_episode_that_only_changes_an_openness_cannot_succeed_in_langsuite():
    ep = next(episode(f"FloorPlan21_{i}") for i in range(50) if episode(f"FloorPlan21_{i}").counts == (1, 0, 1))
    task = Task(ep)
    assert task.diff_count == 0
    assert not task.score(task.goal_scene).success  # even the goal scene itself scores no success


def test_shipped_files_are_what_the_builder_writes_from_the_published_data(shared_data):
    with tempfile.TemporaryDirectory() as tmp:
        shipdata.build(shared_data / "langsuite", Path(tmp))
        for name in ("scenes.json.gz", "rearrangement_2022.json.gz"):
            assert (Path(tmp) / name).read_bytes() == (PACKAGE_DATA / name).read_bytes(), name
    episodes = json.loads(gzip.decompress((PACKAGE_DATA / "rearrangement_2022.json.gz").read_bytes()))
    assert len(episodes) == 2000 and len(floor_plans()) == 120
