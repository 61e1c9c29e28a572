"""The bandit's reference scores for the paper's table: uniform random, Bayes-optimal, oracle,
each the exact expectation over ``steps`` pulls."""

from __future__ import annotations

from plancheck.domains.smartplay.bandits.instance import BanditInstance
from plancheck.domains.smartplay.bandits.solve import bayes_value, oracle_value, random_value

METRICS = (("reward", "reward"), ("posterior-optimal", "posterior_optimal"), ("regret", "regret"),
           ("SmartPlay fallbacks", "read_none"))


def references(instance: BanditInstance, steps: int) -> list[tuple[str, float]]:
    """(label, expected raw score) of the reference policies."""
    return [("random", float(random_value(instance, steps))), ("Bayes-optimal", float(bayes_value(instance, steps))),
            ("oracle", float(oracle_value(instance, steps)))]
