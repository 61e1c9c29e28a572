"""``plancheck demo``: score a shipped sample of published GRASP answers, offline.

The sample (``plancheck/data/demo/grasp/answers.jsonl``) holds, for grid 0 of each of the 20 published
grid files (shipped in ``plancheck/data/grasp/grids``) x 8 settings, the recorded greedy and random-walk
answers and GPT-3.5's responses.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path
from statistics import fmean
from typing import Any

from plancheck.domains.grasp.report import model_name
from plancheck.domains.grasp.world import WORLD
from plancheck.verifier.batch import evaluate_records
from plancheck.verifier.render import number_text, table_text, verdict_text
from plancheck.world import Summary

DEMO_DATA = Path(str(files("plancheck") / "data" / "demo"))
SHOWCASE = "inner_random_block.jsonl-0-0-1-1"


@dataclass
class DemoReport:
    summary: Summary
    scored: int
    broken: list[str]
    showcase: str
    showcase_json: dict[str, Any] = field(default_factory=dict)
    optimum: tuple[tuple[str, float, float], ...] = ()  # (model, mean score, mean certified optimum)

    @property
    def ok(self) -> bool:
        return self.scored > 0 and not self.broken

    def text(self) -> str:
        lines = [table_text(self.summary.header, self.summary.rows, self.summary.title, self.summary.labels),
                 f"{self.scored} answers scored, {len(self.broken)} broken", "",
                 "Against the certified optimum (rule paper, mean over the answered environments):",
                 *(f"  {model}: {number_text(score)} of {number_text(best)}"
                   for model, score, best in self.optimum), "",
                 "One GPT-3.5 answer in detail:", self.showcase]
        lines += [f"broken: {b}" for b in self.broken]
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        return {"summary": self.summary.to_json(), "scored": self.scored, "broken": self.broken,
                "against_optimum": {model: {"score": score, "optimum": best} for model, score, best in self.optimum},
                "showcase": self.showcase_json}


def run_demo() -> DemoReport:
    records = list(WORLD.read_answers(DEMO_DATA / "grasp" / "answers.jsonl", None))
    results, broken = [], []
    for item in evaluate_records(WORLD, records, None):  # the grids shipped inside the package
        if item.verdict is None:
            broken.append(f"line {item.record.line}: {item.error}")
        else:
            results.append((item.record, item.verdict))
    showcase = next(v for r, v in results if v.instance == SHOWCASE and r.text is not None)
    return DemoReport(WORLD.summarize(results), len(results), broken, verdict_text(showcase),
                      showcase.to_json(), _against_optimum(results))


def _against_optimum(results: list) -> tuple[tuple[str, float, float], ...]:
    """Per model: mean score and mean certified optimum under rule paper, over its parsed answers."""
    pairs: dict[str, list[tuple[float, float]]] = {}
    for record, verdict in results:
        if verdict.parsed and verdict.optimal:
            pairs.setdefault(model_name(record), []).append((verdict.scores["paper"], verdict.optimal["paper"]))
    return tuple((model, round(fmean(s for s, _ in got), 2), round(fmean(b for _, b in got), 2))
                 for model, got in pairs.items())
