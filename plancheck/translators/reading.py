"""Which candidate answer of a text is the answer, and how sure the read is.

A reader finds the *candidates* of a text (bracket lists, numbered or bulleted lines, lines of bare
actions, code blocks, tables; each world its own), and :func:`choose` picks one under a
:class:`~plancheck.translators.answer.Pick` policy. The committed policy (the default):

1. a candidate introduced as explanation, reasoning, recap, verification or example is no answer
   (unless every candidate is one: then the last of them is read, and a note says so);
2. a correction ("Wait, instead: ...") beats an answer introduced as one ("Final answer:",
   "Plan:", "the sequence of steps is:"), which beats a candidate with no label;
3. among the candidates of that rank, the last delimited one (a bracket list, a code block, a
   table) wins, else the last one; a correction is always the last one.

Every verdict carries the :class:`Reading`: ``clear`` when one candidate holds actions or all that
could be the answer agree, ``ambiguous`` when they differ (the reading lists them, says which was
chosen and why), ``none`` when nothing could be read.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from plancheck.errors import AnswerParseError, Location
from plancheck.rules import Unknown
from plancheck.translators.answer import (
    ParsedAction,
    ParsedAnswer,
    Pick,
    Reading,
    ReadStatus,
    Seen,
    SpanKind,
    line_and_column,
    merge_spans,
)
from plancheck.translators.markers import RANK, Label, Marking, Role

Raw = tuple[int, int, SpanKind]


class Unclosed(str, Enum):
    """A list cut off at the end of the text (by the token limit?): read it (noted), or the answer is unreadable."""

    ACCEPT = "accept"
    REJECT = "reject"


@dataclass(frozen=True, slots=True)
class Candidate:
    """One possible answer found in a text: its actions, the text it did not use, where it lies.

    ``delimited``: a bracket list, a code block or a table (what a model commits to); ``cut``: it runs
    to the end of the text without being closed (cut off by the token limit?).
    """

    form: str
    items: tuple[ParsedAction, ...]
    spans: tuple[Raw, ...] = ()
    start: int = 0
    end: int = 0
    delimited: bool = False
    cut: bool = False
    notes: tuple[str, ...] = ()

    @property
    def has_action(self) -> bool:
        return any(not isinstance(item.action, Unknown) for item in self.items)

    @property
    def key(self) -> tuple[Hashable, ...]:
        return tuple(item.action for item in self.items)


def choose(text: str, candidates: Sequence[Candidate], pick: Pick, *, marking: Marking | None = None,
           source: str | None = None, name: Callable[[Any], str] = str,
           what: str = "candidate lists") -> tuple[Candidate, Reading, tuple[str, ...]]:
    """The answer among ``candidates`` (in text order, at least one) under ``pick``, the reading, and notes.

    Raises :class:`AnswerParseError` for ``Pick.ONLY`` with several candidates holding actions (``what`` names
    them in the message).
    """
    marking = marking or Marking.of(text)
    roles = _roles(candidates, marking)
    useful = [i for i, c in enumerate(candidates) if c.has_action] or list(range(len(candidates)))
    notes: tuple[str, ...] = ()
    if pick is Pick.COMMITTED:
        index, why, contenders, notes = _committed(candidates, roles, useful)
    else:
        if pick is Pick.ONLY and len(useful) > 1:
            line, column = line_and_column(text, candidates[useful[1]].start)
            raise AnswerParseError(f"the answer holds {len(useful)} {what} and the policy requires one",
                                   Location(source, line, column))
        index = useful[0] if pick is Pick.FIRST else useful[-1]
        why = f"the {pick.value} candidate holding actions (--pick {pick.value})"
        contenders = useful
    chosen = candidates[index]
    agree = all(candidates[i].key == chosen.key for i in contenders)
    if len(contenders) == 1:
        why = "the only candidate answer" + _because(roles[index])
    elif agree:
        why = f"all {len(contenders)} candidate answers agree"
    considered = set(contenders)
    asides = sum(1 for i in useful if i not in considered)
    if asides:
        why += f"; {asides} list(s) introduced as explanation, recap or example, not as the answer"
    status = ReadStatus.CLEAR if agree else ReadStatus.AMBIGUOUS
    shown = [i for i in range(len(candidates)) if candidates[i].items or i == index]
    seen = tuple(_seen(text, candidates[i], roles[i], i == index, name) for i in shown) if len(shown) > 1 else ()
    return chosen, Reading(status, why, seen), notes


def _roles(candidates: Sequence[Candidate], marking: Marking) -> list[tuple[Role, Label | None]]:
    roles = []
    after: int | None = None
    for candidate in candidates:
        roles.append(marking.role_of(candidate.start, after))
        if candidate.has_action:
            after = candidate.end
    return roles


def _committed(candidates: Sequence[Candidate], roles: list[tuple[Role, Label | None]],
               useful: list[int]) -> tuple[int, str, list[int], tuple[str, ...]]:
    answers = [i for i in useful if roles[i][0] is not Role.ASIDE]
    notes: tuple[str, ...] = ()
    if not answers:
        answers = useful
        if any(roles[i][0] is Role.ASIDE for i in useful):
            notes = ("every list is introduced as explanation, recap or example; the last one was read",)
    top = max(RANK[roles[i][0]] for i in answers)
    pool = [i for i in answers if RANK[roles[i][0]] == top]
    delimited = [i for i in pool if candidates[i].delimited]
    role = roles[pool[-1]][0]
    index = pool[-1] if role is Role.CORRECTION or not delimited else delimited[-1]
    why = {Role.CORRECTION: "a correction of the earlier answer",
           Role.ANSWER: "introduced as the answer",
           Role.PLAIN: "the last " + ("delimited list (bracket list, code block or table)" if delimited else "list"),
           Role.ASIDE: "the last list"}[role]
    if role is not Role.PLAIN and len(pool) > 1:
        why += f" (the last of {len(pool)})"
    return index, why + _label(roles[index][1]), answers, notes


_ROLES = {Role.CORRECTION: "a correction", Role.ANSWER: "introduced as the answer",
          Role.ASIDE: "introduced as an explanation or example", Role.PLAIN: ""}


def _because(role: tuple[Role, Label | None]) -> str:
    return "" if role[0] is Role.PLAIN else f", {_ROLES[role[0]]}{_label(role[1])}"


def _label(label: Label | None) -> str:
    if label is None:
        return ""
    words = label.text if len(label.text) <= 40 else label.text[:37] + "..."
    return f": {words!r}"


def _seen(text: str, candidate: Candidate, role: tuple[Role, Label | None], chosen: bool,
          name: Callable[[Any], str]) -> Seen:
    line, column = line_and_column(text, candidate.start)
    label = "" if role[1] is None else role[1].text
    return Seen(line, column, candidate.form, role[0], label, tuple(name(item.action) for item in candidate.items),
                chosen)


def finish(text: str, chosen: Candidate, reading: Reading, notes: Sequence[str], unclosed: Unclosed,
           source: str | None, outside: Sequence[Raw]) -> ParsedAnswer:
    """The parsed answer of a chosen candidate, with the unclosed-list policy applied."""
    if chosen.cut and not chosen.items:
        line, column = line_and_column(text, chosen.start)
        raise AnswerParseError("the list opened here is never closed and holds no action",
                               Location(source, line, column), ("]",))
    if chosen.cut and unclosed is Unclosed.REJECT:
        line, column = line_and_column(text, chosen.start)
        raise AnswerParseError("the answer is cut off: the list that starts here is never closed (unclosed lists "
                               "are rejected)", Location(source, line, column), ("]",))
    said = list(chosen.notes) + list(notes)
    if chosen.cut:
        said.insert(0, "the list is never closed (cut off?); it was read to the end of the text" if chosen.delimited
                    else "the text ends inside the last line of the list (cut off?); it was read as an unknown slot")
    spans = merge_spans(text, list(chosen.spans) + list(outside))
    return ParsedAnswer(chosen.items, spans, chosen.form, tuple(said), reading)
