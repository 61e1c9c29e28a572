"""Shortest walks on a GRASP grid: neighbours, distances and the moves of a shortest path.

Cells are row-major indices (``row * cols + col``). A move may enter any cell inside the grid
that is not an obstacle; a diagonal checks only its target cell, as in the benchmark. Moves are
reversible, so distances are symmetric. One :class:`Geometry` serves every rule, carry limit and
step cost of a grid under one action set, and is cached per (grid, directions).

>>> from plancheck.domains.grasp.grid import Grid
>>> geo = geometry(Grid(2, 3, "EO    ", (1, 0)), 4)
>>> geo.distances(geo.start)[2]  # (0, 2): the obstacle at (0, 1) forces the long way
3
>>> [str(a) for a in geo.path(geo.start, 2)]
['RIGHT', 'RIGHT', 'UP']
"""

from __future__ import annotations

from functools import lru_cache

from plancheck.domains.grasp.grid import ENERGY, OBSTACLE, Grid
from plancheck.domains.grasp.rules import DIAGONAL, MOVES, STRAIGHT, Action

UNREACHABLE = 1 << 20


class Geometry:
    """Neighbours and (lazily computed, memoised) breadth-first distances of one grid."""

    __slots__ = ("_distances", "_moves", "cells", "cols", "energy", "neighbours", "start")

    def __init__(self, grid: Grid, directions: int):
        self.cols = grid.cols
        self.cells = grid.rows * grid.cols
        self.start = grid.start[0] * grid.cols + grid.start[1]
        self.energy = tuple(i for i, ch in enumerate(grid.cells) if ch == ENERGY)
        moves = STRAIGHT + (DIAGONAL if directions == 8 else ())
        neighbours: list[tuple[int, ...]] = []
        steps: list[tuple[tuple[int, Action], ...]] = []
        for index in range(self.cells):
            r, c = divmod(index, grid.cols)
            out = []
            if grid.cells[index] != OBSTACLE:
                for move in moves:
                    dr, dc = MOVES[move]
                    target = (r + dr, c + dc)
                    if grid.inside(target) and grid.at(target) != OBSTACLE:
                        out.append((target[0] * grid.cols + target[1], move))
            neighbours.append(tuple(t for t, _ in out))
            steps.append(tuple(out))
        self.neighbours = tuple(neighbours)
        self._moves = tuple(steps)
        self._distances: dict[int, tuple[int, ...]] = {}

    def distances(self, source: int) -> tuple[int, ...]:
        """Number of moves from ``source`` to every cell (``UNREACHABLE`` where there is no walk)."""
        known = self._distances.get(source)
        if known is not None:
            return known
        dist = [UNREACHABLE] * self.cells
        dist[source] = 0
        queue = [source]
        neighbours = self.neighbours
        for cell in queue:
            further = dist[cell] + 1
            for nxt in neighbours[cell]:
                if dist[nxt] == UNREACHABLE:
                    dist[nxt] = further
                    queue.append(nxt)
        result = tuple(dist)
        self._distances[source] = result
        return result

    def path(self, source: int, target: int) -> list[Action]:
        """The moves of a shortest walk (the first move in action order wins every tie)."""
        to_target = self.distances(target)
        if to_target[source] == UNREACHABLE:
            raise ValueError(f"cell {divmod(target, self.cols)} cannot be reached from {divmod(source, self.cols)}")
        moves: list[Action] = []
        cell = source
        while cell != target:
            cell, move = next((n, m) for n, m in self._moves[cell] if to_target[n] == to_target[cell] - 1)
            moves.append(move)
        return moves

    def coordinates(self, cell: int) -> tuple[int, int]:
        return divmod(cell, self.cols)


@lru_cache(maxsize=256)
def geometry(grid: Grid, directions: int) -> Geometry:
    """The (shared, cached) geometry of ``grid`` under 4 or 8 directions."""
    return Geometry(grid, directions)
