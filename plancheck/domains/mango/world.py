"""The MANGO world as the CLI and the batch code see it (``WORLD``).

Instances are questions ``<game>/<df|rf>/<question id>`` of the release's game folders (found
under ``<data>/mango/`` or given as paths), seen at a walkthrough cutoff (``--cutoff``, default 70).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from plancheck.domains.mango import records, report
from plancheck.domains.mango.check import check_answer
from plancheck.domains.mango.game import DEFAULT_CUTOFF, DIFFICULTIES
from plancheck.domains.mango.instance import MangoInstance, find_game, game_folders, moves_of, select, split_selector
from plancheck.domains.mango.prompts import prompt_text
from plancheck.domains.mango.questions import DFQuestion
from plancheck.errors import UnsupportedError
from plancheck.limits import DEFAULT, Limits
from plancheck.solvers.result import SolveResult
from plancheck.verifier.verdict import Verdict
from plancheck.verifier.verdict import strict_read as verdict_strict_read
from plancheck.world import (
    COMMANDS,
    ONE_SHOT,
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


class MangoWorld(WorldBase):
    name = "mango"
    title = "MANGO text-game maps: destination finding (DF) and route finding (RF)"
    data_release = "MANGO release (70 steps)"
    capabilities = ONE_SHOT | {Capability.SOLVE, Capability.EXPORT, Capability.STATS, Capability.RENDER}
    options = (
        Option("cutoff", "walkthrough steps the model reads; records that state their own cutoff keep it",
               COMMANDS, DEFAULT_CUTOFF, kind=int),
        Option("answerable", "only questions answerable at the cutoff", ("instances", "prompt", "solve", "export"),
               kind=bool),
        shared_option("pick", "first is plancheck's earlier rule"),
        shared_option("unclosed", "reject (default) is the release evaluator's outcome, a format failure; accept "
                      "reads the complete elements", default="reject"),
        shared_option("strict_read"),
        shared_option("planner", "bfs: native breadth-first search, checked with networkx; fast-downward: Fast "
                      "Downward on the exported PDDL, checked with the search", default="bfs",
                      choices=("bfs", "fast-downward")),
        Option("graph", "the map routes may use: known (revealed by the cutoff) or evaluation (with imputed "
               "edges)", ("solve", "export"), "known", ("known", "evaluation")),
        shared_option("timeout", default=60.0),
        Option("difficulty", "easy vs hard route finding: release (the released code: some route the prefix reveals "
               "was walked forward) or paper (the paper's Table 6: a shortest such route was walked forward); "
               "destination finding is the same under both", COMMANDS, "release", DIFFICULTIES),
        Option("table", "stats layout: counts (plancheck's counts per game) or paper (the paper's Table 6: map "
               "size, average DF path length, steps used = the cutoff capped at the walkthrough's moves - 1, "
               "easy and hard DF and RF questions)", ("stats",), "counts", report.STATS_TABLES),
    )

    def instances(self, selectors: Sequence[str], data: Path | None, cutoff: int = DEFAULT_CUTOFF,
                  answerable: bool = False, difficulty: str = "release", **options: Any) -> Iterator[MangoInstance]:
        return select(selectors, data, cutoff, answerable, difficulty)

    def instance_json(self, instance: MangoInstance) -> dict[str, Any]:
        question = instance.question
        data: dict[str, Any] = {
            "id": instance.id, "game": instance.game.name, "task": question.task.value, "question": question.id,
            "src": question.src, "dst": question.dst, "cutoff": instance.cutoff,
            "answerable": instance.answerable, "difficulty": instance.difficulty.value,
            "difficulty_rule": instance.rule,
            "labels": {"min_step_forward": question.labels.min_step_forward,
                       "min_step_total": question.labels.min_step_total,
                       "min_step_forward_answerable": question.labels.min_step_forward_answerable,
                       "min_step_total_answerable": question.labels.min_step_total_answerable},
        }
        if isinstance(question, DFQuestion):
            data["actions"] = list(question.actions)
        else:
            data["num_paths"] = question.num_paths
        return data

    def prompt(self, instance: MangoInstance, **options: Any) -> Prompt:
        return Prompt(instance.id, None, prompt_text(instance))

    def check(self, instance: MangoInstance, answer: str | Sequence[str], source: str | None = None,
              pick: str = "committed", unclosed: str = "reject", strict_read: bool = False,
              limits: Limits = DEFAULT, **options: Any) -> Verdict:
        return verdict_strict_read(check_answer(instance, answer, source, pick=pick, unclosed=unclosed, limits=limits),
                                   strict_read)

    def read_answers(self, path: Path, data: Path | None, *, limits: Limits = DEFAULT,
                     **options: Any) -> Iterator[Record | BrokenRecord]:
        return records.read_answers(path, limits)

    def resolve(self, record: Record, data: Path | None, cutoff: int = DEFAULT_CUTOFF, difficulty: str = "release",
                **options: Any) -> MangoInstance:
        return records.resolve(record, data, cutoff, difficulty)

    def answer_key(self, record: Record, instance: MangoInstance) -> tuple[str, str, int]:
        """Who answered, the question, and the cutoff it was asked at."""
        return record.model, instance.id, instance.cutoff

    def summarize(self, results: Iterable[tuple[Record, Verdict]], **options: Any) -> Summary:
        return report.summary(results)

    def solve(self, instance: MangoInstance, planner: str = "bfs", graph: str = "known", timeout: float = 60.0,
              **options: Any) -> SolveResult:
        from plancheck.domains.mango.solve import solve

        return solve(instance, planner, graph, timeout)

    def reference_answer(self, result: SolveResult) -> str:
        """The reference trajectory as the prompts ask for it (a list of dicts), which ``check`` reads."""
        return str(result.extra["answer"])

    def export(self, instance: MangoInstance, graph: str = "known", **options: Any) -> dict[str, str]:
        if isinstance(instance.question, DFQuestion):
            raise UnsupportedError(f"{instance.id} is a destination-finding question: it asks where a given list "
                                   "of moves leads, not for a plan, so it has no PDDL form (route-finding "
                                   "questions do)")
        from plancheck.domains.mango.pddl import DOMAIN_FILE, domain_text, problem_text

        question = instance.question
        problem, _ = problem_text(instance.id, moves_of(instance, graph), question.src, question.dst)
        name = f"{instance.game.name}-rf-{question.id[:12]}.pddl"
        return {DOMAIN_FILE: domain_text(), name: problem}

    def render(self, instance: MangoInstance, answer: str | Sequence[str] | None = None, *,
               verdict: Verdict | None = None, **options: Any) -> Picture:
        """The map with the asked route and the model's trajectory."""
        from plancheck.domains.mango.render import render

        if verdict is None and answer is not None:
            verdict = self.check(instance, answer)
        return render(instance, answer if isinstance(answer, str) else None, verdict)

    def setting(self, record: Record, verdict: Verdict) -> str:
        """The task and the question's difficulty at the cutoff, e.g. ``rf hard``."""
        return f"{verdict.metrics.get('task', '?')} {verdict.metrics.get('difficulty', '?')}"

    def stats(self, selectors: Sequence[str], data: Path | None, cutoff: int = DEFAULT_CUTOFF,
              difficulty: str = "release", table: str = "counts", **options: Any) -> Summary:
        games = []
        for selector in selectors:
            if selector == "all":
                games.extend(find_game(str(folder), data) for folder in game_folders(data))
            else:
                games.append(find_game(split_selector(selector)[0], data))
        return report.stats(list(dict.fromkeys(games)), cutoff, difficulty, table)


WORLD = MangoWorld()
