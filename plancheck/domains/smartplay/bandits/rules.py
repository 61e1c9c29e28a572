"""The bandit's rules (SmartPlay's ``BanditEnv``), pure: the draws are arguments.

At a reset SmartPlay permutes the machines with one ``random.shuffle`` of their indices (composed
with the previous episode's order, which for a fresh environment is ``p_dist`` itself); the best
machine is the argmax of ``p * r - (1 - p)``. Each pull takes one ``numpy.random.uniform()`` draw
``u`` whichever machine is pulled and pays ``r`` when ``u < p``, else -1. The episode never ends by
itself (the harness stops it after 50 steps); the score counts the pulls of the best machine.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Machines:
    """The hidden truth of an episode: each machine's payout probability and reward, in order."""

    payouts: tuple[float, ...]
    rewards: tuple[int, ...]
    best: int = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "best", self._best())

    def _best(self) -> int:
        """SmartPlay's ``optimal``: the first machine of highest ``p * r - (1 - p)``.

        >>> Machines((0.2, 0.8), (1, 1))._best()
        1
        """
        values = [p * r - (1 - p) for p, r in zip(self.payouts, self.rewards, strict=True)]
        return values.index(max(values))


def shuffled(machines: Machines, python: random.Random) -> Machines:
    """SmartPlay's reset: ``random.shuffle`` of the machine indices, applied to both lists."""
    order = list(range(len(machines.payouts)))
    python.shuffle(order)
    return Machines(tuple(machines.payouts[i] for i in order), tuple(machines.rewards[i] for i in order))


@dataclass(frozen=True, slots=True)
class State:
    """The machines, the steps taken and SmartPlay's score (pulls of the best machine)."""

    machines: Machines
    steps: int = 0
    score: int = 0


def pull(state: State, machine: int, u: float) -> tuple[State, int]:
    """Pull ``machine`` (0-based) with the draw ``u``: the next state and the reward.

    >>> pull(State(Machines((0.8, 0.2), (1, 1))), 1, 0.19)
    (State(machines=Machines(payouts=(0.8, 0.2), rewards=(1, 1)), steps=1, score=0), 1)
    """
    machines = state.machines
    reward = machines.rewards[machine] if u < machines.payouts[machine] else -1
    return State(machines, state.steps + 1, state.score + (machine == machines.best)), reward
