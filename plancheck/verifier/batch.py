"""Score many answers at once; a broken record is reported with its line and never stops the batch."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol

from plancheck.errors import BadInputError
from plancheck.verifier.records import BrokenRecord, Record
from plancheck.verifier.verdict import Verdict


class Checker(Protocol):
    """What a batch needs of a world: the instance a record answers, and the verdict on an answer."""

    def resolve(self, record: Record, data: Path | None, **options: Any) -> Any: ...

    def check(self, instance: Any, answer: str | Sequence[str], **options: Any) -> Verdict: ...


@dataclass(frozen=True, slots=True)
class BatchItem:
    """One record's outcome: a verdict, or the reason it could not be scored."""

    record: Record | BrokenRecord
    verdict: Verdict | None = None
    error: str | None = None

    def to_json(self) -> dict[str, Any]:
        head = {"source": self.record.source, "line": self.record.line, "instance": self.record.instance}
        if self.verdict is None:
            return {**head, "error": self.error}
        return {**head, "verdict": self.verdict.to_json(with_steps=False)}


def evaluate_records(world: Checker, records: Iterable[Record | BrokenRecord], data: Path | None,
                     **options: Any) -> Iterator[BatchItem]:
    """Check every record; unreadable records and unknown instances become error items."""
    for record in records:
        yield evaluate_record(world, record, data, **options)


def evaluate_record(world: Checker, record: Record | BrokenRecord, data: Path | None, **options: Any) -> BatchItem:
    """One record's item: its verdict, or why it could not be scored."""
    if isinstance(record, BrokenRecord):
        return BatchItem(record, error=record.reason)
    try:
        instance = world.resolve(record, data, **options)
        answer = record.text if record.text is not None else list(record.actions or ())
        verdict = world.check(instance, answer, source="answer", **options)  # the item names file and line
    except BadInputError as error:
        return BatchItem(record, error=_reason(error, record))
    if record.notes:
        verdict = replace(verdict, notes=record.notes + verdict.notes)
    return BatchItem(record, verdict=verdict)


def _reason(error: BadInputError, record: Record) -> str:
    """The error without the record's own file and line (items report those already)."""
    where = error.location
    if where is not None and where.source == record.source and where.line == record.line and where.column is None:
        return error.message
    return str(error)
