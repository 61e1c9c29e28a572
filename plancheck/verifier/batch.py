"""Score many answers at once; a broken record is reported with its line and never stops the batch.

Two records that give the same answerer's answer to the same instance (the world says what "the same" is:
:meth:`Checker.answer_key`) are duplicates. Every later one names the first (``duplicate_of``) and is, by
``duplicates``: scored as well (``each``, the default: repeated samples are common), left out (``first``), or
an error (``error``). An unexpected exception while checking one record is an internal error (a bug in
plancheck): the record says so and the batch goes on, unless ``debug`` asks for the exception itself.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from pathlib import Path
from typing import Any, NamedTuple, Protocol

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
        """Left out as a duplicate (``duplicates='first'``): neither scored nor an error."""
        return self.verdict is None and self.error is None

    def to_json(self) -> dict[str, Any]:
        """The item as a JSON object: where the record came from, and its verdict or error."""
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
    check = DuplicateCheck(world, data, duplicates, debug, **options)
    for record in records:
        yield evaluate_record(world, check.mark(record), data, debug=debug, **options)


class Marked(NamedTuple):
    """A record on its way to be scored, as the duplicate check left it: its instance when it was resolved in
    this process (None: resolved where it is scored) and the first record it repeats. (A NamedTuple: one per
    record, built at half a frozen dataclass's cost.)"""

    record: Record
    instance: Any = None
    duplicate_of: str | None = None


class DuplicateCheck:
    """Duplicates found in input order, where the records are read (before they go to be scored, on this process
    or others). It keeps one key per distinct answer seen, so its memory grows with the distinct records, not
    with the batch's repeats."""

    def __init__(self, world: Checker, data: Path | None, duplicates: Duplicates | str = Duplicates.EACH,
                 debug: bool = False, **options: Any) -> None:
        self.world, self.data, self.policy, self.debug = world, data, Duplicates(duplicates), debug
        resolve = getattr(world, "resolve", None)  # a world of episodes only has none
        self.options = options if resolve is None else options_read_by(resolve, options)
        self.first: dict[Hashable, tuple[str, int]] = {}  # the file and line of each key's first record

    def mark(self, record: Record | BrokenRecord) -> Marked | BatchItem:
        """The record to score (resolved, with the record it repeats), or its final item: broken, an unknown
        instance, an internal error, or a duplicate left out (``first``) or refused (``error``)."""
        if isinstance(record, BrokenRecord):
            return BatchItem(record, error=record.reason)
        try:
            instance = self.world.resolve(record, self.data, **self.options)
            key = self.world.answer_key(record, instance)
        except BadInputError as error:
            return BatchItem(record, error=_reason(error, record))
        except Exception as error:  # a bug: this record says so, the others are still scored
            if self.debug:
                raise
            return BatchItem(record, error=internal_reason(error), internal=True)
        place = (record.source, record.line)
        earlier = self.first.setdefault(key, place)
        duplicate_of = None if earlier is place else f"{earlier[0]}, line {earlier[1]}"
        if duplicate_of is not None and self.policy is not Duplicates.EACH:
            return BatchItem(record, error=f"a duplicate of {duplicate_of} (the same answerer and instance)"
                             if self.policy is Duplicates.ERROR else None, duplicate_of=duplicate_of)
        return Marked(record, instance, duplicate_of)


def options_read_by(method: Callable[..., Any], options: Mapping[str, Any]) -> dict[str, Any]:
    """The ``options`` a world method reads: all of them when it takes ``**options``, else those it names (a world
    method's catch-all ``**_`` takes what it ignores). Asked once per batch: each option passed costs every record."""
    try:
        parameters = inspect.signature(method).parameters.values()
    except (TypeError, ValueError):  # not introspectable: it gets them all
        return dict(options)
    if any(parameter.kind is parameter.VAR_KEYWORD and parameter.name != "_" for parameter in parameters):
        return dict(options)
    named = {parameter.name for parameter in parameters
             if parameter.kind in (parameter.POSITIONAL_OR_KEYWORD, parameter.KEYWORD_ONLY)}
    return {key: value for key, value in options.items() if key in named}


def evaluate_record(world: Checker, unit: Record | BrokenRecord | Marked | BatchItem, data: Path | None, *,
                    debug: bool = False, **options: Any) -> BatchItem:
    """One record's item: its verdict, or why it could not be scored (``unit``: a record, or what
    :meth:`DuplicateCheck.mark` made of it). An unexpected exception is an internal error of that record,
    unless ``debug``."""
    if isinstance(unit, BatchItem):
        return unit
    if isinstance(unit, BrokenRecord):
        return BatchItem(unit, error=unit.reason)
    marked = unit if isinstance(unit, Marked) else Marked(unit)
    record = marked.record
    try:
        instance = marked.instance if marked.instance is not None else world.resolve(record, data, **options)
        answer = record.text if record.text is not None else list(record.actions or ())
        verdict = world.check(instance, answer, source="answer", **options)  # the item names file and line
    except BadInputError as error:
        return BatchItem(record, error=_reason(error, record), duplicate_of=marked.duplicate_of)
    except Exception as error:  # a bug: this record says so, the others are still scored
        if debug:
            raise
        return BatchItem(record, error=internal_reason(error), internal=True, duplicate_of=marked.duplicate_of)
    if record.notes:
        verdict = replace(verdict, notes=record.notes + verdict.notes)
    return BatchItem(record, verdict=verdict, duplicate_of=marked.duplicate_of)


def internal_reason(error: Exception) -> str:
    """What a batch item says of an unexpected exception (a bug in plancheck)."""
    return f"{INTERNAL_ERROR}: {type(error).__name__}: {' '.join(str(error).split())[:500]}"


INTERNAL_ERROR = "internal error (a bug in plancheck)"


def _reason(error: BadInputError, record: Record) -> str:
    """The error without the record's own file and line (items report those already)."""
    where = error.location
    if where is not None and where.source == record.source and where.line == record.line and where.column is None:
        return error.message if error.option is None else f"{error.option} {error.message}"
    return str(error)
