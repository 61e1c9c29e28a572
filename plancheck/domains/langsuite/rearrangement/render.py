"""Rearrangement as pictures: the room from above (north up) with every object's box, the objects the
task moves where they start (orange) and where the goal wants them (green, dashed), where they are at the
end (filled), and the agent's path with its final heading; the conversation as frames.

The states come from replaying the replies on LangSuitE's rules (:func:`..rules.step`).
"""

from __future__ import annotations

from collections.abc import Sequence

from plancheck.domains.langsuite.engine.actions import WorldState
from plancheck.domains.langsuite.engine.geometry import Rect
from plancheck.domains.langsuite.engine.scene import Scene
from plancheck.domains.langsuite.picture import HEAD, Room, path_points
from plancheck.domains.langsuite.rearrangement import scoring
from plancheck.domains.langsuite.rearrangement.rules import Task, step
from plancheck.drawing.shapes import (
    ANSWER,
    ENERGY,
    FAILURE,
    INK,
    LINE,
    MUTED,
    OPTIMUM,
    Canvas,
    Drawing,
    Picture,
    number_text,
    padded,
)
from plancheck.verifier.verdict import Verdict


def states(task: Task, replies: Sequence[str]) -> list[WorldState]:
    """The world at the start and after each reply, until the conversation ends."""
    turn = task.initial()
    out = [turn.world]
    for reply in replies:
        if turn.stopped or turn.crashed:
            break
        turn = step(task, turn, reply).turn
        out.append(turn.world)
    return out


def _positions(scene: Scene) -> dict[str, tuple[Rect, bool]]:
    """Every object's box and open state (a later instance of an id wins, as LangSuitE's scores read them)."""
    out: dict[str, tuple[Rect, bool]] = {}
    for node in scene.roots:
        for index in (node, *scene.descendants(node)):
            thing = scene.nodes[index]
            out[thing.id] = (thing.rect, thing.is_open)
    return out


def _draw(task: Task, worlds: Sequence[WorldState], title: str, caption: Sequence[str]) -> Drawing:
    start, goal, now = _positions(task.start_scene), _positions(task.goal_scene), _positions(worlds[-1].scene)
    first, wanted = task.poses("corrected")
    # what the goal moves to another cell or opens or closes (the corrected rule: x and z)
    moved = sorted(scoring.split_changed(task.start_scene, scoring.changed(wanted, first), first)[1])
    good, _ = scoring.split_changed(worlds[-1].scene, scoring.changed(
        scoring.all_object_poses(worlds[-1].scene, "corrected"), first), wanted)
    room = Room(task.start_scene)
    canvas = Canvas(room.width + 24, HEAD + room.height + 14 + 16 * len(caption))
    canvas.text(12, 10, title, size=13, bold=True)
    canvas.rect(12, HEAD, room.width, room.height, fill="#fafafa", stroke=INK, width=2, role="room")
    for key, (rect, _) in now.items():
        if key not in moved:
            canvas.rect(*room.box(rect), fill="#ececec", stroke=LINE, width=0.8, role="object", title=key)
    names = task.start_scene.names
    for key in moved:
        canvas.rect(*room.box(goal[key][0]), stroke=OPTIMUM, width=2, role="goal", title=f"{key}: goal")
        canvas.rect(*room.box(start[key][0]), stroke=ENERGY, width=2, role="start", title=f"{key}: start")
        if key in now:
            rect, _ = now[key]
            right = key in good
            x, y, w, h = room.box(rect)
            canvas.rect(x, y, w, h, fill=OPTIMUM if right else ENERGY, stroke=INK, width=0.8,
                        role="placed" if right else "misplaced",
                        title=f"{key} at the end: {'as the goal wants' if right else 'not as the goal wants'}")
            canvas.text(x + w + 3, y + h / 2, names.of.get(key, key), size=9, fill=INK)
    path = path_points(room, worlds)
    if len(path) > 1:
        canvas.line(path, stroke=ANSWER, width=3, role="agent-path", title="the agent's path")
    canvas.circle(*path[0], 5, fill="#ffffff", stroke=ANSWER, width=2, role="agent-start", title="the agent's start")
    last = worlds[-1].pose
    tip = room.at(last.x + last.vx * 0.4, last.y + last.vy * 0.4)
    canvas.circle(*path[-1], 6, fill=ANSWER, stroke=INK, width=0.8, role="agent", title="the agent at the end")
    canvas.line((path[-1], tip), stroke=ANSWER, width=2.5)
    canvas.arrow(path[-1], tip, size=9, fill=ANSWER)
    for number, line in enumerate(caption):
        canvas.text(12, HEAD + room.height + 14 + 16 * number, line, size=11,
                    fill=FAILURE if line.startswith("first problem") else MUTED if number else INK)
    return canvas.drawing()


def render(task: Task, replies: Sequence[str] | None, verdict: Verdict | None) -> Picture:
    """The room with the agent's path and the objects to move; frames: the conversation reply by reply."""
    worlds = states(task, replies or ())
    title = f"{task.episode.id} ({task.level} level)"
    legend = "orange: where a moved object starts; green: its goal; filled: at the end"
    if verdict is None:
        return Picture(padded(_draw(task, worlds, title, [legend])))
    scores = [f"{rule} {number_text(value)}" for rule, value in verdict.scores.items()]
    caption = [", ".join(scores[i:i + 4]) for i in range(0, len(scores), 4)] + [legend]
    if verdict.failure is not None:
        caption.append(f"first problem: {verdict.failure}"[:100])
    return Picture(padded(_draw(task, worlds, title, caption)),
                   lambda: [padded(_draw(task, worlds[:k + 1], f"{title}: reply {k} of {len(worlds) - 1}", [legend]))
                            for k in range(len(worlds))], frame_ms=300)
