"""The bandit's references, computed from the rules: the posterior after any history, the exact
Bayes-optimal expected score (a Bellman recursion over the posterior, in exact rationals), the
oracle and the uniform random policy; and the reference policies ``oracle``, ``bayes``, ``random``.

Both orders of the machines are equally likely a priori (SmartPlay's uniform shuffle). With
payouts p and 1 - p (0.8 and 0.2), every pull is evidence of the same weight, p / (1 - p) = 4,
for one order or the other whichever machine is pulled: a win on machine 1 or a loss on machine 2
favours "machine 1 is the best". The posterior therefore depends only on the balance ``e`` of that
evidence: P(machine 1 is the best) = 4^e / (1 + 4^e).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from functools import cache

from plancheck.domains.smartplay.bandits.instance import BanditInstance
from plancheck.episodes.game import Replies
from plancheck.errors import BadInputError

POLICIES = ("oracle", "bayes", "random")


class Belief:
    """The posterior over which machine is the best, after the pulls seen so far (two machines),
    exact: the odds are a product of exact likelihood ratios, so an even balance of evidence gives
    exactly 1/2 each (a tie: either choice is optimal)."""

    def __init__(self, instance: BanditInstance):
        if len(instance.payouts) != 2:
            raise ValueError("the bandit's posterior is written for two machines")
        high, low = (Fraction(str(p)) for p in sorted(instance.payouts, reverse=True))
        self.win, self.loss = high / low, (1 - high) / (1 - low)  # likelihood ratios for "machine 1 is the best"
        self.known = _POSTERIORS.setdefault((self.win, self.loss), {})
        self.wins = self.losses = 0  # on machine 1 minus on machine 2

    def posterior(self) -> tuple[float, float]:
        """P(machine 1 is the best), P(machine 2 is the best)."""
        key = self.wins, self.losses
        if key not in self.known:
            odds = self.win ** self.wins * self.loss ** self.losses
            first = odds / (1 + odds)
            self.known[key] = float(first), float(1 - first)
        return self.known[key]

    def update(self, machine: int, reward: int) -> None:
        """Take in a pull of ``machine`` (0-based) that paid ``reward``."""
        sign = 1 if machine == 0 else -1
        if reward > 0:
            self.wins += sign
        else:
            self.losses += sign


_POSTERIORS: dict[tuple[Fraction, Fraction], dict[tuple[int, int], tuple[float, float]]] = {}


def regret(posterior: Sequence[float], chosen: int) -> float:
    """The expected score lost at this step against the posterior-optimal choice."""
    return max(posterior) - posterior[chosen]


def _complementary(instance: BanditInstance) -> Fraction:
    high = Fraction(str(max(instance.payouts)))
    if len(instance.payouts) != 2 or Fraction(str(min(instance.payouts))) != 1 - high:
        raise ValueError("the exact Bayes value is computed for two machines with payouts p and 1 - p")
    return high


@cache
def bayes_value(instance: BanditInstance, steps: int) -> Fraction:
    """The Bayes-optimal expected score over ``steps`` pulls, exactly: the Bellman recursion
    V_t(e) = max over machines m of [P(m best | e) + sum over outcomes of P(outcome | m, e) V_{t+1}(e')].

    >>> round(float(bayes_value(BanditInstance(), 50)), 3)
    48.611
    """
    p = _complementary(instance)
    weight = p / (1 - p)

    @cache
    def value(t: int, e: int) -> Fraction:
        if t == steps:
            return Fraction(0)
        first = weight ** e / (1 + weight ** e)
        best = Fraction(0)
        for machine, chance in ((0, first), (1, 1 - first)):
            pays = chance * p + (1 - chance) * (1 - p)  # P(this machine pays)
            toward_first = 1 if machine == 0 else -1  # a win here moves e this way
            future = pays * value(t + 1, e + toward_first) + (1 - pays) * value(t + 1, e - toward_first)
            best = max(best, chance + future)
        return best

    return value(0, 0)


def greedy_correct(instance: BanditInstance, steps: int) -> list[Fraction]:
    """P(the posterior-greedy choice is the best machine) at each step 0 .. steps - 1 (either
    machine on a tie): P(S_t > 0) + P(S_t = 0) / 2 for the evidence walk S_t seen from the truth.

    >>> [round(float(x), 3) for x in greedy_correct(BanditInstance(), 6)]
    [0.5, 0.8, 0.8, 0.896, 0.896, 0.942]
    """
    p = _complementary(instance)
    walk = {0: Fraction(1)}
    result = []
    for _ in range(steps):
        result.append(sum(w for s, w in walk.items() if s > 0) + walk.get(0, Fraction(0)) / 2)
        after: dict[int, Fraction] = {}
        for s, w in walk.items():
            after[s + 1] = after.get(s + 1, Fraction(0)) + w * p
            after[s - 1] = after.get(s - 1, Fraction(0)) + w * (1 - p)
        walk = after
    return result


def oracle_value(instance: BanditInstance, steps: int) -> int:
    """The oracle pulls the best machine every time."""
    return steps


def random_value(instance: BanditInstance, steps: int) -> Fraction:
    """A uniformly random pull is the best machine with probability 1 / (number of machines)."""
    return Fraction(steps, len(instance.payouts))


class OraclePolicy:
    """Pulls the hidden best machine (it reads the game's truth)."""

    def replies(self, step: int, game) -> Replies:
        return Replies(game.actions()[game.state.machines.best])


class BayesPolicy:
    """Pulls the machine most likely to be the best given the pulls so far (the lower one on a tie)."""

    def replies(self, step: int, game) -> Replies:
        posterior = game.belief.posterior()
        return Replies(game.actions()[posterior.index(max(posterior))])


class RandomPolicy:
    """Pulls a machine uniformly at random from its own seeded generator (independent of the game's)."""

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
    raise BadInputError(f"unknown reference policy {name!r}; the bandit has {', '.join(POLICIES)}")
