"""LangSuitE's Rearrangement (re-created) as the CLI and the batch code see it (``WORLD``).

Instances are the 2,000 ai2thor-rearrangement 2022 episodes (``FloorPlan21_0`` ...) with start and
goal scenes rebuilt from the default floor plans (:mod:`regenerate`); LangSuitE's own episodes are
not public. The task is played step by step (``play``), logs and reply lists are re-verified
(``check``, ``evaluate``), and the certified shortest plans are computed (``solve``, ``export``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from plancheck.domains.langsuite._episodes import LangsuiteEpisodes, ScriptPolicy
from plancheck.domains.langsuite.rearrangement import check as check_mod
from plancheck.domains.langsuite.rearrangement import convert as convert_mod
from plancheck.domains.langsuite.rearrangement import pddl, report
from plancheck.domains.langsuite.rearrangement.expert import run_expert
from plancheck.domains.langsuite.rearrangement.game import RearrangementGame
from plancheck.domains.langsuite.rearrangement.instance import Episode, episode, select
from plancheck.domains.langsuite.rearrangement.parse import READINGS, answer_replies, reply_for
from plancheck.domains.langsuite.rearrangement.problem import Problem
from plancheck.domains.langsuite.rearrangement.prompts import LEVELS
from plancheck.domains.langsuite.rearrangement.records import read_answers
from plancheck.domains.langsuite.rearrangement.rules import Task
from plancheck.domains.langsuite.rearrangement.solve import PLANNERS, optimal, solve_episode
from plancheck.episodes.game import CheckedStep, Outcome
from plancheck.errors import BadInputError
from plancheck.limits import DEFAULT, Limits
from plancheck.solvers.result import SolveResult
from plancheck.verifier.verdict import Verdict
from plancheck.world import (
    EPISODIC,
    BrokenRecord,
    Capability,
    Option,
    Prompt,
    Record,
    Summary,
    WorldBase,
    shared_option,
)

if TYPE_CHECKING:  # annotations only: keeps the drawing code out of a plain check's start-up
    from plancheck.drawing.shapes import Picture


@cache
def _optimum(eid: str) -> int | None:
    return optimal(Task(episode(eid))).timesteps


class RearrangementEpisodes(LangsuiteEpisodes):
    world = "rearrangement"
    readings = READINGS
    levels = LEVELS
    lookup = staticmethod(episode)
    policies = ("optimal", "expert")

    def game(self, item: Episode, seed: int, settings: Mapping[str, Any]) -> RearrangementGame:
        return RearrangementGame(item, settings)

    def follower(self, item: Episode, settings: Mapping[str, Any]) -> RearrangementGame:
        return RearrangementGame(item, settings)

    def policy(self, name: str, game: RearrangementGame, seed: int) -> ScriptPolicy:
        task = game.task
        if name == "optimal":
            ref = optimal(Task(task.episode))
            if task.level != "low":
                raise BadInputError("the optimal policy plays the low-level action set; use --level low")
            return ScriptPolicy(check_mod.plan_replies(task, ref.acts or ()))
        if name == "expert":  # a run LangSuitE's expert would crash in is ended by a stop here
            run = run_expert(task)
            replies = ["YES."]
            for act in run.actions:
                if isinstance(act, str):
                    replies.append("pass")
                else:
                    replies.extend(check_mod.plan_replies(task, [act])[1:-1] if act.name != "Stop" else ["Act: stop"])
            return ScriptPolicy(replies)
        raise BadInputError(f"unknown policy {name!r}; rearrangement offers {', '.join(self.policies)}")

    def describe(self, step: CheckedStep) -> str:
        info = step.transition.info if step.transition is not None else {}
        if not info:
            return ""
        return (f"misplaced {info['misplaced']}, fixed {info['fixed']}, success {info['success']} (LangSuitE); "
                f"restored {info['restored']}")

    def outcome(self, item: Episode, settings: Mapping[str, Any], steps: Sequence[CheckedStep]) -> Outcome:
        last = next((s.transition for s in reversed(steps) if s.transition is not None), None)
        info = dict(last.info) if last is not None else {}
        keys = ("success", "misplaced", "fixed", "success_corrected", "misplaced_corrected", "fixed_corrected",
                "restored")
        scores = {k: float(info.get(k, 0.0)) for k in keys}
        scores["steps"] = float(len(steps))
        notes = []
        task = Task(item, settings.get("level", "low"))
        replies = [s.logged.reply if s.logged.reply is not None else reply_for(s.action or "(no action)")
                   for s in steps]
        strict = check_mod.check_replies(task, replies).failure
        if strict is not None:
            notes.append(f"LangSuitE's prompt read strictly: {strict}")
        if info.get("crashed"):
            notes.append(info["crashed"] + "; LangSuitE's run would end there without a result")
        optimum = _optimum(item.id) if settings.get("level", "low") == "low" else None
        metrics = {"level": settings.get("level", "low"), "crashed": info.get("crashed"),
                   "prompt_violation": None if strict is None else str(strict)}
        return Outcome(scores, metrics,
                       None if optimum is None else {"steps": float(optimum)}, bool(info.get("success")),
                       len(steps) if info.get("success") else None, tuple(notes))


_READ = ("check", "evaluate")


class RearrangementWorld(WorldBase):
    name = "rearrangement"
    title = ("LangSuitE Rearrangement, re-created on regenerated scenes (ai2thor-rearrangement 2022 val/test, "
             "2,000 episodes; LangSuitE's own episodes are not public)")
    data_release = "ai2thor-rearrangement 2022 episodes"
    capabilities = EPISODIC | {Capability.ANSWERS, Capability.SOLVE, Capability.EXPORT, Capability.STATS,
                               Capability.CONVERT, Capability.RENDER}
    episodes = RearrangementEpisodes()
    options = (
        Option("level", "LangSuitE's action level: low (move_ahead/turn_*, rearrange_react.json) or high (goto, "
               "rearrange_react-hl.json)", ("prompt", "play", "check", "evaluate", "stats", "render"), "low", LEVELS),
        Option("reading", "how a reply becomes an action: langsuite (its own parser)", ("play",), "langsuite",
               tuple(READINGS)),
        shared_option("planner", "native: the A* of plancheck; or a classical planner on the exported PDDL",
                      default="native", choices=PLANNERS),
        shared_option("timeout"),
        Option("format", "pddl: the reference problem as PDDL; langsuite: the episode as one line of LangSuitE's "
               "data/rearrange/<stage>.json (to run LangSuitE's own code on it)", ("export",), "pddl",
               ("pddl", "langsuite")),
    )

    def instances(self, selectors: Sequence[str], data: Path | None, **options: Any) -> Iterator[Episode]:
        return select(selectors)

    def instance_json(self, instance: Episode) -> dict[str, Any]:
        return {"id": instance.id, "split": instance.split, "scene": instance.scene, "index": instance.index,
                "agent": list(instance.agent), "object_rearrangement_count": instance.counts[0],
                "position_diff_count": instance.counts[1], "open_diff_count": instance.counts[2]}

    def prompt(self, instance: Episode, level: str = "low", **options: Any) -> Prompt:
        """LangSuitE's opening message (a system message; the model's reply comes next)."""
        return Prompt(instance.id, Task(instance, level).texts.intro(), None)

    def check(self, instance: Episode, answer: str | Sequence[str], level: str = "low", source: str | None = None,
              limits: Limits = DEFAULT, **options: Any) -> Verdict:
        replies = answer_replies(answer, source or "answer", limits)
        task = Task(instance, level)
        return check_mod.check_replies(task, replies, _optimum(instance.id) if level == "low" else None)

    def read_answers(self, path: Path, data: Path | None, *, limits: Limits = DEFAULT,
                     **options: Any) -> Iterator[Record | BrokenRecord]:
        return read_answers(path, limits)

    def resolve(self, record: Record, data: Path | None, **options: Any) -> Episode:
        return episode(record.instance)

    def summarize(self, results: Iterable[tuple[Record, Verdict]], **options: Any) -> Summary:
        rows = []
        for record, verdict in results:
            level = verdict.metrics.get("level", "low")
            rows.append((record.model, level, verdict.instance, verdict.scores))
        return report.table(rows)

    def solve(self, instance: Episode, planner: str = "native", timeout: float = 300.0, **options: Any) -> SolveResult:
        return solve_episode(Task(instance), instance.id, planner, timeout)

    def export(self, instance: Episode, format: str = "pddl", **options: Any) -> dict[str, str]:
        if format == "langsuite":
            return {f"{instance.id}.json": json.dumps(instance.line()) + "\n"}
        return pddl.export(Problem(Task(instance)))

    def convert(self, path: Path, seed: int | None = None, model: str | None = None, **options: Any):
        """Episode logs from LangSuitE's console logs (``{scene}-{index}.jl``)."""
        return convert_mod.convert(path, seed=seed, model=model)

    def setting(self, record: Record, verdict: Verdict) -> str:
        """LangSuitE's action level."""
        return f"{verdict.metrics.get('level', 'low')} level"

    def render(self, instance: Episode, answer: Any = None, *, verdict: Verdict | None = None, level: str = "low",
               **options: Any) -> Picture:
        """The room from above with the agent's path and the objects to move; ``answer`` is an episode log's
        episode or a JSON list of replies."""
        from plancheck.domains.langsuite.rearrangement.render import render
        from plancheck.episodes.log import Episode as LoggedEpisode

        if isinstance(answer, LoggedEpisode):
            from plancheck.episodes.check import check_episode, replay_episode

            level = self.episodes.settings(answer.header.settings)[0]["level"]
            verdict = verdict if verdict is not None else check_episode(self.episodes, answer)
            replies = [s.logged.reply if s.logged.reply is not None else reply_for(s.action or "(no action)")
                       for s in replay_episode(self.episodes, answer)]
        elif answer is not None:
            replies = answer_replies(answer, "answer")
            verdict = verdict if verdict is not None else self.check(instance, answer, level=level)
        else:
            replies = None
        return render(Task(instance, level), replies, verdict)

    def stats(self, selectors: Sequence[str], data: Path | None, level: str = "low",
              report: Callable[[], None] | None = None, **options: Any) -> Summary:
        rows = []
        for item in select(selectors):
            if report is not None:
                report()
            task = Task(item, level)
            problem = Problem(task)
            rows.append((item.id, item.split, item.counts[0], task.diff_count, len(problem.movers),
                         len(problem.containers), "no" if task.diff_count == 0 else "yes"))
        header = ("episode", "split", "objects changed", "diff_count", "movers (restore)", "containers",
                  "LangSuitE success possible")
        return Summary("LangSuitE Rearrangement (re-created): per episode", header, tuple(rows))


WORLD = RearrangementWorld()
