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


# A sprite's positions under all three movement types in one int: the Chaser's positions in the
# lowest SECTION bits, the Fleeing sprite's in the next, the Immovable one's above (see stack).
SECTION = SIDE * SIDE
TYPES = (FULL, FULL << SECTION, FULL << 2 * SECTION)  # the bits of each type's section


def stack(chaser: int, fleeing: int, immovable: int) -> int:
    return chaser | fleeing << SECTION | immovable << 2 * SECTION


def unstack(stacked: int) -> tuple[int, int, int]:
    return stacked & FULL, stacked >> SECTION & FULL, stacked >> 2 * SECTION


def tripled(mask: int) -> int:
    """``mask`` in each type's section (to keep the positions of every type in ``mask``)."""
    return stack(mask, mask, mask)


_FIRST_COL3, _LAST_COL3, _FIRST_ROW3, _LAST_ROW3 = map(tripled, (_FIRST_COL, _LAST_COL, _FIRST_ROW, _LAST_ROW))
_STEP_WEST3, _STEP_NORTH3 = tripled(FULL & ~_FIRST_COL), tripled(FULL & ~_FIRST_ROW)  # the parts that can step
_STEP_EAST3, _STEP_SOUTH3 = tripled(FULL & ~_LAST_COL), tripled(FULL & ~_LAST_ROW)


@cache
def _movers(ax: int, ay: int) -> tuple[int, int, int, int]:
    """The stacked positions that step west, east, north and south with the avatar at (ax, ay):
    a Chaser toward the avatar (any of the four when on its pixel), a Fleeing sprite away from it
    (either way along an axis it shares with the avatar); an Immovable one in none."""
    west, north = _LEFT_OF[ax], _ABOVE[ay]
    same_x, same_y = _COLUMNS[ax], _ROWS[ay]
    east, south = FULL & ~(west | same_x), FULL & ~(north | same_y)
    on_it = same_x & same_y
    return (stack(east | on_it, west | same_x, 0), stack(west | on_it, east | same_x, 0),
            stack(south | on_it, north | same_y, 0), stack(north | on_it, south | same_y, 0))


def stacked_moves(stacked: int, ax: int, ay: int) -> int:
    """:func:`successors` of stacked positions (:func:`stack`), every type at once; a step off the
    screen is taken back."""
    west, east, north, south = _movers(ax, ay)
    west, east, north, south = stacked & west, stacked & east, stacked & north, stacked & south
    return (((west & _STEP_WEST3) >> 1) | (west & _FIRST_COL3) | ((east & _STEP_EAST3) << 1) | (east & _LAST_COL3)
            | ((north & _STEP_NORTH3) >> SIDE) | (north & _FIRST_ROW3) | ((south & _STEP_SOUTH3) << SIDE)
            | (south & _LAST_ROW3) | (stacked & TYPES[2]))


def chaser_moves(mask: int, ax: int, ay: int) -> int:
    """:func:`successors` of a Chaser."""
    return stacked_moves(mask, ax, ay)


def fleeing_moves(mask: int, ax: int, ay: int) -> int:
    """:func:`successors` of a Fleeing sprite."""
    return stacked_moves(mask << SECTION, ax, ay) >> SECTION


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
    rings = _rings(row, col)
    return rings[distance] & _toward(row, col, where) if distance < len(rings) else 0


@cache
def _toward(row: int, col: int, where: str) -> int:
    """Positions on the cells that lie ``where`` of (row, col) ("north": the same column, north of
    it; "north-east": north and east of it; "": the cell itself)."""
    sign_r = -1 if "north" in where else (1 if "south" in where else 0)
    sign_c = -1 if "west" in where else (1 if "east" in where else 0)
    return _union_cells((r, c) for r in range(CELLS) for c in range(CELLS)
                        if (r > row) - (r < row) == sign_r and (c > col) - (c < col) == sign_c)


@cache
def not_nearer(row: int, col: int, distance: int) -> int:
    """Positions at least ``distance`` cells from the avatar's cell."""
    mask = 0
    for ring in _rings(row, col)[distance:]:
        mask |= ring
    return mask


@cache
def _rings(row: int, col: int) -> tuple[int, ...]:
    """The positions on the cells at each distance from (row, col)."""
    rings = [0] * (2 * CELLS - 1)
    for r in range(CELLS):
        for c in range(CELLS):
            rings[abs(r - row) + abs(c - col)] |= _cell_pixels(r, c)
    return tuple(rings)


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
