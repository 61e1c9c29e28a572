"""The bandit as a running game, drawing exactly as SmartPlay does from a seed.

Draw order (``BanditEnv`` of a fresh environment, both global generators seeded with ``seed``):
one ``random.shuffle`` of the machine order at the reset, then one ``numpy.random.uniform()`` per
pull, whichever machine is pulled. Each transition's ``info`` carries SmartPlay's ``optimal``
(the hidden best machine, 0-based) and plancheck's analysis of the choice: ``posterior`` (the
probability that each machine is the best, given the pulls before this one) and ``regret``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from plancheck.domains.smartplay._game import SmartPlayGame
from plancheck.domains.smartplay._random import Draws
from plancheck.domains.smartplay.bandits import prompts, rules
from plancheck.domains.smartplay.bandits.instance import BanditInstance
from plancheck.domains.smartplay.bandits.solve import Belief, regret
from plancheck.episodes.game import Transition


class BanditGame(SmartPlayGame):
    """One episode of ``instance`` from ``seed``; ``state`` holds the hidden truth and the score."""

    def __init__(self, instance: BanditInstance, seed: int, settings: Mapping[str, Any]):
        super().__init__(prompts.MANUAL, prompts.ACTIONS, settings["steps"], settings["history"])
        self.instance, self.draws = instance, Draws.seeded(seed)
        self.state = rules.State(rules.Machines(instance.payouts, instance.rewards))
        self.belief = Belief(instance)

    def _start(self) -> str:
        self.state = rules.State(rules.shuffled(self.state.machines, self.draws.python))
        self.belief = Belief(self.instance)
        return prompts.RESET

    def _take(self, index: int) -> Transition:
        posterior = self.belief.posterior()
        u = self.draws.numpy.random()
        self.state, reward = rules.pull(self.state, index, u)
        self.belief.update(index, reward)
        payout = self.state.machines.payouts[index]
        def because() -> str:
            return f"machine {index + 1} pays with probability {payout:g} and the draw was u={u:.4f}"

        info = {"optimal": self.state.machines.best, "posterior": list(posterior),
                "regret": regret(posterior, index)}
        return Transition(prompts.observation(index, reward), reward, False, self.state.score, info, because)
