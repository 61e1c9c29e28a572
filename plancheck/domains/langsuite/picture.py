"""A LangSuitE room as a picture: room coordinates and the agent's path (every LangSuitE renderer), and the whole
drawing IQA and Household share: the room from above (north up), every object's box where it is at the end, the
objects a task is about marked, and the agent's path with its final heading.

The marks are the task's: a mark names the objects (by id) it draws, its colour and role, and a label.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from plancheck.domains.langsuite.engine.actions import WorldState
from plancheck.domains.langsuite.engine.geometry import Rect
from plancheck.domains.langsuite.engine.scene import Scene
from plancheck.drawing.shapes import ANSWER, FAILURE, INK, LINE, MUTED, Canvas, Drawing, number_text
from plancheck.verifier.verdict import Verdict

SIZE = 560.0  # the room's longer side, in pixels
HEAD = 26.0


@dataclass(frozen=True)
class Mark:
    """Objects drawn in a colour under a role (``filled``: a filled box, else an outline), each labelled."""

    ids: tuple[str, ...]
    colour: str
    role: str
    what: str  # the title's words: "<id>: <what>"
    filled: bool = True


def boxes(scene: Scene, start: Scene | None = None) -> dict[str, Rect]:
    """Every object's box by id (a later instance of an id wins). LangSuitE moves an object it puts by its
    position only (its box stays): given the ``start`` scene, a box is moved by as much as its position moved."""
    before = {thing.id: thing.position for thing in start.nodes.values()} if start is not None else {}
    out: dict[str, Rect] = {}
    for node in scene.roots:
        for index in (node, *scene.descendants(node)):
            thing = scene.nodes[index]
            x0, y0, x1, y1 = thing.rect
            if thing.id in before:
                dx, dy = thing.position[0] - before[thing.id][0], thing.position[1] - before[thing.id][1]
                x0, y0, x1, y1 = x0 + dx, y0 + dy, x1 + dx, y1 + dy
            out[thing.id] = (x0, y0, x1, y1)
    return out


def of_types(scene: Scene, types: Sequence[str]) -> tuple[str, ...]:
    """The ids of the objects whose type (or id category) is one of ``types``, in id order."""
    wanted = set(types)
    found = {thing.id for thing in scene.nodes.values() if thing.object_type in wanted or thing.category in wanted}
    return tuple(sorted(found))


class Room:
    """Room coordinates (metres, north up) to picture coordinates."""

    def __init__(self, scene: Scene):
        self.xmin, self.ymin, xmax, self.ymax = scene.room.bounds
        self.scale = SIZE / max(xmax - self.xmin, self.ymax - self.ymin, 1e-6)
        self.width, self.height = (xmax - self.xmin) * self.scale, (self.ymax - self.ymin) * self.scale

    def at(self, x: float, y: float) -> tuple[float, float]:
        return (12 + (x - self.xmin) * self.scale, HEAD + (self.ymax - y) * self.scale)

    def box(self, rect: Rect) -> tuple[float, float, float, float]:
        left, top = self.at(rect[0], rect[3])
        right, bottom = self.at(rect[2], rect[1])
        return left, top, max(right - left, 2.0), max(bottom - top, 2.0)


def path_points(room: Room, worlds: Sequence[WorldState]) -> list[tuple[float, float]]:
    """The agent's positions in picture coordinates, repeated positions (turns, talk) dropped."""
    path = [room.at(world.pose.x, world.pose.y) for world in worlds]
    return [point for i, point in enumerate(path) if i == 0 or point != path[i - 1]]


def draw(worlds: Sequence[WorldState], marks: Sequence[Mark], title: str, caption: Sequence[str]) -> Drawing:
    """The room of the first state, the objects where the last state has them, the marks over them, the path."""
    room = Room(worlds[0].scene)
    scene = worlds[-1].scene
    now = boxes(scene, worlds[0].scene)
    canvas = Canvas(room.width + 24, HEAD + room.height + 14 + 16 * len(caption))
    canvas.text(12, 10, title, size=13, bold=True)
    canvas.rect(12, HEAD, room.width, room.height, fill="#fafafa", stroke=INK, width=2, role="room")
    marked = {key for mark in marks for key in mark.ids}
    for key, rect in now.items():
        if key not in marked:
            canvas.rect(*room.box(rect), fill="#ececec", stroke=LINE, width=0.8, role="object", title=key)
    last = worlds[-1].pose
    end = room.at(last.x, last.y)
    held = {scene.nodes[node].id for node in worlds[-1].inventory if node in scene.nodes}
    for mark in sorted(marks, key=lambda mark: mark.filled):  # outlines first: a filled object inside shows
        for key in mark.ids:
            if key in held:
                canvas.rect(end[0] + 8, end[1] - 16, 10, 10, fill=mark.colour, stroke=INK, width=0.8, role=mark.role,
                            title=f"{key}: {mark.what}, held by the agent")
                canvas.text(end[0] + 21, end[1] - 11, scene.names.of.get(key, key), size=9, fill=INK)
                continue
            if key not in now:
                continue
            x, y, w, h = room.box(now[key])
            canvas.rect(x, y, w, h, fill=mark.colour if mark.filled else None, stroke=INK if mark.filled
                        else mark.colour, width=0.8 if mark.filled else 2, role=mark.role, title=f"{key}: {mark.what}")
            if mark.filled:
                canvas.text(x + w + 3, y + h / 2, scene.names.of.get(key, key), size=9, fill=INK)
            else:  # a receptacle's name below it, clear of what it holds
                canvas.text(x, y + h + 8, scene.names.of.get(key, key), size=9, fill=mark.colour)
    path = path_points(room, worlds)
    if len(path) > 1:
        canvas.line(path, stroke=ANSWER, width=3, role="agent-path", title="the agent's path")
    canvas.circle(*path[0], 5, fill="#ffffff", stroke=ANSWER, width=2, role="agent-start", title="the agent's start")
    tip = room.at(last.x + last.vx * 0.4, last.y + last.vy * 0.4)
    canvas.circle(*end, 6, fill=ANSWER, stroke=INK, width=0.8, role="agent", title="the agent at the end")
    canvas.line((end, tip), stroke=ANSWER, width=2.5)
    canvas.arrow(end, tip, size=9, fill=ANSWER)
    for number, line in enumerate(caption):
        canvas.text(12, HEAD + room.height + 14 + 16 * number, line, size=11,
                    fill=FAILURE if line.startswith("first problem") else MUTED if number else INK)
    return canvas.drawing()


def caption(verdict: Verdict | None, lines: Sequence[str]) -> list[str]:
    """The verdict's scores (four to a line), ``lines``, and the first problem if any."""
    if verdict is None:
        return list(lines)
    scores = [f"{rule} {number_text(value)}" for rule, value in verdict.scores.items()]
    out = [", ".join(scores[i:i + 4]) for i in range(0, len(scores), 4)] + list(lines)
    if verdict.failure is not None:
        out.append(f"first problem: {verdict.failure}"[:100])
    return out
