"""Rock Paper Scissors as a running game, drawing exactly as SmartPlay does from a seed.

Draw order (a fresh ``RPSEnv``, both global generators seeded with ``seed``): one ``random.shuffle``
of the opponent's (probability, score) pairs when the environment is made, another at the reset,
then one ``numpy.random.choice`` (one uniform draw) per round. Each transition's ``info`` carries
SmartPlay's ``result`` and plancheck's ``optimal`` (the hidden best action, 0-based), ``posterior``
(the probability that each action is the best, given the rounds before this one) and ``regret``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from plancheck.domains.smartplay._game import SmartPlayGame
from plancheck.domains.smartplay._random import Draws
from plancheck.domains.smartplay.rps import prompts, rules
from plancheck.domains.smartplay.rps.instance import RPSInstance
from plancheck.domains.smartplay.rps.solve import Belief, regret
from plancheck.episodes.game import Transition


class RPSGame(SmartPlayGame):
    """One episode of ``instance`` from ``seed``; ``state`` holds the hidden truth and the score."""

    def __init__(self, instance: RPSInstance, seed: int, settings: Mapping[str, Any]):
        self.instance, self.draws = instance, Draws.seeded(seed)
        made = rules.shuffled(rules.Opponent(instance.probabilities, instance.scores), self.draws.python)  # __init__
        self.state = rules.State(made)
        self.belief = Belief(instance)
        super().__init__(prompts.manual(made.scores), prompts.ACTIONS, settings["steps"], settings["history"])

    def _start(self) -> str:
        self.state = rules.State(rules.shuffled(self.state.opponent, self.draws.python))
        self.manual = prompts.manual(self.state.opponent.scores)
        self.belief = Belief(self.instance)
        return prompts.RESET

    def _take(self, index: int) -> Transition:
        posterior = self.belief.posterior()
        opponent, u = rules.opponent_move(self.state.opponent, self.draws.numpy)
        optimal = self.state.opponent.optimal
        self.state, outcome, reward = rules.play(self.state, index, opponent)
        self.belief.update(opponent)
        probabilities = self.state.opponent.probabilities

        def because() -> str:
            chances = ", ".join(f"{a} {p:g}" for a, p in zip(prompts.ACTIONS, probabilities))
            return f"the opponent's draw u={u:.4f} picks {prompts.ACTIONS[opponent]} ({chances})"

        info = {"result": outcome, "optimal": optimal, "posterior": list(posterior), "regret": regret(posterior, index)}
        return Transition(prompts.observation(index, opponent, outcome, reward), reward, False, self.state.score,
                          info, because)
