"""The benchmarks' tables from many verdicts: per model, task and environment, one row per metric.

The model is the record's ``model`` field, else the name of its file.

Unparseable answers count as failures (the harness scores an answer without its marker as empty).
Predict: accuracy, and the mean Manhattan distance of the wrong answers. Plan: success rate (CR)
and mean efficiency against the optimum and against the bot (0 for failures, as published; also
over successes only). Decompose: mean CR, PR and ACI. LangSuitE: success rate and average steps.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from statistics import mean
from typing import Any

from plancheck.verifier.verdict import Verdict
from plancheck.world import Record, Summary


def _env(instance: str) -> str:
    return instance.split("/")[0]


def _rate(values: list[float]) -> float | None:
    return round(mean(values), 4) if values else None


def summarize(results: Iterable[tuple[Record, Verdict]], default_task: str) -> Summary:
    groups: dict[tuple[str, str, str], list[Verdict]] = defaultdict(list)
    for record, verdict in results:
        groups[(record.model, str(record.meta.get("task", default_task)), _env(verdict.instance))].append(verdict)
    rows: list[tuple[Any, ...]] = []
    models: dict[str, Any] = {}
    for (model, task, env), verdicts in sorted(groups.items()):
        read = [v for v in verdicts if v.parsed]
        unread = len(verdicts) - len(read)
        metrics = _metrics(task, verdicts, read)
        models.setdefault(model, {}).setdefault(task, {})[env] = {"records": len(verdicts), "unparseable": unread,
                                                                 **metrics}
        for name, value in metrics.items():
            rows.append((model, task, env, len(verdicts), unread, name, value))
    return Summary("BabyAI: per model, task and environment",
                   ("model", "task", "environment", "n", "unread", "metric", "value"), tuple(rows), {"models": models})


def _metrics(task: str, verdicts: list[Verdict], read: list[Verdict]) -> dict[str, float | None]:
    def score(v: Verdict, name: str) -> float:
        return float(v.scores.get(name, 0.0)) if v.parsed else 0.0

    if task == "predict":
        wrong = [v.scores["manhattan"] for v in read if not v.goal_reached]
        return {"accuracy": _rate([score(v, "exact") for v in verdicts]),
                "manhattan (wrong answers)": _rate(wrong)}
    if task == "plan":
        wins = [v for v in read if v.goal_reached]
        with_bot = [v for v in verdicts if not v.parsed or "efficiency_vs_bot" in v.scores]  # the bot may give up
        out = {"success rate (CR)": _rate([score(v, "success") for v in verdicts]),
               "efficiency vs bot": _rate([score(v, "efficiency_vs_bot") for v in with_bot]),
               "efficiency vs bot (successes)": _rate([v.scores["efficiency_vs_bot"] for v in wins
                                                       if "efficiency_vs_bot" in v.scores])}
        if any("efficiency" in v.scores for v in read):
            out["efficiency vs optimum"] = _rate([score(v, "efficiency") for v in verdicts])
            out["efficiency vs optimum (successes)"] = _rate([v.scores["efficiency"] for v in wins
                                                              if "efficiency" in v.scores])
        return out
    if task == "decompose":
        return {name: _rate([score(v, name) for v in verdicts]) for name in ("CR", "PR", "ACI")}
    return {"success rate": _rate([score(v, "success") for v in verdicts]),
            "average steps": _rate([float(v.metrics["steps"]) for v in read])}
