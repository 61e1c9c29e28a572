"""Hanoi tables: SmartPlay's per-instance summary of scored answers, and instance statistics."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from plancheck.domains.smartplay.hanoi.instance import HanoiInstance
from plancheck.domains.smartplay.hanoi.scoring import best_disks
from plancheck.verifier.verdict import Verdict
from plancheck.world import Record, Summary

HEADER = ("model", "instance", "answers", "parsed", "completion", "score", "normalised", "reward", "invalid moves",
          "strictly valid")


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def summary(results: Iterable[tuple[Record, Verdict]]) -> Summary:
    """Per model (the record's, else its file's name) and instance: how many answers, the share
    parsed, and SmartPlay's metrics averaged (an unparseable answer counts as score 0 and no completion)."""
    groups: dict[tuple[str, str], list[Verdict]] = {}
    for record, verdict in results:
        groups.setdefault((record.model, verdict.instance), []).append(verdict)
    rows = []
    for model, instance in sorted(groups, key=lambda key: (key[0], len(key[1]), key[1])):
        verdicts = groups[model, instance]
        parsed = [v for v in verdicts if v.parsed]
        rows.append((
            model, instance, len(verdicts), len(parsed) / len(verdicts),
            _mean([float(v.scores.get("completion", 0)) for v in verdicts]),
            _mean([float(v.scores.get("score", 0)) for v in verdicts]),
            _mean([float(v.scores.get("normalised", 0)) for v in verdicts]),
            _mean([float(v.scores["reward"]) for v in parsed]),
            _mean([float(v.metrics["invalid_moves"]) for v in parsed]),
            _mean([float(v.valid and v.goal_reached is True) for v in verdicts]),
        ))
    return Summary("SmartPlay Tower of Hanoi (means per answer)", HEADER, tuple(rows),
                   {"answers": sum(len(v) for v in groups.values())})


def stats(instances: Sequence[HanoiInstance]) -> Summary:
    rows = tuple((i.id, i.env_id, i.disks, 3 ** i.disks, i.optimal_moves, i.step_limit,
                  i.optimal_moves <= i.step_limit, best_disks(i.disks, i.step_limit)) for i in instances)
    return Summary("Tower of Hanoi instances",
                   ("instance", "SmartPlay id", "disks", "states", "optimal moves", "step limit", "solvable in limit",
                    "best score in limit"), rows)
