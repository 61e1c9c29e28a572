"""The grid planner behind ``goto`` (``dev:langsuite/utils/grid_world.py``), step for step.

* Grid: cells of ``step_size`` over the room; every cell an object's box (roots and their subtrees)
  overlaps, by truncated index, is blocked. Walls are ignored. The start and target cells are then
  marked passable.
* Candidate end cells: a breadth-first scan from the target cell over the whole grid (blocked cells
  included) collects the first ten free cells that share neither the target's row nor its column;
  a neighbour index of -1 reads the last row or column (Python indexing), and a cell can be
  collected twice. Candidates are tried last-found first.
* A*: 4-connected, unit steps, Euclidean heuristic, ties resolved by the heap exactly as
  ``heapq`` orders LangSuitE's nodes (by f only).
* The agent is put on the chosen cell's corner and turned by +-90 degree steps from its rounded
  heading ("up", "right", ...) toward the object's dominant axis.

An object box beyond the room's far edges makes LangSuitE's grid raise IndexError; that case is
reported as :class:`GridError` rather than guessed.
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from math import sqrt

from plancheck.domains.langsuite.engine.geometry import Rect

DIRECTIONS = ("up", "right", "down", "left")


class GridError(Exception):
    """LangSuitE's grid code would raise here (an index past the grid)."""


@dataclass(frozen=True, slots=True)
class GotoPlan:
    """Where ``goto`` puts the agent and which turns it makes; ``path`` is the cell path (row, col);
    ``moves`` is the path as MoveAhead/TurnLeft/TurnRight steps plus the final turns (the expert's list)."""

    end: tuple[float, float]
    turns: tuple[str, ...]
    path: tuple[tuple[int, int], ...]
    moves: tuple[str, ...]


def _index(value: float, low: float, step: float) -> int:
    return int((value - low) / step)


def build_grid(bounds: Rect, step: float, boxes: Iterable[Rect]) -> list[list[int]]:
    """``GridWorld`` with every box added (1 = blocked)."""
    x_min, y_min, x_max, y_max = bounds
    width = int((x_max - x_min) / step) + 1
    height = int((y_max - y_min) / step) + 1
    grid = [[0] * width for _ in range(height)]
    for x0, y0, x1, y1 in boxes:
        for y in range(_index(y0, y_min, step), _index(y1, y_min, step) + 1):
            for x in range(_index(x0, x_min, step), _index(x1, x_min, step) + 1):
                try:
                    grid[y][x] = 1
                except IndexError:
                    raise GridError(f"a box reaches past the grid (row {y}, column {x})") from None
    return grid


def candidates(grid: list[list[int]], row: int, col: int) -> list[tuple[int, int]]:
    """LangSuitE's ``bfs``: up to ten free cells off the target's row and column, in scan order."""
    n, m = len(grid), len(grid[0])
    queue = deque([(row, col)])
    visited = {(row, col)}
    found: list[tuple[int, int]] = []
    while queue and len(found) < 10:  # LangSuitE scans on, but nothing is collected after ten
        r, c = queue.popleft()
        for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0)):
            nr, nc = r + dr, c + dc
            if not (-n <= nr < n and -m <= nc < m):
                continue  # IndexError in LangSuitE, caught
            if grid[nr][nc] == 0 and nr != row and nc != col and len(found) < 10:
                found.append((nr, nc))
            if 0 <= nr < n and 0 <= nc < m and (nr, nc) not in visited:
                queue.append((nr, nc))
                visited.add((nr, nc))
    return found


class _Node:
    __slots__ = ("position", "parent", "g", "f")

    def __init__(self, position: tuple[int, int], parent: _Node | None = None):
        self.position = position
        self.parent = parent
        self.g = 0
        self.f = 0.0

    def __lt__(self, other: _Node) -> bool:
        return self.f < other.f


def a_star(grid: list[list[int]], start: tuple[int, int], end: tuple[int, int]) -> list[tuple[int, int]] | None:
    """LangSuitE's ``a_star_search`` (its heap order included)."""
    n, m = len(grid), len(grid[0])
    open_list: list[_Node] = [_Node(start)]
    closed: set[tuple[int, int]] = set()
    while open_list:
        node = heapq.heappop(open_list)
        if node.position in closed:
            continue
        closed.add(node.position)
        if node.position == end:
            path = []
            walk: _Node | None = node
            while walk:
                path.append(walk.position)
                walk = walk.parent
            return path[::-1]
        r, c = node.position
        for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            nr, nc = r + dr, c + dc
            if nr < 0 or nr >= n or nc < 0 or nc >= m or grid[nr][nc] == 1:
                continue
            if (nr, nc) in closed:
                continue
            nxt = _Node((nr, nc), node)
            nxt.g = node.g + 1
            nxt.f = nxt.g + sqrt(abs(nr - end[0]) ** 2 + abs(nc - end[1]) ** 2)
            heapq.heappush(open_list, nxt)
    return None


def heading(vx: float, vy: float) -> str | None:
    """``get_direction``: the rounded heading."""
    x, y = round(vx), round(vy)
    if x > 0:
        return "right"
    if x < 0:
        return "left"
    if y > 0:
        return "up"
    if y < 0:
        return "down"
    return None


def facing(obj_col: int, obj_row: int, col: int, row: int) -> str:
    """``get_relative_direction``: which way to face from (col, row) toward the object's cell."""
    dx, dy = col - obj_col, row - obj_row
    if abs(dx) > abs(dy):
        return "right" if dx < 0 else "left"
    return "down" if dy > 0 else "up"


def turns_between(start: str, target: str) -> tuple[str, ...]:
    """``generate_rotation_actions``."""
    rotations = DIRECTIONS.index(target) - DIRECTIONS.index(start)
    if rotations in (1, -3):
        return ("TurnRight",)
    if rotations in (3, -1):
        return ("TurnLeft",)
    if rotations in (2, -2):
        return ("TurnRight", "TurnRight")
    return ()


def plan_goto(bounds: Rect, step: float, boxes: Iterable[Rect], agent: tuple[float, float],
              direction: str | None, target: tuple[float, float]) -> GotoPlan | None | bool:
    """``GridWorld.get_path``: a plan, None (no candidate reachable) or False (already there)."""
    x_min, y_min = bounds[0], bounds[1]
    grid = build_grid(bounds, step, boxes)
    col2, row2 = _index(target[0], x_min, step), _index(target[1], y_min, step)
    col1, row1 = _index(agent[0], x_min, step), _index(agent[1], y_min, step)
    try:
        grid[row2][col2] = 3
        grid[row1][col1] = 4
    except IndexError:
        raise GridError("the agent or the target lies off the grid") from None
    found = candidates(grid, row2, col2)
    path = None
    end = None
    while found:
        end = found.pop()
        path = a_star(grid, (row1, col1), end)
        if path:
            break
    if path is None or end is None:
        return None
    if len(path) == 1:
        return False
    row, col = end
    if direction is None:
        raise GridError("the heading rounds to no direction")
    face = facing(col2, row2, col, row)
    turns = turns_between(direction, face)
    d_row, d_col = path[-1][0] - path[-2][0], path[-1][1] - path[-2][1]
    last = "right" if d_col > 0 else "left" if d_col < 0 else "up" if d_row > 0 else "down" if d_row < 0 else ""
    moves = path_moves(path, direction) + list(turns_between(last, face) if last else ())
    return GotoPlan((col * step + x_min, row * step + y_min), turns, tuple(path), tuple(moves))


_TURN = {  # (heading, d_row sign, d_col sign) -> what point_traj_2action_traj does, when not moving
    "up": {"back": ("down", ("TurnLeft", "TurnLeft")), "+col": ("right", ("TurnRight",)),
           "-col": ("left", ("TurnLeft",))},
    "down": {"back": ("up", ("TurnLeft", "TurnLeft")), "+col": ("right", ("TurnLeft",)),
             "-col": ("left", ("TurnRight",))},
    "left": {"back": ("right", ("TurnLeft", "TurnLeft")), "+row": ("up", ("TurnRight",)),
             "-row": ("down", ("TurnLeft",))},
    "right": {"back": ("left", ("TurnLeft", "TurnLeft")), "+row": ("up", ("TurnLeft",)),
              "-row": ("down", ("TurnRight",))},
}


def path_moves(path: list[tuple[int, int]], direction: str) -> list[str]:
    """``point_traj_2action_traj``: a cell path as moves and turns from ``direction`` (a half turn is two lefts)."""
    row, col = path[0]
    out: list[str] = []
    for r2, c2 in path[1:]:
        d_row, d_col = r2 - row, c2 - col
        while True:
            ahead = {"up": d_row > 0, "down": d_row < 0, "left": d_col < 0, "right": d_col > 0}[direction]
            if ahead:
                out.append("MoveAhead")
                if direction in ("up", "down"):
                    step = 1 if direction == "up" else -1
                    row, d_row = row + step, d_row - step
                else:
                    step = 1 if direction == "right" else -1
                    col, d_col = col + step, d_col - step
                break
            table = _TURN[direction]
            if direction in ("up", "down"):
                key = "back" if d_row != 0 else ("+col" if d_col > 0 else "-col" if d_col < 0 else None)
            else:
                key = "back" if d_col != 0 else ("+row" if d_row > 0 else "-row" if d_row < 0 else None)
            if key is None:
                raise GridError("a path step that does not move")
            direction, turns = table[key]
            out.extend(turns)
    return out


FACING = {"up": (0.0, 1.0), "right": (1.0, 0.0), "down": (0.0, -1.0), "left": (-1.0, 0.0)}


class GotoEnds:
    """Where ``goto`` puts the agent on a scene whose boxes do not change, for many starts and targets.

    The grid is built once; a goto's end is the first candidate (last found first) that a path reaches
    from the agent's cell (A* finds a path exactly when one exists, so reachability is a breadth-first
    scan), and the agent then faces the object's dominant axis whatever its heading was. Returns
    ``(x, y, facing)``, None (no candidate reachable) or False (already there: a one-cell path).
    """

    def __init__(self, bounds: Rect, step: float, boxes: Iterable[Rect]):
        self.bounds, self.step = bounds, step
        self.grid = build_grid(bounds, step, boxes)

    def cell(self, x: float, y: float) -> tuple[int, int]:
        return _index(y, self.bounds[1], self.step), _index(x, self.bounds[0], self.step)

    def end(self, agent: tuple[float, float], target: tuple[float, float]) -> tuple[float, float, str] | None | bool:
        grid = [row[:] for row in self.grid]
        row2, col2 = self.cell(*target)
        row1, col1 = self.cell(*agent)
        try:
            grid[row2][col2] = 3
            grid[row1][col1] = 4
        except IndexError:
            raise GridError("the agent or the target lies off the grid") from None
        found = candidates(grid, row2, col2)
        seen = _reach(grid, (row1, col1))
        while found:
            end = found.pop()
            if end in seen:
                if end == (row1, col1):
                    return False
                row, col = end
                return col * self.step + self.bounds[0], row * self.step + self.bounds[1], facing(col2, row2, col, row)
        return None


def _reach(grid: list[list[int]], start: tuple[int, int]) -> set[tuple[int, int]]:
    n, m = len(grid), len(grid[0])
    seen = {start}
    queue = deque([start])
    while queue:
        r, c = queue.popleft()
        for nr, nc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if 0 <= nr < n and 0 <= nc < m and grid[nr][nc] != 1 and (nr, nc) not in seen:
                seen.add((nr, nc))
                queue.append((nr, nc))
    return seen
