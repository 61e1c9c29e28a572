"""Rock Paper Scissors' rules (SmartPlay's ``RPSEnv``), pure: the draws are arguments.

The opponent's (probability, score) pairs are shuffled with ``random.shuffle`` when the
environment is made and again at every reset; each round the opponent's move is
``numpy.random.choice(3, p=probabilities)`` (one uniform draw), whatever the player does. Rock
loses to Paper, Paper to Scissor, Scissor to Rock. A win pays the player's own move's score, a loss
costs the opponent's, a tie pays 0. The score counts the rounds whose move is SmartPlay's
``compute_optimal_action``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from plancheck.domains.smartplay._random import choice

WON, LOST, TIED = "won", "lost", "tied"


def result(move: int, opponent: int) -> str:
    """``won``, ``lost`` or ``tied`` for the player's ``move`` against ``opponent`` (0 Rock, 1 Paper, 2 Scissor).

    >>> result(0, 2), result(0, 1), result(2, 2)
    ('won', 'lost', 'tied')
    """
    if (move, opponent) in ((0, 1), (1, 2), (2, 0)):
        return LOST
    return TIED if move == opponent else WON


def beaten_by(move: int) -> int:
    """The move that ``move`` beats (Rock beats Scissor, Paper beats Rock, Scissor beats Paper)."""
    return (move + 2) % 3


@dataclass(frozen=True, slots=True)
class Opponent:
    """The hidden truth of an episode: the opponent's move probabilities and the win scores, per move."""

    probabilities: tuple[float, ...]
    scores: tuple[int, ...]
    optimal: int = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "optimal", self._optimal())

    def _optimal(self) -> int:
        """SmartPlay's ``compute_optimal_action``, with its formula: the first move of highest
        sum over opponent moves o of p[o]*s[o], minus p[o]*s[o] when it loses to o, plus p[o]*s[move]
        when it beats o. (The formula is wrong when scores differ; with equal scores, as here, its
        argmax is the move that beats the opponent's likeliest move.)"""
        values = []
        for move in range(len(self.probabilities)):
            value = 0.0
            for other, (p, s) in enumerate(zip(self.probabilities, self.scores, strict=True)):
                value += p * s
                outcome = result(move, other)
                if outcome == LOST:
                    value -= p * s
                elif outcome == WON:
                    value += p * self.scores[move]
            values.append(value)
        return values.index(max(values))


def shuffled(opponent: Opponent, python: random.Random) -> Opponent:
    """SmartPlay's ``random.shuffle`` of the (probability, score) pairs."""
    order = list(range(len(opponent.probabilities)))
    python.shuffle(order)
    return Opponent(tuple(opponent.probabilities[i] for i in order), tuple(opponent.scores[i] for i in order))


def opponent_move(opponent: Opponent, numpy: random.Random) -> tuple[int, float]:
    """The opponent's move (``numpy.random.choice``) and the uniform draw behind it."""
    return choice(numpy, opponent.probabilities)


@dataclass(frozen=True, slots=True)
class State:
    """The opponent, the rounds played and SmartPlay's score (rounds whose move was the optimal one)."""

    opponent: Opponent
    steps: int = 0
    score: int = 0


def play(state: State, move: int, opponent: int) -> tuple[State, str, int]:
    """A round: the next state, the result and the reward.

    >>> play(State(Opponent((0.2, 0.2, 0.6), (1, 1, 1))), 0, 2)[1:]
    ('won', 1)
    """
    outcome = result(move, opponent)
    scores = state.opponent.scores
    reward = scores[move] if outcome == WON else -scores[opponent] if outcome == LOST else 0
    return State(state.opponent, state.steps + 1, state.score + (move == state.opponent.optimal)), outcome, reward
