"""Checking a bandit log without its seed, from what the text shows.

Without the seed the draws are unknown, but each observation must name the machine pulled and a
reward of 1 or -1 (the logged reward), the episode never ends by itself, and the scores must rise
on exactly the pulls of one hidden machine (SmartPlay counts the pulls of the best one).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from plancheck.domains.smartplay._game import ScoreTracker, SmartPlayGame, observation_missing
from plancheck.domains.smartplay.bandits import prompts
from plancheck.domains.smartplay.bandits.instance import BanditInstance
from plancheck.domains.smartplay.bandits.solve import Belief, regret
from plancheck.episodes.game import Transition
from plancheck.episodes.log import Step


class BanditFollower(SmartPlayGame):
    """Follows an unseeded bandit log step by step (see the module docstring)."""

    def __init__(self, instance: BanditInstance, settings: Mapping[str, Any]):
        super().__init__(prompts.MANUAL, prompts.ACTIONS, settings["steps"], settings["history"])
        self.instance = instance
        self.belief = Belief(instance)
        self.scores = ScoreTracker(prompts.ACTIONS)

    def _start(self) -> str:
        return prompts.RESET

    def follow(self, action: str, logged: Step) -> tuple[Transition, str | None]:
        index = self.index(action)
        posterior = self.belief.posterior()
        problem = observation_missing(logged, self.horizon)
        reward = logged.reward
        if logged.observation is not None:
            seen = prompts.read_observation(logged.observation)
            if seen is None:
                problem = problem or f"the observation {logged.observation!r} is not a bandit observation"
            elif seen[0] != index:
                problem = problem or f"the observation reports machine {seen[0] + 1}, but machine {index + 1} " \
                                     "was pulled"
            else:
                reward = seen[1] if reward is None else reward
                if seen[1] != reward:
                    problem = problem or f"the observation says reward {seen[1]} but the log's reward is {reward!r}"
        if reward is not None and reward not in (1, -1):
            problem = problem or f"the reward is {reward!r}; a pull pays 1 or -1"
        if logged.done:
            problem = problem or "the log says done=true, but the bandit never ends by itself"
        score, inconsistent = self.scores.follow(logged.step, index, logged.score)
        problem = problem or inconsistent
        observation = logged.observation
        if reward in (1, -1):
            self.belief.update(index, int(reward))
            observation = observation or prompts.observation(index, int(reward))
        self.observe(observation or "")
        info = {"posterior": list(posterior), "regret": regret(posterior, index)}
        best = self.scores.known_best()
        if best is not None:
            info["optimal"] = best
        return Transition(observation, reward, False, score, info), problem

