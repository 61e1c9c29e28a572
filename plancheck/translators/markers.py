"""Where a text says what its answer is: labels such as "Final answer:" or "Explanation:", and the roles they give.

Models introduce their answer ("Final answer:", "**Plan**", "the sequence of steps is:"), explain it
("Explanation:", "Let me verify:", a recap), correct themselves ("Wait, instead ...") and think aloud
(``<think>...</think>``). :func:`find_labels` finds those labels in any text; :func:`role_of` says
which role they give a candidate answer that starts at a given offset:

* its *lead-in*: the text before it on its own line, or, when it starts a line, the previous
  non-blank line if that line ends with a colon (``Therefore, the plan is:`` above a list);
  the last label there decides;
* otherwise its *section*: the last heading before it (a markdown heading, a bold line, or a line
  that is only a label such as ``Explanation:``);
* a list inside ``<think>`` (or ``<reasoning>``) is always an aside, one after ``<answer>`` is introduced
  as the answer; a list after a correction word ("wait", "instead", "corrected plan") that follows an
  earlier answer is a correction.

Nothing here knows a world: the words are those of answers in general. A world may add labels of
its own (LLM-BabyBench's "The LLM's action sequence is:").
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum


class Role(str, Enum):
    """What a text says a candidate answer is."""

    CORRECTION = "correction"  # introduced as a correction of an earlier answer ("Wait, instead: ...")
    ANSWER = "answer"  # introduced as the answer ("Final answer:", "Plan:", "the sequence of steps is:")
    PLAIN = "plain"  # introduced by no label
    ASIDE = "aside"  # introduced as explanation, reasoning, recap, verification or example: not an answer


RANK = {Role.CORRECTION: 3, Role.ANSWER: 2, Role.PLAIN: 1, Role.ASIDE: 0}


@dataclass(frozen=True, slots=True)
class Label:
    """``text[start:end]`` introduces what follows as ``role``; ``heading``: the label is a line of its own."""

    start: int
    end: int
    role: Role
    text: str
    heading: bool = False


_TERMS = (r"(?:answers?|plans?|solutions?|action[ \t]+sequence|sequence(?:[ \t]+of[ \t]+(?:actions|moves|steps))?|"
          r"(?:list[ \t]+of[ \t]+)?(?:actions?|moves?|steps|subgoals)|action[ \t]+list|outputs?|"
          r"trajector(?:y|ies)|route|path|moves[ \t]+list|commands?)")
_ANSWER_TERM = re.compile(rf"\b{_TERMS}\b", re.IGNORECASE)
_FINAL = re.compile(rf"\b(?:final|corrected|revised|updated|fixed|new)\b[^\n:]{{0,20}}?\b{_TERMS}\b", re.IGNORECASE)
_ASIDE_START = re.compile(
    r"^(?:(?:to|in|for|a|my|the)[ \t]+)?(?:step[- ]by[- ]step[ \t]+|brief[ \t]+|detailed[ \t]+|short[ \t]+|"
    r"quick[ \t]+|final[ \t]+)?"
    r"(?:explanations?|explaining|reasoning|rationale|thought[ \t]+process|thoughts?|thinking|analysis|analy[sz]ing|"
    r"justification|recap(?:ping)?|summary|in[ \t]+summary|to[ \t]+summari[sz]e|verification|verify(?:ing)?|"
    r"check(?:ing)?|"
    r"double[- ]check(?:ing)?|sanity[ \t]+check|breakdown|walk-?through|trace|tracing|simulation|simulating|"
    r"notes?|examples?|for[ \t]+example|e\.g\.?|observations?|why\b|how[ \t]+(?:it|this)[ \t]+works|working|"
    r"scratch(?:pad)?|drafts?|initial[ \t]+(?:attempt|idea|plan|thoughts?)|first[ \t]+attempt|attempt|ideas?|"
    r"approach|strategy|considerations?|assumptions?|key[ \t]+points?|details|commentary|comments?|"
    r"(?:the[ \t]+)?(?:grid|map|state|situation)[ \t]+analysis|understanding)\b",
    re.IGNORECASE)
_LET_US = re.compile(r"\blet(?:'s|’s|[ \t]+(?:me|us))[ \t]+(?:now[ \t]+)?(?:verify|check|trace|simulate|"
                     r"walk[ \t]+through|"
                     r"double[- ]check|recap|review|explain|summari[sz]e|think|analy[sz]e|reason|consider|see|"
                     r"confirm|go[ \t]+through|break[ \t]+(?:it|this)[ \t]+down)\b", re.IGNORECASE)
_CORRECTION = re.compile(r"\b(?:wait|oops|correction|on[ \t]+second[ \t]+thought|scratch[ \t]+that|instead|"
                         r"i[ \t]+made[ \t]+a[ \t]+mistake|"
                         r"that(?:'s|’s|[ \t]+is)[ \t]+(?:wrong|incorrect|not[ \t]+right)|"
                         r"let[ \t]+me[ \t]+(?:correct|fix|redo|revise|reconsider)|actually(?=[,:]))|"
                         r"\b(?:corrected|revised|updated|fixed)[ \t]+(?:answer|plan|solution|sequence|list|version)",
                         re.IGNORECASE)
# a clause ending in a colon: from the line start or a sentence end, at most 160 characters
_COLON_CLAUSE = re.compile(r"(?:(?<=^)|(?<=[.!?][ \t])|(?<=\*\*))[ \t>#*_-]*([^\n:：.!?]{1,160}?)[ \t*_\"'`]*[:：]",
                           re.MULTILINE)
_IS_CLAUSE = re.compile(rf"\b{_TERMS}[ \t]+(?:is|are|would[ \t]+be|will[ \t]+be|becomes)\b"
                        rf"|\bhere(?:'s|’s|[ \t]+is|[ \t]+are)[ \t]+(?:the|my|our|your)[^\n.!?:]{{0,30}}?\b{_TERMS}\b",
                        re.IGNORECASE)
_HEADING = re.compile(r"^[ \t]*(?:#{1,6}[ \t]+(?P<hash>[^\n]+?)|\*\*(?P<bold>[^\n*]+?)\*\*[ \t]*:?"
                      r"|__(?P<under>[^\n_]+)__[ \t]*:?|(?P<bare>[^\n:：]{1,40}?)[ \t]*[:：])[ \t]*$", re.MULTILINE)
_EXAMPLE = re.compile(r"\b(?:for[ \t]+example|for[ \t]+instance|e\.g\.|such[ \t]+as)(?=[\s,:])", re.IGNORECASE)
_THINK = re.compile(r"<(?:think(?:ing)?|reasoning|scratchpad)>(.*?)(?:</(?:think(?:ing)?|reasoning|scratchpad)>|\Z)",
                    re.IGNORECASE | re.DOTALL)
_ANSWER_TAG = re.compile(r"</?(?:final[_ ]?answer|answer|plan|solution|actions|output)>", re.IGNORECASE)


def classify(clause: str) -> Role | None:
    """The role a label's words give (None: the words are no label).

    >>> [classify(c) for c in ("Final answer", "Explanation of the plan", "Therefore, your sequence of steps is",
    ...                        "Let me verify", "Grid", "In summary, the final plan is")]
    [<Role.ANSWER: 'answer'>, <Role.ASIDE: 'aside'>, <Role.ANSWER: 'answer'>, <Role.ASIDE: 'aside'>, None, \
<Role.ANSWER: 'answer'>]
    """
    words = clause.strip(" \t*_#>`\"'-").strip()
    if _FINAL.search(words) or re.fullmatch(r"(?:the[ \t]+)?final(?:[ \t]+(?:version|result|one))?", words, re.I):
        return Role.ANSWER
    if _ASIDE_START.match(words) or _LET_US.search(words):
        return Role.ASIDE
    if _ANSWER_TERM.search(words):
        return Role.ANSWER
    return None


def find_labels(text: str, extra: Sequence[tuple[re.Pattern, Role]] = ()) -> tuple[Label, ...]:
    """Every label of ``text`` in text order (``extra``: a world's own label patterns and their roles)."""
    found = _Found(len(text))
    for match in _HEADING.finditer(text):
        words = match.group("hash") or match.group("bold") or match.group("under") or match.group("bare")
        role = classify(words)
        if role is not None:
            found[match.start(), match.end()] = Label(match.start(), match.end(), role, match.group(0).strip(),
                                                      heading=True)
        else:  # a heading that is no label ends the section of the one before
            found[match.start(), match.end()] = Label(match.start(), match.end(), Role.PLAIN, match.group(0).strip(),
                                                      heading=True)
    for match in _COLON_CLAUSE.finditer(text):
        role = classify(match.group(1))
        if role is not None and not found.covers(match.start(1)):
            found[match.start(1), match.end()] = Label(match.start(1), match.end(), role, match.group(0).strip())
    for match in _IS_CLAUSE.finditer(text):  # "the final answer is", from the start of its sentence
        start = max(match.start() - 60, 0)
        for boundary in ("\n", ". ", "! ", "? ", ": "):
            found_at = text.rfind(boundary, start, match.start())
            start = start if found_at < 0 else found_at + len(boundary)
        start += len(text[start:match.start()]) - len(text[start:match.start()].lstrip())
        if not found.covers(start):
            found[start, match.end()] = Label(start, match.end(), Role.ANSWER, text[start:match.end()])
    for match in _ANSWER_TAG.finditer(text):  # <answer> ... </answer>: the closing tag ends its section
        role = Role.PLAIN if match.group(0).startswith("</") else Role.ANSWER
        found[match.start(), match.end()] = Label(match.start(), match.end(), role, match.group(0), heading=True)
    for pattern, role in extra:
        for match in pattern.finditer(text):
            found[match.start(), match.end()] = Label(match.start(), match.end(), role, match.group(0).strip())
    for match in _EXAMPLE.finditer(text):  # "For example, [...]": an example is no answer
        if not found.covers(match.start()):
            found[match.start(), match.end()] = Label(match.start(), match.end(), Role.ASIDE, match.group(0))
    for match in _CORRECTION.finditer(text):
        if not found.covers(match.start()):
            found[match.start(), match.end()] = Label(match.start(), match.end(), Role.CORRECTION, match.group(0))
    return tuple(sorted(found.values(), key=lambda label: (label.start, label.end)))


class _Found(dict):
    """The labels found so far by their (start, end), and which offsets they cover: a map of the text's
    characters, so that asking whether an offset is inside a label costs one look-up (a scan of every label
    found was quadratic: thousands of labels in a long answer took tens of seconds)."""

    def __init__(self, size: int):
        super().__init__()
        self.covered = bytearray(size + 1)

    def __setitem__(self, key: tuple[int, int], label: Label) -> None:
        start, end = key
        if end > start:
            self.covered[start:end] = b"\x01" * (end - start)
        super().__setitem__(key, label)

    def covers(self, offset: int) -> bool:
        return bool(self.covered[offset])


def think_regions(text: str) -> tuple[tuple[int, int], ...]:
    """The ``<think>...</think>`` (or ``<reasoning>``) stretches of a reasoning model's answer (to the end when
    never closed)."""
    return tuple((match.start(), match.end()) for match in _THINK.finditer(text))


@dataclass(frozen=True, slots=True)
class Marking:
    """The labels of one text, ready to give any candidate its role."""

    text: str
    labels: tuple[Label, ...]
    thinking: tuple[tuple[int, int], ...]
    starts: tuple[int, ...]
    index: _Index = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "index", _Index.of(self.labels, self.thinking))

    @classmethod
    def of(cls, text: str, extra: Sequence[tuple[re.Pattern, Role]] = ()) -> Marking:
        labels = find_labels(text, extra)
        return cls(text, labels, think_regions(text), tuple(label.start for label in labels))

    def label_at(self, offset: int) -> Label | None:
        """The label covering ``offset``."""
        index = bisect_right(self.starts, offset) - 1
        if index >= 0 and self.labels[index].start <= offset < self.labels[index].end:
            return self.labels[index]
        return None

    def role_of(self, start: int, after: int | None = None) -> tuple[Role, Label | None]:
        """The role of a candidate starting at ``start`` and the label that gives it; ``after``: where the
        previous candidate holding actions ended (a correction must follow an answer)."""
        at = bisect_right(self.index.think_starts, start) - 1
        if at >= 0 and start < self.thinking[at][1]:
            return Role.ASIDE, None
        label, introduced = self._lead_in(start)
        if label is not None and label.role is Role.ASIDE:
            return Role.ASIDE, label
        if after is not None:  # a correction word since the previous answer, outside any aside's lead-in
            correction = self.index.corrections.last_before(start)
            if correction is not None and after <= correction.start:
                return Role.CORRECTION, correction
        if label is None and not introduced:
            label = self._section(start)
        return (label.role, label) if label is not None else (Role.PLAIN, None)

    def _lead_in(self, start: int) -> tuple[Label | None, bool]:
        """The last label of the candidate's lead-in, and whether a line ending in a colon introduces it."""
        text = self.text
        line_start = text.rfind("\n", 0, start) + 1
        low = line_start
        before = text[line_start:start].strip(" \t*_>`-#|")
        introduced = before.endswith((":", "："))
        if not before:
            previous = _previous_line(text, line_start)
            if previous is not None and text[previous[0]:previous[1]].rstrip(" \t*_`").endswith((":", "：")):
                low = previous[0]
                introduced = True
        last = self.index.lead_ins.last_before(start)
        if last is None or last.start < low:
            return None, introduced
        example = self.index.examples.last_before(start)
        if example is not None and example.start >= low and not re.search(r"[.!?]\s|\n", text[example.end:start]):
            return example, introduced  # "e.g. <a whole answer>" in one sentence: an example, whatever it says
        return last, introduced

    def _section(self, start: int) -> Label | None:
        """The last heading (in text order) that ends before ``start``, unless it is no label."""
        at = bisect_right(self.index.heading_ends, start) - 1
        heading = self.index.last_heading[at] if at >= 0 else None
        return heading if heading is not None and heading.role is not Role.PLAIN else None


@dataclass(frozen=True, slots=True)
class _Run:
    """Labels in text order, to find the last one starting before an offset with a binary search."""

    labels: tuple[Label, ...]
    starts: tuple[int, ...]

    @classmethod
    def of(cls, labels: Sequence[Label]) -> _Run:
        return cls(tuple(labels), tuple(label.start for label in labels))

    def last_before(self, offset: int) -> Label | None:
        at = bisect_left(self.starts, offset) - 1
        return self.labels[at] if at >= 0 else None


@dataclass(frozen=True, slots=True)
class _Index:
    """What :meth:`Marking.role_of` looks up, sorted once so that each candidate costs a few binary searches (a
    scan of every label for each candidate was quadratic: thousands of candidates and labels took tens of
    seconds)."""

    think_starts: tuple[int, ...]
    corrections: _Run  # the correction labels
    lead_ins: _Run  # the labels a lead-in can hold: neither corrections nor plain headings
    examples: _Run  # the lead-in labels that start with "for example", "e.g." ...
    heading_ends: tuple[int, ...]  # the ends of the headings, sorted
    last_heading: tuple[Label, ...]  # at each: the last heading in text order of those ending there or before

    @classmethod
    def of(cls, labels: tuple[Label, ...], thinking: tuple[tuple[int, int], ...]) -> _Index:
        lead_ins = [label for label in labels if label.role not in (Role.CORRECTION, Role.PLAIN)]
        headings = sorted(((label.end, order, label) for order, label in enumerate(labels) if label.heading),
                          key=lambda item: item[:2])
        last: list[Label] = []
        latest = -1
        for _, order, label in headings:
            if order > latest:
                latest, chosen = order, label
            last.append(chosen)
        return cls(tuple(start for start, _ in thinking),
                   _Run.of([label for label in labels if label.role is Role.CORRECTION]),
                   _Run.of(lead_ins),
                   _Run.of([label for label in lead_ins if _EXAMPLE.match(label.text + " ")]),
                   tuple(end for end, _, _ in headings), tuple(last))


def _previous_line(text: str, line_start: int) -> tuple[int, int] | None:
    """The previous line holding more than layout (blank lines and bare code fences are skipped)."""
    end = line_start - 1
    while end > 0:
        begin = text.rfind("\n", 0, end) + 1
        if text[begin:end].strip(" \t\r*_`-") and not text[begin:end].strip().startswith("```"):
            return begin, end
        end = begin - 1
    return None
