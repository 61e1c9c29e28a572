"""SmartPlay's Tower of Hanoi rules: six moves, a state of three rods, one pure step function.

A move takes the top disk of one rod to the top of another. Moving from an empty rod or putting
a bigger disk on a smaller one is rejected with the reason; SmartPlay leaves the state unchanged
and gives reward -1, and the episode goes on. The episode ends at the goal (all disks on C).
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum

from plancheck.domains.smartplay.hanoi.instance import HanoiInstance
from plancheck.rules import Applied, Outcome, Rejected, Unknown

RODS = "ABC"

# A state lists the disks on rods A, B and C from bottom to top, as SmartPlay's observation does.
State = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]


class Move(Enum):
    """SmartPlay's six actions, valued by their action index 0-5."""

    AB = 0
    AC = 1
    BA = 2
    BC = 3
    CA = 4
    CB = 5

    @property
    def source(self) -> int:
        return RODS.index(self.name[0])

    @property
    def target(self) -> int:
        return RODS.index(self.name[1])

    @property
    def sentence(self) -> str:
        """SmartPlay's action text."""
        return f"Move the top disk of rod {self.name[0]} to the top of rod {self.name[1]}"

    @classmethod
    def between(cls, source: str, target: str) -> Move:
        """The move from rod ``source`` to rod ``target`` (letters, any case).

        >>> Move.between("a", "C")
        <Move.AC: 1>
        """
        return cls[(source + target).upper()]

    def __str__(self) -> str:
        return f"{self.name[0]}->{self.name[1]}"


def initial_state(disks: int) -> State:
    return (tuple(range(disks - 1, -1, -1)), (), ())


def goal_state(disks: int) -> State:
    return ((), (), tuple(range(disks - 1, -1, -1)))


def apply(state: State, move: Move) -> Outcome:
    """The state after ``move``, or why it is invalid.

    >>> apply(initial_state(3), Move.AC).state
    ((2, 1), (), (0,))
    >>> apply(((2, 1), (), (0,)), Move.AC).reason
    'A->C puts disk 1 on the smaller disk 0'
    """
    source, target = state[move.source], state[move.target]
    if not source:
        return Rejected(f"{move} moves from rod {RODS[move.source]}, which is empty")
    disk = source[-1]
    if target and target[-1] < disk:
        return Rejected(f"{move} puts disk {disk} on the smaller disk {target[-1]}",
                        (f"(smaller d{disk} d{target[-1]})",))
    rods = list(state)
    rods[move.source] = source[:-1]
    rods[move.target] = target + (disk,)
    return Applied((rods[0], rods[1], rods[2]))


class HanoiRules:
    """The rules of one instance; satisfies :class:`plancheck.rules.SearchRules`."""

    stops_at_goal = True

    def __init__(self, instance: HanoiInstance):
        self.instance = instance
        self.horizon = instance.step_limit
        self._initial = initial_state(instance.disks)
        self._goal = goal_state(instance.disks)

    def initial_state(self) -> State:
        return self._initial

    def goal_reached(self, state: State) -> bool:
        return state == self._goal

    def step(self, state: State, action: Move | Unknown) -> Outcome:
        if isinstance(action, Move):
            return apply(state, action)
        return Rejected(f"{str(action)!r} is not a Hanoi move")

    def actions(self, state: State) -> Iterable[Move]:
        return iter(Move)

    def cost(self, state: State, action: Move) -> float:
        return 1.0
