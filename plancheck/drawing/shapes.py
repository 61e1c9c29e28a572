"""Shapes on a canvas, as frozen data that both writers (SVG and Pillow) draw the same way.

Coordinates are pixels, x to the right and y down. Every shape may carry a ``role`` (a word naming
what it shows: ``path``, ``noop``, ``energy``...; SVG writes it as the element's class, so tests and the
HTML report can find it) and a ``title`` (a tooltip in SVG). Colours are ``#rrggbb`` strings.

>>> canvas = Canvas(40, 20)
>>> canvas.rect(0, 0, 20, 20, fill=ANSWER, role="cell")
>>> canvas.text(30, 10, "A", anchor="middle")
>>> drawing = canvas.drawing()
>>> [type(shape).__name__ for shape in drawing.shapes], drawing.width
(['Rect', 'Text'], 40)
>>> beside(drawing, drawing, gap=10).width
90.0
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from functools import cached_property

Point = tuple[float, float]

# A palette that colour-blind readers tell apart (Okabe & Ito), with light tints for cells.
INK = "#222222"
MUTED = "#777777"
LINE = "#bbbbbb"
ANSWER = "#0072b2"
ANSWER_TINT = "#cde4f4"
OPTIMUM = "#009e73"
OPTIMUM_TINT = "#c6eadd"
FAILURE = "#d55e00"
ENERGY = "#e69f00"
START = "#cc79a7"
OBSTACLE = "#4d4d4d"
SKY = "#56b4e9"
YELLOW = "#f0e442"
WHITE = "#ffffff"
SERIES = (ANSWER, OPTIMUM, ENERGY, START, SKY, FAILURE, YELLOW, MUTED)  # one colour per series in charts


@dataclass(frozen=True, slots=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    fill: str | None = None
    stroke: str | None = None
    width: float = 1.0
    radius: float = 0.0
    role: str = ""
    title: str = ""


@dataclass(frozen=True, slots=True)
class Circle:
    x: float
    y: float
    r: float
    fill: str | None = None
    stroke: str | None = None
    width: float = 1.0
    role: str = ""
    title: str = ""


@dataclass(frozen=True, slots=True)
class Line:
    """An open polyline through ``points``; ``dash`` is (on, off) lengths."""

    points: tuple[Point, ...]
    stroke: str = INK
    width: float = 1.0
    dash: tuple[float, float] | None = None
    role: str = ""
    title: str = ""


@dataclass(frozen=True, slots=True)
class Polygon:
    points: tuple[Point, ...]
    fill: str | None = None
    stroke: str | None = None
    width: float = 1.0
    role: str = ""
    title: str = ""


@dataclass(frozen=True, slots=True)
class Text:
    """One line of text, vertically centred on ``y``; ``anchor`` is start, middle or end."""

    x: float
    y: float
    text: str
    size: float = 12.0
    fill: str = INK
    anchor: str = "start"
    bold: bool = False
    role: str = ""
    title: str = ""


@dataclass(frozen=True, slots=True)
class Raster:
    """An RGB image (``columns`` x ``rows`` pixels, row-major bytes) scaled into the box (x, y, w, h)."""

    x: float
    y: float
    w: float
    h: float
    pixels: bytes
    columns: int
    rows: int
    role: str = ""
    title: str = ""


Shape = Rect | Circle | Line | Polygon | Text | Raster


def text_width(text: str, size: float) -> float:
    """About how wide ``text`` is at ``size`` (for layout; both writers use a sans-serif font)."""
    return 0.6 * size * len(text)


def moved(shape: Shape, dx: float, dy: float) -> Shape:
    """``shape`` shifted by (dx, dy)."""
    if isinstance(shape, (Line, Polygon)):
        return replace(shape, points=tuple((x + dx, y + dy) for x, y in shape.points))
    return replace(shape, x=shape.x + dx, y=shape.y + dy)


@dataclass(frozen=True)
class Drawing:
    """A canvas of ``width`` x ``height`` pixels and the shapes on it, drawn in order."""

    width: float
    height: float
    shapes: tuple[Shape, ...] = ()
    background: str = WHITE

    def roles(self, role: str) -> list[Shape]:
        """The shapes of one role, in drawing order."""
        return [shape for shape in self.shapes if shape.role == role]


@dataclass(frozen=True)
class Picture:
    """What ``render`` makes: a still drawing, and an animation when the world draws one (an episode step by
    step), built only when asked for (``frames``); ``frame_ms`` is how long each frame shows."""

    still: Drawing
    animate: Callable[[], Sequence[Drawing]] | None = None
    frame_ms: int = 500

    @cached_property
    def frames(self) -> tuple[Drawing, ...]:
        return tuple(self.animate()) if self.animate is not None else ()


class Canvas:
    """A drawing under construction: add shapes, then take the frozen :class:`Drawing`."""

    def __init__(self, width: float, height: float, background: str = WHITE):
        self.width, self.height, self.background = width, height, background
        self.shapes: list[Shape] = []

    def add(self, *shapes: Shape) -> None:
        self.shapes.extend(shapes)

    def place(self, drawing: Drawing, x: float, y: float) -> None:
        """Draw ``drawing`` with its top-left corner at (x, y)."""
        self.shapes.extend(moved(shape, x, y) for shape in drawing.shapes)

    def rect(self, x: float, y: float, w: float, h: float, **style) -> None:
        self.shapes.append(Rect(x, y, w, h, **style))

    def circle(self, x: float, y: float, r: float, **style) -> None:
        self.shapes.append(Circle(x, y, r, **style))

    def line(self, points: Iterable[Point], **style) -> None:
        self.shapes.append(Line(tuple(points), **style))

    def polygon(self, points: Iterable[Point], **style) -> None:
        self.shapes.append(Polygon(tuple(points), **style))

    def text(self, x: float, y: float, text: str, **style) -> None:
        self.shapes.append(Text(x, y, text, **style))

    def arrow(self, start: Point, end: Point, size: float = 8.0, **style) -> None:
        """An arrowhead at ``end`` pointing away from ``start`` (filled with ``fill``)."""
        self.shapes.append(Polygon(arrow_head(start, end, size), **style))

    def cross(self, x: float, y: float, size: float, stroke: str = FAILURE, width: float = 2.5, role: str = "",
              title: str = "") -> None:
        """An X centred on (x, y): a step that did nothing."""
        for sign in (1, -1):
            self.shapes.append(Line(((x - size, y - sign * size), (x + size, y + sign * size)), stroke, width,
                                    role=role, title=title))

    def drawing(self) -> Drawing:
        return Drawing(self.width, self.height, tuple(self.shapes), self.background)


def arrow_head(start: Point, end: Point, size: float) -> tuple[Point, Point, Point]:
    """The triangle of an arrowhead with its tip at ``end``.

    >>> arrow_head((0, 0), (10, 0), 4)
    ((10.0, 0.0), (6.0, 2.0), (6.0, -2.0))
    """
    angle = math.atan2(end[1] - start[1], end[0] - start[0])
    back = (end[0] - size * math.cos(angle), end[1] - size * math.sin(angle))
    side = (-math.sin(angle) * size / 2, math.cos(angle) * size / 2)
    return ((float(end[0]), float(end[1])), (round(back[0] + side[0], 6), round(back[1] + side[1], 6)),
            (round(back[0] - side[0], 6), round(back[1] - side[1], 6)))


def beside(*drawings: Drawing, gap: float = 16.0) -> Drawing:
    """Drawings side by side, tops aligned."""
    return tiled([list(drawings)], gap)


def stack(*drawings: Drawing, gap: float = 16.0) -> Drawing:
    """Drawings one below the other, left edges aligned."""
    return tiled([[drawing] for drawing in drawings], gap)


def tiled(rows: Sequence[Sequence[Drawing]], gap: float = 16.0) -> Drawing:
    """Rows of drawings: each row's drawings side by side, the rows one below the other."""
    canvas_shapes: list[Shape] = []
    y, width = 0.0, 0.0
    for row in rows:
        x = 0.0
        for drawing in row:
            canvas_shapes.extend(moved(shape, x, y) for shape in drawing.shapes)
            x += drawing.width + gap
        width = max(width, x - gap)
        y += max((drawing.height for drawing in row), default=0.0) + gap
    return Drawing(width, max(y - gap, 0.0), tuple(canvas_shapes))


def padded(drawing: Drawing, margin: float = 8.0) -> Drawing:
    """``drawing`` with a blank margin around it."""
    return Drawing(drawing.width + 2 * margin, drawing.height + 2 * margin,
                   tuple(moved(shape, margin, margin) for shape in drawing.shapes), drawing.background)


def number_text(value: object) -> str:
    """A score as pictures show it: two decimals, never ``-0.00``; None is a dash.

    >>> number_text(-0.001), number_text(1.2), number_text(None), number_text(3)
    ('0.00', '1.20', '-', '3')
    """
    if value is None:
        return "-"
    if isinstance(value, float):
        text = f"{value:.2f}"
        return "0.00" if text == "-0.00" else text
    return str(value)


def chunks(items: Sequence, size: int) -> list[Sequence]:
    """``items`` cut into rows of ``size``.

    >>> chunks([1, 2, 3, 4, 5], 2)
    [[1, 2], [3, 4], [5]]
    """
    return [list(items[i:i + size]) for i in range(0, len(items), size)]
