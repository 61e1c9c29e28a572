"""The paper's Table 2 / Table 4 layout for one SmartPlay game: per model, the mean normalised
score (Table 2) and the mean raw score (Table 4) over its episodes, beside reference rows computed
from the rules (random, Bayes-optimal, oracle) and, on request, the paper's published rows."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from statistics import fmean
from typing import Any

from plancheck.domains.smartplay import _frame
from plancheck.errors import BadInputError
from plancheck.verifier.verdict import Verdict
from plancheck.world import Record, Summary


def paper_rows(names: str | None) -> list[str]:
    """The published rows named by ``--paper`` (comma-separated, any case; ``all``)."""
    if not names:
        return []
    if names.strip().lower() == "all":
        return list(_frame.TABLE4)
    known = {name.lower(): name for name in _frame.TABLE4}
    chosen = []
    for name in (part.strip() for part in names.split(",") if part.strip()):
        if name.lower() not in known:
            raise BadInputError(f"the paper has no row {name!r}; it has {', '.join(_frame.TABLE4)} (or all)")
        chosen.append(known[name.lower()])
    return chosen


def table(env: str, title: str, results: Iterable[tuple[Record, Verdict]], references: Sequence[tuple[str, float]],
          metrics: Sequence[tuple[str, str]], paper: str | None = None,
          recorded: _frame.Recorded | None = None) -> Summary:
    """Rows per model (mean over its episodes), then ``references`` (label, expected raw score) and
    the paper's rows. ``metrics`` are (column, metric key) pairs averaged per model. ``recorded``
    replaces SmartPlay's recorded settings of ``env`` (for a game SmartPlay records none)."""
    recorded = recorded or _frame.RECORDED[env]
    by_model: dict[str, list[Verdict]] = defaultdict(list)
    for record, verdict in results:
        by_model[record.model].append(verdict)
    header = ("model", "episodes", f"{recorded.column} normalised (Table 2)", f"{recorded.column} raw (Table 4)",
              *(column for column, _ in metrics), "inconsistent")
    rows: list[tuple[Any, ...]] = []
    data: dict[str, Any] = {"game": env, "models": {}, "references": {}, "paper": {}}
    for model, verdicts in by_model.items():
        raw = _mean(v.scores.get("score") for v in verdicts)
        values = [_mean(v.scores.get(key, v.metrics.get(key)) for v in verdicts) for _, key in metrics]
        inconsistent = sum(not v.consistent for v in verdicts)
        rows.append((model, len(verdicts), _normalised(recorded, raw), raw, *values, inconsistent))
        data["models"][model] = {"episodes": len(verdicts), "normalized": _normalised(recorded, raw), "raw": raw,
                                 **{key: value for (_, key), value in zip(metrics, values)},
                                 "inconsistent": inconsistent}
    blank = (None,) * len(metrics)
    for label, raw in references:
        rows.append((f"{label} (expected)", None, _normalised(recorded, raw), raw, *blank, None))
        data["references"][label] = {"normalized": _normalised(recorded, raw), "raw": raw}
    for name in paper_rows(paper):
        raw = _frame.paper_raw(name, env)
        rows.append((f"{name} (paper)", None, _normalised(recorded, raw), raw, *blank, None))
        data["paper"][name] = {"normalized": _normalised(recorded, raw), "raw": raw}
    return Summary(title, header, tuple(rows), data)


def _mean(values: Iterable[Any]) -> float | None:
    present = [value for value in values if isinstance(value, (int, float)) and not isinstance(value, bool)]
    return fmean(present) if present else None


def _normalised(recorded: _frame.Recorded, raw: float | None) -> float | None:
    return None if raw is None else (raw - recorded.minimum) / (recorded.human - recorded.minimum)
