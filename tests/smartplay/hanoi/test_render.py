"""Hanoi pictures: a strip of states, the disks where the replayed moves put them, invalid moves in red."""

from __future__ import annotations

from plancheck.domains.smartplay.hanoi.render import actions_of
from plancheck.domains.smartplay.hanoi.rules import HanoiRules, Move
from plancheck.drawing.shapes import FAILURE
from plancheck.registry import get_world
from plancheck.verifier.execute import execute

WORLD = get_world("hanoi")
ANSWER = "1. A->C\n2. A->B\n3. C->A\n4. C->B\n5. A->C\n"


def test_the_strip_shows_every_state_and_marks_the_invalid_move():
    instance = next(WORLD.instances(["hanoi-3"], None))
    picture = WORLD.render(instance, ANSWER)
    labels = [shape.text for shape in picture.still.shapes if shape.role in ("label", "move", "noop")]
    assert labels[:6] == ["start", "1: A->C", "2: A->B", "3: C->A", "4: C->B", "5: A->C"]
    bad = picture.still.roles("noop")
    assert [shape.text for shape in bad] == ["4: C->B"] and bad[0].fill == FAILURE
    assert "C->B moves from rod C, which is empty" in bad[0].title
    disks = [shape for shape in picture.still.roles("disk")]
    answer_tiles = 6  # start + 5 moves, each with 3 disks; then the optimum: start + 7 moves
    assert len(disks) == 3 * (answer_tiles + 8)
    assert len(picture.frames) == answer_tiles
    assert picture.still.roles("goal")  # the optimum's last state reaches the goal


def test_the_disks_of_each_tile_stand_where_the_rules_put_them():
    instance = next(WORLD.instances(["hanoi-2"], None))
    moves = ("A->B", "A->C", "B->C")
    picture = WORLD.render(instance, ", ".join(moves))
    trace = execute(HanoiRules(instance), actions_of(moves))
    assert actions_of(("A->B", "C->C", "x"))[0] is Move.AB and [str(a) for a in actions_of(("C->C", "x"))] == ["C->C",
                                                                                                               "x"]
    gap = 16 + 8 * 2 + 8  # one rod's width in a tile of 2 disks
    centres = [4 + gap * (rod + 0.5) for rod in range(3)]
    states = [trace.initial] + [step.state for step in trace.steps]
    assert len(picture.frames) == len(states) == 4
    for frame, state in zip(picture.frames, states):
        disks = {d.title: d for d in frame.roles("disk")}
        for rod, stack in enumerate(state):
            heights = []
            for disk in stack:
                shape = disks[f"disk {disk}"]
                assert shape.x + shape.w / 2 == centres[rod]
                heights.append(shape.y)
            assert heights == sorted(heights, reverse=True)  # bottom first: each next disk higher up
    assert trace.goal_step == 3 and picture.still.roles("goal")
