"""LangSuitE's Interactive QA (re-created) as the CLI and the batch code see it (``WORLD``).

Instances are IQUAD questions on the default kitchens (:mod:`instance`); LangSuitE's own 1,000
recorded scene states and questions are not public. Episodes start at a point drawn from the seed
(as LangSuitE draws it, unseeded; an unseeded log is followed from every start it fits); they are played step
by step (``play``), re-verified (``check``,
``evaluate``), and their evidence-gathering optimum is computed (``solve``, ``export``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from plancheck.domains.langsuite._episodes import LangsuiteEpisodes, ScriptPolicy
from plancheck.domains.langsuite.engine.agent import Pose
from plancheck.domains.langsuite.iqa import check as check_mod
from plancheck.domains.langsuite.iqa import convert as convert_mod
from plancheck.domains.langsuite.iqa import pddl, report
from plancheck.domains.langsuite.iqa.game import IqaFollower, IqaGame
from plancheck.domains.langsuite.iqa.instance import Question, question, select
from plancheck.domains.langsuite.iqa.parse import READINGS, answer_replies, reply_for
from plancheck.domains.langsuite.iqa.problem import Evidence
from plancheck.domains.langsuite.iqa.prompts import LEVELS
from plancheck.domains.langsuite.iqa.records import read_answers
from plancheck.domains.langsuite.iqa.rules import Task
from plancheck.domains.langsuite.iqa.solve import PLANNERS, optimal, solve_episode
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

KEEP_LOOKING = "Thought: I keep looking."  # once the plan runs out: the task's forced answer decides


@cache
def _optimum(qid: str, level: str, seed: int) -> int | None:
    return optimal(Task(question(qid), level), seed).timesteps


@cache
def _optimum_at(qid: str, level: str, x: int, z: int) -> int | None:
    """The optimum from the start point (x, z), facing north (an unseeded log that fits one start)."""
    return optimal(Task(question(qid), level), None, start=Pose(float(x), float(z), 0.0, 1.0)).timesteps


class IqaEpisodes(LangsuiteEpisodes):
    world = "iqa"
    readings = READINGS
    levels = LEVELS
    lookup = staticmethod(question)
    policies = ("optimal",)

    def game(self, item: Question, seed: int, settings: Mapping[str, Any]) -> IqaGame:
        return IqaGame(item, seed, settings)

    def follower(self, item: Question, settings: Mapping[str, Any]) -> IqaFollower:
        return IqaFollower(item, settings)  # the start drawn unseeded: every start the log fits is followed

    def policy(self, name: str, game: IqaGame, seed: int) -> ScriptPolicy:
        if name != "optimal":
            raise BadInputError(f"unknown policy {name!r}; iqa offers {', '.join(self.policies)}")
        ref = optimal(game.task, seed)
        if ref.plan is None or not ref.certified:  # no evidence within the limit: never guess
            return ScriptPolicy(["YES"], after=KEEP_LOOKING)
        return ScriptPolicy(ref.replies, after=KEEP_LOOKING)

    def describe(self, step: CheckedStep) -> str:
        info = step.transition.info if step.transition is not None else {}
        if not info or not info.get("ended"):
            return ""
        return f"ended ({info['ended']}): LangSuitE says {'right' if info['right'] else 'wrong'}" + \
            ("; its evaluator counts it" if info["counted"] else "")

    def outcome(self, item: Question, settings: Mapping[str, Any], steps: Sequence[CheckedStep]) -> Outcome:
        last = next((s.transition for s in reversed(steps) if s.transition is not None), None)
        info = dict(last.info) if last is not None else {}
        scores = {"correct": float(bool(info.get("right"))), "accuracy": float(bool(info.get("counted"))),
                  "steps": float(info.get("timesteps", len(steps))), "answered": float(info.get("ended") == "answer")}
        level = settings.get("level", "low")
        optimum = _optimum(item.id, level, info["seed"]) if "seed" in info else None
        notes = []
        if "start" in info:
            x, z = info["start"]
            optimum = _optimum_at(item.id, level, x, z)
            notes.append(f"an unseeded log: of the start points LangSuitE can draw, one fits it, ({x}, {z}) facing "
                         "north; " + ("the optimum is the one from there" if optimum is not None else
                                      "from there no plan gathers the evidence within the step limit"))
        elif "starts" in info:
            notes.append(f"an unseeded log: {info['starts']} start points LangSuitE can draw fit it; no optimum "
                         "without the start (it depends on the start)")
        if info.get("crashed"):
            notes.append(info["crashed"] + "; LangSuitE's run would end there without a verdict")
        metrics = {"level": level, "ended": info.get("ended"), "forced": bool(info.get("forced")),
                   "question_type": item.kind}
        return Outcome(scores, metrics, None if optimum is None else {"steps": float(optimum)}, bool(info.get("right")),
                       len(steps) if info.get("right") else None, tuple(notes))


@dataclass(frozen=True)
class Seeded:
    """A question with the start seed its answer record names (``evaluate`` reads the seed from the record)."""

    question: Question
    seed: int


def _started(instance: Question | Seeded, seed: int) -> tuple[Question, int]:
    """The question and the seed of its start: a record's own seed, else the option's."""
    return (instance.question, instance.seed) if isinstance(instance, Seeded) else (instance, seed)


class IqaWorld(WorldBase):
    name = "iqa"
    title = ("LangSuitE Interactive QA, re-created on regenerated scenes (IQUAD's questions on the 30 default "
             "kitchens; LangSuitE's own 1,000 scene states are not public)")
    capabilities = EPISODIC | {Capability.ANSWERS, Capability.SOLVE, Capability.EXPORT, Capability.STATS,
                               Capability.RENDER, Capability.CONVERT}
    episodes = IqaEpisodes()
    options = (
        Option("level", "LangSuitE's action level: low (move_ahead/turn_*, iqa_cot.json, 2 m view) or high (goto, "
               "iqa_cot-hl.json, 5 m view)", ("prompt", "play", "check", "evaluate", "solve", "export", "stats"),
               "low", LEVELS),
        Option("reading", "how a reply becomes an action: langsuite (its own dispatch)", ("play",), "langsuite",
               tuple(READINGS)),
        Option("seed", "the seed that draws the start point (check or render of a reply list, solve, export; an "
               "answer record's own seed wins)", ("check", "solve", "export", "render"), 0, kind=int),
        shared_option("planner", "native: the A* of plancheck; or a classical planner on the exported PDDL",
                      default="native", choices=PLANNERS),
        shared_option("timeout"),
        Option("format", "pddl: the evidence problem as PDDL; langsuite: the question as one entry of LangSuitE's "
               "iqa_test_1k.json ([world_data, qa_list])", ("export",), "pddl", ("pddl", "langsuite")),
        Option("instance", "the question a LangSuitE console log is of (by default found from the log)", ("convert",)),
    )

    def instances(self, selectors: Sequence[str], data: Path | None, **options: Any) -> Iterator[Question]:
        return select(selectors)

    def instance_json(self, instance: Question) -> dict[str, Any]:
        return {"id": instance.id, "scene": instance.scene, "type": instance.kind, "question": instance.text,
                "answer": instance.answer, "object_class": instance.object_class, "receptacle": instance.receptacle,
                "removed": instance.removed, "seed": instance.seed}

    def prompt(self, instance: Question, level: str = "low", **options: Any) -> Prompt:
        """LangSuitE's opening message (a system message; the model's reply comes next)."""
        return Prompt(instance.id, Task(instance, level).texts.intro(), None)

    def check(self, instance: Question | Seeded, answer: str | Sequence[str], level: str = "low", seed: int = 0,
              source: str | None = None, limits: Limits = DEFAULT, **options: Any) -> Verdict:
        instance, seed = _started(instance, seed)
        replies = answer_replies(answer, source or "answer", limits)
        return check_mod.check_replies(Task(instance, level), seed, replies, _optimum(instance.id, level, seed))

    def read_answers(self, path: Path, data: Path | None, *, limits: Limits = DEFAULT,
                     **options: Any) -> Iterator[Record | BrokenRecord]:
        return read_answers(path, limits)

    def resolve(self, record: Record, data: Path | None, **options: Any) -> Question | Seeded:
        """The question, with the record's own start seed when it names one."""
        found = question(record.instance)
        seed = record.meta.get("seed")
        return found if seed is None else Seeded(found, seed)

    def answer_key(self, record: Record, instance: Question | Seeded) -> tuple[str, str, int]:
        """Who answered, the question, and the seed of the start (another start is another episode)."""
        question, seed = _started(instance, 0)
        return record.model, question.id, seed

    def summarize(self, results: Iterable[tuple[Record, Verdict]], **options: Any) -> Summary:
        rows = []
        for record, verdict in results:
            seed = verdict.metrics.get("seed")
            rows.append((record.model, verdict.metrics.get("level", "low"), verdict.instance,
                         0 if seed is None else seed, verdict.scores, bool(verdict.metrics.get("forced"))))
        return report.table(rows)

    def solve(self, instance: Question, planner: str = "native", timeout: float = 300.0, level: str = "low",
              seed: int = 0, **options: Any) -> SolveResult:
        return solve_episode(Task(instance, level), instance.id, seed, planner, timeout)

    def export(self, instance: Question, format: str = "pddl", level: str = "low", seed: int = 0,
               **options: Any) -> dict[str, str]:
        if format == "langsuite":
            qa: list[Any] = [None, None, None]
            qa[instance.question_type] = instance.qa()
            return {f"{instance.id}.json": json.dumps([instance.langsuite_world_data(), qa]) + "\n"}
        return pddl.export(Evidence(Task(instance, level), seed), instance.id)

    def render(self, instance: Question | Seeded, answer: Any = None, *, verdict: Verdict | None = None,
               level: str = "low", seed: int = 0, **options: Any) -> Picture:
        """The kitchen from above with the agent's path from its seeded start and the objects the question is
        about; ``answer`` is an episode log's episode (unseeded: drawn from the one start point its messages fit) or
        a JSON list of replies."""
        from plancheck.domains.langsuite.iqa.render import render
        from plancheck.episodes.log import Episode as LoggedEpisode

        instance, seed = _started(instance, seed)
        start = None
        if isinstance(answer, LoggedEpisode):
            from plancheck.episodes.check import check_episode, replay_episode

            level = self.episodes.settings(answer.header.settings)[0]["level"]
            checked = replay_episode(self.episodes, answer)
            if answer.header.seed is None:
                start = _fitted_start(checked)
            else:
                seed = answer.header.seed
            verdict = verdict if verdict is not None else check_episode(self.episodes, answer)
            replies = [s.logged.reply if s.logged.reply is not None else reply_for(s.action or "(no action)")
                       for s in checked]
        elif answer is not None:
            replies = answer_replies(answer, "answer")
            verdict = verdict if verdict is not None else self.check(instance, answer, level=level, seed=seed)
        else:
            replies = None
        return render(Task(instance, level), seed, replies, verdict, start)

    def convert(self, path: Path, seed: int | None = None, model: str | None = None, instance: str | None = None,
                **options: Any) -> Iterator[Any]:
        """Episode logs from LangSuitE's console logs (``data_type_{qt}_idx_{index}_.jl``; the question is found
        from the log's question text and start view, or named by ``instance``)."""
        return convert_mod.convert(path, seed=seed, model=model, instance=instance)

    def stats(self, selectors: Sequence[str], data: Path | None, level: str = "low", **options: Any) -> Summary:
        rows = []
        for item in select(selectors):
            rows.append((item.id, item.kind, item.text, str(item.answer), item.removed))
        return Summary("LangSuitE IQA (re-created): per question", ("question", "type", "text", "answer", "removed"),
                       tuple(rows))


def _fitted_start(checked: Sequence[CheckedStep]) -> Pose:
    """The start of an unseeded log followed step by step: the one start point LangSuitE can draw that gives its
    messages (BadInputError saying why there is none)."""
    info = next((c.transition.info for c in reversed(checked) if c.transition is not None), {})
    if "start" in info:
        x, z = info["start"]
        return Pose(float(x), float(z), 0.0, 1.0)
    wrong = next((c for c in checked if c.problem is not None and c.problem.startswith("the observation is")),
                 None)
    if wrong is not None:
        raise BadInputError(f"the start of this unseeded log cannot be drawn: at step {wrong.index} no start point "
                            f"LangSuitE can draw gives its message ({wrong.problem})")
    if not checked:
        raise BadInputError("the start of this unseeded log cannot be drawn: it has no step, and every start point "
                            "LangSuitE can draw fits it")
    raise BadInputError(f"the start of this unseeded log cannot be drawn: {info.get('starts')} start points "
                        "LangSuitE can draw give every one of its messages (draw its replies with --seed, or log the "
                        "seed)")


WORLD = IqaWorld()
