"""GRASP's rules: actions, state, and one pure step function.

A move into the boundary or an obstacle, a diagonal under the 4-direction action set, TAKE on a
cell without energy or at the carry limit, DROP while carrying nothing, and an unknown token are
all rejected with a reason; the benchmark treats them as no-ops that still use a step.
DROP puts all carried energy on the current cell, which may then hold several units.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache

from plancheck.domains.grasp.grid import ENERGY, OBSTACLE, Cell, Grid
from plancheck.domains.grasp.instance import Environment
from plancheck.rules import Applied, Outcome, Rejected, Unknown


class Action(str, Enum):
    UP = "UP"
    DOWN = "DOWN"
    LEFT = "LEFT"
    RIGHT = "RIGHT"
    UPLEFT = "UPLEFT"
    UPRIGHT = "UPRIGHT"
    DOWNLEFT = "DOWNLEFT"
    DOWNRIGHT = "DOWNRIGHT"
    TAKE = "TAKE"
    DROP = "DROP"

    __str__ = str.__str__  # the value itself, without the slow Enum machinery


MOVES: dict[Action, tuple[int, int]] = {
    Action.UP: (-1, 0), Action.DOWN: (1, 0), Action.LEFT: (0, -1), Action.RIGHT: (0, 1),
    Action.UPLEFT: (-1, -1), Action.UPRIGHT: (-1, 1), Action.DOWNLEFT: (1, -1), Action.DOWNRIGHT: (1, 1),
}
STRAIGHT = (Action.UP, Action.DOWN, Action.LEFT, Action.RIGHT)
DIAGONAL = (Action.UPLEFT, Action.UPRIGHT, Action.DOWNLEFT, Action.DOWNRIGHT)


@dataclass(frozen=True, slots=True)
class State:
    """The agent's cell, the energy it carries, and the energy lying on every cell (row-major)."""

    position: Cell
    carried: int
    energy: tuple[int, ...]
    collected: int = 0  # units taken so far (a metric; it never decides an outcome)


@lru_cache(maxsize=4096)
def _initial_energy(grid: Grid) -> tuple[int, ...]:
    return tuple(1 if ch == ENERGY else 0 for ch in grid.cells)


class GraspRules:
    """The rules of one environment; satisfies :class:`plancheck.rules.SearchRules`."""

    stops_at_goal = False

    def __init__(self, env: Environment):
        self.env = env
        self.horizon = env.step_limit
        grid = env.grid
        self._cols = grid.cols
        self._capacity = env.setting.capacity
        self._step_cost = env.setting.step_cost
        self._allowed = STRAIGHT + (DIAGONAL if env.setting.directions == 8 else ())
        self._deltas = {action: MOVES[action] for action in self._allowed}
        self._initial = State(grid.start, 0, _initial_energy(grid))
        self._rows, self._cells = grid.rows, grid.cells

    def initial_state(self) -> State:
        return self._initial

    def goal_reached(self, state: State) -> bool:
        return False

    def step(self, state: State, action: Action | Unknown) -> Outcome:
        delta = self._deltas.get(action)
        if delta is not None:  # a move allowed in this setting
            r, c = state.position[0] + delta[0], state.position[1] + delta[1]
            if not (0 <= r < self._rows and 0 <= c < self._cols):
                return Rejected(f"{action} from {state.position} would leave the grid")
            if self._cells[r * self._cols + c] == OBSTACLE:
                return Rejected(f"{action} from {state.position} is blocked by an obstacle at {(r, c)}")
            return Applied(State((r, c), state.carried, state.energy, state.collected))
        if action is Action.TAKE:
            index = state.position[0] * self._cols + state.position[1]
            if state.energy[index] == 0:
                return Rejected(f"TAKE at {state.position}: the cell holds no energy")
            if state.carried >= self._capacity:
                return Rejected(f"TAKE at {state.position}: already carrying {state.carried}, the carry limit")
            energy = list(state.energy)
            energy[index] -= 1
            return Applied(State(state.position, state.carried + 1, tuple(energy), state.collected + 1))
        if action is Action.DROP:
            if state.carried == 0:
                return Rejected(f"DROP at {state.position}: carrying no energy")
            index = state.position[0] * self._cols + state.position[1]
            energy = list(state.energy)
            energy[index] += state.carried
            return Applied(State(state.position, 0, tuple(energy), state.collected))
        if action in MOVES:
            return Rejected(f"{action} is not allowed with 4 directions (only UP, DOWN, LEFT, RIGHT)")
        return Rejected(f"{str(action)!r} is not a GRASP action")

    # -- for searches ---------------------------------------------------------------------------
    def actions(self, state: State) -> Iterable[Action]:
        return self._allowed + (Action.TAKE, Action.DROP)

    def cost(self, state: State, action: Action) -> float:
        return self._step_cost
