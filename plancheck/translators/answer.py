"""What any answer parser returns: the actions it read and every span of text it did not use.

Parsers never drop text silently. Each character of an answer is either part of an action it
read, layout (whitespace, brackets, separators, numbering, quotes, code fences), or lies in a
:class:`Span` that says why it was not used. The verdict lists those spans.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Hashable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import Enum
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any, Generic, NamedTuple, TypeVar

from plancheck.errors import Location
from plancheck.limits import DEFAULT, Limits
from plancheck.rules import Unknown
from plancheck.translators.markers import Role

if TYPE_CHECKING:
    from lark import Token, Tree

A = TypeVar("A", bound=Hashable)


class SpanKind(str, Enum):
    """Why a span of the answer was not read as an action."""

    UNKNOWN = "unknown action"  # in the answer, in an action's place, but names no action
    UNREAD = "unreadable"  # in the answer, next to an action, not understood
    COMMENTARY = "commentary"  # after an action on its own line ("RIGHT - move right")
    OUTSIDE = "outside the answer"  # prose, or a list that the policy did not pick


@dataclass(frozen=True, slots=True)
class Span:
    """``text[start:end]`` of the answer, with its 1-based line and column."""

    start: int
    end: int
    text: str
    kind: SpanKind
    line: int
    column: int

    def to_json(self) -> dict:
        return {"start": self.start, "end": self.end, "line": self.line, "column": self.column,
                "kind": self.kind.value, "text": self.text}


class ParsedAction(NamedTuple):
    """One action slot of the answer: the action (or :class:`Unknown`) and where it was read.

    A NamedTuple, not a frozen dataclass: as immutable, half the cost to build, and there is one
    per action of every answer. (A generic NamedTuple needs Python 3.11, hence ``Any``.)
    """

    action: Any
    start: int
    end: int


class Pick(str, Enum):
    """Which candidate list is the answer when a text holds several (see :mod:`plancheck.translators.reading`)."""

    COMMITTED = "committed"  # a correction, else one introduced as the answer, else the last delimited one
    FIRST = "first"
    LAST = "last"
    ONLY = "only"


class UnknownPolicy(str, Enum):
    """What an unknown token in the answer does: use a step as a no-op, or vanish (reported)."""

    NOOP = "noop"
    SKIP = "skip"


@cache
def unknown_policy(name: UnknownPolicy | str) -> UnknownPolicy:
    """``UnknownPolicy(name)``, looked up once per name (a batch asks for every record)."""
    return UnknownPolicy(name)


class ReadStatus(str, Enum):
    """How sure the read of an answer is."""

    CLEAR = "clear"  # one candidate answer, or all candidates that could be the answer agree
    AMBIGUOUS = "ambiguous"  # candidates differ: the reading lists them and says which was chosen, and why
    NONE = "none"  # no answer could be read


@dataclass(frozen=True, slots=True)
class Seen:
    """A candidate as a verdict reports it: where, what form, what role, which actions."""

    line: int
    column: int
    form: str
    role: Role
    label: str
    actions: tuple[str, ...]
    chosen: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"line": self.line, "column": self.column, "form": self.form, "role": self.role.value,
                "label": self.label, "actions": list(self.actions), "chosen": self.chosen}


_STATUS_NAMES = {status: status.value for status in ReadStatus}  # a dict lookup: .value is a Python call


@dataclass(frozen=True, slots=True)
class Reading:
    """How an answer was read: the status, why the chosen candidate was chosen, and (when several) the candidates."""

    status: ReadStatus = ReadStatus.CLEAR
    why: str = ""
    candidates: tuple[Seen, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"status": _STATUS_NAMES[self.status], "why": self.why}
        if len(self.candidates) > 1:
            data["candidates"] = [seen.to_json() for seen in self.candidates]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Reading:
        """The reading :meth:`to_json` wrote."""
        return cls(ReadStatus(data["status"]), data.get("why", ""),
                   tuple(Seen(c["line"], c["column"], c["form"], Role(c["role"]), c["label"], tuple(c["actions"]),
                              c.get("chosen", False)) for c in data.get("candidates", ())))


CLEAR = Reading(ReadStatus.CLEAR, "the only candidate answer")
NOT_READ = Reading(ReadStatus.NONE, "no answer could be read")


@dataclass(frozen=True, slots=True)
class ParsedAnswer(Generic[A]):
    """The result of reading one answer.

    ``form`` names what was recognised as the answer ("bracket list", "numbered lines", ...);
    ``notes`` are remarks a person should see (e.g. "the list is never closed"); ``reading`` says
    how sure the read is.
    """

    items: tuple[ParsedAction, ...]
    spans: tuple[Span, ...] = ()
    form: str = ""
    notes: tuple[str, ...] = field(default=())
    reading: Reading = field(default_factory=lambda: CLEAR)

    def actions(self, unknown: UnknownPolicy | str = UnknownPolicy.NOOP) -> list[A | Unknown]:
        """The action sequence to execute under the given unknown-token policy (an enum member or its name)."""
        if unknown_policy(unknown) is UnknownPolicy.NOOP:
            return [item.action for item in self.items]
        return [item.action for item in self.items if not isinstance(item.action, Unknown)]


def within_limits(answer: str | Sequence[str], limits: Limits = DEFAULT, source: str | None = None) -> None:
    """Refuse, before it is read, an answer beyond ``limits``: a text above ``answer_bytes``, a list above
    ``list_length`` elements or ``answer_bytes`` in all (a :class:`~plancheck.errors.LimitError`).

    >>> within_limits("[UP, TAKE]", Limits(answer_bytes=8), "a.txt")
    Traceback (most recent call last):
    plancheck.errors.LimitError: a.txt: max_answer_bytes 8 exceeded: the answer has 10 bytes
    """
    where = Location(source) if source else None
    if isinstance(answer, str):
        limits.text(answer, "the answer", where)
        return
    limits.length(len(answer), "the answer's list", where)
    if sum(map(len, answer)) * 4 > limits.answer_bytes:  # at most 4 bytes a character: exact only when it may matter
        limits.bytes_of(sum(len(str(item).encode("utf-8", "surrogatepass")) for item in answer), "the answer's list",
                        where)


def within_words(text: str, limits: Limits = DEFAULT, source: str | None = None) -> None:
    """Refuse, before it is lexed, a free-text answer read token by token (by a world's grammar, and the
    committed reading of :mod:`plancheck.translators.candidates`) beyond ``limits.answer_words`` (a
    :class:`~plancheck.errors.LimitError`): reading costs about 10-20 microseconds a token.

    >>> within_words("[UP] " * 11, Limits(answer_words=10), "a.txt")
    Traceback (most recent call last):
    plancheck.errors.LimitError: a.txt: max_answer_words 10 exceeded: the answer holds 11 words
    """
    limits.words(text, "the answer", Location(source) if source else None)


def read_within_limits(parsed: ParsedAnswer, limits: Limits = DEFAULT, source: str | None = None) -> ParsedAnswer:
    """``parsed``, unless it holds more actions than ``limits.list_length`` (then a LimitError)."""
    limits.length(len(parsed.items), "the actions read from the answer", Location(source) if source else None)
    return parsed


def line_and_column(text: str, offset: int) -> tuple[int, int]:
    """1-based (line, column) of ``offset`` in ``text``.

    >>> line_and_column("ab\\ncd", 4)
    (2, 2)
    """
    starts = _line_starts(text)
    line = bisect_right(starts, offset)
    return line, offset - starts[line - 1] + 1


@lru_cache(maxsize=4)
def _line_starts(text: str) -> tuple[int, ...]:
    """The offsets at which the lines of ``text`` start, computed once per text: an answer with many
    spans asks for many positions (counting the line breaks each time made 180,000 spans of a 900 kB
    answer take 26 s)."""
    return (0, *(match.end() for match in re.finditer("\n", text)))


def make_span(text: str, start: int, end: int, kind: SpanKind) -> Span:
    line, column = line_and_column(text, start)
    return Span(start, end, text[start:end], kind, line, column)


def leaf_tokens(node: Tree | Token) -> Iterator[Token]:
    """The tokens of a parse tree, in text order."""
    children = getattr(node, "children", None)  # a Tree's; a Token (a str) has none. Lark is imported only
    if children is None:                          # where a grammar is used, not by every reader of answers
        yield node
    else:
        for child in children:
            yield from leaf_tokens(child)


def merge_spans(text: str, raw: list[tuple[int, int, SpanKind]]) -> tuple[Span, ...]:
    """Spans from (start, end, kind), sorted; neighbours of the same kind separated only by whitespace
    are merged (unknown tokens stay one span each)."""
    merged: list[list] = []
    for start, end, kind in sorted(raw):
        if merged and merged[-1][2] is kind and kind is not SpanKind.UNKNOWN and \
                text[merged[-1][1]:start].strip() == "":
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end, kind])
    return tuple(make_span(text, s, e, k) for s, e, k in merged)
