"""Sets of sprite positions as bit masks over the pixel grid, and how they move in one tick.

A mask is a Python int with bit ``y * side + x`` set for each possible top-left pixel (x, y) of a
2x2-pixel sprite on the 20x20-pixel screen (x, y in 0..18, so ``side`` = 19). The moves follow the
engine (:mod:`.engine`): a Chaser steps one pixel along a direction that brings it nearer the
avatar, a Fleeing sprite along one that takes it farther, an Immovable one stays; a step off the
screen is taken back (``EOS > stepBack``). Because the choice depends only on which side of the
avatar a sprite is, the successors of a whole set are a few shifts of its parts.
"""

from __future__ import annotations

from functools import cache

SIDE = 19  # pixel positions per axis: (10 cells - 1) * 2 + 1
CELLS = 10
FULL = (1 << (SIDE * SIDE)) - 1


def bit(x: int, y: int) -> int:
    return 1 << (y * SIDE + x)


def _union(pixels) -> int:
    mask = 0
    for x, y in pixels:
        mask |= bit(x, y)
    return mask


_COLUMNS = tuple(_union((x, y) for y in range(SIDE)) for x in range(SIDE))
_ROWS = tuple(_union((x, y) for x in range(SIDE)) for y in range(SIDE))
_FIRST_COL, _LAST_COL, _FIRST_ROW, _LAST_ROW = _COLUMNS[0], _COLUMNS[-1], _ROWS[0], _ROWS[-1]
_LEFT_OF = tuple(sum(_COLUMNS[:x]) for x in range(SIDE))  # columns < x
_ABOVE = tuple(sum(_ROWS[:y]) for y in range(SIDE))  # rows < y


_INNER_COLS, _INNER_ROWS = FULL & ~_FIRST_COL, FULL & ~_FIRST_ROW  # the parts that can step left / up
_OUTER_COLS, _OUTER_ROWS = FULL & ~_LAST_COL, FULL & ~_LAST_ROW  # ... right / down


def _step(west: int, east: int, north: int, south: int) -> int:
    """The sets moved one pixel west, east, north and south; a step off the screen is taken back."""
    return (((west & _INNER_COLS) >> 1) | (west & _FIRST_COL) | ((east & _OUTER_COLS) << 1) | (east & _LAST_COL)
            | ((north & _INNER_ROWS) >> SIDE) | (north & _FIRST_ROW) | ((south & _OUTER_ROWS) << SIDE)
            | (south & _LAST_ROW))


@cache
def _sides(ax: int, ay: int) -> tuple[int, int, int, int, int, int]:
    """The positions west of, in the column of, east of, north of, in the row of, south of (ax, ay)."""
    west, north = _LEFT_OF[ax], _ABOVE[ay]
    return west, _COLUMNS[ax], FULL & ~(west | _COLUMNS[ax]), north, _ROWS[ay], FULL & ~(north | _ROWS[ay])


def chaser_moves(mask: int, ax: int, ay: int) -> int:
    """:func:`successors` of a Chaser."""
    if not mask:
        return 0
    west, same_x, east, north, same_y, south = _sides(ax, ay)
    on_it = mask & same_x & same_y  # no step brings it nearer: any of the four
    return _step(mask & east | on_it, mask & west | on_it, mask & south | on_it, mask & north | on_it)


def fleeing_moves(mask: int, ax: int, ay: int) -> int:
    """:func:`successors` of a Fleeing sprite."""
    if not mask:
        return 0
    west, same_x, east, north, same_y, south = _sides(ax, ay)
    return _step(mask & (west | same_x), mask & (east | same_x), mask & (north | same_y), mask & (south | same_y))


def successors(movement: str, mask: int, ax: int, ay: int) -> int:
    """Every position a sprite of ``movement`` type can reach in one tick from any position in
    ``mask``, with the avatar at pixel (ax, ay) when it chooses (before the avatar moves).

    >>> successors("chaser", bit(6, 2), 2, 2) == bit(5, 2)
    True
    >>> successors("fleeing", bit(6, 2), 6, 4) == bit(5, 2) | bit(7, 2) | bit(6, 1)
    True
    """
    if movement == "chaser":
        return chaser_moves(mask, ax, ay)
    return fleeing_moves(mask, ax, ay) if movement == "fleeing" else mask


@cache
def touching(ax: int, ay: int) -> int:
    """Positions whose square overlaps the avatar's at pixel (ax, ay) with positive area."""
    return _union((x, y) for x in range(ax - 1, ax + 2) for y in range(ay - 1, ay + 2)
                  if 0 <= x < SIDE and 0 <= y < SIDE)


@cache
def _cell_pixels(row: int, col: int) -> int:
    return _union((x, y) for x in (2 * col, 2 * col + 1) for y in (2 * row, 2 * row + 1) if x < SIDE and y < SIDE)


@cache
def seen_at(row: int, col: int, distance: int, where: str) -> int:
    """Positions a sprite shows as ``<distance> steps to your <where>`` from the avatar's cell."""
    sign_r = -1 if "north" in where else (1 if "south" in where else 0)
    sign_c = -1 if "west" in where else (1 if "east" in where else 0)
    cells = []
    for dr in range(distance + 1):
        dc = distance - dr
        if (dr == 0) != (sign_r == 0) or (dc == 0) != (sign_c == 0):
            continue
        r, c = row + sign_r * dr, col + sign_c * dc
        if 0 <= r < CELLS and 0 <= c < CELLS:
            cells.append((r, c))
    return _union_cells(cells)


@cache
def not_nearer(row: int, col: int, distance: int) -> int:
    """Positions at least ``distance`` cells from the avatar's cell."""
    return _union_cells((r, c) for r in range(CELLS) for c in range(CELLS) if abs(r - row) + abs(c - col) >= distance)


def _union_cells(cells) -> int:
    mask = 0
    for row, col in cells:
        mask |= _cell_pixels(row, col)
    return mask


def pixels(mask: int) -> list[tuple[int, int]]:
    """The (x, y) positions in ``mask``."""
    found, index = [], 0
    while mask:
        if mask & 1:
            found.append((index % SIDE, index // SIDE))
        mask >>= 1
        index += 1
    return found
