"""Rock Paper Scissors' scores (see ``_scoring``): SmartPlay's score, normalised by 43, the total
reward, and the posterior analysis; the optimum is the oracle's 50 (the best action every round)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from plancheck.domains.smartplay import _scoring
from plancheck.domains.smartplay.rps.instance import RPSInstance
from plancheck.domains.smartplay.rps.solve import bayes_value, oracle_value
from plancheck.episodes.game import CheckedStep, Outcome


def outcome(instance: RPSInstance, settings: Mapping[str, Any], steps: Sequence[CheckedStep]) -> Outcome:
    horizon = settings["steps"]
    return _scoring.outcome(instance.env, steps, float(bayes_value(instance, horizon)),
                            oracle_value(instance, horizon))
