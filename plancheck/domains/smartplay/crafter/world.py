"""SmartPlay's Crafter as the CLI and the batch code see it (``WORLD``), on the real crafter 1.8.3.

The one instance is ``Crafter``. Episodes are played step by step (``play``) and re-verified
(``check``, ``evaluate``): a seeded log is replayed exactly in crafter (with the fixed despawn order),
an unseeded one is checked from what its text shows (``check.py``). ``solve`` gives the shortest
tech-tree sequence to an achievement (native, Fast Downward, pyperplan) or, with ``--planner map``,
the certified shortest unlock on one seed's real map; ``export`` writes the tech tree as PDDL.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from plancheck.domains.smartplay._game import SmartPlayEpisodes
from plancheck.domains.smartplay._world import SmartPlayWorld
from plancheck.domains.smartplay.crafter import prompts, report, scoring, solve
from plancheck.domains.smartplay.crafter.instance import CrafterInstance, parse_id, select
from plancheck.episodes.game import CheckedStep, Outcome
from plancheck.episodes.log import Episode
from plancheck.errors import BadInputError
from plancheck.solvers.result import SolveResult, Status
from plancheck.verifier.verdict import Verdict
from plancheck.world import EPISODIC, Capability, Option, Record, Summary, shared_option

if TYPE_CHECKING:  # annotations only: keeps the drawing code out of a plain check's start-up
    from plancheck.drawing.shapes import Picture


class CrafterEpisodes(SmartPlayEpisodes):
    world = "crafter"
    env = "Crafter"
    history = prompts.HISTORY["code"]  # HistoryTracker(max_steps=2); the paper says 5
    extra = {"seeding": "crafter", "episode": 1}
    choices = {"seeding": ("crafter", "numpy")}
    policies = solve.POLICIES

    def instance(self, name: str) -> CrafterInstance:
        return parse_id(name)

    def instance_id(self, item: CrafterInstance) -> str:
        return item.id

    def game(self, item: CrafterInstance, seed: int, settings: Mapping[str, Any]):
        from plancheck.domains.smartplay.crafter.game import settings_game

        return settings_game(seed, settings)

    def follower(self, item: CrafterInstance, settings: Mapping[str, Any]):
        from plancheck.domains.smartplay.crafter.check import CrafterFollower

        return CrafterFollower(settings)

    def policy(self, name: str, game, seed: int):
        return solve.policy(name, game, seed)

    def describe(self, step: CheckedStep) -> str:
        if step.transition is None:
            return ""
        unlocked = step.transition.info.get("unlocked")
        return f"unlocked {', '.join(unlocked)}" if unlocked else ""

    def outcome(self, item: CrafterInstance, settings: Mapping[str, Any], steps: Sequence[CheckedStep]) -> Outcome:
        return scoring.outcome(steps)


class CrafterWorld(SmartPlayWorld):
    name = "crafter"
    title = "SmartPlay Crafter (crafter 1.8.3; up to 9,999 actions an episode)"
    capabilities = EPISODIC | {Capability.STATS, Capability.SOLVE, Capability.EXPORT,
                               Capability.RENDER}  # no run logs to convert
    requires = ("crafter",)
    extra = "crafter"
    episodes = CrafterEpisodes()
    select = staticmethod(select)
    references = staticmethod(report.references)
    table_metrics = report.METRICS

    @property
    def options(self) -> tuple[Option, ...]:
        goals = tuple(scoring.ACHIEVEMENTS)
        return (*super().options,
                Option("seeding", "what a seed is: crafter (crafter's Env(seed=...)) or numpy (numpy's global seed "
                       "after importing smartplay; SmartPlay's Crafter() draws crafter's seed from it)", ("play",),
                       "crafter", ("crafter", "numpy")),
                Option("episode", "which reset of the env (crafter seeds the k-th world with hash((seed, k)))",
                       ("play",), 1, kind=int),
                Option("goal", "the achievement to unlock", ("solve", "export"), "collect_diamond", goals),
                shared_option("planner", "native (breadth-first on the rules), fast-downward, pyperplan: the tech "
                                         "tree; map: the certified shortest unlock on the real map of --map-seed",
                              default="native", choices=(*solve.PLANNERS, "map")),
                Option("map_seed", "crafter seed of the map for --planner map", ("solve",), 0, kind=int),
                shared_option("timeout", "the map search too"))

    def solve(self, instance: CrafterInstance, goal: str = "collect_diamond", planner: str = "native",
              map_seed: int = 0, timeout: float = 300.0, **options: Any) -> SolveResult:
        if planner != "map":
            return solve.solve_tree(goal, planner, timeout)
        from plancheck.domains.smartplay.crafter.mapsearch import MAP_GOALS
        from plancheck.domains.smartplay.crafter.realmap import certify_unlock

        if goal not in MAP_GOALS:
            raise BadInputError(f"--planner map plans {', '.join(MAP_GOALS)}; {goal} needs creatures, luck or time")
        unlock = certify_unlock(map_seed, goal, seconds=timeout)
        status = unlock.status if unlock.real_ok or unlock.actions is None else Status.FAILED
        return SolveResult(f"{instance.id} seed {map_seed}", "map", status, unlock.smartplay_actions,
                           {"actions": unlock.length} if unlock.length else {}, unlock.real_optimal, unlock.seconds,
                           "" if unlock.real_optimal else _unproven(unlock), unlock.to_json())

    def export(self, instance: CrafterInstance, goal: str = "collect_diamond", **options: Any) -> dict[str, str]:
        from plancheck.domains.smartplay.crafter import pddl, rules

        if goal not in rules.TREE_ACHIEVEMENTS:
            raise BadInputError(f"{goal} depends on time, not items: it has no PDDL model")
        return pddl.export(goal)

    def render(self, instance: CrafterInstance, answer: Any = None, *, verdict: Verdict | None = None,
               compact: bool = False, **options: Any) -> Picture:
        """An episode log drawn on its seed's real map: the agent's path, unlocks, creatures; frames: the
        episode (a seeded log, replayed in crafter)."""
        if not isinstance(answer, Episode):
            raise BadInputError("a crafter picture draws an episode on its seed's map: give its log with --answer "
                                "FILE (plancheck play crafter Crafter --policy unlock:collect_wood --seed 1 -o FILE "
                                "writes one)")
        from plancheck.domains.smartplay.crafter import render
        from plancheck.episodes.check import check_episode, replay_episode

        header = answer.header
        if header.seed is None:
            raise BadInputError("an unseeded Crafter log shows only what lay around the agent, not where it was on "
                                "the map; pictures need a seeded log (plancheck play crafter ... --seed N writes one)")
        verdict = verdict if verdict is not None else check_episode(self.episodes, answer)
        actions = [step.action for step in replay_episode(self.episodes, answer) if step.action is not None]
        settings = self.episodes.settings(header.settings)[0]
        run = render.replay(self.episodes.game(instance, header.seed, settings), actions)
        who = header.model or header.policy
        title = f"Crafter, seed {header.seed} (episode {settings['episode']}), played by {who}"
        return render.render(run, title, verdict, compact)

    def summarize(self, results: Iterable[tuple[Record, Verdict]], paper: str | None = None,
                  **options: Any) -> Summary:
        return report.summary(list(results), paper)


def _unproven(unlock) -> str:
    if unlock.actions is None:
        return f"no plan within the limits; every plan needs at least {unlock.static_bound} actions (static model)"
    if not unlock.real_ok:
        return f"the plan did not unlock {unlock.achievement} in crafter: {unlock.real.reason}"
    return (f"shortest proven between {unlock.real_bound} and {unlock.length} actions in the real game "
            f"(static-model optimum {unlock.static_bound})")


WORLD = CrafterWorld()
