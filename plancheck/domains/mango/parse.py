"""Read a MANGO answer: the trajectory list in a model's free text (grammar: ``parse.lark``).

The prompts ask for "a python list of python dictionary with keys 'location_before', 'action' and
'location_after'"; older answers use ``prev_node`` / ``action`` / ``node``. Nothing is evaluated:

1. Each ``[`` of the text (at most ``MAX_CANDIDATES``) may open the answer. From there the LALR
   parser reads one Python-style literal list (single or double quotes, escapes, trailing commas,
   ``#`` comments) and stops at the bracket that closes it. After a read that fails, only the
   inner lists it saw close and the text after the failure are tried, so no text is read more
   than a few times.
2. Every list that is a non-empty list of dicts, each with a before-key, ``action`` and an
   after-key holding strings, is a candidate answer; so is a markdown table whose columns are the
   location before, the action and the location after. ``pick`` chooses among them
   (:mod:`plancheck.translators.reading`): ``committed`` (default) takes a correction, else the
   list introduced as the answer, else the last one, and never a list introduced as an example or
   explanation; ``first`` is the earlier rule. Other keys are reported as unread spans, the text
   around the list (prose, other lists) as spans outside the answer; code fences are layout.
3. A list cut off at the end of the text is a format failure (``unclosed="reject"``, the default:
   the release's evaluator cannot read it either); ``unclosed="accept"`` reads its complete
   elements, with a note.
4. When no list qualifies, :class:`~plancheck.errors.AnswerParseError` reports, with its line and
   column, the shape problem of the first complete list, else the syntax error that got furthest:
   the answer is a format failure.
5. Brackets and braces nested deeper than ``--max-nesting`` (100) in a list the parser reads make the answer
   refused (a :class:`~plancheck.errors.LimitError` naming the bracket), as deep JSON is: the parser stops at
   that bracket instead of reading the rest (half a megabyte of ``[`` and as many ``]`` took 4.8 s). Brackets in
   strings, and in the prose around the lists, are not nesting.
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass, replace
from functools import cache
from typing import TYPE_CHECKING

from plancheck.domains.mango.graph import Move
from plancheck.domains.mango.literal import Node, read_trajectory_list, unquote
from plancheck.errors import AnswerParseError, LimitError, Location
from plancheck.limits import DEFAULT, Limits
from plancheck.translators.answer import (
    ParsedAction,
    ParsedAnswer,
    Pick,
    Span,
    SpanKind,
    line_and_column,
    make_span,
    within_words,
)
from plancheck.translators.markers import Marking
from plancheck.translators.reading import Candidate, Unclosed, choose

if TYPE_CHECKING:
    from lark import Lark

MAX_CANDIDATES = 32
BEFORE_KEYS = ("location_before", "prev_node")
AFTER_KEYS = ("location_after", "node")
STYLES = {("location_before", "location_after"): "location_before/action/location_after",
          ("prev_node", "node"): "prev_node/action/node"}

_FENCE_OR_SPACE = re.compile(r"```[^\n`]*|\s+")
_READABLE = {"COMMA": "','", "COLON": "':'", "LSQB": "'['", "RSQB": "']'", "LBRACE": "'{'", "RBRACE": "'}'",
             "STRING": "a quoted string", "NUMBER": "a number", "NAME": "a word", "$END": "the end"}


class _Build:
    """Turns the parse into :class:`Node` values as it goes (LALR inline callbacks: Lark calls the method named
    after each rule; no base class needed, so Lark is imported only when a list needs the grammar)."""

    def list(self, children):
        return Node("list", tuple(children[1:-1]), children[0].start_pos, children[-1].end_pos)

    def dict(self, children):
        return Node("dict", tuple(children[1:-1]), children[0].start_pos, children[-1].end_pos)

    def pair(self, children):
        return children[0], children[1]

    def string(self, tokens):
        return Node("string", "".join(unquote(str(t)) for t in tokens), tokens[0].start_pos, tokens[-1].end_pos)

    def atom(self, tokens):
        return Node("atom", str(tokens[0]), tokens[0].start_pos, tokens[0].end_pos)


@cache
def _parser() -> Lark:
    from lark import Lark

    return Lark.open("parse.lark", rel_to=__file__, parser="lalr", lexer="basic", start="list",
                     transformer=_Build(), maybe_placeholders=False)


@dataclass(frozen=True, slots=True)
class _Problem:
    """Why a candidate list is not the answer, and where (offset in the whole text).

    ``closed`` lists the inner ``[`` that a failed read saw close before it failed: the only
    candidates inside the failed stretch worth reading again (an inner list still open at the
    failure would fail at the same place).
    """

    message: str
    offset: int
    expected: tuple[str, ...] = ()
    complete: bool = False  # the list was read to its end (a shape problem, not a syntax error)
    closed: tuple[int, ...] = ()


class _TooDeep(Exception):
    """Brackets nest deeper than allowed; ``offset``: the bracket one level too deep."""

    def __init__(self, offset: int):
        super().__init__(offset)
        self.offset = offset


def read_list(text: str, start: int, nesting: int = DEFAULT.nesting) -> tuple[Node, int] | _Problem:
    """The literal list opened by ``text[start] == '['`` and the offset just past it, or the problem.
    Raises :class:`_TooDeep` at a bracket or brace nested more than ``nesting`` levels deep.

    The text before ``start`` is blanked, not cut, so that every position the parser reports is
    already an offset in ``text`` (the lexer skips the blanks in one step).
    """
    from lark import UnexpectedCharacters, UnexpectedInput

    interactive = _parser().parse_interactive(" " * start + text[start:])
    opened: list[int] = []
    closed: list[int] = []
    braces = 0
    try:
        for token in interactive.iter_parse():
            if token.type in ("LSQB", "LBRACE") and len(opened) + braces >= nesting:
                raise _TooDeep(token.start_pos)
            if token.type == "LBRACE":
                braces += 1
            elif token.type == "RBRACE":
                braces -= 1
            elif token.type == "LSQB":
                opened.append(token.start_pos)
            elif token.type == "RSQB":
                closed.append(opened.pop())
                if not opened:
                    interactive.feed_token(token)
                    return interactive.feed_eof(token), token.end_pos
    except UnexpectedInput as error:
        offset = error.pos_in_stream or 0
        inner = tuple(sorted(closed))
        if text[offset] in "'\"":
            return _Problem("the string that starts here is never closed", offset, (text[offset],), closed=inner)
        if isinstance(error, UnexpectedCharacters):
            return _Problem(f"unexpected character {text[offset]!r} in the list", offset, closed=inner)
        names = getattr(error, "expected", None) or ()
        expected = tuple(sorted({_READABLE.get(name, name) for name in names}))
        found = text[offset:offset + 20].split("\n")[0]
        return _Problem(f"unexpected {found!r} in the list; expected {' or '.join(expected)}", offset, expected,
                        closed=inner)
    return _Problem("the list is never closed (cut off?)", len(text), ("]",), closed=tuple(sorted(closed)))


def _moves(node: Node) -> tuple[list[ParsedAction], list[tuple[int, int]], set[str]] | _Problem:
    """Check the shape of a list; the moves, the spans of unread pairs, and the key styles used."""
    if not node.value:
        return _Problem("the list is empty", node.start, complete=True)
    items: list[ParsedAction] = []
    unread: list[tuple[int, int]] = []
    styles: set[str] = set()
    for number, element in enumerate(node.value, start=1):  # type: ignore[arg-type]
        if element.kind != "dict":
            return _Problem(f"element {number} is {element.describe()}, expected a dict with keys "
                            "'location_before', 'action' and 'location_after'", element.start, complete=True)
        fields: dict[str, tuple[Node, Node]] = {}
        for key, value in element.value:
            if key.kind != "string":
                return _Problem(f"element {number} has a key that is {key.describe()}, not a quoted string",
                                key.start, complete=True)
            fields[key.value] = (key, value)  # type: ignore[index]
        before = next((k for k in BEFORE_KEYS if k in fields), None)
        after = next((k for k in AFTER_KEYS if k in fields), None)
        for needed, name in ((before, "'location_before'"), ("action" if "action" in fields else None, "'action'"),
                             (after, "'location_after'")):
            if needed is None:
                return _Problem(f"element {number} lacks the key {name}", element.start, complete=True)
        values = []
        for name in (before, "action", after):
            value = fields[name][1]  # type: ignore[index]
            if value.kind != "string":
                return _Problem(f"the value of {name!r} in element {number} is {value.describe()}, expected a string",
                                value.start, complete=True)
            values.append(value.value)
        styles.add(STYLES.get((before, after), f"{before}/action/{after}"))  # type: ignore[arg-type]
        items.append(ParsedAction(Move(*values), element.start, element.end))
        used = {before, "action", after}
        unread.extend((k.start, v.end) for name, (k, v) in fields.items() if name not in used)
    return items, unread, styles


def _outside(text: str, start: int, end: int) -> list[Span]:
    """Spans of the text outside ``[start, end)`` that are neither whitespace nor code fences."""
    spans = []
    for low, high in ((0, start), (end, len(text))):
        cursor = low
        for layout in _FENCE_OR_SPACE.finditer(text, low, high):
            if layout.start() > cursor:
                spans.append((cursor, layout.start()))
            cursor = layout.end()
        if cursor < high:
            spans.append((cursor, high))
    merged: list[list[int]] = []
    for low, high in spans:  # join words separated only by whitespace
        if merged and not text[merged[-1][1]:low].strip():
            merged[-1][1] = high
        else:
            merged.append([low, high])
    return [make_span(text, low, high, SpanKind.OUTSIDE) for low, high in merged]


def _error(text: str, problem: _Problem, source: str | None) -> AnswerParseError:
    line, column = line_and_column(text, problem.offset)
    return AnswerParseError(problem.message, Location(source, line, column), problem.expected)


def parse_answer(text: str, source: str | None = None, *, pick: Pick = Pick.COMMITTED,
                 unclosed: Unclosed = Unclosed.REJECT, limits: Limits = DEFAULT) -> ParsedAnswer[Move]:
    """The trajectory of one answer (refused beyond ``limits.answer_words`` or ``limits.nesting``: a LimitError).

    >>> answer = parse_answer("Sure:\\n```python\\n[{'location_before': 'hall', 'action': 'up', "
    ...                       "'location_after': \\"the attic\\"},]\\n```")
    >>> [(m.action.before, m.action.action, m.action.after) for m in answer.items]
    [('hall', 'up', 'the attic')]
    >>> answer.form, [(s.kind.value, s.text) for s in answer.spans]
    ('location_before/action/location_after', [('outside the answer', 'Sure:')])
    >>> parse_answer("[{'prev_node': 'hall', 'action': 'up'}]")
    Traceback (most recent call last):
    ...
    plancheck.errors.AnswerParseError: <input>, line 1, column 2: element 1 lacks the key 'location_after'
    >>> parse_answer("[" * 4 + "]" * 4, "a.txt", limits=Limits(nesting=3))
    Traceback (most recent call last):
    ...
    plancheck.errors.LimitError: a.txt, line 1, column 4: max_nesting 3 exceeded: the brackets nest deeper than \
3 levels
    """
    within_words(text, limits, source)
    try:
        return _parse_answer(text, source, pick, unclosed, limits.nesting)
    except _TooDeep as deep:
        line, column = line_and_column(text, deep.offset)
        raise LimitError(f"{limits.nesting} exceeded: the brackets nest deeper than {limits.nesting} levels",
                         Location(source, line, column), option="max_nesting") from None


def _parse_answer(text: str, source: str | None, pick: Pick, unclosed: Unclosed, nesting: int) -> ParsedAnswer[Move]:
    if not text.strip():
        raise AnswerParseError("the answer is empty", Location(source, 1, 1), ("[",))
    fast = _flat_list(text)
    marking = None
    if fast is not None:
        found, problems, capped = [fast], [], False
        if not text[:fast.start].strip() and (fast.start == 0 or text[fast.start - 1] == "\n"):
            marking = _unlabelled(text)
    else:
        found, problems, capped = _lists(text, nesting)
        found = sorted(found + _tables(text), key=lambda c: c.start)
    if not found:
        if not problems:
            raise AnswerParseError("no list found: the answer must hold a Python list of dicts with keys "
                                   "'location_before', 'action' and 'location_after'", Location(source, 1, 1), ("[",))
        shapes = [p for p in problems if p.complete]
        worst = shapes[0] if shapes else max(problems, key=lambda p: p.offset)
        if capped:
            worst = replace(worst, message=f"{worst.message} (only the first {MAX_CANDIDATES} '[' of the answer "
                                           "were tried as its start)")
        raise _error(text, worst, source)
    chosen, reading, notes = choose(text, found, pick, marking=marking, source=source, name=_name,
                                    what="trajectory lists")
    if chosen.cut and unclosed is Unclosed.REJECT:
        problem = next(p for p in problems if _at_end(text, p) and p.offset >= chosen.start)
        raise _error(text, replace(problem, message=problem.message + " (a list cut off is rejected; --unclosed "
                                   "accept reads its complete elements)"), source)
    said = list(chosen.notes) + list(notes)
    if chosen.cut:
        said.insert(0, f"the list is never closed (cut off?); its {len(chosen.items)} complete element(s) were read")
    spans = sorted(_outside(text, chosen.start, chosen.end) + [make_span(text, s, e, k) for s, e, k in chosen.spans],
                   key=lambda span: span.start)
    return ParsedAnswer(chosen.items, tuple(spans), chosen.form, tuple(said), reading)


def _name(move: Move) -> str:
    return f"{move.before} -{move.action}-> {move.after}"


def _flat_list(text: str) -> Candidate | None:
    """The answer's only candidate, read without the grammar, when the text's first ``[`` opens a trajectory
    list in the plain shape (:func:`~plancheck.domains.mango.literal.read_trajectory_list`), no ``[`` follows it
    and no line could start a table: then :func:`_lists` and :func:`_tables` would find exactly this candidate."""
    start = text.find("[")
    if start < 0 or ("|" in text and _TABLE_START.search(text)):
        return None
    read = read_trajectory_list(text, start)
    if read is None or text.find("[", read[1]) >= 0:
        return None
    node, end = read
    candidate = _candidate(node, start, end)
    return None if isinstance(candidate, _Problem) else candidate


def _unlabelled(text: str) -> Marking:
    """The marking of a text whose only candidate opens it (only layout before it, at a line start): no label,
    section heading or think tag can start before the candidate, so its role is plain whatever the text holds
    after it, and finding the labels (a scan of the whole text) is skipped."""
    return Marking(text, (), (), ())


def _lists(text: str, nesting: int) -> tuple[list[Candidate], list[_Problem], bool]:
    """Every trajectory list of the text (and a list cut off at its end, when its complete elements form one),
    the problems of the lists that are none, and whether lists were left untried."""
    problems: list[_Problem] = []
    found: list[Candidate] = []
    cursor = 0  # where to look for the next '[' in the text
    read_until = 0  # the end of the last list read in full: nothing before it is tried again
    inner: deque[int] = deque()
    capped = False
    for _ in range(MAX_CANDIDATES):
        while inner and inner[0] < read_until:
            inner.popleft()
        start = inner.popleft() if inner else text.find("[", cursor)
        if start < 0:
            break
        read = read_list(text, start, nesting)
        if isinstance(read, _Problem):
            problems.append(read)
            inner.extend(read.closed)
            cursor = max(cursor, start + 1, read.offset)
            if _at_end(text, read) and (cut := _cut(text, start, nesting)) is not None:
                found.append(cut)
            continue
        node, end = read
        cursor = read_until = max(cursor, end)
        candidate = _candidate(node, start, end)
        if isinstance(candidate, _Problem):
            problems.append(candidate)
        else:
            found.append(candidate)
    else:
        capped = text.find("[", cursor) >= 0 or any(at >= read_until for at in inner)  # lists left untried
    return found, problems, capped


def _candidate(node: Node, start: int, end: int, cut: bool = False) -> Candidate | _Problem:
    shape = _moves(node)
    if isinstance(shape, _Problem):
        return shape
    items, unread, styles = shape
    notes = ("the dicts mix key styles: " + ", ".join(sorted(styles)),) if len(styles) > 1 else ()
    return Candidate(" + ".join(sorted(styles)), tuple(items), tuple((s, e, SpanKind.UNREAD) for s, e in unread),
                     start, end, delimited=True, cut=cut, notes=notes)


def _at_end(text: str, problem: _Problem) -> bool:
    """The text stops inside the list (or inside a string of it): it was cut off."""
    return problem.offset == len(text) or (problem.message.startswith("the string that starts here is never closed")
                                           and "\n" not in text[problem.offset:])


def _cut(text: str, start: int, nesting: int) -> Candidate | None:
    """The complete elements of a list cut off at the end of the text, when they form a trajectory list."""
    close = len(text)
    for _ in range(3):
        close = text.rfind("}", start, close)
        if close < 0:
            return None
        read = read_list(text[:close + 1] + "]", start, nesting)
        if not isinstance(read, _Problem):
            candidate = _candidate(read[0], start, len(text.rstrip()), cut=True)
            return None if isinstance(candidate, _Problem) else candidate
    return None


_TABLE_START = re.compile(r"^[ \t]*\|", re.MULTILINE)  # a line _TABLE_ROW may match
_TABLE_ROW = re.compile(r"^[ \t]*\|(.*)\|?[ \t]*$")
_RULE = re.compile(r"^[ \t]*\|?[ \t]*:?-{2,}:?[ \t]*(?:\|[ \t]*:?-{2,}:?[ \t]*)*\|?[ \t]*$")
_COLUMNS = {"before": re.compile(r"location[ _]?before|prev(?:ious)?[ _]?node|from|before|start", re.IGNORECASE),
            "action": re.compile(r"action|move|command", re.IGNORECASE),
            "after": re.compile(r"location[ _]?after|^node$|to|after|end|destination", re.IGNORECASE)}


def _tables(text: str) -> list[Candidate]:
    """Markdown tables whose columns are the location before, the action and the location after."""
    found: list[Candidate] = []
    lines = text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    index = 0
    while index + 2 < len(lines):
        if not (_TABLE_ROW.match(lines[index]) and _RULE.match(lines[index + 1])):
            index += 1
            continue
        header = _cells(lines[index], offsets[index])
        columns = {}
        for name, pattern in _COLUMNS.items():
            columns[name] = next((i for i, (cell, _, _) in enumerate(header)
                                  if pattern.search(cell) and i not in columns.values()), None)
        end = index + 2
        while end < len(lines) and _TABLE_ROW.match(lines[end]):
            end += 1
        if None not in columns.values() and end > index + 2:
            items = []
            for number in range(index + 2, end):
                row = _cells(lines[number], offsets[number])
                if len(row) <= max(columns.values()):  # type: ignore[type-var]
                    continue
                values = [row[columns[name]][0] for name in ("before", "action", "after")]  # type: ignore[index]
                items.append(ParsedAction(Move(*values), row[0][1], row[-1][2]))
            if items:
                found.append(Candidate("table", tuple(items), (), offsets[index],
                                       offsets[end - 1] + len(lines[end - 1]), delimited=True))
        index = end
    return found


def _cells(line: str, offset: int) -> list[tuple[str, int, int]]:
    """The cells of a table row: text without quotes or markup, and where each lies."""
    cells = []
    position = line.index("|") + 1
    for piece in line[position:].split("|"):
        stripped = piece.strip()
        if stripped or position + len(piece) < len(line):
            start = offset + position + piece.find(stripped) if stripped else offset + position
            cells.append((stripped.strip("`'\"*_ "), start, start + len(stripped)))
        position += len(piece) + 1
    return cells if cells and (cells[-1][0] or len(cells) == 1) else cells[:-1]


def format_answer(moves: tuple[Move, ...], style: str = "location_before") -> str:
    """A trajectory written the way the prompts ask for it (Python literal syntax, ``repr`` quoting).

    >>> format_answer((Move("hall", "up", "attic"),))
    "[{'location_before': 'hall', 'action': 'up', 'location_after': 'attic'}]"
    """
    before, after = ("location_before", "location_after") if style == "location_before" else ("prev_node", "node")
    return "[" + ", ".join(f"{{{before!r}: {m.before!r}, 'action': {m.action!r}, {after!r}: {m.after!r}}}"
                           for m in moves) + "]"
