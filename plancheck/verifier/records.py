"""What batches read and write: one answer record, a record that could not be read, a summary table.

Every world's plain answer files use the same keys: the instance under ``instance`` (or ``id``),
the answer under ``response`` (or ``text``, ``answer``, ``output``), optionally ``model``. A world
may accept more (its benchmark's own formats); the fields a reader does not consume (all but the
instance's and the answer's) stay with the record and reach the output rows.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

INSTANCE_KEYS = ("instance", "id")  # where a plain record names its instance, in order of preference
ANSWER_KEYS = ("response", "text", "answer", "output")  # where a plain record holds its answer


def first_key(data: Mapping[str, Any], keys: Sequence[str]) -> str | None:
    """The first of ``keys`` that ``data`` has.

    >>> first_key({"output": "x", "id": "a"}, ANSWER_KEYS), first_key({}, INSTANCE_KEYS)
    ('output', None)
    """
    return next((key for key in keys if key in data), None)


def unconsumed(data: Mapping[str, Any], *consumed: str | None) -> dict[str, Any]:
    """The record's fields other than the ``consumed`` ones (the keys that named the instance and held the answer).

    >>> unconsumed({"id": "a", "output": "x", "model": "m", "temperature": 0.7}, "id", "output")
    {'model': 'm', 'temperature': 0.7}
    """
    used = set(consumed)
    return {key: value for key, value in data.items() if key not in used}


@dataclass(frozen=True, slots=True)
class Record:
    """One answer to evaluate: the instance it answers, the free text or a ready action list.

    ``meta`` holds what the world reads from the record besides the answer (its model, task,
    stated facts); ``fields`` the record's own fields that reading did not consume (model,
    temperature, ...), which output rows keep as they were. ``notes`` are remarks on the record
    itself that its verdict must carry (e.g. "no answer: the record's own reference answer was checked").
    """

    line: int
    instance: str
    text: str | None = None
    actions: tuple[str, ...] | None = None
    source: str = ""
    meta: Mapping[str, Any] = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    fields: Mapping[str, Any] = field(default_factory=dict)

    @property
    def model(self) -> str:
        """Whose answer this is, for per-model tables: the record's ``model`` field, else its file's name."""
        return str(self.meta.get("model") or _stem(self.source) or "answers")


@lru_cache(maxsize=1024)
def _stem(source: str) -> str:
    """A file's name without its suffix (asked for every record of a batch without models)."""
    return Path(source).stem


@dataclass(frozen=True, slots=True)
class BrokenRecord:
    """A record that could not be read; it is reported with its line, never dropped."""

    line: int
    reason: str
    source: str = ""
    instance: str | None = None


class Mean:
    """A running mean in constant memory, equal to ``statistics.fmean`` of the same values to the last bit: the
    exact sum is kept as non-overlapping partial sums (Shewchuk), which ``math.fsum`` rounds once, as fmean does.

    >>> import statistics
    >>> mean = Mean()
    >>> for value in (0.1, 0.2, 0.3, 1e16, -1e16):
    ...     mean.add(value)
    >>> mean.value() == statistics.fmean([0.1, 0.2, 0.3, 1e16, -1e16]), mean.count
    (True, 5)
    """

    __slots__ = ("count", "_partials")

    def __init__(self) -> None:
        self.count = 0
        self._partials: list[float] = []

    def add(self, value: float) -> None:
        self.count += 1
        partials, kept = self._partials, 0
        x = float(value)
        for y in partials:
            if abs(x) < abs(y):
                x, y = y, x
            high = x + y
            low = y - (high - x)
            if low:
                partials[kept] = low
                kept += 1
            x = high
        partials[kept:] = [x]

    def value(self) -> float:
        return math.fsum(self._partials) / self.count


class Decimals(float):
    """A number that tables print with ``digits`` decimals (the paper's precision); JSON keeps the number.

    >>> value = Decimals(19.41, 1)
    >>> value.digits, value == 19.41, f"{value:.{value.digits}f}"
    (1, True, '19.4')
    """

    digits: int

    def __new__(cls, value: float, digits: int) -> Decimals:
        number = super().__new__(cls, value)
        number.digits = digits
        return number


@dataclass(frozen=True)
class Summary:
    """An aggregate table: a title, a header, rows, and the same content as JSON.

    The first ``labels`` columns name the rows (printed left-aligned); a header cell may span
    several lines (``"Greedy Search\\nLength"``).
    """

    title: str
    header: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]
    data: Mapping[str, Any] = field(default_factory=dict)
    labels: int = 1

    def to_json(self) -> dict[str, Any]:
        """The table as ``evaluate --summary --json`` prints it."""
        return {"title": self.title, "header": list(self.header), "rows": [list(r) for r in self.rows],
                **dict(self.data)}
