"""Crafter's table: SmartPlay's Table 2 / Table 4 columns (cumulative score, normalised by 2680) and,
beside them, Crafter's own score (geometric mean of the success rates over a model's episodes), with
reference rows: the random policy measured here (``benchmarks/crafter_random.py``: 300 episodes,
crafter seeds 0-299) and Crafter's published human experts and random agent (recomputed from their runs)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from plancheck.domains.smartplay import _report
from plancheck.domains.smartplay.crafter import scoring
from plancheck.domains.smartplay.crafter.instance import CrafterInstance
from plancheck.verifier.verdict import Verdict
from plancheck.world import Record, Summary

METRICS = (("achievements", "achievements"), ("survived", "survived"), ("SmartPlay fallbacks", "read_none"))
RANDOM_SCORE = 222.54  # measured by benchmarks/crafter_random.py --episodes 300 (see the module text)
CRAFTER_COLUMN = "Crafter score %"


def references(instance: CrafterInstance, steps: int) -> list[tuple[str, float]]:
    """(label, raw SmartPlay score) of the reference policies: the random policy, measured."""
    return [("random, 300 episodes", RANDOM_SCORE)]


def crafter_score(verdicts: Sequence[Verdict]) -> float | None:
    """Crafter's score of a model's episodes, or None when some episode's unlocks are not known by name."""
    unlocked = [v.metrics.get("unlocked") for v in verdicts]
    if not unlocked or any(u is None for u in unlocked):
        return None
    return scoring.crafter_score(scoring.success_rates([set(u) for u in unlocked]))


def summary(results: Sequence[tuple[Record, Verdict]], paper: str | None = None) -> Summary:
    """The table (see the module text)."""
    title = ("SmartPlay Crafter: mean over episodes, the paper's Table 2 (normalised) and Table 4 (raw) columns, "
             "and Crafter's own score")
    table = _report.table("Crafter", title, results, references(CrafterInstance(), 10000), METRICS, paper)
    by_model: dict[str, list[Verdict]] = defaultdict(list)
    for record, verdict in results:
        by_model[record.model].append(verdict)
    extra = [crafter_score(verdicts) for verdicts in by_model.values()]
    extra += [None] * (len(table.rows) - len(extra))
    rows = [(*row, value) for row, value in zip(table.rows, extra, strict=True)]
    blank = (None,) * (len(table.header) - 1)
    for name in ("human", "random"):
        published = scoring.reference(name)
        label = "human experts" if name == "human" else "random agent"
        rows.append((f"Crafter {label} (Crafter paper)", *blank, round(published.mean, 1)))
    data = dict(table.data)
    for (model, _), value in zip(by_model.items(), extra):
        data["models"][model]["crafter_score"] = value
    data["crafter_references"] = {name: round(scoring.reference(name).mean, 2) for name in ("human", "random")}
    return Summary(table.title, (*table.header, CRAFTER_COLUMN), tuple(rows), data)
