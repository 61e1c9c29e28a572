"""The contract corpus: episode logs with their expected verdicts (see ``_examples``), and the optimum."""

from __future__ import annotations

from plancheck.domains.smartplay._examples import corpus
from plancheck.domains.smartplay.bandits.world import WORLD
from plancheck.world import Optimum

EXAMPLES = tuple(corpus(WORLD.episodes))
OPTIMUM = {"score": 50}  # the oracle's: the best action at every one of the 50 steps
OPTIMA = (Optimum("BanditTwoArmedHighLowFixed", OPTIMUM, {"policy": "oracle", "seed": 1}),)
