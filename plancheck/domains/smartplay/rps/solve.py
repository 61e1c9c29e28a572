"""Rock Paper Scissors' references, computed from the rules: the posterior after any rounds, the
exact Bayes-optimal expected score (a Bellman recursion over the opponent's move counts, in exact
rationals), the oracle and the uniform random policy; and the reference policies ``oracle``,
``bayes``, ``random``.

Which move the opponent favours (probability 0.6, the others 0.2) is uniform a priori. Its moves do
not depend on ours, so every round tells the same whatever we play, and the posterior after move
counts c is proportional to 3^c[m] (3 = 0.6 / 0.2) for "m is favoured". The best action beats the
favoured move.
"""

from __future__ import annotations

import random
from fractions import Fraction
from functools import cache

from plancheck.domains.smartplay.rps.instance import RPSInstance
from plancheck.domains.smartplay.rps.rules import beaten_by
from plancheck.episodes.game import Replies
from plancheck.errors import BadInputError

POLICIES = ("oracle", "bayes", "random")


def _split(instance: RPSInstance) -> tuple[Fraction, Fraction]:
    """The favoured move's probability and the others' (one move is favoured, the others equal)."""
    probabilities = sorted(Fraction(str(p)) for p in instance.probabilities)
    if len(probabilities) != 3 or probabilities[0] != probabilities[1] or probabilities[2] <= probabilities[1]:
        raise ValueError("the posterior is written for one favoured move and two equally likely others")
    return probabilities[2], probabilities[0]


class Belief:
    """The posterior over the opponent's favoured move, from its moves so far."""

    def __init__(self, instance: RPSInstance):
        high, low = _split(instance)
        self.ratio = float(high / low)
        self.known = _POSTERIORS.setdefault(self.ratio, {})
        self.counts = [0, 0, 0]

    def posterior(self) -> tuple[float, float, float]:
        """P(each action is the best one): P(Rock best) = P(Scissor is favoured), and so on."""
        key = tuple(self.counts)
        if key not in self.known:
            top = max(key)
            weights = [self.ratio ** (count - top) for count in key]
            total = sum(weights)
            self.known[key] = tuple(weights[beaten_by(action)] / total for action in range(3))
        return self.known[key]

    def update(self, opponent: int) -> None:
        """Take in one opponent move."""
        self.counts[opponent] += 1


_POSTERIORS: dict[float, dict[tuple[int, ...], tuple[float, ...]]] = {}


def regret(posterior, chosen: int) -> float:
    """The expected score lost at this step against the posterior-optimal choice."""
    return max(posterior) - posterior[chosen]


@cache
def bayes_value(instance: RPSInstance, steps: int) -> Fraction:
    """The Bayes-optimal expected score over ``steps`` rounds, exactly: the Bellman recursion
    V_t(c) = max over actions a of [P(a best | c) + sum over opponent moves m of P(m | c) V_{t+1}(c + m)]
    (by symmetry V depends on the sorted counts only).

    >>> round(float(bayes_value(RPSInstance(), 50)), 3)
    46.178
    """
    high, low = _split(instance)
    ratio = high / low

    @cache
    def value(t: int, counts: tuple[int, int, int]) -> Fraction:
        if t == steps:
            return Fraction(0)
        weights = [ratio ** c for c in counts]
        total = sum(weights)
        favoured = [w / total for w in weights]  # P(m is favoured | counts)
        best_now = max(favoured)  # each action is best exactly when the move it beats is favoured
        future = Fraction(0)
        for m in range(3):
            chance = sum(f * (high if m == g else low) for g, f in enumerate(favoured))  # P(next move is m)
            after = list(counts)
            after[m] += 1
            future += chance * value(t + 1, tuple(sorted(after)))
        return best_now + future

    return value(0, (0, 0, 0))


def greedy_correct(instance: RPSInstance, steps: int) -> list[Fraction]:
    """P(a uniformly tie-broken posterior-greedy choice is the best action) at each step 0 .. steps - 1.

    >>> [round(float(x), 3) for x in greedy_correct(RPSInstance(), 6)]
    [0.333, 0.6, 0.6, 0.696, 0.734, 0.769]
    """
    high, low = _split(instance)
    counts = {(0, 0, 0): Fraction(1)}  # counts of (favoured, other, other) -> probability, seen from the truth
    result = []
    for _ in range(steps):
        correct = Fraction(0)
        for (f, a, b), weight in counts.items():
            top = max(f, a, b)
            if f == top:
                correct += weight / sum(1 for c in (f, a, b) if c == top)
        result.append(correct)
        after: dict[tuple[int, int, int], Fraction] = {}
        for (f, a, b), weight in counts.items():
            for key, chance in (((f + 1, a, b), high), ((f, a + 1, b), low), ((f, a, b + 1), low)):
                after[key] = after.get(key, Fraction(0)) + weight * chance
        counts = after
    return result


def oracle_value(instance: RPSInstance, steps: int) -> int:
    """The oracle plays the best action every round."""
    return steps


def random_value(instance: RPSInstance, steps: int) -> Fraction:
    """A uniformly random move is the best one with probability 1/3."""
    return Fraction(steps, len(instance.probabilities))


class OraclePolicy:
    """Plays SmartPlay's optimal action (it reads the game's truth)."""

    def replies(self, step: int, game) -> Replies:
        return Replies(game.actions()[game.state.opponent.optimal])


class BayesPolicy:
    """Plays the action most likely to be the best given the opponent's moves so far (the first one on a tie)."""

    def replies(self, step: int, game) -> Replies:
        posterior = game.belief.posterior()
        return Replies(game.actions()[posterior.index(max(posterior))])


class RandomPolicy:
    """Plays uniformly at random from its own seeded generator (independent of the game's)."""

    def __init__(self, seed: int):
        self.random = random.Random(f"plancheck random policy {seed}")

    def replies(self, step: int, game) -> Replies:
        return Replies(self.random.choice(game.actions()))


def policy(name: str, game, seed: int):
    """The reference policy ``name`` for ``game``."""
    if name == "oracle":
        return OraclePolicy()
    if name == "bayes":
        return BayesPolicy()
    if name == "random":
        return RandomPolicy(seed)
    raise BadInputError(f"unknown reference policy {name!r}; Rock Paper Scissors has {', '.join(POLICIES)}")
