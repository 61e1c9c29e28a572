"""The GRASP paper's two baselines, seeded and deterministic.

* Random walk: six times (a random move, TAKE), then the six moves undone in reverse order, then
  DROP: 19 actions.
* Greedy: repeatedly walk a shortest path (breadth-first, neighbours in random order) to the
  nearest cell with energy and TAKE; turn back (undo every move so far, then DROP) as soon as the
  next target would not leave enough steps to return: ``2 * len(path) + moves + 2 > steps_left``.

Neither looks at the carry limit or the step cost, as in the paper. Unlike the recorded answers
(produced while the authors' code ignored diagonal moves), these run under the correct rules.
"""

from __future__ import annotations

import random
from collections import deque

from plancheck.domains.grasp.grid import OBSTACLE, Cell
from plancheck.domains.grasp.instance import Environment
from plancheck.domains.grasp.rules import DIAGONAL, MOVES, STRAIGHT, Action

INVERSE = {Action.UP: Action.DOWN, Action.DOWN: Action.UP, Action.LEFT: Action.RIGHT, Action.RIGHT: Action.LEFT,
           Action.UPLEFT: Action.DOWNRIGHT, Action.DOWNRIGHT: Action.UPLEFT,
           Action.UPRIGHT: Action.DOWNLEFT, Action.DOWNLEFT: Action.UPRIGHT}


def _directions(env: Environment) -> tuple[Action, ...]:
    return STRAIGHT + (DIAGONAL if env.setting.directions == 8 else ())


def _undo(moves: list[Action]) -> list[Action]:
    return [INVERSE[m] for m in reversed(moves)]


def random_walk(env: Environment, rng: random.Random) -> list[Action]:
    """The random-walk baseline (moves are drawn from the setting's directions, valid or not)."""
    directions = _directions(env)
    moves = [rng.choice(directions) for _ in range(6)]
    plan: list[Action] = []
    for move in moves:
        plan += [move, Action.TAKE]
    return plan + _undo(moves) + [Action.DROP]


def _path_to_nearest_energy(env: Environment, start: Cell, energy: set[Cell],
                            rng: random.Random) -> list[Action] | None:
    grid = env.grid
    directions = list(_directions(env))
    parents: dict[Cell, tuple[Cell, Action] | None] = {start: None}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        if cell in energy:
            path = []
            while parents[cell] is not None:
                cell, move = parents[cell]
                path.append(move)
            return path[::-1]
        rng.shuffle(directions)
        for move in directions:
            dr, dc = MOVES[move]
            nxt = (cell[0] + dr, cell[1] + dc)
            if grid.inside(nxt) and grid.at(nxt) != OBSTACLE and nxt not in parents:
                parents[nxt] = (cell, move)
                queue.append(nxt)
    return None


def greedy(env: Environment, rng: random.Random) -> list[Action]:
    """The greedy baseline."""
    position = env.grid.start
    energy = set(env.grid.energy_cells)
    moves: list[Action] = []
    plan: list[Action] = []
    while True:
        steps_left = env.step_limit - len(plan)
        path = _path_to_nearest_energy(env, position, energy, rng)
        if path is None or 2 * len(path) + len(moves) + 2 > steps_left:
            return plan + _undo(moves) + [Action.DROP]
        for move in path:
            dr, dc = MOVES[move]
            position = (position[0] + dr, position[1] + dc)
        moves += path
        plan += path + [Action.TAKE]
        energy.discard(position)


BASELINES = {"random": random_walk, "greedy": greedy}
