"""A board of square cells on a canvas: cells addressed as (row, column), paths through cell centres.

Grid worlds (GRASP, Messenger, BabyAI's overlay) draw their cells, their paths and their marks with it,
so a path looks the same in every world: a line through the cells' centres with an arrowhead on each
move, the cells it visits tinted, an X on each step that did nothing.

>>> board = Board(rows=2, columns=3, cell=10, left=5, top=5)
>>> board.centre((1, 2)), board.contains((150, 5))
((30.0, 20.0), False)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from plancheck.drawing.shapes import FAILURE, INK, LINE, MUTED, WHITE, Canvas, Point

Cell = tuple[int, int]  # (row, column)


@dataclass(frozen=True, slots=True)
class Board:
    """``rows`` x ``columns`` cells of ``cell`` pixels, the top-left corner at (left, top)."""

    rows: int
    columns: int
    cell: float
    left: float = 0.0
    top: float = 0.0

    @property
    def width(self) -> float:
        return self.columns * self.cell

    @property
    def height(self) -> float:
        return self.rows * self.cell

    def corner(self, cell: Cell) -> Point:
        return (self.left + cell[1] * self.cell, self.top + cell[0] * self.cell)

    def centre(self, cell: Cell) -> Point:
        x, y = self.corner(cell)
        return (x + self.cell / 2, y + self.cell / 2)

    def contains(self, point: Point) -> bool:
        return self.left <= point[0] < self.left + self.width and self.top <= point[1] < self.top + self.height

    def draw_cells(self, canvas: Canvas, fill: str = WHITE, labels: bool = True, role: str = "cells") -> None:
        """The cells as one filled square with thin grid lines; row and column numbers outside when ``labels``."""
        canvas.rect(self.left, self.top, self.width, self.height, fill=fill, role=role)
        right, bottom = self.left + self.width, self.top + self.height
        for row in range(self.rows + 1):
            y = self.top + row * self.cell
            canvas.line(((self.left, y), (right, y)), stroke=LINE, width=1)
        for column in range(self.columns + 1):
            x = self.left + column * self.cell
            canvas.line(((x, self.top), (x, bottom)), stroke=LINE, width=1)
        if labels:
            size = min(11.0, self.cell * 0.35)
            for column in range(self.columns):
                x, _ = self.centre((0, column))
                canvas.text(x, self.top - size, str(column), size=size, fill=MUTED, anchor="middle")
            for row in range(self.rows):
                _, y = self.centre((row, 0))
                canvas.text(self.left - 4, y, str(row), size=size, fill=MUTED, anchor="end")

    def fill_cells(self, canvas: Canvas, cells: Iterable[Cell], fill: str, role: str, inset: float = 0.0,
                   title: str = "") -> None:
        for cell in cells:
            x, y = self.corner(cell)
            canvas.rect(x + inset, y + inset, self.cell - 2 * inset, self.cell - 2 * inset, fill=fill,
                        stroke=LINE if not inset else None, width=1, role=role, title=title)

    def path(self, canvas: Canvas, cells: Sequence[Cell], colour: str, role: str, width: float | None = None,
             dash: tuple[float, float] | None = None, arrows: bool = True, title: str = "") -> None:
        """A line through the centres of ``cells`` (consecutive repeats drawn once), an arrowhead halfway
        along each move."""
        points = [self.centre(cells[0])] if cells else []
        for cell in cells[1:]:
            point = self.centre(cell)
            if point != points[-1]:
                points.append(point)
        if len(points) < 2:
            return
        stroke = width if width is not None else max(2.0, self.cell / 9)
        canvas.line(points, stroke=colour, width=stroke, dash=dash, role=role, title=title)
        if arrows:
            for (x0, y0), (x1, y1) in zip(points, points[1:]):
                middle = ((x0 + x1) / 2, (y0 + y1) / 2)
                canvas.arrow((x0, y0), middle, size=stroke * 3.2, fill=colour, role=role + "-arrow")

    def mark(self, canvas: Canvas, cell: Cell, role: str, title: str = "", colour: str = FAILURE,
             offset: Point = (0.0, 0.0)) -> None:
        """An X in ``cell`` (shifted by ``offset`` cells' fraction): a step that did nothing."""
        x, y = self.centre(cell)
        canvas.cross(x + offset[0] * self.cell, y + offset[1] * self.cell, self.cell * 0.16, stroke=colour,
                     width=max(2.0, self.cell / 14), role=role, title=title)

    def ring(self, canvas: Canvas, cell: Cell, colour: str = INK, role: str = "final", title: str = "") -> None:
        """A circle around a cell's centre (where a path ends)."""
        x, y = self.centre(cell)
        canvas.circle(x, y, self.cell * 0.3, stroke=colour, width=max(2.0, self.cell / 12), role=role, title=title)
