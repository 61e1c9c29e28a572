"""The Tower of Hanoi world (SmartPlay) as the CLI and the batch code see it (``WORLD``).

Instances are ``hanoi-<n>`` (SmartPlay's ``Hanoi3Disk-v0`` and ``Hanoi4Disk-v0`` are ``hanoi-3``
and ``hanoi-4``; ``all`` names those two). Answers are whole plans; each is replayed under
SmartPlay's rules (30-step rollout, invalid moves ignored with reward -1, the goal ends the episode).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from plancheck.domains.smartplay.hanoi import prompts, records, report
from plancheck.domains.smartplay.hanoi.check import UNKNOWN_POLICIES, check_answer
from plancheck.domains.smartplay.hanoi.instance import HanoiInstance, parse_id, select
from plancheck.limits import DEFAULT, Limits
from plancheck.solvers.result import SolveResult
from plancheck.verifier.verdict import Verdict
from plancheck.verifier.verdict import strict_read as verdict_strict_read
from plancheck.world import (
    ONE_SHOT,
    READING,
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


class HanoiWorld(WorldBase):
    name = "hanoi"
    title = "SmartPlay Tower of Hanoi (n disks, 30-step rollouts)"
    data_release = "generated (SmartPlay 9dec5f2)"
    capabilities = ONE_SHOT | {Capability.SOLVE, Capability.EXPORT, Capability.STATS,
                               Capability.GENERATE, Capability.RENDER}  # generate: any number of disks
    options = (
        Option("style", "plan: SmartPlay's messages asking for the whole list of moves (plancheck's); smartplay: "
               "SmartPlay's own in-game prompt at the first step (it asks for one action)",
               ("prompt",), "plan", ("plan", "smartplay")),
        Option("read", "plan: a list of moves (a bracket list, numbered, bulleted or bare lines); scan: every move "
               "written anywhere; smartplay: SmartPlay's rule, the earliest exact action text", READING, "plan",
               ("plan", "scan", "smartplay")),
        shared_option("pick"),
        shared_option("unclosed"),
        shared_option("strict_read"),
        shared_option("unknown", "noop (an invalid move, reward -1), skip, or action0 (SmartPlay's silent "
                      "fallback, reported)", default="noop", choices=UNKNOWN_POLICIES),
        shared_option("planner", "native: the recursive 2^n-1 plan; or a classical planner on the exported PDDL",
                      default="native", choices=("native", "fast-downward", "pyperplan", "symk")),
        shared_option("timeout"),
    )

    def instances(self, selectors: Sequence[str], data: Path | None, **options: Any) -> Iterator[HanoiInstance]:
        return select(selectors)

    def prompt(self, instance: HanoiInstance, style: str = "plan", **options: Any) -> Prompt:
        from plancheck.domains.smartplay._frame import QUESTIONS  # SmartPlay's episode frame: not a check's

        question = QUESTIONS[1] if style == "smartplay" else \
            prompts.PLAN_QUESTION.format(limit=instance.step_limit)
        messages = prompts.opening_messages(instance.disks, question)
        return Prompt(instance.id, messages[0][1], messages[-1][1], tuple(messages[1:-1]))

    def check(self, instance: HanoiInstance, answer: str | Sequence[str], read: str = "plan",
              pick: str = "committed", unclosed: str = "accept", unknown: str = "noop", strict_read: bool = False,
              source: str | None = None, limits: Limits = DEFAULT, **options: Any) -> Verdict:
        verdict = check_answer(instance, answer, read_mode=read, pick=pick, unclosed=unclosed, unknown=unknown,
                               source=source, limits=limits)
        return verdict_strict_read(verdict, strict_read)

    def read_answers(self, path: Path, data: Path | None, *, limits: Limits = DEFAULT,
                     **options: Any) -> Iterator[Record | BrokenRecord]:
        return records.read_answers(path, limits)

    def resolve(self, record: Record, data: Path | None, **options: Any) -> HanoiInstance:
        return parse_id(record.instance)

    def summarize(self, results: Iterable[tuple[Record, Verdict]], **options: Any) -> Summary:
        return report.summary(results)

    def solve(self, instance: HanoiInstance, planner: str = "native", timeout: float = 300.0,
              **options: Any) -> SolveResult:
        from plancheck.domains.smartplay.hanoi.solve import solve

        return solve(instance, planner, timeout=timeout)

    def export(self, instance: HanoiInstance, **options: Any) -> dict[str, str]:
        from plancheck.domains.smartplay.hanoi.pddl import export

        return export(instance)

    def render(self, instance: HanoiInstance, answer: str | Sequence[str] | None = None, *,
               verdict: Verdict | None = None, **options: Any) -> Picture:
        """The answer as a strip of states above the optimum's; frames: the answer's states."""
        from plancheck.domains.smartplay.hanoi.render import render

        if verdict is None and answer is not None:
            verdict = self.check(instance, answer, **options)
        return render(instance, verdict)

    def setting(self, record: Record, verdict: Verdict) -> str:
        return verdict.instance

    def stats(self, selectors: Sequence[str], data: Path | None, **options: Any) -> Summary:
        return report.stats(list(dict.fromkeys(select(selectors))))


WORLD = HanoiWorld()
