"""The candidate answers of a text, found in its tokens: bracket lists, numbered or bulleted lines,
lines of bare actions, code blocks and tables.

A world lexes its answer with its own grammar and hands the tokens over as :class:`Tok` (an action
token carries its action); nothing here knows a world's action words. The rules:

* A **bracket list** ``[...]`` (it may span lines; one cut off at the end of the text is a
  candidate too, marked ``cut``): elements are separated by commas, semicolons or line breaks. An
  element with actions gives them (other words in it are *unreadable* spans); an element with no
  action is one *unknown action* slot; a comment alone is no slot.
* A **table** (markdown, with a ``|---|`` row): each row's cell in the action column (the column
  headed action, move, command or direction, else the one holding actions) is an element.
* A run of **numbered or bulleted lines** is a candidate only when every line starts with an
  action (after words such as "first" or "then"): the leading actions count, the rest of the line
  is *commentary*, and "then" followed by an action reads on ("RIGHT to reach the 3, then TAKE").
  A run in which some line starts otherwise is numbered prose, never an answer. Indented lines
  under an item are its commentary.
* A run of **action lines**: lines holding only actions, separators and remarks (``UP, TAKE``,
  ``RIGHT -> RIGHT``), inside a code fence or not (a code block is delimited, like a list).
* **Repetition** words are expanded (:func:`~plancheck.translators.tokens.expand_repetitions`:
  ``RIGHT twice``, ``move up 3 times``, ``UP x2``, ``(3x)``); each expansion is reported in a note.
* The last line of a text that stops in the middle of a run (a word that is no action, no line
  break after it) is read as the run's last slot, an unknown action, and the run is marked ``cut``.

Reading costs about 10-20 microseconds a token (the world's lexer included), so the worlds refuse, before
they lex it, an answer of more than ``--max-answer-words`` words or four times as many words, marks and line
breaks (:meth:`plancheck.limits.Limits.words`): a megabyte of ``[]``, line breaks or words would take 10-60 s.

Labels (``Final answer:``, ``Explanation:``, see :mod:`plancheck.translators.markers`) are layout
where they stand at the start of a line, so ``Answer: UP, TAKE`` is a line of actions.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from plancheck.errors import AnswerParseError, Location
from plancheck.rules import Unknown
from plancheck.translators.answer import (
    ParsedAction,
    ParsedAnswer,
    Pick,
    SpanKind,
    line_and_column,
)
from plancheck.translators.markers import Marking, Role
from plancheck.translators.reading import Candidate, Raw, Unclosed, choose, finish
from plancheck.translators.tokens import CONTINUE, QUIET, Kind, Tok, expand_repetitions

# -- segments: lines and bracket lists ----------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class _Line:
    toks: tuple[Tok, ...]  # without the line break
    fenced: bool
    last: bool  # the text ends on this line, with no line break after it

    @property
    def mark(self) -> Kind | None:
        return self.toks[0].kind if self.toks and self.toks[0].kind in (Kind.NUMBERING, Kind.BULLET) else None

    @property
    def body(self) -> tuple[Tok, ...]:
        return self.toks[1:] if self.mark else self.toks


@dataclass(frozen=True, slots=True)
class _Bracket:
    toks: tuple[Tok, ...]  # from '[' to ']' (or to the end of the text when cut)
    fenced: bool
    cut: bool


class Finder:
    """Finds the candidates of one text (see the module docstring); ``name`` spells an action in notes."""

    def __init__(self, text: str, toks: Sequence[Tok], marking: Marking, name: Callable[[Any], str] = str):
        self.text = text
        self.marking = marking
        self.name = name
        self.toks = self._split_after_labels([self._unlabel(t) for t in expand_repetitions(text, toks)])
        self.prose: list[tuple[int, int]] = []  # lines of prose: (first token start, last token end)
        self.rejected: list[tuple[int, str]] = []  # numbered prose: (offset, why)

    def _unlabel(self, tok: Tok) -> Tok:
        """A word of a label that starts its line is layout ("Answer: UP, TAKE" is a line of actions)."""
        if tok.kind not in (Kind.WORD, Kind.PUNCT, Kind.CONNECTOR, Kind.LAYOUT, Kind.DASH, Kind.ACTION):
            return tok
        label = self.marking.label_at(tok.start)
        if label is None:
            return tok
        line_start = self.text.rfind("\n", 0, label.start) + 1
        if self.text[line_start:label.start].strip(" \t*_#>`\"'-") and not label.text.startswith("<"):
            return tok  # a label in the middle of a line is its words (a tag such as <answer> is layout anywhere)
        return replace(tok, kind=Kind.LABEL)

    def _split_after_labels(self, toks: list[Tok]) -> list[Tok]:
        """A label that introduces an answer in the middle of a line ("... Corrected answer: B -> C") starts a
        line of its own: a zero-width line break after it, its words layout."""
        breaks = [label for label in self.marking.labels if label.role in (Role.ANSWER, Role.CORRECTION)
                  and label.text.rstrip().endswith((":", "\uff1a")) and not label.heading]
        if not breaks:
            return toks
        out: list[Tok] = []
        ends = {label.end: label for label in breaks}
        starts = [label.start for label in breaks]
        apart = all(one.end <= next_.start for one, next_ in zip(breaks, breaks[1:]))  # then one label at most
        for tok in toks:
            if apart:  # a binary search (a scan of every label per token was quadratic)
                index = bisect_right(starts, tok.start) - 1
                label = breaks[index] if index >= 0 and tok.start < breaks[index].end else None
            else:
                label = next((lab for lab in breaks if lab.start <= tok.start < lab.end), None)
            if label is not None and tok.kind in (Kind.WORD, Kind.PUNCT, Kind.CONNECTOR, Kind.LAYOUT, Kind.DASH,
                                                  Kind.ACTION):
                tok = replace(tok, kind=Kind.LABEL)
            out.append(tok)
            if tok.end in ends and tok.kind is Kind.LABEL:
                line_end = self.text.find("\n", tok.end)
                rest = self.text[tok.end:len(self.text) if line_end < 0 else line_end]
                if rest.strip():
                    out.append(Tok(Kind.NL, tok.end, tok.end))
                del ends[tok.end]
        return out

    # -- segmentation --
    def segments(self) -> list[_Line | _Bracket]:
        toks = self.toks
        closes = self._brackets()
        segments: list[_Line | _Bracket] = []
        current: list[Tok] = []
        fenced = False
        index = 0
        while index < len(toks):
            tok = toks[index]
            if index in closes:
                if current:
                    segments.append(_Line(tuple(current), fenced, False))
                    current = []
                stop = closes[index]
                cut = stop >= len(toks)
                segments.append(_Bracket(tuple(toks[index:stop + 1]), fenced, cut))
                index = stop + 1
                continue
            if tok.kind is Kind.NL:
                segments.append(_Line(tuple(current), fenced, False))
                current = []
            else:
                current.append(tok)
                if tok.kind is Kind.FENCE:
                    fenced = not fenced
            index += 1
        if current:
            segments.append(_Line(tuple(current), fenced, True))
        return segments

    def _brackets(self) -> dict[int, int]:
        """Index of each list-opening '[' -> index of its ']' (len(toks) when never closed). A bracket on a
        numbered line that closes on it, or in a table row, belongs to that line."""
        toks = self.toks
        closes: dict[int, int] = {}
        opened: int | None = None
        line_marked = False
        table_line = False
        for index, tok in enumerate(toks):
            if tok.kind is Kind.NL:
                line_marked = table_line = False
                continue
            if index == 0 or toks[index - 1].kind is Kind.NL:
                line_marked = tok.kind in (Kind.NUMBERING, Kind.BULLET)
                table_line = tok.kind is Kind.PIPE
            if tok.kind is Kind.LSQB and opened is None and not table_line:
                if line_marked and self._closes_on_line(index):
                    continue
                opened = index
            elif tok.kind is Kind.RSQB and opened is not None:
                closes[opened] = index
                opened = None
        if opened is not None:
            closes[opened] = len(toks)
        return closes

    def _closes_on_line(self, index: int) -> bool:
        for tok in self.toks[index + 1:]:
            if tok.kind is Kind.NL:
                return False
            if tok.kind is Kind.RSQB:
                return True
        return False

    # -- candidates --
    def candidates(self) -> list[Candidate]:
        segments = self.segments()
        found: list[Candidate] = []
        run: list[tuple[_Line, str]] = []  # (line, "read" | "comment" | "cut")

        def close() -> None:
            found.extend(self._close(run))
            run.clear()

        index = 0
        while index < len(segments):
            segment = segments[index]
            if isinstance(segment, _Bracket):
                close()
                found.append(self._bracket(segment))
                index += 1
                continue
            if self._is_table_line(segment) and index + 1 < len(segments) and self._is_rule(segments[index + 1]):
                close()
                rows = [segment]
                index += 1
                while index < len(segments) and self._is_table_line(segments[index]):
                    rows.append(segments[index])  # type: ignore[arg-type]
                    index += 1
                table = self._table(rows)
                if table is not None:
                    found.append(table)
                else:
                    self.prose += [extent for row in rows if (extent := _extent(row))]
                continue
            kind = self._kind(segment)
            first = run[0][0] if run else None
            if kind == "blank":
                if any(t.kind in (Kind.FENCE, Kind.LABEL) for t in segment.toks):  # a code fence or a label
                    close()
                if extent := _extent(segment):  # a label alone on its line
                    self.prose.append(extent)
            elif first is not None and first.mark is not None and kind in ("item", "indented") and \
                    self._indent(segment) > self._indent(first) + 1:
                run.append((segment, "comment"))  # indented under an item: its commentary
            elif kind == "remark" and run:
                run.append((segment, "comment"))
            elif kind in ("item", "actions"):
                if first is not None and not self._joins(first, segment, kind):
                    close()
                run.append((segment, "read"))
            elif run and segment.last and self._cut_word(segment):
                run.append((segment, "cut"))
            else:
                close()
                if extent := _extent(segment):
                    self.prose.append(extent)
            index += 1
        close()
        return found

    def _kind(self, line: _Line) -> str:
        """item (numbered or bulleted), actions (only actions and remarks), remark (only remarks),
        indented (prose indented under an item), blank or prose."""
        if line.mark is not None:
            return "item" if _content(line.body) else "blank"
        content = _content(line.toks)
        if not content:
            return "blank"
        kinds = {t.kind for t in content}
        if Kind.ACTION in kinds and kinds <= {Kind.ACTION, Kind.REMARK, Kind.COMMENT}:
            return "actions"
        if kinds <= {Kind.REMARK, Kind.COMMENT}:
            return "remark"
        return "indented" if self._indent(line) >= 2 else "prose"

    def _indent(self, line: _Line) -> int:
        start = line.toks[0].start
        return start - (self.text.rfind("\n", 0, start) + 1)

    def _joins(self, first: _Line, line: _Line, kind: str) -> bool:
        if first.fenced != line.fenced:
            return False
        if kind == "item":
            return first.mark is line.mark
        return first.mark is None

    def _cut_word(self, line: _Line) -> bool:
        """The text stops on this line, in what may be a cut-off action: one word, no line break after it."""
        body = _content(line.body)
        return len(body) == 1 and body[0].kind is Kind.WORD and body[0].end == len(self.text.rstrip(" \t"))

    def _close(self, run: list[tuple[_Line, str]]) -> list[Candidate]:
        if not any(role == "read" for _, role in run):
            self.prose += [extent for line, _ in run if (extent := _extent(line))]
            return []
        items: list[ParsedAction] = []
        spans: list[Raw] = []
        notes: list[str] = []
        mark = run[0][0].mark
        for line, role in run:
            if role == "comment":
                if extent := _extent(line):
                    spans.append((*extent, SpanKind.COMMENTARY))
                continue
            if role == "cut":
                word = _content(line.body)[0]
                items.append(ParsedAction(Unknown(self.text[word.start:word.end]), word.start, word.end))
                spans.append((word.start, word.end, SpanKind.UNKNOWN))
                continue
            if mark is not None and not _leads_with_action(line.body):
                if line is run[-1][0] and line.last and self._cut_word(line):
                    word = _content(line.body)[0]
                    items.append(ParsedAction(Unknown(self.text[word.start:word.end]), word.start, word.end))
                    spans.append((word.start, word.end, SpanKind.UNKNOWN))
                    run[-1] = (line, "cut")
                    continue
                self.rejected.append((line.toks[0].start, self.text[line.toks[0].start:line.toks[-1].end]))
                self.prose += [extent for each, _ in run if (extent := _extent(each))]
                return []
            spans += [(t.start, t.end, SpanKind.OUTSIDE) for t in line.toks if t.kind is Kind.LABEL]
            more, raw, said = self._read_line(line.body, mark is not None)
            items += more
            spans += raw
            notes += said
        if not items:
            self.prose += [extent for line, _ in run if (extent := _extent(line))]
            return []
        fenced = run[0][0].fenced
        form = {Kind.NUMBERING: "numbered lines", Kind.BULLET: "bulleted lines"}.get(
            mark, "code block" if fenced else "action lines")  # type: ignore[arg-type]
        head = [t for t in run[0][0].toks if t.kind is not Kind.LABEL and t.kind not in QUIET]
        start = head[0].start if head else run[0][0].toks[0].start
        end = max(t.end for line, _ in run for t in line.toks)
        cut = run[-1][1] == "cut"
        return [Candidate(form, tuple(items), tuple(spans), start, end, delimited=fenced, cut=cut,
                          notes=tuple(notes))]

    def _read_line(self, toks: Sequence[Tok], item: bool) -> tuple[list[ParsedAction], list[Raw], list[str]]:
        """Leading actions count; what follows a dash, a word that is no action, or (on a numbered line) a
        remark is commentary; "then" + an action reads on. On a line of bare actions every action counts."""
        items: list[ParsedAction] = []
        spans: list[Raw] = []
        notes: list[str] = []
        comment: list[Tok] = []
        reading = True
        for position, tok in enumerate(toks):
            if tok.kind is Kind.ACTION and (reading or self._resumes(toks, position)):
                content = [t for t in comment if t.kind not in QUIET]
                if content:
                    spans.append((content[0].start, content[-1].end, SpanKind.COMMENTARY))
                comment = []
                reading = True
                items += self._items(tok, notes)
            elif reading and tok.kind in (Kind.REMARK, Kind.COMMENT) and not item:
                spans.append((tok.start, tok.end, SpanKind.COMMENTARY))
            elif tok.kind is Kind.LABEL or reading and (tok.kind in QUIET and tok.kind is not Kind.DASH or not items):
                continue  # a label's words are reported apart
            else:
                reading = False
                comment.append(tok)
        content = [t for t in comment if t.kind not in QUIET]
        if content:
            spans.append((content[0].start, content[-1].end, SpanKind.COMMENTARY))
        return items, spans, notes

    def _resumes(self, toks: Sequence[Tok], position: int) -> bool:
        """An action after commentary counts when "then" (or "next", "after that") stands right before it."""
        back = position - 1
        while back >= 0 and toks[back].kind in (Kind.SEP, Kind.LAYOUT, Kind.PUNCT):
            back -= 1
        return back >= 0 and toks[back].kind in (Kind.CONNECTOR, Kind.WORD) and \
            CONTINUE.fullmatch(self.text[toks[back].start:toks[back].end]) is not None

    def _items(self, tok: Tok, notes: list[str]) -> list[ParsedAction]:
        if tok.count > 1:
            line, column = line_and_column(self.text, tok.start)
            shown = " ".join(re.sub(r"[\"'`*_]", "", self.text[tok.start:tok.end]).split())
            notes.append(f"repetition: {shown!r} (line {line}, column {column}) read as {tok.count} x "
                         f"{self.name(tok.action)}")
        return [ParsedAction(tok.action, tok.start, tok.end)] * tok.count

    def _elements(self, toks: Sequence[Tok]) -> tuple[list[ParsedAction], list[Raw], list[str]]:
        """The slots of a list body: elements separated by commas, semicolons, line breaks or list marks."""
        items: list[ParsedAction] = []
        spans: list[Raw] = []
        notes: list[str] = []
        element: list[Tok] = []
        depth = 0  # inside {...}: a JSON object is one element
        for tok in list(toks) + [Tok(Kind.SEP, 0, 0)]:
            brace = self.text[tok.start:tok.end]
            depth += (brace == "{") - (brace == "}" and depth > 0)
            if tok.kind not in (Kind.SEP, Kind.NL, Kind.NUMBERING, Kind.BULLET, Kind.LSQB) or depth > 0:
                element.append(tok)
                continue
            described = next((i for i, t in enumerate(element) if t.kind is Kind.DASH
                              and any(e.kind is Kind.ACTION for e in element[:i])), len(element))
            actions = [t for t in element[:described] if t.kind is Kind.ACTION]  # after a dash: a description
            junk = [t for t in element if t.kind not in QUIET and (t.kind is not Kind.ACTION or t not in actions)]
            if actions or all(t.kind is Kind.COMMENT for t in junk):
                for action in actions:
                    items += self._items(action, notes)
                spans += [(t.start, t.end, SpanKind.UNREAD) for t in junk]
            else:
                start, end = junk[0].start, junk[-1].end
                items.append(ParsedAction(Unknown(self.text[start:end]), start, end))
                spans.append((start, end, SpanKind.UNKNOWN))
            element = []
        return items, spans, notes

    def _bracket(self, bracket: _Bracket) -> Candidate:
        body = bracket.toks[1:] if bracket.cut else bracket.toks[1:-1]
        items, spans, notes = self._elements(body)
        form = bracket.toks[0].action or ("unclosed bracket list" if bracket.cut else "bracket list")
        return Candidate(form, tuple(items), tuple(spans), bracket.toks[0].start, bracket.toks[-1].end,
                         delimited=True, cut=bracket.cut, notes=tuple(notes))

    def _table(self, rows: list[_Line]) -> Candidate | None:
        cells = [_cells(row) for row in rows]
        header, body = cells[0], cells[2:]
        if not body:
            return None
        column = _action_column(self.text, rows[0], body)
        if column is None:
            return None
        items: list[ParsedAction] = []
        spans: list[Raw] = []
        notes: list[str] = []
        for row in [header] + body:
            for number, cell in enumerate(row):
                if row is header or number != column:
                    content = _content(cell)
                    if content:
                        spans.append((content[0].start, content[-1].end, SpanKind.COMMENTARY))
                    continue
                more, raw, said = self._elements(cell)
                items += more
                spans += raw
                notes += said
        return Candidate("table", tuple(items), tuple(spans), rows[0].toks[0].start, rows[-1].toks[-1].end,
                         delimited=True, notes=tuple(notes))

    def _is_table_line(self, segment: _Line | _Bracket) -> bool:
        return isinstance(segment, _Line) and bool(segment.toks) and segment.toks[0].kind is Kind.PIPE

    def _is_rule(self, segment: _Line | _Bracket) -> bool:
        """A table's |---|---| row."""
        return self._is_table_line(segment) and _RULE.fullmatch(
            self.text[segment.toks[0].start:segment.toks[-1].end]) is not None  # type: ignore[union-attr]

    # -- what is not the answer --
    def outside(self, candidates: Sequence[Candidate], chosen: Candidate) -> list[Raw]:
        """Every other candidate whole, and every line of prose, as text outside the answer."""
        raw: list[Raw] = [(c.start, c.end, SpanKind.OUTSIDE) for c in candidates if c is not chosen and c.end > c.start]
        raw += [span for c in candidates if c is not chosen for span in c.spans  # a label before its list
                if span[2] is SpanKind.OUTSIDE and not c.start <= span[0] < c.end]
        raw += [(low, high, SpanKind.OUTSIDE) for low, high in self.prose
                if not (chosen.start <= low < chosen.end)]
        return raw


def _content(toks: Sequence[Tok]) -> list[Tok]:
    return [t for t in toks if t.kind not in QUIET and t.kind not in (Kind.NUMBERING, Kind.BULLET, Kind.PIPE,
                                                                        Kind.LABEL)]


def _leads_with_action(toks: Sequence[Tok]) -> bool:
    content = [t for t in toks if t.kind not in QUIET and t.kind is not Kind.LABEL]
    return bool(content) and content[0].kind is Kind.ACTION


def _extent(line: _Line) -> tuple[int, int] | None:
    """A line from its first word to its last token (a closing period included); None when it holds no word."""
    words = [t for t in line.toks if t.kind not in (Kind.FENCE, Kind.LAYOUT, Kind.SEP, Kind.NUMBERING, Kind.BULLET,
                                                     Kind.PIPE)]
    if not words:
        return None
    return words[0].start, max(t.end for t in line.toks if t.kind is not Kind.FENCE)


_RULE = re.compile(r"\|[ \t]*:?-{2,}:?[ \t]*(?:\|[ \t]*:?-{2,}:?[ \t]*)*\|?")


def _cells(row: _Line) -> list[list[Tok]]:
    cells: list[list[Tok]] = []
    for tok in row.toks:
        if tok.kind is Kind.PIPE:
            cells.append([])
        elif cells:
            cells[-1].append(tok)
    if cells and not cells[-1]:
        cells.pop()
    return cells


_ACTION_HEADER = re.compile(r"\b(?:actions?|moves?|commands?|directions?|steps?[ \t]+taken)\b", re.IGNORECASE)


def _action_column(text: str, header: _Line, body: list[list[list[Tok]]]) -> int | None:
    """The column headed action, move, command or direction (the header's text is split at its pipes: a "#"
    heading is a comment to some grammars), else the one holding most actions."""
    names = text[header.toks[0].end:header.toks[-1].end].split("|")
    for number, name in enumerate(names):
        if _ACTION_HEADER.search(name):
            return number
    width = max((len(row) for row in body), default=0)
    counts = [sum(1 for row in body if number < len(row) and any(t.kind is Kind.ACTION for t in row[number]))
              for number in range(width)]
    best = max(range(len(counts)), key=lambda n: (counts[n], -n), default=None)
    return best if best is not None and counts[best] else None


def read_tokens(text: str, toks: Sequence[Tok], pick: Pick, unclosed: Unclosed, *, source: str | None = None,
                name: Callable[[Any], str] = str, extra_labels: Sequence[tuple[re.Pattern, Role]] = (),
                nothing: str = "no list of actions found", expected: tuple[str, ...] = (),
                in_prose: str = "", forms: Mapping[str, str] | None = None) -> ParsedAnswer:
    """The answer of ``text`` from its tokens: find the candidates, choose one, report the rest.

    A list naming no action at all is an answer (of unknown actions) only when it is the whole text or is
    introduced as the answer: in prose it is an example, the prompt's ``[STEP, STEP, ...]`` or coordinates.
    ``forms`` renames forms in the world's words ("action lines" -> "move lines"). Raises
    :class:`AnswerParseError` when there is no candidate (``nothing`` says what was expected, numbered
    prose found is named, ``in_prose`` is added when the text holds actions), when the chosen list is
    cut off and ``unclosed`` rejects it, or when a cut-off list holds no action slot.
    """
    marking = Marking.of(text, extra_labels)
    finder = Finder(text, toks, marking, name)
    found = finder.candidates()
    alone = len(found) == 1 and not finder.prose
    candidates = [replace(c, form=forms.get(c.form, c.form)) if forms else c for c in found
                  if c.has_action or not c.items or alone or marking.role_of(c.start)[0] in (Role.ANSWER,)]
    if not candidates:
        message = nothing
        if in_prose and not finder.rejected and any(t.kind is Kind.ACTION for t in finder.toks):
            message += in_prose
        if found:
            line, _ = line_and_column(text, found[0].start)
            message += f"; the list at line {line} names no action"
        elif finder.rejected:
            offset, line_text = finder.rejected[0]
            line, _ = line_and_column(text, offset)
            shown = line_text if len(line_text) <= 50 else line_text[:47] + "..."
            message += (f"; the numbered lines are prose, not a plan (line {line}, {shown!r}, does not start with an "
                        "action; --pick last reads every numbered line as an action slot)")
        raise AnswerParseError(message, Location(source, 1, 1), expected)
    chosen, reading, notes = choose(text, candidates, pick, marking=marking, source=source, name=name)
    return finish(text, chosen, reading, notes, unclosed, source, finder.outside(candidates, chosen))
