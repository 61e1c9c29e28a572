"""Household's texts and rules on the shipped floor plans: prompts, reading, context, physics, goal, crashes."""

from __future__ import annotations

import pytest

from plancheck.domains.langsuite.engine.reply import read_alfred
from plancheck.domains.langsuite.household.goals import Registries, after_step, progress
from plancheck.domains.langsuite.household.instance import select, task, task_ids
from plancheck.domains.langsuite.household.rules import Task, step
from plancheck.errors import BadInputError

EGG = "FloorPlan10-pick_and_place_simple"  # put some egg on microwave; the egg is in the fridge


def test_tasks_are_sampled_by_alfreds_rules():
    ids = task_ids()
    assert len(ids) == 445 and len(set(ids)) == 445
    egg = task(EGG)
    assert (egg.description, egg.object_target, egg.parent_target, egg.object_sliced) == \
        ("put some egg on microwave", "Egg", "Microwave", False)
    assert task("FloorPlan1-pick_heat_then_place_in_recep").description == "heat some plate and put it in cabinet"
    assert {t.task_type for t in select(["FloorPlan201"])} == {"pick_and_place_simple", "look_at_obj_in_light",
                                                               "pick_and_place_with_movable_recep"}
    assert len(list(select(["sample"]))) == 100 and len(list(select(["langsuite-batch"]))) == 10
    with pytest.raises(BadInputError, match="unknown Household task"):
        task("FloorPlan1-look_at_obj_in_light")  # not valid in kitchens


def test_the_opening_the_refusal_and_the_start():
    t = Task(task(EGG))
    intro = t.texts.intro()
    assert "within your manipulation distance" in intro and "{example}" not in intro and "Act: move_ahead" in intro
    refused = step(t, t.initial(), "I cannot")
    assert refused.kind == "opening-refused" and "{example}" in refused.feedback
    high = Task(task(EGG), "high")
    assert high.texts.intro_again() == high.texts.templates.build("intro", max_view_steps=8.0,
                                                                  degree=t.engine.config.aov / 2, max_inventory=5,
                                                                  max_manipulation_steps=8.0)
    started = step(t, refused.turn, "YES")
    assert started.feedback.startswith("Task: put some egg on microwave\nObs: You are in the middle of a room. "
                                       "Looking quickly around you, you see ")
    assert started.feedback.endswith(", \nWhat is your next step? Let's think before act.")


def test_every_prompt_is_in_the_history_twice_and_failures_go_to_the_error_cache():
    t = Task(task(EGG))
    turn = step(t, t.initial(), "YES").turn
    turn = step(t, turn, "Act: move_ahead").turn
    roles = [m["role"] for m in turn.messages()]
    assert roles == ["system", "system", "assistant", "system", "system", "assistant", "system"]
    failed = step(t, turn, "Act: pick_up [banana_9]").turn
    assert not failed.last_success
    cached = failed.messages()
    assert cached[-2:] == [{"role": "assistant", "content": "Act: pick_up [banana_9]"},
                           {"role": "system", "content": failed.prompt}]
    after = step(t, step(t, failed, "Act: turn_left").turn, "Act: turn_left").turn
    assert "Act: pick_up [banana_9]" not in [m["content"] for m in after.messages()]


def test_the_reading_takes_the_first_action_and_refuses_imagined_feedback():
    names = {"apple_0": "A", "fridge_0": "F", "apple_12": "B"}
    assert read_alfred("Act: open [fridge_0] then pick_up [apple_0]", names).action == "Open"
    assert read_alfred("Obs: a fridge\nAct: open [fridge_0]", names).status == "self-feedback"
    assert read_alfred("Act: Feedback: ok, open [fridge_0]", names).status == "action"  # the colon is cut away
    two = read_alfred("Act: put [apple_12, fridge_0]", names)
    assert two.action == "Put" and two.object_id is None  # one digit only before the comma
    assert read_alfred("Act: pick_up [apple|sliced_0]", {"apple|sliced_0": "P"}).object_id is None
    assert read_alfred("Thought: hmm", names).status == "thought"


def test_physics_comes_after_the_goal_check_and_registers_a_cooled_object():
    t = Task(task("FloorPlan1-pick_cool_then_place_in_recep"))  # a cool lettuce in the garbage can
    start = t.initial().world
    scene, registries = after_step(start.scene, Registries())
    lettuce = next(n for n in scene.nodes if scene.nodes[n].id.startswith("Lettuce"))
    assert scene.nodes[lettuce].id not in registries.cooled
    fridge = next(r for r in scene.roots if scene.nodes[r].object_type == "Fridge")
    moved = dict(scene.nodes)
    moved[fridge] = moved[fridge].__class__(**{**{f: getattr(moved[fridge], f) for f in moved[fridge].__slots__},
                                               "children": moved[fridge].children + (lettuce,)})
    scene2, registries2 = after_step(scene.__class__(moved, scene.roots, scene.room, scene.names), registries)
    assert scene.nodes[lettuce].id in registries2.cooled
    goal = progress(task("FloorPlan1-pick_cool_then_place_in_recep").pddl_params, "pick_cool_then_place_in_recep",
                    scene2, (), registries2, "")
    assert (goal.satisfied, goal.total) == (1, 3)


def test_the_cooled_object_must_be_the_one_in_place():
    """LangSuitE's last condition wants an object both cooled and in the receptacle: a cooled potato (it matches
    "Pot") and an uncooled pot on the burner meet two of the three conditions, not all three."""
    tid = "FloorPlan20-pick_cool_then_place_in_recep"  # cool some pot and put it on a stove burner
    params = task(tid).pddl_params
    scene = Task(task(tid)).initial().world.scene
    ids = {scene.nodes[n].id.split("|")[0]: scene.nodes[n].id for n in scene.nodes}
    pot = next(n for n in scene.nodes if scene.nodes[n].id == ids["Pot"])
    burner = next(r for r in scene.roots if scene.nodes[r].id == "StoveBurner|+01.57|+00.94|-00.76")  # empty
    assert not scene.descendants(burner)
    moved = dict(scene.nodes)
    moved[burner] = moved[burner].__class__(**{**{f: getattr(moved[burner], f) for f in moved[burner].__slots__},
                                               "children": (pot,)})
    on_burner = scene.__class__(moved, scene.roots, scene.room, scene.names)

    def goal(placed, cooled):
        found = progress(params, "pick_cool_then_place_in_recep", placed, (), Registries(cooled=frozenset(cooled)), "")
        return found.satisfied, found.total, found.success

    assert goal(scene, ()) == (0, 3, False)
    assert goal(on_burner, ()) == (1, 3, False)  # in place
    assert goal(scene, {ids["Potato"]}) == (1, 3, False)  # cooled
    assert goal(on_burner, {ids["Potato"]}) == (2, 3, False)  # in place and cooled, but not the same object
    assert goal(on_burner, {ids["Pot"]}) == (3, 3, True)


def test_runs_langsuites_code_would_crash_in():
    t = Task(task(EGG), "high")
    turn = step(t, t.initial(), "YES").turn
    for reply in ("Act: move_ahead", "Act: turn_left", "Act: open [fridge_0]", "Act: pick_up [egg_0]"):
        turn = step(t, turn, reply).turn
    heat = step(t, turn, "Act: heat [egg_0, microwave_0]")
    assert heat.done and "HeatAction' object has no attribute 'heated_objects'" in heat.turn.crashed
    low = Task(task(EGG))
    goto = step(low, step(low, low.initial(), "YES").turn, "Act: goto [fridge_0]")
    assert goto.done and "no template" in goto.turn.crashed and goto.feedback == ""
