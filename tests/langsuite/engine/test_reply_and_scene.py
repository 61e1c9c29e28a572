"""LangSuitE's reply reading and its scene building, quirks included."""

from __future__ import annotations

import pytest

from plancheck.domains.langsuite.engine.reply import accepts_opening, read_reply, split_reply
from plancheck.domains.langsuite.engine.scene import build_scene
from plancheck.domains.langsuite.scenes import world_data
from plancheck.errors import BadInputError

NAMES = {"apple_0": "Apple|1", "fridge_0": "Fridge|1"}


@pytest.mark.parametrize("reply, accepted", [
    ("YES", True), ("Yes, I can play.", True), ("NOT sure", True),  # case-sensitive: "NOT" passes
    ("I cannot wait", False), ("nothing to add, yes", False), ("Note: yes", True), ("note: yes", False),
    ("I don't know", False),
])
def test_the_opening_answer_is_refused_on_the_substrings_not_and_dont(reply, accepted):
    assert accepts_opening(reply) is accepted


def test_thoughts_acts_and_unmarked_lines():
    split = split_reply("Thought: go: now\nsee the fridge\nAct: open [fridge_0]\nthen more")
    assert split.thoughts == (" go now", "see the fridge") and split.acts == (" open [fridge_0]", "then more")
    assert split_reply("pick_up [apple_0]").acts == ("pick_up [apple_0]",)  # unmarked first line: an act
    assert read_reply("Thought: let me look around first", NAMES).status == "thought"


@pytest.mark.parametrize("reply, status, action, oid", [
    ("Act: open [fridge_0]", "action", "Open", "Fridge|1"),
    ("Act: PICK_UP [Apple_0]", "action", "PickUp", "Apple|1"),  # lower-cased before the scan
    ("Act: pick_up [apple]", "action", "PickUp", None),  # no underscore: no name, the action goes on without one
    ("Act: pick_up [banana_3]", "action", "PickUp", None),
    ("Act: pickup [apple_0]", "none", None, None),  # matched by the expression, then dropped
    ("Act: pick_up [apple_0] from the opened fridge_0", "multiple", None, None),  # "opened" matches "open"
    ("Act: stop [N/A]", "action", "Stop", None),
    ("Act: goto [fridge_0]", "action", "Goto", "Fridge|1"),
    ("Act: wait", "none", None, None),
])
def test_langsuite_s_action_expression(reply, status, action, oid):
    reading = read_reply(reply, NAMES)
    assert (reading.status, reading.action, reading.object_id) == (status, action, oid)


def test_names_count_subtrees_before_their_root():
    data = world_data("FloorPlan1")
    scene = build_scene(data)
    names = scene.names
    assert len(names.of) == len({o["objectId"] for o in data["objects"] if "Floor|" not in o["objectId"]})
    assert all(name == name.lower() for name in names.ids)
    assert names[scene.nodes[scene.roots[0]].id].endswith("_0")


def test_a_table_inside_four_chairs_is_built_four_times():
    scene = build_scene(world_data("FloorPlan221"))
    table = "DiningTable|-03.43|+00.10|-01.19"
    copies = [n for n, t in scene.nodes.items() if t.id == table]
    assert len(copies) == 4
    assert sorted(n for n, oid in scene.names.ids.items() if oid == table) == \
        ["diningtable_0", "diningtable_1", "diningtable_2", "diningtable_3"]
    assert scene.names[table] == "diningtable_3"  # its last name


def test_same_category_descendant_shares_its_root_s_name():
    data = {"sceneBounds": {"cornerPoints": [[0, 0, 0], [5, 0, 5]]}, "objects": [
        {"objectId": "Bowl|a", "axisAlignedBoundingBox": {"center": {"x": 1, "y": 1, "z": 1},
                                                          "size": {"x": 0.3, "y": 0.1, "z": 0.3}},
         "parentReceptacles": None, "receptacle": True},
        {"objectId": "Bowl|b", "axisAlignedBoundingBox": {"center": {"x": 1, "y": 1.1, "z": 1},
                                                          "size": {"x": 0.2, "y": 0.1, "z": 0.2}},
         "parentReceptacles": ["Bowl|a"]},
        {"objectId": "Bowl|c", "axisAlignedBoundingBox": {"center": {"x": 3, "y": 1, "z": 3},
                                                          "size": {"x": 0.2, "y": 0.1, "z": 0.2}}}]}
    scene = build_scene(data)
    assert scene.names.of == {"Bowl|a": "bowl_0", "Bowl|b": "bowl_0", "Bowl|c": "bowl_2"}
    assert scene.names.ids["bowl_0"] == "Bowl|b"  # the name means the descendant


def test_a_containment_cycle_is_refused():
    box = {"center": {"x": 1, "y": 1, "z": 1}, "size": {"x": 0.3, "y": 0.1, "z": 0.3}}
    data = {"sceneBounds": {"cornerPoints": [[0, 0, 0], [5, 0, 5]]}, "objects": [  # R lists A; A in C in B in A
        {"objectId": "R|1", "axisAlignedBoundingBox": box, "parentReceptacles": None, "receptacleObjectIds": ["A|1"]},
        {"objectId": "A|1", "axisAlignedBoundingBox": box, "parentReceptacles": ["C|1"]},
        {"objectId": "B|1", "axisAlignedBoundingBox": box, "parentReceptacles": ["A|1"]},
        {"objectId": "C|1", "axisAlignedBoundingBox": box, "parentReceptacles": ["B|1"]}]}
    with pytest.raises(BadInputError, match="cycle"):
        build_scene(data)
