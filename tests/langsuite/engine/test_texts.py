"""LangSuitE's texts byte for byte: the template files as shipped, and the texts its code builds."""

from __future__ import annotations

from plancheck.domains.langsuite.engine import observe
from plancheck.domains.langsuite.engine.agent import AgentConfig, Pose
from plancheck.domains.langsuite.engine.geometry import centroid, rect_from_center
from plancheck.domains.langsuite.engine.scene import Names, Room, Scene, Thing, number_names
from plancheck.domains.langsuite.engine.templates import Templates, template_files
from plancheck.domains.langsuite.rearrangement.prompts import Texts


def test_all_38_template_files_ship_verbatim(shared_data):
    import json
    shipped = {k: Templates.load(k).table for k in template_files()}
    published = json.loads((shared_data / "langsuite" / "templates_dev.json").read_text(encoding="utf-8"))
    assert len(shipped) == 38 and shipped == published


def test_template_builder_leaves_unfilled_placeholders_and_unknown_keys_empty():
    t = Templates.load("rearrange/templates/rearrange_react.json")
    assert t.build("InvalidAction", "failure.objectNotExist", object="Apple|1") == \
        'Feedback: Action failed. There is no object "Apple|1" existing. Please operate the object in sight.\nObs: ' \
        "{observation}"
    assert t.build("GoTo", "success.default", object="x") == ""  # the low-level file has no goto texts
    assert t.build("Stop") == "You stopped the game."


def test_the_opening_message_and_its_refusal_variant():
    low, high = Texts("low"), Texts("high")
    intro = low.intro()
    assert intro.startswith("You are an autonomous intelligent agent tasked with rearranging a vitual home.")
    assert ("You can see at most 8.0 step(s) in front of you; 60 degrees on your left, 60 degrees on your right."
            in intro)
    assert "You can hold at most 1 objects." in intro
    assert "`pick_up [object_name]`: Use this action to pick up a pickupable and visible object within 8.0 step(s)." \
        in intro
    assert intro.endswith("> Act: move_ahead\n\nRespond YES if you can play this game.")
    assert "`goto [object_name]`: it means you go to the object you see." in high.intro()
    again = low.intro_again()
    assert "Here are some examples:\n{example}\n\nRespond YES" in again and "{example}" not in intro
    assert low.start("GOAL", "OBS") == "Let's start.\nOriginal state: GOAL\nObs: OBS\nwhat is your next step? "


def _scene(things: list[Thing], roots: list[int]) -> Scene:
    nodes = dict(enumerate(things))
    scene = Scene(nodes, tuple(roots), Room(((0.0, 0.0), (0.0, 6.0), (6.0, 6.0), (6.0, 0.0))), Names({}, {}))
    return Scene(nodes, tuple(roots), scene.room, number_names(scene))


def _thing(oid: str, x: float, y: float, **kw) -> Thing:
    rect = rect_from_center(x, y, 0.2, 0.2)
    return Thing(oid, oid.split("|")[0], oid.split("|")[0], "", rect, centroid(rect), **kw)


def test_observation_groups_open_containers_and_the_left_group_s_missing_space():
    things = [_thing("Fridge|1", 2.2, 1.5, openable=True, is_open=True, receptacle=True, children=(1,)),
              _thing("Apple|1", 2.2, 1.5, pickupable=True),
              _thing("Cabinet|1", 2.4, 1.8, openable=True, is_open=True, receptacle=True),  # empty, on the left
              _thing("Drawer|1", 3.8, 1.6, openable=True, receptacle=True)]  # closed, on the right
    scene = _scene(things, [0, 2, 3])
    pose = Pose(3.0, 1.0, 0.0, 1.0)  # facing north (+y); x grows to the right (east)
    text = observe.observation(scene, pose, AgentConfig())
    assert text == ("On your left, you see an opened fridge_0, there is a apple_0 in/on it; "
                    "an opened" "cabinet_0, it's empty. On your right, you see a drawer_0. ")
    ahead = observe.observation(scene, Pose(2.4, 1.0, 0.0, 1.0), AgentConfig())
    assert ahead == ("In front of you, You see an opened fridge_0, there is a apple_0 in/on it; "
                     "an opened cabinet_0, it's empty. ")  # the front group has the space
    far = Pose(0.2, 0.2, 0.0, -1.0)
    assert observe.observation(scene, far, AgentConfig()) == observe.NOTHING_LOW
    assert observe.observation(scene, far, AgentConfig(), high_level=True) == \
        "You see nothing. You can goto other objects to explore the room."


def test_look_around_keeps_its_trailing_comma_and_the_goal_text_lists_regions():
    things = [_thing("CounterTop|1", 1.0, 5.0, receptacle=True, children=(1,)), _thing("Mug|1", 1.0, 5.0),
              _thing("Chair|1", 3.0, 3.0)]
    scene = _scene(things, [0, 2])
    assert observe.look_around(scene) == \
        "You are in the middle of a room. Looking quickly around you, you see a countertop_0, "
    assert observe.room_description(scene) == ("In the northwest of the room, there is a countertop_0, in/on it you "
                                               "can see a mug_0. In the middle of the room, there is a chair_0. ")
    assert observe.held(scene, [1]) == "You are now holding mug_0. Drop one before you pick up another one. "
    assert observe.held(scene, []) == "You are now holding nothing. "
    assert observe.opened_object(scene, "CounterTop|1") == "In/on it you see mug_0"
    assert observe.opened_object(scene, "Mug|1") == "In/on it you see nothing"  # not a root: always nothing
    assert observe.position_text(scene, Pose(3.0, 3.0, 0.0, 1.0)) == \
        "Now you are in the middle of the room facing north. "
    assert observe.position_text(scene, Pose.start(3.0, 3.0, 90).turned(90).turned(-90)) == \
        "Now you are in the middle of the room facing east. "
    assert observe.position_text(scene, Pose.start(3.0, 3.0, 30)) == ""
