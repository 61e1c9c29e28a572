"""A GRASP grid: energy, obstacles and the start cell, and its published text rendering.

Cells are indexed ``(row, col)`` with row 0 at the top. The published text format is reproduced
byte for byte by :func:`render_grid` and read back by :func:`parse_grid_text`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from plancheck.errors import BadInputError, Location

EMPTY, ENERGY, OBSTACLE, AGENT = " ", "E", "O", "A"
_PLAIN_ROW = re.compile(r"(?: [ EO] \|)+")

Cell = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Grid:
    """An immutable grid. ``cells`` holds one character per cell, row-major: ' ', 'E' or 'O'."""

    rows: int
    cols: int
    cells: str
    start: Cell
    _hash: int = field(init=False, repr=False, compare=False)  # kept: batches look grids up in caches per record

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple:  # built again where it is unpickled: string hashes differ between processes
        return Grid, (self.rows, self.cols, self.cells, self.start)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash((self.rows, self.cols, self.cells, self.start)))
        if len(self.cells) != self.rows * self.cols:
            raise BadInputError(f"grid has {len(self.cells)} cells, expected {self.rows}x{self.cols}")
        if bad := set(self.cells) - {EMPTY, ENERGY, OBSTACLE}:
            raise BadInputError(f"grid holds unknown cell characters {sorted(bad)}")
        r, c = self.start
        if not (0 <= r < self.rows and 0 <= c < self.cols):
            raise BadInputError(f"start {self.start} is outside the {self.rows}x{self.cols} grid")
        if self.cells[r * self.cols + c] != EMPTY:
            raise BadInputError(f"start {self.start} is not an empty cell")

    def at(self, cell: Cell) -> str:
        r, c = cell
        return self.cells[r * self.cols + c]

    def inside(self, cell: Cell) -> bool:
        return 0 <= cell[0] < self.rows and 0 <= cell[1] < self.cols

    @property
    def energy_cells(self) -> tuple[Cell, ...]:
        return tuple(divmod(i, self.cols) for i, ch in enumerate(self.cells) if ch == ENERGY)

    @property
    def obstacle_cells(self) -> tuple[Cell, ...]:
        return tuple(divmod(i, self.cols) for i, ch in enumerate(self.cells) if ch == OBSTACLE)

    @property
    def has_obstacles(self) -> bool:
        return OBSTACLE in self.cells


def render_grid(grid: Grid) -> str:
    """The published text of a grid, with ``A`` at the start cell.

    >>> print(render_grid(Grid(2, 2, "E O ", (1, 1))), end="")
        0   1 
      +---+---+
     0| E |   |
      +---+---+
     1| O | A |
      +---+---+
    """
    separator = "  +" + "---+" * grid.cols + "\n"
    out = ["    " + "   ".join(str(i) for i in range(grid.cols)) + " \n"]
    for r in range(grid.rows):
        row = grid.cells[r * grid.cols:(r + 1) * grid.cols]
        if r == grid.start[0]:
            c = grid.start[1]
            row = row[:c] + AGENT + row[c + 1:]
        out.append(separator)
        out.append(f"{r:2d}|" + "".join(f" {ch} |" for ch in row) + "\n")
    out.append(separator)
    return "".join(out)


def parse_grid_text(text: str, source: str | None = None) -> Grid:
    """Read a grid from its published text (the inverse of :func:`render_grid`)."""
    lines = text.split("\n")
    rows: list[str] = []
    start: Cell | None = None
    for number, line in enumerate(lines, start=1):
        if "|" not in line:
            continue
        label, _, body = line.partition("|")
        if not label.strip().isdigit():
            raise BadInputError(f"row label {label!r} is not a number", Location(source, number))
        if _PLAIN_ROW.fullmatch(body):  # the published form of a row without the agent (' E |   | O |'): fast
            if rows and len(body) != 4 * len(rows[0]):
                raise BadInputError(f"row has {len(body) // 4} cells, expected {len(rows[0])}",
                                    Location(source, number))
            rows.append(body[1::4])
            continue
        cells = body.split("|")[:-1]
        chars = []
        for c, cell in enumerate(cells):
            ch = cell.strip() or EMPTY
            if ch == AGENT:
                if start is not None:
                    raise BadInputError("the grid has two agents", Location(source, number))
                start, ch = (len(rows), c), EMPTY
            if ch not in (EMPTY, ENERGY, OBSTACLE):
                raise BadInputError(f"unknown cell {cell!r}", Location(source, number))
            chars.append(ch)
        if rows and len(chars) != len(rows[0]):
            raise BadInputError(f"row has {len(chars)} cells, expected {len(rows[0])}", Location(source, number))
        rows.append("".join(chars))
    if not rows:
        raise BadInputError("no grid rows found", Location(source))
    if start is None:
        raise BadInputError("the grid has no agent 'A'", Location(source))
    return Grid(len(rows), len(rows[0]), "".join(rows), start)
