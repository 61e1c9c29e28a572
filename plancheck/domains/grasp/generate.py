"""New GRASP grids from a seed, following the paper's description (its generator was not released).

Energy distributions (11x11):
* ``random``: p ~ U(0.3, 0.7); every cell holds energy with probability p.
* ``leftRight`` / ``upDown`` (named as in the published files: ``leftRight`` is skewed top vs
  bottom, rows 0-5 vs 6-10; ``upDown`` is skewed left vs right, cols 0-5 vs 6-10): p ~ U(0.3, 0.4)
  or U(0.6, 0.7) with probability 1/2 each; the first half uses p, the other 1 - p.
* ``cluster``: 3, 4 or 5 clusters; each fills the 3x3 block around a centre drawn uniformly from
  rows and columns 1-9, so every block lies inside the grid (fitted to the published grids: mean
  24.3 / 30.7 / 36.4 energy cells for 3 / 4 / 5 clusters; centres anywhere would give 22 / 29 / 35).
* ``spiral``: from the centre (5, 5), for i = 0 .. 119: theta = i / 10 + U(-0.2, 0.2),
  r = (i / 10) * 11 / (6 pi) + U(-0.2, 0.2); cell (int(5 + r cos theta), int(5 + r sin theta))
  when it lies inside the grid. The paper's formula (r = i * 11 / (10 * 2 pi)) gives less than one
  turn; the pitch 11 / (6 pi) and the 120 points are fitted to the 400 published spiral grids
  (pitch 0.584 measured; mean 40.7 energy cells and the same radial profile).
Obstacles (``block``): every cell independently with probability 0.1, overwriting energy.
Start: ``inner`` = uniform over rows 3-7 x cols 3-7; ``outer`` = uniform over the other 96 cells;
the start cell is emptied.

Grid ``i`` of ``gen<seed>_<start>_<energy>_<obstacle>`` is drawn from ``random.Random`` seeded
with that name and ``i``, so every grid is reproducible on its own.
"""

from __future__ import annotations

import math
import random
import re

from plancheck.domains.grasp.grid import EMPTY, ENERGY, OBSTACLE, Grid
from plancheck.domains.grasp.instance import DISTRIBUTIONS, OBSTACLES, STARTS, GridInfo
from plancheck.errors import InstanceNotFoundError, clip
from plancheck.limits import id_number

SIZE = 11
OBSTACLE_PROBABILITY = 0.1
SPIRAL_POINTS = 120
SPIRAL_PITCH = SIZE / (6 * math.pi)  # radius gained per radian, fitted to the published grids
INNER = tuple((r, c) for r in range(3, 8) for c in range(3, 8))
OUTER = tuple((r, c) for r in range(SIZE) for c in range(SIZE) if (r, c) not in INNER)
_SPEC = re.compile(r"^gen(?P<seed>\d+)_(?P<start>[a-z]+)_(?P<energy>[A-Za-z]+)_(?P<obstacle>[a-z]+)$")


def _energy_cells(energy: str, rng: random.Random) -> tuple[set[tuple[int, int]], float]:
    cells = [(r, c) for r in range(SIZE) for c in range(SIZE)]
    if energy == "random":
        p = rng.uniform(0.3, 0.7)
        return {cell for cell in cells if rng.random() < p}, p
    if energy in ("leftRight", "upDown"):
        p = rng.uniform(0.3, 0.4) if rng.random() < 0.5 else rng.uniform(0.6, 0.7)
        axis = 0 if energy == "leftRight" else 1
        return {cell for cell in cells if rng.random() < (p if cell[axis] <= 5 else 1 - p)}, p
    if energy == "cluster":
        count = rng.choice((3, 4, 5))
        chosen: set[tuple[int, int]] = set()
        for _ in range(count):
            cr, cc = rng.randint(1, SIZE - 2), rng.randint(1, SIZE - 2)
            chosen |= {(r, c) for r in range(cr - 1, cr + 2) for c in range(cc - 1, cc + 2)}
        return chosen, count
    if energy == "spiral":
        chosen = set()
        centre = SIZE // 2
        for i in range(SPIRAL_POINTS):
            theta = i / 10 + rng.uniform(-0.2, 0.2)
            radius = i / 10 * SPIRAL_PITCH + rng.uniform(-0.2, 0.2)
            r, c = int(centre + radius * math.cos(theta)), int(centre + radius * math.sin(theta))
            if 0 <= r < SIZE and 0 <= c < SIZE:
                chosen.add((r, c))
        return chosen, -1
    raise InstanceNotFoundError(f"unknown energy distribution {energy!r}; known: {', '.join(DISTRIBUTIONS)}")


def generate_grid(seed: int, start: str, energy: str, obstacle: str, index: int = 0) -> tuple[GridInfo, Grid]:
    """Grid ``index`` of the generator spec ``gen<seed>_<start>_<energy>_<obstacle>``."""
    if start not in STARTS:
        raise InstanceNotFoundError(f"unknown start region {start!r}; known: {', '.join(STARTS)}")
    if obstacle not in OBSTACLES:
        raise InstanceNotFoundError(f"unknown obstacle setting {obstacle!r}; known: {', '.join(OBSTACLES)}")
    name = f"gen{seed}_{start}_{energy}_{obstacle}"
    rng = random.Random(f"{name}/{index}")
    energy_cells, parameter = _energy_cells(energy, rng)
    cells = [[ENERGY if (r, c) in energy_cells else EMPTY for c in range(SIZE)] for r in range(SIZE)]
    if obstacle == "block":
        for r in range(SIZE):
            for c in range(SIZE):
                if rng.random() < OBSTACLE_PROBABILITY:
                    cells[r][c] = OBSTACLE
    start_cell = rng.choice(INNER if start == "inner" else OUTER)
    cells[start_cell[0]][start_cell[1]] = EMPTY
    grid = Grid(SIZE, SIZE, "".join("".join(row) for row in cells), start_cell)
    return GridInfo(name, index, energy, obstacle, start, parameter, published=False), grid


def parse_spec(set_name: str) -> tuple[int, str, str, str] | None:
    """(seed, start, energy, obstacle) of a generator set name, or None if it is not one.

    >>> parse_spec("gen7_outer_spiral_block")
    (7, 'outer', 'spiral', 'block')
    """
    match = _SPEC.match(set_name)
    if not match:
        return None
    seed = id_number(match["seed"], f"the seed in {clip(set_name)!r}")
    return seed, match["start"], match["energy"], match["obstacle"]
