"""IQA as pictures: the kitchen from above (north up), the objects the question asks about (orange) and, for a
contains question, the receptacles it names (green outlines), the agent's path from its start (the seed's, or the one
start an unseeded log fits) with its final heading; the conversation as frames.

The states come from replaying the replies on LangSuitE's rules (:func:`..rules.step`) from the start the
seed draws.
"""

from __future__ import annotations

from collections.abc import Sequence

from plancheck.domains.langsuite.engine.actions import WorldState
from plancheck.domains.langsuite.engine.agent import Pose
from plancheck.domains.langsuite.iqa.rules import Task, step
from plancheck.domains.langsuite.picture import Mark, caption, draw, of_types
from plancheck.drawing.shapes import ENERGY, OPTIMUM, Picture, padded
from plancheck.verifier.verdict import Verdict


def states(task: Task, seed: int | None, replies: Sequence[str], start: Pose | None = None) -> list[WorldState]:
    """The world at the start (``seed``'s, or ``start``) and after each reply, until the episode ends."""
    turn = task.start_at(start) if start is not None else task.initial(seed)
    out = [turn.world]
    for reply in replies:
        if turn.done:
            break
        turn = step(task, turn, reply).turn
        out.append(turn.world)
    return out


def marks(task: Task) -> list[Mark]:
    """The asked class's objects (none in a question whose class was removed) and a contains question's
    receptacles."""
    question = task.question
    out = [Mark(of_types(task.scene, [question.object_class]), ENERGY, "asked", "asked about")]
    if question.receptacle is not None:
        out.append(Mark(of_types(task.scene, [question.receptacle]), OPTIMUM, "receptacle",
                        "the receptacle asked about", filled=False))
    return out


def render(task: Task, seed: int | None, replies: Sequence[str] | None, verdict: Verdict | None,
           start: Pose | None = None) -> Picture:
    """The kitchen with the agent's path (from ``seed``'s start, or ``start``: an unseeded log's) and the objects
    asked about; frames: the conversation reply by reply."""
    worlds = states(task, seed, replies or (), start)
    question = task.question
    where = f"seed {seed}" if start is None else f"unseeded, start ({start.x:g}, {start.y:g})"
    title = f"{question.id} ({task.level} level, {where})"
    found = marks(task)
    legend = [f"{question.text} (answer: {question.answer})"[:100],
              f"orange: the {question.object_class} objects ({len(found[0].ids)} in the room)"
              + (f"; green: the {question.receptacle} receptacles" if question.receptacle else "")]
    if verdict is None:
        return Picture(padded(draw(worlds, found, title, legend)))
    return Picture(padded(draw(worlds, found, title, caption(verdict, legend))),
                   lambda: [padded(draw(worlds[:k + 1], found, f"{title}: reply {k} of {len(worlds) - 1}", legend))
                            for k in range(len(worlds))], frame_ms=300)
