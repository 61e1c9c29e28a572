"""IQA's texts and rules on the shipped kitchens: the scene tree, the observation, the dispatch, the answer."""

from __future__ import annotations

import pytest

from plancheck.domains.langsuite.engine.agent import Pose
from plancheck.domains.langsuite.iqa.instance import question, question_ids, question_text, select, template_index
from plancheck.domains.langsuite.iqa.observe import iqa_observation, iqa_observed, iqa_opened
from plancheck.domains.langsuite.iqa.rules import Task, dispatch, extract_answer, is_right, start_pose, step
from plancheck.domains.langsuite.iqa.scene import free_starts
from plancheck.errors import BadInputError

Q = "FloorPlan1-existence-apple"


def test_iquad_templates_are_picked_as_iquad_picks_them():
    # seeds and questions from IQUAD's published val/unseen_scenes contains CSV
    assert question_text("contains", "Tomato", "Fridge", 794025056) == \
        "Please tell me if there is a tomato in the fridge?"
    assert question_text("contains", "Tomato", "Fridge", 431597175) == "Is there a tomato in the fridge?"
    assert question_text("contains", "Egg", "GarbageCan", 883148222) == \
        "I think there is an egg in a garbage can. Is that correct?"
    assert question_text("contains", "Egg", "GarbageCan", 960369016) == "Can you find an egg in a garbage can?"
    assert question_text("counting", "Bread", None, 968517303) == \
        "There are between 0 and 3 loaves of bread in the room. How many are there?"
    assert [template_index(s, 6) for s in range(5)] == [5, 0, 5, 1, 1]


def test_questions_and_answers_come_from_the_scene():
    assert len(question_ids()) == 1488 and not [q for q in question_ids() if q.startswith("FloorPlan3-")]
    assert question(Q).answer is True and question(Q + "-removed").answer is False
    assert question("FloorPlan1-counting-apple").answer == 1
    assert question("FloorPlan1-counting-apple-removed").answer == 0
    assert question("FloorPlan2-contains-apple-fridge").answer is True
    assert question("FloorPlan2-contains-apple-fridge-removed").answer is False
    assert len(list(select(["existence-sample"]))) == 50 and len(list(select(["sample"]))) == 150
    with pytest.raises(BadInputError, match="kitchens FloorPlan1-30"):
        list(select(["FloorPlan201"]))


def test_every_object_is_a_top_level_entry_and_children_are_popped_once():
    scene = Task(question(Q)).scene
    ids = [scene.nodes[r].id for r in scene.roots]
    assert len(ids) == len(set(ids)) == 76  # every object but the floor
    top = {scene.nodes[r].id: r for r in scene.roots}
    built = [n for n, t in scene.nodes.items() if t.children]
    assert built and all(len({scene.nodes[c].id for c in scene.nodes[n].children}) == len(scene.nodes[n].children)
                         for n in built)
    # an object's children are built the first time any of its instances is built: later ones have none
    apple = top["Apple|-00.47|+01.15|+00.48"]
    assert scene.nodes[apple].first_parent.startswith("CounterTop")
    counter = top[scene.nodes[apple].first_parent]
    assert any(scene.nodes[c].id == scene.nodes[apple].id for c in scene.nodes[counter].children)


def test_a_root_with_children_is_named_by_its_last_child():
    task = Task(question(Q))
    scene = task.scene
    counter = next(r for r in scene.roots if scene.nodes[r].id.startswith("CounterTop") and scene.nodes[r].children)
    thing = scene.nodes[counter]
    x, y = thing.position
    pose = Pose(x, y - 1.0, 0.0, 1.0)
    seen = iqa_observed(scene, pose, task.engine.config)
    assert seen[thing.id] == thing.children[-1]
    text = iqa_observation(scene, pose, task.engine.config)
    assert scene.names[thing.id] not in text.split() and scene.names[scene.nodes[thing.children[-1]].id] in text
    fridge = next(oid for oid in scene.names.ids.values() if oid.startswith("Fridge"))
    assert iqa_opened(scene, fridge).startswith("In/on it you see ") and not iqa_opened(scene, fridge).endswith(".")


def test_the_start_is_drawn_from_the_seed_among_free_points():
    scene = Task(question(Q)).scene
    points = free_starts(scene)
    assert points == [(-1, 1), (0, -2), (1, -2), (1, -1), (1, 0), (1, 1)]
    drawn = {(start_pose(scene, s).x, start_pose(scene, s).y) for s in range(40)}
    assert drawn == {(float(x), float(y)) for x, y in points}
    assert start_pose(scene, 7) == start_pose(scene, 7) and start_pose(scene, 7).vy == 1.0


def test_dispatch_follows_langsuites_substring_order():
    assert dispatch("Thought: I will answer later. Act: open [fridge_0]") == ("answer", None)
    assert dispatch("Act: open [cabinet_1]\nThought: then goto") == ("pass", None)
    assert dispatch("GoTo [fridge_0]") == ("Pass", None)  # "goto" is tested case-sensitively
    assert dispatch("Act: goto [ Fridge_0]") == ("goto", " fridge_0")
    assert dispatch("OPEN [Fridge_0]") == ("open", "fridge_0")
    assert dispatch("Act: move_ahead, then turn_left") == ("move_ahead", None)
    assert dispatch("Stop") == ("Stop", None) and dispatch("stop") == ("Pass", None)
    assert extract_answer("answer [x] Answer [True]") == "True" and extract_answer("answer[ 2 ]") == " 2 "
    assert is_right("answer [true]", True) and not is_right("answer [ True ]", True) and is_right("answer [0]", 0)


def test_the_conversation_its_endings_and_the_forced_answer():
    task = Task(question(Q + "-removed"))
    turn = task.initial(0)
    refused = step(task, turn, "I cannot")
    assert refused.kind == "opening-refused" and refused.feedback == task.texts.intro()
    opened = step(task, refused.turn, "YES")
    assert opened.feedback.startswith("\nQuestion: " + question(Q + "-removed").text + "\nObs: ")
    assert opened.feedback.endswith("  ")
    unknown = step(task, opened.turn, "Act: open [banana_9]")
    assert unknown.done and unknown.turn.ended == "silent" and unknown.feedback == "Your are wrong!"
    passed = step(task, opened.turn, "Thought: hmm")
    assert passed.feedback == "Action Pass not found in environment." and not passed.done
    goto = step(task, opened.turn, "Act: goto [fridge_0]")  # no GoTo template at the low level
    assert goto.done and goto.turn.ended == "empty-prompt" and goto.turn.timesteps == 4
    turn = opened.turn
    for _ in range(27):
        turn = step(task, turn, "Thought: hmm").turn
    last = step(task, turn, "Act: answer [True]")  # the 30th reply is never read
    assert last.turn.forced and last.turn.answer == "answer [False]" and last.turn.right and last.turn.counted
    early = step(task, task.initial(0), "YES, I know the answer [False]")
    assert early.done and early.turn.right and not early.turn.counted  # a four-line log
