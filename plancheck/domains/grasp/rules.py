"""GRASP's rules: actions, state, and one pure step function.

A move into the boundary or an obstacle, a diagonal under the 4-direction action set, TAKE on a
cell without energy or at the carry limit, DROP while carrying nothing, and an unknown token are
all rejected with a reason; the benchmark treats them as no-ops that still use a step.
DROP puts all carried energy on the current cell, which may then hold several units.
Each rejection also names the unmet condition as an atom of the PDDL validation model
(:mod:`plancheck.domains.grasp.pddl`): ``(free c2_5)``, ``(allowed dir-upleft)``,
``(adjacent dir-up c0_5 ?to)`` (no cell lies that way), ``(has-energy c3_5)``,
``(below-limit n2)``, ``(loaded)``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import Enum
from functools import lru_cache
from typing import NamedTuple

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


def pddl_cell(cell: Cell) -> str:
    """The PDDL object of a cell: ``c<row>_<col>``."""
    return f"c{cell[0]}_{cell[1]}"


def pddl_direction(action: Action) -> str:
    """The PDDL object of a move's direction: ``dir-up``, ``dir-upleft``, ..."""
    return "dir-" + action.value.lower()


class Run(NamedTuple):
    """A whole answer run under the benchmark's rules (:meth:`GraspRules.run`): the final state, the actions
    executed (at most the step limit) and rejected (no-ops), and the first rejected step: its number, the
    rules' outcome for it (the reason, the unmet atom) and the state it left unchanged (None: none rejected)."""

    final: State
    executed: int
    rejected: int
    first_rejected: int | None = None
    rejection: Rejected | None = None
    before_rejection: State | None = None


class State(NamedTuple):
    """The agent's cell, the energy it carries, and the energy lying on every cell (row-major).

    A NamedTuple rather than a frozen dataclass: as immutable, but a new state is built at nearly
    every step, and this is half the cost.
    """

    position: Cell
    carried: int
    energy: tuple[int, ...]
    collected: int = 0  # units taken so far (a metric; it never decides an outcome)


@lru_cache(maxsize=4096)
def _initial_energy(grid: Grid) -> tuple[int, ...]:
    return tuple(1 if ch == ENERGY else 0 for ch in grid.cells)


# A rejection is immutable and depends only on the action and the cell (and the load, at the limit):
# each is built once and shared.
@lru_cache(maxsize=8192)
def _off_grid(action: Action, cell: Cell) -> Rejected:
    return Rejected(f"{action} from {cell} would leave the grid",
                    (f"(adjacent {pddl_direction(action)} {pddl_cell(cell)} ?to)",))


@lru_cache(maxsize=8192)
def _blocked(action: Action, cell: Cell, target: Cell) -> Rejected:
    return Rejected(f"{action} from {cell} is blocked by an obstacle at {target}", (f"(free {pddl_cell(target)})",))


@lru_cache(maxsize=4096)
def _no_energy(cell: Cell) -> Rejected:
    return Rejected(f"TAKE at {cell}: the cell holds no energy", (f"(has-energy {pddl_cell(cell)})",))


@lru_cache(maxsize=4096)
def _at_limit(cell: Cell, carried: int) -> Rejected:
    return Rejected(f"TAKE at {cell}: already carrying {carried}, the carry limit", (f"(below-limit n{carried})",))


@lru_cache(maxsize=4096)
def _nothing_carried(cell: Cell) -> Rejected:
    return Rejected(f"DROP at {cell}: carrying no energy", ("(loaded)",))


_DELTAS = {4: {action: MOVES[action] for action in STRAIGHT}, 8: MOVES}
TAKE, DROP = Action.TAKE, Action.DROP  # module constants: an Enum class attribute costs a lookup per step


class GraspRules:
    """The rules of one environment; satisfies :class:`plancheck.rules.SearchRules`."""

    stops_at_goal = False

    def __init__(self, env: Environment):
        self.env = env
        self.horizon = env.step_limit
        grid, setting = env.grid, env.setting
        self._rows, self._cols, self._cells = grid.rows, grid.cols, grid.cells
        self._capacity = setting.capacity
        self._step_cost = setting.step_cost
        self._deltas = _DELTAS[setting.directions]
        self._initial = State(grid.start, 0, _initial_energy(grid))

    def initial_state(self) -> State:
        return self._initial

    def goal_reached(self, state: State) -> bool:
        return False

    def step(self, state: State, action: Action | Unknown) -> Outcome:
        position = state.position
        delta = self._deltas.get(action)
        if delta is not None:  # a move allowed in this setting
            r, c = position[0] + delta[0], position[1] + delta[1]
            if not (0 <= r < self._rows and 0 <= c < self._cols):
                return _off_grid(action, position)
            if self._cells[r * self._cols + c] == OBSTACLE:
                return _blocked(action, position, (r, c))
            return Applied(State((r, c), state.carried, state.energy, state.collected))
        if action is TAKE:
            index = position[0] * self._cols + position[1]
            if state.energy[index] == 0:
                return _no_energy(position)
            if state.carried >= self._capacity:
                return _at_limit(position, state.carried)
            energy = list(state.energy)
            energy[index] -= 1
            return Applied(State(position, state.carried + 1, tuple(energy), state.collected + 1))
        if action is DROP:
            if state.carried == 0:
                return _nothing_carried(position)
            index = position[0] * self._cols + position[1]
            energy = list(state.energy)
            energy[index] += state.carried
            return Applied(State(position, 0, tuple(energy), state.collected))
        if action in MOVES:
            return Rejected(f"{action} is not allowed with 4 directions (only UP, DOWN, LEFT, RIGHT)",
                            (f"(allowed {pddl_direction(action)})",))
        return Rejected(f"{str(action)!r} is not a GRASP action")

    def run(self, actions: Sequence[Action | Unknown]) -> Run:
        """``actions`` run to the step limit as :func:`plancheck.verifier.execute.execute` runs them through
        :meth:`step`, without an object per step: the batch route (:mod:`plancheck.domains.grasp.check`). The
        same cases apply or are rejected as in :meth:`step`, which gives the first rejection its words
        (tests/grasp/test_rules.py compares both routes on random answers)."""
        rows, cols, cells, capacity, deltas = self._rows, self._cols, self._cells, self._capacity, self._deltas
        (r, c), carried, energy, collected = self._initial.position, 0, list(self._initial.energy), 0
        executed = min(len(actions), self.horizon)
        rejected, first, rejection, before = 0, None, None, None
        for number in range(executed):
            action = actions[number]
            delta = deltas.get(action)
            if delta is not None:
                row, col = r + delta[0], c + delta[1]
                if 0 <= row < rows and 0 <= col < cols and cells[row * cols + col] != OBSTACLE:
                    r, c = row, col
                    continue
            elif action is TAKE:
                index = r * cols + c
                if energy[index] and carried < capacity:
                    energy[index] -= 1
                    carried += 1
                    collected += 1
                    continue
            elif action is DROP:
                if carried:
                    energy[r * cols + c] += carried
                    carried = 0
                    continue
            rejected += 1
            if first is None:
                first, before = number + 1, State((r, c), carried, tuple(energy), collected)
                rejection = self.step(before, action)
                if rejection.ok:  # pragma: no cover - a bug: the two routes must apply the same rules
                    raise RuntimeError(f"run() rejects {action} at step {first}, step() applies it")
        return Run(State((r, c), carried, tuple(energy), collected), executed, rejected, first, rejection, before)

    # -- for searches ---------------------------------------------------------------------------
    def actions(self, state: State) -> Iterable[Action]:
        return (*self._deltas, TAKE, DROP)

    def cost(self, state: State, action: Action) -> float:
        return self._step_cost
