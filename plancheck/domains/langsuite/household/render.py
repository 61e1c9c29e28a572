"""Household as pictures: the room from above (north up), the goal's objects (orange: the object to move,
clean, heat, cool or slice; yellow: the lamp to turn on) and receptacles (green outlines: where the object
must go, and the movable receptacle of a pick-two or stack task) where they are at the end, the agent's path with
its final heading; the conversation as frames.

The states come from replaying the replies on LangSuitE's rules (:func:`..rules.step`).
"""

from __future__ import annotations

from collections.abc import Sequence

from plancheck.domains.langsuite.engine.actions import WorldState
from plancheck.domains.langsuite.engine.scene import Scene
from plancheck.domains.langsuite.household.rules import Task, step
from plancheck.domains.langsuite.picture import Mark, caption, draw, of_types
from plancheck.drawing.shapes import ENERGY, OPTIMUM, SKY, YELLOW, Picture, padded
from plancheck.verifier.verdict import Verdict


def states(task: Task, replies: Sequence[str]) -> list[WorldState]:
    """The world at the start and after each reply, until the episode ends."""
    turn = task.initial()
    out = [turn.world]
    for reply in replies:
        if turn.done:
            break
        turn = step(task, turn, reply).turn
        out.append(turn.world)
    return out


def marks(task: Task, scene: Scene) -> list[Mark]:
    """The goal's objects and receptacles (ALFRED's ``pddl_params``) in ``scene``; a sliced target's slices too."""
    goal = task.task
    targets = [goal.object_target] + ([goal.object_target + "Sliced"] if goal.object_sliced else [])
    out = [Mark(of_types(scene, targets), ENERGY, "target", "the object the goal is about")]
    if goal.toggle_target:
        out.append(Mark(of_types(scene, [goal.toggle_target]), YELLOW, "toggle", "the lamp to turn on"))
    if goal.mrecep_target:
        out.append(Mark(of_types(scene, [goal.mrecep_target]), SKY, "movable-receptacle",
                        "the movable receptacle of the goal"))
    if goal.parent_target:
        out.append(Mark(of_types(scene, [goal.parent_target]), OPTIMUM, "receptacle", "where the goal puts it",
                        filled=False))
    return out


def render(task: Task, replies: Sequence[str] | None, verdict: Verdict | None) -> Picture:
    """The room with the agent's path and the goal's objects; frames: the conversation reply by reply."""
    worlds = states(task, replies or ())
    goal = task.task
    title = f"{goal.id} ({task.level} level)"
    found = marks(task, worlds[0].scene)
    colours = {"target": "orange: the goal's object", "toggle": "yellow: its lamp",
               "movable-receptacle": "blue: its movable receptacle", "receptacle": "green: where it goes"}
    legend = [f"task: {goal.description}"[:100], "; ".join(colours[mark.role] for mark in found)]

    def picture(upto: Sequence[WorldState], head: str, lines: Sequence[str]):
        return padded(draw(upto, marks(task, upto[-1].scene), head, lines))

    if verdict is None:
        return Picture(picture(worlds, title, legend))
    return Picture(picture(worlds, title, caption(verdict, legend)),
                   lambda: [picture(worlds[:k + 1], f"{title}: reply {k} of {len(worlds) - 1}", legend)
                            for k in range(len(worlds))], frame_ms=300)
