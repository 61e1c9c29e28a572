"""SmartPlay's two-armed bandit as the CLI and the batch code see it (``WORLD``).

The one instance is ``BanditTwoArmedHighLowFixed``; it is played step by step (``play``), and
episode logs are re-verified (``check``, ``evaluate``), replaying the seed's draws exactly or,
for an unseeded log, checking what its text shows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from plancheck.domains.smartplay import _scoring
from plancheck.domains.smartplay._game import SmartPlayEpisodes
from plancheck.domains.smartplay._world import SmartPlayWorld
from plancheck.domains.smartplay.bandits import check, prompts, report, scoring, solve
from plancheck.domains.smartplay.bandits.game import BanditGame
from plancheck.domains.smartplay.bandits.instance import BanditInstance, parse_id, select
from plancheck.episodes.game import CheckedStep, Outcome


class BanditEpisodes(SmartPlayEpisodes):
    world = "bandits"
    env = "BanditTwoArmedHighLowFixed"
    history = 50  # HistoryTracker(max_steps=50)
    policies = solve.POLICIES

    def instance(self, name: str) -> BanditInstance:
        return parse_id(name)

    def instance_id(self, item: BanditInstance) -> str:
        return item.id

    def game(self, item: BanditInstance, seed: int, settings: Mapping[str, Any]) -> BanditGame:
        return BanditGame(item, seed, settings)

    def follower(self, item: BanditInstance, settings: Mapping[str, Any]) -> check.BanditFollower:
        return check.BanditFollower(item, settings)

    def policy(self, name: str, game: BanditGame, seed: int):
        return solve.policy(name, game, seed)

    def describe(self, step: CheckedStep) -> str:
        return _scoring.describe(step, prompts.ACTIONS)

    def outcome(self, item: BanditInstance, settings: Mapping[str, Any],
                steps: Sequence[CheckedStep]) -> Outcome:
        return scoring.outcome(item, settings, steps)


class BanditWorld(SmartPlayWorld):
    name = "bandits"
    title = "SmartPlay two-armed bandit (BanditTwoArmedHighLowFixed, 50-step episodes)"
    episodes = BanditEpisodes()
    select = staticmethod(select)
    references = staticmethod(report.references)
    table_metrics = report.METRICS
    actions = prompts.ACTIONS
    labels = ("machine 1", "machine 2")


WORLD = BanditWorld()
