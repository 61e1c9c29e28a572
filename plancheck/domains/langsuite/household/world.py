"""LangSuitE's Household (ALFRED, re-created) as the CLI and the batch code see it (``WORLD``).

Instances are ALFRED's seven task types sampled on the default floor plans by alfworld's rules
(:mod:`instance`); LangSuitE's own 506 ALFRED trajectories and their human instructions are not
public. Episodes are played step by step (``play``), re-verified (``check``, ``evaluate``), and the
certified shortest low-level episode is computed (``solve``, ``export``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from plancheck.domains.langsuite._episodes import LangsuiteEpisodes, ScriptPolicy
from plancheck.domains.langsuite.household import alfred, pddl, report
from plancheck.domains.langsuite.household import check as check_mod
from plancheck.domains.langsuite.household import convert as convert_mod
from plancheck.domains.langsuite.household.game import HouseholdGame
from plancheck.domains.langsuite.household.instance import HouseholdTask, select, task
from plancheck.domains.langsuite.household.parse import READINGS, answer_replies, reply_for
from plancheck.domains.langsuite.household.problem import Problem
from plancheck.domains.langsuite.household.prompts import LEVELS
from plancheck.domains.langsuite.household.records import read_answers
from plancheck.domains.langsuite.household.rules import Task
from plancheck.domains.langsuite.household.scoring import episode_scores
from plancheck.domains.langsuite.household.solve import PLANNERS, optimal, solve_task
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


class HouseholdEpisodes(LangsuiteEpisodes):
    world = "household"
    readings = READINGS
    levels = LEVELS
    lookup = staticmethod(task)
    policies = ("optimal",)

    def game(self, item: HouseholdTask, seed: int, settings: Mapping[str, Any]) -> HouseholdGame:
        return HouseholdGame(item, settings)

    def follower(self, item: HouseholdTask, settings: Mapping[str, Any]) -> HouseholdGame:
        return _Follower(item, settings)

    def policy(self, name: str, game: HouseholdGame, seed: int) -> ScriptPolicy:
        if name != "optimal":
            raise BadInputError(f"unknown policy {name!r}; household offers {', '.join(self.policies)}")
        ref = optimal(Task(game.task.task))
        return ScriptPolicy(ref.replies if ref.replies is not None and ref.certified else ["YES", "Act: stop"])

    def describe(self, step: CheckedStep) -> str:
        info = step.transition.info if step.transition is not None else {}
        return f"{info['satisfied']} of {info['total']} conditions" if info.get("total") else ""

    def outcome(self, item: HouseholdTask, settings: Mapping[str, Any], steps: Sequence[CheckedStep]) -> Outcome:
        game = HouseholdGame(item, settings)
        for checked in steps:
            if checked.action is not None:
                game.step(checked.action, checked.logged.reply)
        turn = game.turn
        optimum = report.optimum_steps(item.id)
        scores = episode_scores(turn, optimum)
        notes = [turn.crashed + "; LangSuitE's run ends there without a result"] if turn.crashed else []
        replies = [s.logged.reply for s in steps if s.logged.reply is not None]
        strict = check_mod.check_replies(Task(item, settings.get("level", "low")), replies).failure
        if strict is not None:
            notes.append(f"LangSuitE's prompt read strictly: {strict}")
        metrics = {"level": settings.get("level", "low"), "crashed": turn.crashed, "task_type": item.task_type,
                   "prompt_violation": None if strict is None else str(strict)}
        return Outcome(scores, metrics, None if optimum is None else {"steps": float(optimum)},
                       bool(scores["success"]), turn.timesteps if scores["success"] else None, tuple(notes))


class _Follower(HouseholdGame):
    """An unseeded log: the task has no randomness, so this is the same exact replay."""

    def follow(self, action: str, logged) -> tuple:
        t = self.step(action, logged.reply)
        for name, value in (("observation", t.observation), ("score", t.score), ("done", t.done)):
            have = getattr(logged, name)
            if have is not None and have != value:
                return t, f"the {name} is {have!r} but LangSuitE gives {value!r}"
        return t, None


class HouseholdWorld(WorldBase):
    name = "household"
    title = ("LangSuitE Household (ALFRED), re-created on regenerated scenes (ALFRED's seven task types sampled on "
             "the 120 default floor plans; LangSuitE's own 506 ALFRED tasks are not public)")
    capabilities = EPISODIC | {Capability.ANSWERS, Capability.SOLVE, Capability.EXPORT, Capability.STATS,
                               Capability.RENDER, Capability.CONVERT}
    episodes = HouseholdEpisodes()
    options = (
        Option("level", "LangSuitE's action level: low (move_ahead/turn_*, alfred_react.json) or high (goto, heat/cool/"
               "clean, alfred_react_high_level.json)", ("prompt", "play", "check", "evaluate", "stats", "render"),
               "low", LEVELS),
        Option("reading", "how a reply becomes an action: langsuite (its own parser)", ("play",), "langsuite",
               tuple(READINGS)),
        shared_option("planner", "native: the A* of plancheck; or a classical planner on the exported PDDL",
                      default="native", choices=PLANNERS),
        shared_option("timeout"),
        Option("format", "pddl: the reference problem as PDDL; langsuite: the task as the fields of an ALFRED "
               "traj_data.json LangSuitE reads; alfred: the task in alfworld's ALFRED domain (alfred.pddl, its "
               "goal template, receptacle level)", ("export",), "pddl", ("pddl", "langsuite", "alfred")),
        Option("instance", "the task a LangSuitE console log is of (by default found from the log)", ("convert",)),
    )

    def instances(self, selectors: Sequence[str], data: Path | None, **options: Any) -> Iterator[HouseholdTask]:
        return select(selectors)

    def instance_json(self, instance: HouseholdTask) -> dict[str, Any]:
        return {"id": instance.id, "scene": instance.scene, "task_type": instance.task_type,
                "description": instance.description, "pddl_params": instance.pddl_params,
                "start": list(instance.start)}

    def prompt(self, instance: HouseholdTask, level: str = "low", **options: Any) -> Prompt:
        """LangSuitE's opening message (a system message; the model's reply comes next)."""
        return Prompt(instance.id, Task(instance, level).texts.intro(), None)

    def check(self, instance: HouseholdTask, answer: str | Sequence[str], level: str = "low",
              source: str | None = None, limits: Limits = DEFAULT, **options: Any) -> Verdict:
        replies = answer_replies(answer, source or "answer", limits)
        return check_mod.check_replies(Task(instance, level), replies, report.optimum_steps(instance.id))

    def read_answers(self, path: Path, data: Path | None, *, limits: Limits = DEFAULT,
                     **options: Any) -> Iterator[Record | BrokenRecord]:
        return read_answers(path, limits)

    def resolve(self, record: Record, data: Path | None, **options: Any) -> HouseholdTask:
        return task(record.instance)

    def summarize(self, results: Iterable[tuple[Record, Verdict]], **options: Any) -> Summary:
        rows = [(record.model, verdict.metrics.get("level", "low"), verdict.instance, verdict.scores,
                 bool(verdict.metrics.get("crashed"))) for record, verdict in results]
        return report.table(rows)

    def solve(self, instance: HouseholdTask, planner: str = "native", timeout: float = 300.0,
              **options: Any) -> SolveResult:
        return solve_task(Task(instance), instance.id, planner, timeout)

    def export(self, instance: HouseholdTask, format: str = "pddl", **options: Any) -> dict[str, str]:
        if format == "langsuite":
            return {f"{instance.id}.json": json.dumps(instance.trajectory()) + "\n"}
        if format == "alfred":
            return alfred.export(Task(instance), instance.id)
        return pddl.export(Problem(Task(instance)), instance.id)

    def render(self, instance: HouseholdTask, answer: Any = None, *, verdict: Verdict | None = None,
               level: str = "low", **options: Any) -> Picture:
        """The room from above with the agent's path and the goal's objects and receptacles; ``answer`` is an
        episode log's episode or a JSON list of replies."""
        from plancheck.domains.langsuite.household.render import render
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

    def convert(self, path: Path, seed: int | None = None, model: str | None = None, instance: str | None = None,
                **options: Any) -> Iterator[Any]:
        """Episode logs from LangSuitE's console logs (``{a}--{b}.jl``; the task from its first line, the task
        path, or the file name, or named by ``instance``)."""
        return convert_mod.convert(path, seed=seed, model=model, instance=instance)

    def stats(self, selectors: Sequence[str], data: Path | None, level: str = "low", **options: Any) -> Summary:
        rows = []
        for item in select(selectors):
            ref = optimal(Task(item))
            rows.append((item.id, item.task_type, item.description, "yes" if item.object_sliced else "no",
                         ref.timesteps if ref.acts is not None else "none"))
        return Summary("LangSuitE Household (re-created): per task",
                       ("task", "type", "instruction", "sliced", "optimal steps"), tuple(rows))


WORLD = HouseholdWorld()
