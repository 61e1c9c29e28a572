"""SmartPlay's Rock Paper Scissors as the CLI and the batch code see it (``WORLD``).

The one instance is ``RockPaperScissorBasic``; it is played step by step (``play``), and episode
logs are re-verified (``check``, ``evaluate``), replaying the seed's draws exactly or, for an
unseeded log, checking what its text shows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from plancheck.domains.smartplay import _scoring
from plancheck.domains.smartplay._game import SmartPlayEpisodes
from plancheck.domains.smartplay._world import SmartPlayWorld
from plancheck.domains.smartplay.rps import check, prompts, report, scoring, solve
from plancheck.domains.smartplay.rps.game import RPSGame
from plancheck.domains.smartplay.rps.instance import RPSInstance, parse_id, select
from plancheck.episodes.game import CheckedStep, Outcome


class RPSEpisodes(SmartPlayEpisodes):
    world = "rps"
    env = "RockPaperScissorBasic"
    history = 50  # HistoryTracker(max_steps=50)
    policies = solve.POLICIES

    def instance(self, name: str) -> RPSInstance:
        return parse_id(name)

    def instance_id(self, item: RPSInstance) -> str:
        return item.id

    def game(self, item: RPSInstance, seed: int, settings: Mapping[str, Any]) -> RPSGame:
        return RPSGame(item, seed, settings)

    def follower(self, item: RPSInstance, settings: Mapping[str, Any]) -> check.RPSFollower:
        return check.RPSFollower(item, settings)

    def policy(self, name: str, game: RPSGame, seed: int):
        return solve.policy(name, game, seed)

    def describe(self, step: CheckedStep) -> str:
        return _scoring.describe(step, prompts.ACTIONS)

    def outcome(self, item: RPSInstance, settings: Mapping[str, Any],
                steps: Sequence[CheckedStep]) -> Outcome:
        return scoring.outcome(item, settings, steps)


class RPSWorld(SmartPlayWorld):
    name = "rps"
    title = "SmartPlay Rock Paper Scissors (RockPaperScissorBasic, 50-step episodes)"
    episodes = RPSEpisodes()
    select = staticmethod(select)
    references = staticmethod(report.references)
    table_metrics = report.METRICS
    actions = prompts.ACTIONS
    labels = ("Rock", "Paper", "Scissor")


WORLD = RPSWorld()
