"""The bandit's scores (see ``_scoring``): SmartPlay's score, normalised by 45, the total reward,
and the posterior analysis; the optimum is the oracle's 50 (one pull of the best machine a step)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from plancheck.domains.smartplay import _scoring
from plancheck.domains.smartplay.bandits.instance import BanditInstance
from plancheck.domains.smartplay.bandits.solve import bayes_value, oracle_value
from plancheck.episodes.game import CheckedStep, Outcome


def outcome(instance: BanditInstance, settings: Mapping[str, Any], steps: Sequence[CheckedStep]) -> Outcome:
    horizon = settings["steps"]
    return _scoring.outcome(instance.env, steps, float(bayes_value(instance, horizon)),
                            oracle_value(instance, horizon))
