"""MANGO as pictures: the game's map laid out by its compass directions, the route the question asks
about (DF: the question's path; RF: a shortest route on the map known at the cutoff) and the model's
trajectory over it; steps that are not moves of the map are drawn dashed in red, and places the map
does not have stand in a column of their own.

The layout puts each place one grid step from its neighbour in the direction of the move between them
(north is up, ``up``/``down`` count as north/south, other actions go east), walking the map breadth-first
in walkthrough order; a taken slot moves the place to the nearest free one. It is deterministic.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence

from plancheck.domains.mango.graph import Edge, Move, normalize, shortest_route
from plancheck.domains.mango.instance import MangoInstance
from plancheck.domains.mango.parse import parse_answer
from plancheck.domains.mango.questions import DFQuestion
from plancheck.drawing.shapes import (
    ANSWER,
    FAILURE,
    INK,
    LINE,
    MUTED,
    OPTIMUM,
    OPTIMUM_TINT,
    START,
    WHITE,
    Canvas,
    Picture,
    Point,
    number_text,
    padded,
    text_width,
)
from plancheck.errors import AnswerParseError
from plancheck.verifier.verdict import Verdict

Slot = tuple[int, int]  # (column, row) on the layout grid
BOX_W, BOX_H, STEP_X, STEP_Y = 128.0, 30.0, 168.0, 70.0
HEAD = 78.0
VECTORS: dict[str, Slot] = {
    "north": (0, -1), "south": (0, 1), "east": (1, 0), "west": (-1, 0), "northeast": (1, -1),
    "northwest": (-1, -1), "southeast": (1, 1), "southwest": (-1, 1), "up": (0, -1), "down": (0, 1),
}


def _free_near(target: Slot, taken: set[Slot]) -> Slot:
    """``target`` if free, else the nearest free slot (rings around it, in a fixed order)."""
    if target not in taken:
        return target
    radius = 1
    while True:
        ring = [(target[0] + dx, target[1] + dy) for dy in range(-radius, radius + 1)
                for dx in range(-radius, radius + 1) if max(abs(dx), abs(dy)) == radius]
        ring.sort(key=lambda slot: (abs(slot[0] - target[0]) + abs(slot[1] - target[1]), slot[1], slot[0]))
        for slot in ring:
            if slot not in taken:
                return slot
        radius += 1


def layout(edges: Iterable[Edge]) -> dict[str, Slot]:
    """A slot for every place of the map (names normalised).

    >>> layout([Edge("Hall", "Kitchen", "north"), Edge("Hall", "Yard", "east"), Edge("Kitchen", "Cellar", "down")])
    {'hall': (0, 0), 'kitchen': (0, -1), 'yard': (1, 0), 'cellar': (-1, 0)}
    """
    neighbours: dict[str, list[tuple[str, Slot]]] = {}
    for edge in edges:
        src, dst = normalize(edge.src), normalize(edge.dst)
        vector = VECTORS.get(normalize(edge.action), (1, 0))
        neighbours.setdefault(src, []).append((dst, vector))
        neighbours.setdefault(dst, []).append((src, (-vector[0], -vector[1])))
    slots: dict[str, Slot] = {}
    taken: set[Slot] = set()
    for root in neighbours:
        if root in slots:
            continue
        right = max((slot[0] for slot in taken), default=-2) + 2
        slots[root] = _free_near((right, 0), taken)
        taken.add(slots[root])
        queue = deque([root])
        while queue:
            place = queue.popleft()
            for other, (dx, dy) in neighbours[place]:
                if other not in slots:
                    slots[other] = _free_near((slots[place][0] + dx, slots[place][1] + dy), taken)
                    taken.add(slots[other])
                    queue.append(other)
    return slots


def _short(name: str, size: int = 19) -> str:
    return name if len(name) <= size else name[:size - 1] + "…"


class _Map:
    """Where each place's box is on the canvas."""

    def __init__(self, slots: dict[str, Slot], extra: Sequence[str]):
        self.slots = dict(slots)
        left = min((s[0] for s in slots.values()), default=0)
        top = min((s[1] for s in slots.values()), default=0)
        self.origin = (left, top)
        right = max((s[0] for s in slots.values()), default=0) + 1
        for row, name in enumerate(extra):  # places the map does not have: a column on the right
            self.slots[name] = (right, top + row)
        self.columns = max((s[0] for s in self.slots.values()), default=0) - left + 1
        self.rows = max((s[1] for s in self.slots.values()), default=0) - top + 1

    def centre(self, name: str) -> Point:
        column, row = self.slots[name]
        return (20 + (column - self.origin[0]) * STEP_X + BOX_W / 2, HEAD + (row - self.origin[1]) * STEP_Y + BOX_H / 2)


def _clipped(start: Point, end: Point) -> tuple[Point, Point]:
    """The part of the segment between two boxes' centres that lies outside both boxes."""
    dx, dy = end[0] - start[0], end[1] - start[1]
    t = min(BOX_W / 2 / abs(dx) if dx else 1.0, BOX_H / 2 / abs(dy) if dy else 1.0)
    t = min(t, 0.45)
    return (start[0] + t * dx, start[1] + t * dy), (end[0] - t * dx, end[1] - t * dy)


def _route(canvas: Canvas, where: _Map, moves: Sequence[Move], colour: str, role: str, width: float,
           shift: float, bad: Sequence[bool] = ()) -> None:
    for index, move in enumerate(moves):
        (x0, y0), (x1, y1) = where.centre(normalize(move.before)), where.centre(normalize(move.after))
        broken = index < len(bad) and bad[index]
        stroke = FAILURE if broken else colour
        if (x0, y0) == (x1, y1):  # a move that stays: a small loop above the box
            top = y0 - BOX_H / 2
            loop = ((x0 + shift, top), (x0 + shift + 12, top - 14), (x0 + shift + 24, top))
            canvas.line(loop, stroke=stroke, width=width, dash=(5, 4) if broken else None, role=role,
                        title=f"step {index + 1}: {move.action}")
            canvas.text(x0 + shift + 28, top - 10, f"{index + 1}. {_short(move.action, 18)}", size=9, fill=stroke,
                        role=role + "-label")
            continue
        start, end = _clipped((x0 + shift, y0 + shift), (x1 + shift, y1 + shift))
        canvas.line((start, end), stroke=stroke, width=width, dash=(5, 4) if broken else None, role=role,
                    title=f"step {index + 1}: {move.before} --{move.action}--> {move.after}")
        middle = ((start[0] + end[0]) / 2, (start[1] + end[1]) / 2)
        canvas.arrow(start, middle, size=width * 3.4, fill=stroke, role=role + "-arrow")
        canvas.text(middle[0] + 4, middle[1] - 8 + shift, f"{index + 1}. {_short(move.action, 14)}", size=9,
                    fill=stroke, role=role + "-label")


def asked_route(instance: MangoInstance) -> tuple[Move, ...]:
    """DF: the question's path; RF: a shortest route on the map known at the cutoff (empty when there is none)."""
    question = instance.question
    if isinstance(question, DFQuestion):
        return question.path
    return shortest_route(instance.game.known_moves(instance.cutoff), question.src, question.dst) or ()


def trajectory(answer: str | None, verdict: Verdict | None) -> tuple[Move, ...]:
    """The model's moves, read again from its answer (the verdict names actions only)."""
    if answer is None or not isinstance(answer, str) or verdict is None or not verdict.parsed:
        return ()
    try:
        return tuple(item.action for item in parse_answer(answer).items)
    except AnswerParseError:
        return ()


def render(instance: MangoInstance, answer: str | None, verdict: Verdict | None) -> Picture:
    """The map, the asked route (green) and the model's trajectory (blue; broken steps red and dashed)."""
    game, question = instance.game, instance.question
    slots = layout(game.edges)
    asked = asked_route(instance)
    model = trajectory(answer, verdict)
    unknown = list(dict.fromkeys(name for move in model for name in (normalize(move.before), normalize(move.after))
                                 if name not in slots))
    where = _Map(slots, unknown)
    task = "destination finding" if isinstance(question, DFQuestion) else "route finding"
    title = f"{instance.id} ({task}, cutoff {instance.cutoff}, {instance.difficulty.value})"
    caption = f"from {question.src!r} to {question.dst!r}: asked route in green ({len(asked)} step(s))"
    if verdict is not None:
        if verdict.parsed:
            scores = ", ".join(f"{rule} {number_text(value)}" for rule, value in verdict.scores.items())
            caption += f"; the model's in blue ({len(model)} step(s); {scores})"
        else:
            caption += f"; the answer is UNPARSEABLE: {verdict.parse_error}"[:80]
    failure = f"first failure: {verdict.failure}"[:140] if verdict is not None and verdict.failure else ""
    width = max(40 + where.columns * STEP_X, 40 + max(text_width(title, 13), text_width(caption, 11),
                                                       text_width(failure, 11)))
    canvas = Canvas(width, HEAD + where.rows * STEP_Y + 30)
    canvas.text(20, 14, title, size=13, bold=True)
    canvas.text(20, 34, caption, size=11, fill=MUTED)
    if failure:
        canvas.text(20, 50, failure, size=11, fill=FAILURE)
    drawn: set[frozenset[str]] = set()
    for edge in game.edges:
        pair = frozenset((normalize(edge.src), normalize(edge.dst)))
        if len(pair) == 2 and pair not in drawn:
            drawn.add(pair)
            canvas.line((where.centre(normalize(edge.src)), where.centre(normalize(edge.dst))), stroke=LINE,
                        width=1.2, role="map-edge")
    asked_places = {normalize(m.before) for m in asked} | {normalize(m.after) for m in asked}
    for name in where.slots:
        x, y = where.centre(name)
        off_map = name in unknown
        fill = OPTIMUM_TINT if name in asked_places else WHITE
        stroke = START if name == normalize(question.src) else OPTIMUM if name == normalize(question.dst) else \
            FAILURE if off_map else INK
        canvas.rect(x - BOX_W / 2, y - BOX_H / 2, BOX_W, BOX_H, fill=fill, stroke=stroke,
                    width=2.5 if stroke != INK else 0.8, radius=5, role="off-map" if off_map else "place",
                    title=name + (" (not on the map)" if off_map else ""))
        canvas.text(x, y, _short(name), size=10, anchor="middle", fill=FAILURE if off_map else INK)
    _route(canvas, where, asked, OPTIMUM, "asked", 4.0, -3.0)
    bad = [not step.ok for step in verdict.steps] if verdict is not None and verdict.parsed else []
    _route(canvas, where, model, ANSWER, "model", 2.6, 3.0, bad)
    return Picture(padded(canvas.drawing()))
