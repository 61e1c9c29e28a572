"""What batches read and write: one answer record, a record that could not be read, a summary table."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass(frozen=True, slots=True)
class Record:
    """One answer to evaluate: the instance it answers, the free text or a ready action list.

    ``notes`` are remarks on the record itself that its verdict must carry (e.g. "no answer: the
    record's own reference answer was checked").
    """

    line: int
    instance: str
    text: str | None = None
    actions: tuple[str, ...] | None = None
    source: str = ""
    meta: Mapping[str, Any] = field(default_factory=dict)
    notes: tuple[str, ...] = ()

    @property
    def model(self) -> str:
        """Whose answer this is, for per-model tables: the record's ``model`` field, else its file's name."""
        return str(self.meta.get("model") or Path(self.source).stem or "answers")


@dataclass(frozen=True, slots=True)
class BrokenRecord:
    """A record that could not be read; it is reported with its line, never dropped."""

    line: int
    reason: str
    source: str = ""
    instance: str | None = None


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
        return {"title": self.title, "header": list(self.header), "rows": [list(r) for r in self.rows],
                **dict(self.data)}
