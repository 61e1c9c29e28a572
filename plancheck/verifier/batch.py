"""Score many answers at once; a broken record is reported with its line and never stops the batch.

Two records that give the same answerer's answer to the same instance (the world says what "the same" is:
:meth:`Checker.answer_key`) are duplicates. Every later one names the first (``duplicate_of``) and is, by
``duplicates``: scored as well (``each``, the default: repeated samples are common), left out (``first``), or
an error (``error``). An unexpected exception while checking one record is an internal error (a bug in
plancheck): the record says so and the batch goes on, unless ``debug`` asks for the exception itself.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from pathlib import Path
from typing import Any, Protocol

from plancheck.errors import BadInputError
from plancheck.verifier.records import BrokenRecord, Record
from plancheck.verifier.verdict import Verdict


class Checker(Protocol):
    """What a batch needs of a world: the instance a record answers, the verdict on an answer, and what makes
    two records duplicates."""

    def resolve(self, record: Record, data: Path | None, **options: Any) -> Any: ...

    def check(self, instance: Any, answer: str | Sequence[str], **options: Any) -> Verdict: ...

    def answer_key(self, record: Record, instance: Any) -> Hashable: ...


class Duplicates(str, Enum):
    """What a batch does with a record that repeats an earlier one (same answerer, same instance)."""

    EACH = "each"  # score it too
    FIRST = "first"  # score the first only; later ones are listed as skipped
    ERROR = "error"  # later ones are errors


@dataclass(frozen=True, slots=True)
class BatchItem:
    """One record's outcome: a verdict, or the reason it could not be scored (``internal``: a bug in plancheck),
    or neither when it was skipped as a duplicate; ``duplicate_of`` names the first record it repeats."""

    record: Record | BrokenRecord
    verdict: Verdict | None = None
    error: str | None = None
    duplicate_of: str | None = None
    internal: bool = False

    @property
    def skipped(self) -> bool:
        return self.verdict is None and self.error is None

    def to_json(self) -> dict[str, Any]:
        head = {"source": self.record.source, "line": self.record.line, "instance": self.record.instance}
        if self.duplicate_of is not None:
            head["duplicate_of"] = self.duplicate_of
        if self.skipped:
            return {**head, "skipped": "a duplicate: only the first is scored (duplicates='first')"}
        if self.verdict is None:
            return {**head, "error": self.error}
        return {**head, "verdict": self.verdict.to_json(with_steps=False)}


def evaluate_records(world: Checker, records: Iterable[Record | BrokenRecord], data: Path | None, *,
                     duplicates: Duplicates | str = Duplicates.EACH, debug: bool = False,
                     **options: Any) -> Iterator[BatchItem]:
    """Check every record; unreadable records, unknown instances and answers beyond limits become error items."""
    policy = Duplicates(duplicates)
    first: dict[Hashable, str] = {}
    for record in records:
        if isinstance(record, BrokenRecord):
            yield BatchItem(record, error=record.reason)
            continue
        try:
            instance = world.resolve(record, data, **options)
            place = f"{record.source}, line {record.line}"
            earlier = first.setdefault(world.answer_key(record, instance), place)
            duplicate_of = None if earlier is place else earlier
            if duplicate_of is not None and policy is not Duplicates.EACH:
                yield BatchItem(record, error=f"a duplicate of {earlier} (the same answerer and instance)"
                                if policy is Duplicates.ERROR else None, duplicate_of=duplicate_of)
                continue
            answer = record.text if record.text is not None else list(record.actions or ())
            verdict = world.check(instance, answer, source="answer", **options)  # the item names file and line
        except BadInputError as error:
            yield BatchItem(record, error=_reason(error, record))
        except Exception as error:  # a bug: this record says so, the others are still scored
            if debug:
                raise
            yield BatchItem(record, error=internal_reason(error), internal=True)
        else:
            if record.notes:
                verdict = replace(verdict, notes=record.notes + verdict.notes)
            yield BatchItem(record, verdict=verdict, duplicate_of=duplicate_of)


def internal_reason(error: Exception) -> str:
    """What a batch item says of an unexpected exception (a bug in plancheck)."""
    return f"internal error (a bug in plancheck): {type(error).__name__}: {' '.join(str(error).split())[:500]}"


def _reason(error: BadInputError, record: Record) -> str:
    """The error without the record's own file and line (items report those already)."""
    where = error.location
    if where is not None and where.source == record.source and where.line == record.line and where.column is None:
        return error.message if error.option is None else f"{error.option} {error.message}"
    return str(error)
