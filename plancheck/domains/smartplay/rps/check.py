"""Checking a Rock Paper Scissors log without its seed, from what the text shows.

Without the seed the opponent's draws are unknown, but each observation must name the move played
and a move of the opponent's, the result and reward must follow from the two moves (and match the
logged reward), the episode never ends by itself, and the scores must rise on exactly the rounds
whose move is one hidden best action.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from plancheck.domains.smartplay._game import ScoreTracker, SmartPlayGame, observation_missing
from plancheck.domains.smartplay.rps import prompts, rules
from plancheck.domains.smartplay.rps.instance import RPSInstance
from plancheck.domains.smartplay.rps.solve import Belief, regret
from plancheck.episodes.game import Transition
from plancheck.episodes.log import Step


class RPSFollower(SmartPlayGame):
    """Follows an unseeded Rock Paper Scissors log step by step (see the module docstring)."""

    def __init__(self, instance: RPSInstance, settings: Mapping[str, Any]):
        super().__init__(prompts.manual(instance.scores), prompts.ACTIONS, settings["steps"], settings["history"])
        self.instance = instance
        self.belief = Belief(instance)
        self.scores = ScoreTracker(prompts.ACTIONS)

    def _start(self) -> str:
        return prompts.RESET

    def follow(self, action: str, logged: Step) -> tuple[Transition, str | None]:
        index = self.index(action)
        posterior = self.belief.posterior()
        problem = observation_missing(logged, self.horizon)
        info: dict[str, Any] = {}
        reward = logged.reward
        if logged.observation is not None:
            seen = prompts.read_observation(logged.observation)
            if seen is None:
                problem = problem or f"the observation {logged.observation!r} is not a Rock Paper Scissors observation"
            else:
                move, opponent, outcome, said = seen
                expected = rules.play(rules.State(rules.Opponent(self.instance.probabilities, self.instance.scores)),
                                      move, opponent)
                if move != index:
                    problem = problem or f"the observation reports {prompts.ACTIONS[move]}, but {action} was played"
                elif (outcome, said) != expected[1:]:
                    problem = problem or (f"{action} against {prompts.ACTIONS[opponent]} is {expected[1]} with score "
                                          f"{expected[2]}, but the observation says {outcome} with score {said}")
                elif reward is not None and reward != said:
                    problem = problem or f"the observation says score {said} but the log's reward is {reward!r}"
                else:
                    reward = said
                    info["result"] = outcome
                    self.belief.update(opponent)
        if logged.done:
            problem = problem or "the log says done=true, but Rock Paper Scissors never ends by itself"
        score, inconsistent = self.scores.follow(logged.step, index, logged.score)
        problem = problem or inconsistent
        self.observe(logged.observation or "")
        info.update(posterior=list(posterior), regret=regret(posterior, index))
        best = self.scores.known_best()
        if best is not None:
            info["optimal"] = best
        return Transition(logged.observation, reward, False, score, info), problem
