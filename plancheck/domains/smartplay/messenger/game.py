"""Messenger as a running game of the episode layer, drawing exactly as SmartPlay does from a seed.

The episode start comes from Python's ``random`` seeded with the seed, in SmartPlay's draw order
(:mod:`.instance`); L1's steps are deterministic; L2/L3's entity moves draw from the VGDL level's
generator seeded with the same seed (SmartPlay's is never seeded, see :mod:`.engine`). Each
transition's ``info`` carries SmartPlay's ``completed`` (1 when the step won the episode).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from plancheck.domains.smartplay._game import SmartPlayGame
from plancheck.domains.smartplay.messenger import prompts
from plancheck.domains.smartplay.messenger.instance import Episode
from plancheck.domains.smartplay.messenger.run import Runner
from plancheck.episodes.game import Transition


def completed(reward: float | None, done: bool) -> int:
    """SmartPlay's ``info["completed"]``: ``int(reward == 1 and done)``."""
    return int(reward == 1 and done)


class MessengerGame(SmartPlayGame):
    """One episode of ``episode`` (its seed drew the start; the same seed drives the entity moves)."""

    def __init__(self, episode: Episode, settings: Mapping[str, Any]):
        self.episode = episode
        self.runner = Runner(episode)
        super().__init__(self.runner.manual, prompts.ACTIONS, settings["steps"], settings["history"])

    @property
    def level(self):
        """The VGDL level of L2/L3 (None in L1): what the reference planner looks at."""
        return self.runner.level

    def _start(self) -> str:
        return self.runner.reset()

    def _take(self, index: int) -> Transition:
        step = self.runner.step(index)
        runner = self.runner

        def because() -> str:
            return runner.describe_state()

        return Transition(step.observation, step.reward, step.done, step.reward,
                          {"completed": completed(step.reward, step.done)}, because)
