"""MessengerL1's rules (``StageOne.step``) and the five actions every level shares.

The avatar starts at (5, 5); the enemy, message and goal sit still two cells away. A move off the
10x10 grid does nothing. After the move, in this order: on the enemy, reward -1 and the episode
ends; on the message, +1 and the end if the avatar lacks it, -1 and the end if it already has it;
on the goal, +1 and the end with the message, -1 and the end without; otherwise 0. Every action is
legal, so :meth:`L1Rules.step` never rejects: the benchmark's outcome (reward, end) is in the state.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import IntEnum

from plancheck.domains.smartplay.messenger.instance import L1_AVATAR, Cell, Layout
from plancheck.domains.smartplay.messenger.prompts import ACTIONS
from plancheck.rules import Applied, Outcome, Rejected

GRID = 10  # config.STATE_HEIGHT = STATE_WIDTH


class Action(IntEnum):
    """SmartPlay's five actions, valued by their index (messenger's up, down, left, right, stay)."""

    NORTH = 0
    SOUTH = 1
    WEST = 2
    EAST = 3
    STAY = 4

    @property
    def text(self) -> str:
        """SmartPlay's action text, e.g. ``Move North``."""
        return ACTIONS[self.value]

    @property
    def delta(self) -> Cell:
        """(rows, columns) the action moves by."""
        return ((-1, 0), (1, 0), (0, -1), (0, 1), (0, 0))[self.value]

    def __str__(self) -> str:
        return self.text


def moved(cell: Cell, action: Action) -> Cell:
    """``cell`` after ``action``, staying put at the grid's edge.

    >>> moved((0, 4), Action.NORTH), moved((5, 5), Action.EAST)
    ((0, 4), (5, 6))
    """
    row, col = cell[0] + action.delta[0], cell[1] + action.delta[1]
    return (row, col) if 0 <= row < GRID and 0 <= col < GRID else cell


@dataclass(frozen=True, slots=True)
class L1State:
    """The avatar's cell and message; ``reward`` of the last step and whether the episode ``ended``."""

    avatar: Cell = L1_AVATAR
    has_message: bool = False
    reward: float = 0.0
    ended: bool = False


def l1_step(layout: Layout, state: L1State, action: Action) -> L1State:
    """One ``StageOne.step``.

    >>> layout = Layout(enemy=(7, 5), message=(3, 5), goal=(5, 3), has_message=False)
    >>> s = l1_step(layout, L1State(), Action.NORTH); s
    L1State(avatar=(4, 5), has_message=False, reward=0.0, ended=False)
    >>> l1_step(layout, s, Action.NORTH)
    L1State(avatar=(3, 5), has_message=False, reward=1.0, ended=True)
    """
    cell = moved(state.avatar, action)
    if cell == layout.enemy:
        reward = -1.0
    elif cell == layout.message:
        reward = -1.0 if state.has_message else 1.0
    elif cell == layout.goal:
        reward = 1.0 if state.has_message else -1.0
    else:
        return L1State(cell, state.has_message, 0.0, False)
    return L1State(cell, state.has_message, reward, True)


class L1Rules:
    """The rules of one L1 episode for the generic executor and searches: the goal is a win (+1)."""

    horizon = 4
    stops_at_goal = True

    def __init__(self, layout: Layout):
        self.layout = layout

    def initial_state(self) -> L1State:
        return L1State(L1_AVATAR, self.layout.has_message)

    def step(self, state: L1State, action: Action) -> Outcome:
        if not isinstance(action, Action):
            return Rejected(f"{str(action)!r} is not a Messenger action")
        if state.ended:
            return Rejected("the episode has already ended")
        return Applied(l1_step(self.layout, state, action))

    def goal_reached(self, state: L1State) -> bool:
        return state.ended and state.reward == 1.0

    def actions(self, state: L1State) -> Iterable[Action]:
        return () if state.ended else iter(Action)

    def cost(self, state: L1State, action: Action) -> float:
        return 1.0
