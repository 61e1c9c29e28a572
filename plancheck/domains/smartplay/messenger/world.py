"""SmartPlay's Messenger as three worlds, ``messenger-l1``, ``messenger-l2`` and ``messenger-l3`` (``WORLD_L1`` ..).

Each level is its own SmartPlay environment (``MessengerL1-v0`` ..) with its own column in the paper's
tables, step limit (4, 64, 128), normalisation (L3 has none) and checking: L1 is deterministic after
its drawn start, so every log is replayed exactly (and has a PDDL model, ``solve`` and ``export``);
L2/L3 move their entities at random, so an unseeded log is checked from what its text shows.

The instance is the environment (``MessengerL1``; ``play --seed N`` draws episode N), or one episode
(``MessengerL1/seed=7``) for ``prompt``, ``solve`` and ``export``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from plancheck.domains.smartplay import _frame, _report
from plancheck.domains.smartplay._game import SmartPlayEpisodes
from plancheck.domains.smartplay._world import SmartPlayWorld
from plancheck.domains.smartplay.messenger import pddl, report, scoring, solve
from plancheck.domains.smartplay.messenger.check import MessengerFollower
from plancheck.domains.smartplay.messenger.game import MessengerGame
from plancheck.domains.smartplay.messenger.instance import (
    STEP_LIMITS,
    Env,
    Episode,
    start,
    world_instance,
    world_select,
)
from plancheck.domains.smartplay.messenger.prompts import HISTORY_WINDOW
from plancheck.episodes.game import CheckedStep, Outcome
from plancheck.episodes.log import Episode as LoggedEpisode
from plancheck.errors import BadInputError
from plancheck.solvers.result import SolveResult
from plancheck.verifier.verdict import Verdict
from plancheck.world import Capability, Option, Record, Summary, shared_option

if TYPE_CHECKING:  # annotations only: keeps the drawing code out of a plain check's start-up
    from plancheck.drawing.shapes import Picture

L3_RECORDED = _frame.Recorded("MessengerL3", "MessengerL3", STEP_LIMITS[3], 100, -1, 1)  # L2's constants


class MessengerEpisodes(SmartPlayEpisodes):
    """The episodic side of one level."""

    history = HISTORY_WINDOW  # MessengerEnv's HistoryTracker(max_steps=2)

    def __init__(self, level: int):
        self.level = level
        self.world = f"messenger-l{level}"
        self.env = f"MessengerL{level}"
        self.policies = solve.policies(level)
        self.steps = STEP_LIMITS[level]  # MessengerL3 has no recorded settings in SmartPlay

    def instance(self, name: str) -> Env | Episode:
        return world_instance(name, self.level)

    def instance_id(self, item: Env | Episode) -> str:
        return item.id

    def game(self, item: Env | Episode, seed: int, settings: Mapping[str, Any]) -> MessengerGame:
        episode = item if isinstance(item, Episode) else start(self.level, seed)
        return MessengerGame(episode, settings)

    def follower(self, item: Env | Episode, settings: Mapping[str, Any]) -> MessengerFollower:
        return MessengerFollower(self.level, settings)

    def policy(self, name: str, game: MessengerGame, seed: int):
        return solve.policy(name, game, seed)

    def describe(self, step: CheckedStep) -> str:
        transition = step.transition
        if transition is None or not transition.reward:
            return ""
        return {0.5: "the message picked up", 1: "won"}.get(transition.reward, "lost")

    def outcome(self, item: Env | Episode, settings: Mapping[str, Any], steps: Sequence[CheckedStep]) -> Outcome:
        return scoring.outcome(self.level, steps)


class MessengerWorld(SmartPlayWorld):
    """One level of Messenger."""

    table_metrics = report.METRICS
    data_release = "generated (SmartPlay 9dec5f2, messenger-emma texts)"

    def __init__(self, level: int, title: str):
        self.level = level
        self.name = f"messenger-l{level}"
        self.title = title
        self.episodes = MessengerEpisodes(level)
        if level == 1:
            self.capabilities = SmartPlayWorld.capabilities | {Capability.SOLVE, Capability.EXPORT}

    def select(self, selectors: Sequence[str]) -> Iterator[Env | Episode]:
        return world_select(selectors, self.level)

    def references(self, instance: Any, steps: int) -> list[tuple[str, float]]:
        return report.references(self.level)

    @property
    def options(self) -> tuple[Option, ...]:
        extra = ()
        if self.level == 1:
            extra = (shared_option("planner", "native: the two moves toward the target; bfs: breadth-first search "
                                              "on the rules; or a classical planner on the exported PDDL",
                                   default="native", choices=solve.PLANNER_NAMES),
                     shared_option("timeout"))
        return super().options + extra

    def summarize(self, results: Iterable[tuple[Record, Verdict]], paper: str | None = None,
                  **options: Any) -> Summary:
        steps = STEP_LIMITS[self.level]
        title = (f"SmartPlay MessengerL{self.level}: mean over episodes, the paper's Table 2 (normalised) and Table 4 "
                 f"(raw) columns; references over {steps}-step episodes")
        if self.level == 3:
            title += " (SmartPlay records no normalisation for L3: L2's constants; the paper has no L3 column)"
            return _report.table(self.episodes.env, title, results, self.references(None, steps),
                                 self.table_metrics, None, L3_RECORDED)
        return _report.table(self.episodes.env, title, results, self.references(None, steps), self.table_metrics,
                             paper)

    def stats(self, selectors: Sequence[str], data: Path | None, **options: Any) -> Summary:
        header = ("instance", "steps", "history", "episodes", "reference", "raw", "normalised")
        recorded = L3_RECORDED if self.level == 3 else _frame.RECORDED[self.episodes.env]
        rows = [(self.episodes.env, STEP_LIMITS[self.level], HISTORY_WINDOW, recorded.episodes, "human (paper)",
                 recorded.human, scoring.normalized(recorded.human))]
        rows += [("", "", "", "", label, raw, scoring.normalized(raw)) for label, raw in self.references(None, 0)]
        return Summary(f"{self.title}: settings and reference scores", header, tuple(rows))

    def solve(self, instance: Env | Episode, planner: str = "native", timeout: float = 300.0,
              **options: Any) -> SolveResult:
        if not self.supports(Capability.SOLVE):  # L2/L3: moving entities, no planning model
            return super().solve(instance)
        return solve.solve(self._episode(instance), planner, timeout=timeout)

    def export(self, instance: Env | Episode, **options: Any) -> dict[str, str]:
        if not self.supports(Capability.EXPORT):
            return super().export(instance)
        return pddl.export(self._episode(instance))

    def render_start(self, instance: Env | Episode) -> Picture:
        """An episode's start (name one, e.g. MessengerL1/seed=7), or an episode log with --answer."""
        from plancheck.domains.smartplay.messenger.render import render

        return render(self._episode(instance), (), None)

    def render_episode(self, instance: Env | Episode, episode: LoggedEpisode, steps: Sequence[CheckedStep],
                       verdict: Verdict) -> Picture:
        """The grid with the avatar's path and the entities' (a seeded log, replayed on the rules)."""
        from plancheck.domains.smartplay.messenger.render import render

        seed = episode.header.seed
        if seed is None:
            raise BadInputError("an unseeded Messenger log tells where things are only relative to the avatar; "
                                "pictures need a seeded log (plancheck play ... --seed N writes one)")
        start_episode = instance if isinstance(instance, Episode) else start(self.level, seed)
        return render(start_episode, [step.action for step in steps if step.action is not None], verdict)

    def _episode(self, instance: Env | Episode) -> Episode:
        if isinstance(instance, Env):
            raise BadInputError(f"{instance.id} draws a new grid per episode; name one, e.g. MessengerL1/seed=7 "
                                "(or a range MessengerL1/seed=0..9)")
        return instance


WORLD_L1 = MessengerWorld(1, "SmartPlay MessengerL1 (4-step episodes, still entities; exact replay, PDDL)")
WORLD_L2 = MessengerWorld(2, "SmartPlay MessengerL2 (64-step episodes, chasing/fleeing entities; VGDL stage 2)")
WORLD_L3 = MessengerWorld(3, "SmartPlay MessengerL3 (128-step episodes, with decoys; VGDL stage 3)")
