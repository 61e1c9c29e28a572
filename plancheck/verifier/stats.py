"""Uncertainty for summaries: n, the standard error and a bootstrap 95% interval of a mean, per model and in total.

The bootstrap is the percentile bootstrap over ``resamples`` resamples drawn with a seeded
generator, so the same answers give the same interval every time: numpy's PCG64 generator when
numpy is installed (a 32,000-answer batch takes well under a second), else Python's own (about
100 times slower); the summary's title names the generator. The standard error is the sample
standard deviation over the square root of n (n - 1 in the variance; none for n < 2).

>>> estimate([1, 0, 1, 1]).mean, round(estimate([1, 0, 1, 1]).se, 4)
(0.75, 0.25)
>>> low, high = estimate([1, 0, 1, 1]).interval
>>> 0.25 <= low < 0.75 < high <= 1.0, estimate([2, 2]).interval
(True, (2.0, 2.0))
"""

from __future__ import annotations

import importlib.util
import math
import random
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from plancheck.verifier.records import Record, Summary
from plancheck.verifier.rows import headline
from plancheck.verifier.verdict import Semantics, Verdict

RESAMPLES = 1000  # bootstrap resamples by default
ALL = "all"  # the row that totals every model
_CHUNK = 4_000_000  # indices drawn at once with numpy (32 MB)


def generator() -> str:
    """The name of the generator the bootstrap draws with here."""
    return "numpy PCG64" if importlib.util.find_spec("numpy") is not None else "Python random"


def _means(values: Sequence[float], resamples: int, seed: int) -> list[float]:
    """The sorted means of ``resamples`` bootstrap resamples of ``values``."""
    n = len(values)
    if generator() == "Python random":
        draw = random.Random(seed)
        return sorted(math.fsum(draw.choices(values, k=n)) / n for _ in range(resamples))
    import numpy

    rng, array = numpy.random.default_rng(seed), numpy.asarray(values, dtype=float)
    means = numpy.empty(resamples)
    chunk = max(1, _CHUNK // n)
    for start in range(0, resamples, chunk):
        size = min(chunk, resamples - start)
        means[start:start + size] = array[rng.integers(0, n, size=(size, n))].mean(axis=1)
    return sorted(means.tolist())


@dataclass(frozen=True, slots=True)
class Estimate:
    """A mean over ``n`` values with its standard error and a 95% bootstrap interval (None where undefined)."""

    n: int
    mean: float | None
    se: float | None
    interval: tuple[float, float] | None

    def to_json(self) -> dict[str, object]:
        return {"n": self.n, "mean": self.mean, "se": self.se,
                "ci95": None if self.interval is None else list(self.interval)}


def estimate(values: Sequence[float], resamples: int = RESAMPLES, seed: int = 0) -> Estimate:
    """The mean of ``values``, its standard error and its percentile-bootstrap 95% interval."""
    n = len(values)
    if n == 0:
        return Estimate(0, None, None, None)
    mean = math.fsum(values) / n
    se = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1) / n) if n > 1 else None
    if resamples < 1 or len(set(values)) == 1:
        return Estimate(n, mean, se, (mean, mean))
    means = _means(values, resamples, seed)
    low = means[max(0, math.ceil(0.025 * resamples) - 1)]
    high = means[min(resamples - 1, math.ceil(0.975 * resamples) - 1)]
    return Estimate(n, mean, se, (low, high))


def _interval(found: Estimate) -> str:
    return "-" if found.interval is None else f"[{found.interval[0]:.2f}, {found.interval[1]:.2f}]"


def statistics(results: Iterable[tuple[Record, Verdict]], semantics: Semantics | str = Semantics.STRICT,
               rule: str | None = None, resamples: int = RESAMPLES, seed: int = 0) -> Summary:
    """Per model, then for all models together: n, the pass rate and the mean headline score, each with its
    standard error and 95% bootstrap interval. A verdict without a score (an unreadable answer) counts in the
    pass rate, not in the score; the ``scored`` column says how many had one."""
    semantics = Semantics(semantics)
    passed: dict[str, list[float]] = defaultdict(list)
    scores: dict[str, list[float]] = defaultdict(list)
    rules: set[str] = set()
    for record, verdict in results:
        passed[record.model].append(1.0 if verdict.passed(semantics) else 0.0)
        name, value = headline(verdict, rule)
        if value is not None:
            scores[record.model].append(float(value))
            rules.add(name)  # type: ignore[arg-type]
    groups = sorted(passed) + ([ALL] if len(passed) > 1 else [])
    rows, data = [], {}
    for group in groups:
        ok = estimate([v for g in passed for v in passed[g]] if group == ALL else passed[group], resamples, seed)
        got = estimate([v for g in scores for v in scores[g]] if group == ALL else scores[group], resamples, seed)
        rows.append((group, ok.n, ok.mean, ok.se, _interval(ok), got.n, got.mean, got.se, _interval(got)))
        data[group] = {"passed": ok.to_json(), "score": got.to_json()}
    shown = ", ".join(sorted(rules)) or "none"
    title = (f"Pass rate ({semantics.value}) and mean score ({shown}) per model: standard error and "
             f"95% bootstrap interval ({resamples} resamples, seed {seed}, {generator()})")
    header = ("model", "n", "passed", "SE", "95% CI", "scored", "score", "SE", "95% CI")
    return Summary(title, header, tuple(rows), {"semantics": semantics.value, "rule": sorted(rules),
                                                "resamples": resamples, "seed": seed, "generator": generator(),
                                                "groups": data})
