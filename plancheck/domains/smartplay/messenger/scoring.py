"""Messenger's scores as SmartPlay computes them, and MessengerL1's reference scores by exact enumeration.

SmartPlay's ``info["score"]`` is the reward of the step just taken, and an episode's score is the
last one: +1 or -1 when it ended, 0 when the step limit ran out first (in L2 the +0.5 of the
message pickup counts only if it was the last step). The normalised score is SmartPlay's
``(score - min) / (human - min)`` with the recorded min -1 and human 1 of MessengerL1 and L2, i.e.
``(score + 1) / 2``, not clipped (an L3 step touching two enemies at once scores -2: py-vgdl adds
each effect's score). SmartPlay records no constants for L3 (its
``normalize_score`` raises); plancheck reports L3's normalised score with L2's constants and says so.

The L1 references are exact expectations over SmartPlay's start distribution (24 equally likely
placements, the message held with probability 0.2) and, for the uniform random player, over all
5^4 action sequences, in exact fractions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import cache
from itertools import permutations

from plancheck.domains.smartplay.messenger.instance import L1_CELLS, MESSAGE_PROB, STEP_LIMITS, Layout
from plancheck.domains.smartplay.messenger.rules import Action, L1State, l1_step
from plancheck.episodes.game import CheckedStep, Outcome

MINIMUM, HUMAN = -1.0, 1.0  # evaluation.yml's recorded settings of MessengerL1 and MessengerL2
RECORDED_LEVELS = (1, 2)

# A policy for the enumeration: the probability of each action in a state of an episode.
Policy = Callable[[Layout, L1State], Sequence[tuple[Action, Fraction]]]


def episode_score(rewards: Sequence[float]) -> float:
    """SmartPlay's episode score: the last step's reward (0 before any step)."""
    return float(rewards[-1]) if rewards else 0.0


def normalized(score: float) -> float:
    """``(score - min) / (human - min)`` with MessengerL1/L2's constants.

    >>> normalized(1.0), normalized(0.0), normalized(-1.0)
    (1.0, 0.5, 0.0)
    """
    return (score - MINIMUM) / (HUMAN - MINIMUM)


def l1_layouts() -> list[tuple[Layout, Fraction]]:
    """Every L1 start with its probability (the game drawn does not change the grid)."""
    held = Fraction(MESSAGE_PROB).limit_denominator(1000)  # 1/5
    starts = []
    for enemy, message, goal in permutations(L1_CELLS, 3):
        for has_message, p in ((True, held), (False, 1 - held)):
            starts.append((Layout(enemy, message, goal, has_message), p / 24))
    return starts


def target(layout: Layout, state: L1State) -> Action:
    """The move toward the message (held: toward the goal), the two-move optimal plan's action."""
    cell = layout.goal if state.has_message else layout.message
    row, col = cell[0] - state.avatar[0], cell[1] - state.avatar[1]
    if abs(row) >= abs(col):
        return Action.NORTH if row < 0 else Action.SOUTH
    return Action.WEST if col < 0 else Action.EAST


POLICIES: dict[str, Policy] = {
    "optimal": lambda layout, state: ((target(layout, state), Fraction(1)),),
    "random": lambda layout, state: tuple((action, Fraction(1, 5)) for action in Action),
    "north": lambda layout, state: ((Action.NORTH, Fraction(1)),),  # SmartPlay's fallback action 0
}


def expected_score(policy: Policy, steps: int = STEP_LIMITS[1]) -> Fraction:
    """The exact expected L1 score of ``policy`` over SmartPlay's starts.

    >>> expected_score(POLICIES["random"]), expected_score(POLICIES["north"])
    (Fraction(-2, 25), Fraction(-1, 4))
    """
    @cache
    def value(layout: Layout, state: L1State, left: int) -> Fraction:
        if state.ended or left == 0:
            return Fraction(state.reward)
        return sum((p * value(layout, l1_step(layout, state, action), left - 1)
                    for action, p in policy(layout, state)), Fraction(0))

    return sum((p * value(layout, L1State(has_message=layout.has_message), steps) for layout, p in l1_layouts()),
               Fraction(0))


def l1_references() -> dict[str, float]:
    """Expected normalised L1 scores: optimal 1.0, uniform random 0.46, always ``Move North`` 0.375."""
    return {name: normalized(float(expected_score(policy))) for name, policy in POLICIES.items()}


def outcome(level: int, steps: Sequence[CheckedStep]) -> Outcome:
    """Scores of a checked episode: ``score`` (SmartPlay's, the last step's reward), ``normalized``
    ((score + 1) / 2; for L3 with L2's constants, SmartPlay has none). Metrics: ``won``, ``lost``,
    ``message_step`` (when the message was picked up: L2/L3's reward 0.5). The optimum (L1) is a win."""
    taken = [s for s in steps if s.transition is not None]
    last = taken[-1].transition if taken else None
    score = 0.0 if last is None else last.score
    notes = []
    if score is None:
        notes.append("the last step's outcome is not logged (a converted run lacks it): its score is unknown")
    ended = last is not None and last.done
    won = ended and score is not None and score > 0
    pickups = [s.index for s in taken if s.transition.reward == 0.5]
    scores = {"score": score, "normalized": None if score is None else normalized(score)}
    metrics = {"won": int(won), "lost": int(ended and score is not None and score < 0),
               "message_step": pickups[0] if pickups else None}
    if level == 3:
        notes.append("MessengerL3's normalised score uses MessengerL2's constants (SmartPlay records none for L3)")
    optimal = {"score": 1.0, "normalized": 1.0} if level == 1 else None
    return Outcome(scores, metrics, optimal, goal_reached=None, notes=tuple(notes))
