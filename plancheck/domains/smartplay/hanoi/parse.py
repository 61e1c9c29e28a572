"""Read Tower of Hanoi moves from a model's answer (grammar: ``parse.lark``).

The grammar splits the answer into tokens and recognises moves in five spellings (SmartPlay's
sentence, "move disk 0 from A to C", "A -> C", "(move d0 a c)", "action 2").
:class:`ParsePolicy` decides what the answer is; nothing is dropped silently:

* ``read="plan"`` (default): the answer is a list of moves, found and chosen as every world's
  free-text answers are (:mod:`plancheck.translators.candidates`, :mod:`plancheck.translators.reading`):
  a bracket list ``[A->C, "A->B", ...]``, a table, a run of numbered or bulleted lines each
  starting with a move (``3. A -> C  (smallest disk)``: the rest of the line is *commentary*), or a
  run of lines of bare moves; ``pick="committed"`` (default) takes a correction, else the list
  introduced as the answer, else the last delimited one, and never a list introduced as
  explanation or recap. ``pick="last"``, ``"first"``, ``"only"`` keep the earlier rule (any run of
  numbered lines, a line with no move an *unknown action* slot; the last, first or only list).
  Everything else is reported as *outside the answer*; an answer whose moves are only inside prose
  is refused.
* ``read="scan"``: every move written anywhere, in order (a note says so).
* ``read="smartplay"``: SmartPlay's harness rule: the one action whose exact text appears earliest
  in the answer (case-insensitive); with none, an *unknown action* slot (SmartPlay silently takes
  action 0; ``unknown="action0"`` in the world reproduces that, and reports it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from functools import cache

from lark import Lark, Token

from plancheck.domains.smartplay.hanoi.rules import Move
from plancheck.errors import AnswerParseError, Location
from plancheck.limits import DEFAULT, Limits
from plancheck.rules import Unknown
from plancheck.translators.answer import (
    ParsedAction,
    ParsedAnswer,
    Pick,
    SpanKind,
    leaf_tokens,
    make_span,
    merge_spans,
    within_words,
)
from plancheck.translators.candidates import read_tokens
from plancheck.translators.reading import Candidate, Unclosed, choose, finish
from plancheck.translators.tokens import Kind, Tok, arrows, word_kind

_MOVES = {"SENTENCE", "PHRASE", "ARROW", "PDDL", "INDEX"}
_LAYOUT = {"COMMA", "DOT", "QUOTE", "EMPH", "FENCE", "CONNECTOR", "LABEL", "NUMBERING", "BULLET", "LSQB", "RSQB",
           "NL"}
_MARKS = {"NUMBERING", "BULLET"}
_SOURCE = re.compile(r"([abc])[ \t]*(?:-+>|=+>|\u2192|\u27f6|[ \t]to[ \t]|[ \t]onto[ \t])", re.IGNORECASE)
_PDDL_RODS = re.compile(r"\(\s*move\s+(?:[a-z_][\w-]*\s+)?([abc])\s+([abc])", re.IGNORECASE)

Raw = tuple[int, int, SpanKind]


class Read(str, Enum):
    PLAN = "plan"
    SCAN = "scan"
    SMARTPLAY = "smartplay"


@dataclass(frozen=True, slots=True)
class ParsePolicy:
    """How to read an answer (see the module docstring)."""

    read: Read = Read.PLAN
    pick: Pick = Pick.COMMITTED
    unclosed: Unclosed = Unclosed.ACCEPT

    @classmethod
    def of(cls, read: str = "plan", pick: str = "committed", unclosed: str = "accept") -> ParsePolicy:
        return cls(Read(read), Pick(pick), Unclosed(unclosed))


@cache
def _parser() -> Lark:
    return Lark.open("parse.lark", rel_to=__file__, parser="lalr", lexer="basic",
                     maybe_placeholders=False)


def move_of(token: Token) -> Move | Unknown:
    """The move a move token spells (unknown for a rod to itself, "A -> A", which is no action).

    >>> [str(move_of(Token(kind, text))) for kind, text in [("ARROW", "b -> A"), ("PDDL", "(move d0 a c d1 c)"),
    ...  ("PHRASE", "move a disk from rod C to B"), ("PHRASE", "rodb to a"), ("INDEX", "Action 4")]]
    ['B->A', 'A->C', 'C->B', 'B->A', 'B->C']
    >>> move_of(Token("ARROW", "A->a"))
    Unknown(text='A->a')
    """
    if token.type == "INDEX":
        return Move(int(token.value[-1]) - 1)
    if token.type == "PDDL":
        source, target = _PDDL_RODS.match(token.value).groups()  # type: ignore[union-attr]
    else:  # the token ends with the target rod; the source rod stands just before "to", "onto" or the arrow
        source, target = _SOURCE.findall(token.value)[-1], token.value[-1]
    return Unknown(token.value) if source.lower() == target.lower() else Move.between(source, target)


def _content(tokens: list[Token]) -> list[Token]:
    return [t for t in tokens if t.type not in _LAYOUT]


def _action(token: Token) -> ParsedAction:
    return ParsedAction(move_of(token), token.start_pos, token.end_pos)


def _unknown(tokens: list[Token], text: str) -> ParsedAction:
    """An unknown-action slot for words in an action's place (its span is added by ``_answer``)."""
    start, end = tokens[0].start_pos, tokens[-1].end_pos
    return ParsedAction(Unknown(text[start:end]), start, end)


def _answer(text: str, items: list[ParsedAction], raw: list[Raw], form: str, notes: tuple[str, ...]) -> ParsedAnswer:
    """The parsed answer; every unknown slot is also reported as a span."""
    raw = raw + [(i.start, i.end, SpanKind.UNKNOWN) for i in items if isinstance(i.action, Unknown)]
    return ParsedAnswer(tuple(items), merge_spans(text, raw), form, notes)


# -- candidates ---------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class _Line:
    """One line's tokens (without its number or bullet) and its mark: NUMBERING, BULLET or None."""

    mark: str | None
    tokens: tuple[Token, ...]

    @property
    def moves(self) -> list[Token]:
        return [t for t in self.tokens if t.type in _MOVES]

    @property
    def junk(self) -> list[Token]:
        """Words that are neither moves, layout nor remarks in parentheses."""
        return [t for t in _content(list(self.tokens)) if t.type not in _MOVES and t.type != "REMARK"]

    @property
    def kind(self) -> str:
        """``item`` (numbered or bulleted), ``moves`` (only moves), ``remark`` (only remarks),
        ``blank`` (only layout) or ``prose``."""
        if self.mark is not None and _content(list(self.tokens)):
            return "item"
        if self.moves and not self.junk:
            return "moves"
        if self.junk or self.moves:
            return "prose"
        return "remark" if _content(list(self.tokens)) else "blank"

    def read(self, text: str) -> tuple[list[ParsedAction], list[Raw]]:
        if self.kind != "item":  # bare moves and remarks
            return ([_action(t) for t in self.moves],
                    [(t.start_pos, t.end_pos, SpanKind.COMMENTARY) for t in self.tokens if t.type == "REMARK"])
        items: list[ParsedAction] = []
        rest: list[Token] = []
        for token in self.tokens:
            if token.type in _MOVES and not rest:
                items.append(_action(token))
            elif rest or token.type not in _LAYOUT:
                rest.append(token)
        content = _content(rest)
        if not content:
            return items, []
        if items:
            return items, [(content[0].start_pos, content[-1].end_pos, SpanKind.COMMENTARY)]
        return [_unknown(content, text)], []


@dataclass(frozen=True, slots=True)
class _Candidate:
    """A list of moves found in the answer: a run of lines, or a bracket list (``bracket`` holds its tokens)."""

    lines: tuple[_Line, ...] = ()
    bracket: tuple[Token, ...] = ()

    @property
    def form(self) -> str:
        if self.bracket:
            return "bracket list"
        return {"NUMBERING": "numbered lines", "BULLET": "bulleted lines"}.get(self.lines[0].mark, "move lines")

    @property
    def span(self) -> range:
        tokens = self.bracket or tuple(t for line in self.lines for t in line.tokens)
        return range(tokens[0].start_pos, tokens[-1].end_pos)

    def read(self, text: str) -> tuple[list[ParsedAction], list[Raw]]:
        items: list[ParsedAction] = []
        raw: list[Raw] = []
        if not self.bracket:
            for line in self.lines:
                more, spans = line.read(text)
                items += more
                raw += spans
            return items, raw
        element: list[Token] = []
        for token in self.bracket[1:-1] + (Token("COMMA", ","),):
            if token.type not in ("COMMA", "NL"):
                element.append(token)
                continue
            moves = [t for t in element if t.type in _MOVES]
            junk = [t for t in _content(element) if t.type not in _MOVES]
            if moves:
                items += [_action(t) for t in moves]
                raw += [(t.start_pos, t.end_pos, SpanKind.UNREAD) for t in junk]
            elif junk:
                items.append(_unknown(junk, text))
            element = []
        return items, raw


def _brackets(tokens: list[Token]) -> list[tuple[int, int]]:
    """Index ranges [start, end] of the bracket lists ``[ ... ]`` that hold a move."""
    found: list[tuple[int, int]] = []
    start: int | None = None
    for index, token in enumerate(tokens):
        if token.type == "LSQB":
            start = index
        elif token.type == "RSQB" and start is not None:
            if any(t.type in _MOVES for t in tokens[start:index]):
                found.append((start, index))
            start = None
    return found


def _segments(tokens: list[Token]) -> list[_Line | _Candidate]:
    """The answer as lines, with each bracket list holding a move as one candidate in their place."""
    brackets = {start: end for start, end in _brackets(tokens)}
    result: list[_Line | _Candidate] = []
    current: list[Token] = []

    def close() -> None:
        mark = current[0].type if current and current[0].type in _MARKS else None
        result.append(_Line(mark, tuple(current[1:] if mark else current)))
        current.clear()

    index = 0
    while index < len(tokens):
        token = tokens[index]
        if index in brackets:
            close()
            result.append(_Candidate(bracket=tuple(tokens[index:brackets[index] + 1])))
            index = brackets[index] + 1
            continue
        if token.type == "NL":
            close()
        else:
            current.append(token)
        index += 1
    close()
    return result


def _candidates(segments: list[_Line | _Candidate]) -> list[_Candidate]:
    """Bracket lists, and runs of move lines of one style holding a move (prose ends a run)."""
    found: list[_Candidate] = []
    run: list[_Line] = []

    def close() -> None:
        if any(line.moves for line in run):
            found.append(_Candidate(tuple(run)))
        run.clear()

    for segment in segments:
        if isinstance(segment, _Candidate):
            close()
            found.append(segment)
        elif segment.kind in ("item", "moves"):
            if run and run[0].mark != segment.mark:
                close()
            run.append(segment)
        elif segment.kind == "remark" and run:
            run.append(segment)
        elif segment.kind in ("prose", "remark"):
            close()
    close()
    return found


def _outside(segments: list[_Line | _Candidate], chosen: _Candidate) -> list[Raw]:
    """Each line outside the chosen list from its first word to its end (a closing period included),
    and each bracket list outside it whole."""
    raw: list[Raw] = []
    kept = chosen.span
    for segment in segments:
        tokens = list(segment.bracket) if isinstance(segment, _Candidate) else list(segment.tokens)
        content = _content(tokens)
        if segment is chosen or not content or content[0].start_pos in kept:
            continue
        start = tokens[0].start_pos if isinstance(segment, _Candidate) else content[0].start_pos
        raw.append((start, tokens[-1].end_pos, SpanKind.OUTSIDE))
    return raw


# -- SmartPlay's matching rule --------------------------------------------------------------------

def smartplay_match(text: str) -> tuple[Move, int] | None:
    """SmartPlay's ``match_act``: the action whose exact text occurs earliest (case-insensitive).

    >>> smartplay_match("I'd move the top disk of rod A to the top of rod C, not B.")
    (<Move.AC: 1>, 4)
    """
    lower = text.lower()
    found = [(lower.index(m.sentence.lower()), m.value, m) for m in Move if m.sentence.lower() in lower]
    if not found:
        return None
    position, _, move = min(found)
    return move, _original_offset(text, position)


def _original_offset(text: str, lowered: int) -> int:
    """The offset in ``text`` of offset ``lowered`` in ``text.lower()`` (some characters, like 'İ',
    lower-case to two)."""
    if len(text.lower()) == len(text):
        return lowered
    length = 0
    for index, char in enumerate(text):
        if length >= lowered:
            return index
        length += len(char.lower())
    return len(text)


def _stripped(text: str, start: int, end: int) -> tuple[int, int]:
    piece = text[start:end]
    return start + len(piece) - len(piece.lstrip()), end - len(piece) + len(piece.rstrip())


def _smartplay(text: str) -> ParsedAnswer[Move]:
    found = smartplay_match(text)
    if found is None:
        start, end = _stripped(text, 0, len(text))
        span = make_span(text, start, end, SpanKind.UNKNOWN)
        return ParsedAnswer((ParsedAction(Unknown(span.text), start, end),), (span,) if end > start else (),
                            "SmartPlay action match", ("no action text found (SmartPlay's harness takes action 0)",))
    move, start = found
    end = start + len(move.sentence)
    pieces = [_stripped(text, 0, start), _stripped(text, end, len(text))]
    spans = tuple(make_span(text, i, j, SpanKind.OUTSIDE) for i, j in pieces if j > i)
    return ParsedAnswer((ParsedAction(move, start, end),), spans, "SmartPlay action match")


# -- entry points ---------------------------------------------------------------------------------

def parse_answer(text: str, policy: ParsePolicy = ParsePolicy(), source: str | None = None,
                 limits: Limits = DEFAULT) -> ParsedAnswer[Move]:
    """Read the moves of one answer (refused, unread, beyond ``limits.answer_words``: a LimitError).

    >>> text = ("Sure! My plan:\\n1. A -> C\\n2. Move the top disk of rod A to the top of rod B\\n"
    ...         "3. shuffle\\n4. (move d0 c b) smallest disk\\nDone!")
    >>> parse_answer(text)
    Traceback (most recent call last):
    ...
    plancheck.errors.AnswerParseError: <input>, line 1, column 1: no list of moves found; expected lines such as \
'1. A -> C' or SmartPlay's action text; the numbered lines are prose, not a plan (line 4, '3. shuffle', does not \
start with an action; --pick last reads every numbered line as an action slot)
    >>> answer = parse_answer(text, ParsePolicy.of(pick="last"))
    >>> [str(item.action) for item in answer.items], answer.form
    (['A->C', 'A->B', 'shuffle', 'C->B'], 'numbered lines')
    >>> [(span.kind.value, span.text) for span in answer.spans]  # doctest: +NORMALIZE_WHITESPACE
    [('outside the answer', 'Sure! My plan:'), ('unknown action', 'shuffle'), ('commentary', 'smallest disk'),
     ('outside the answer', 'Done!')]
    >>> [str(item.action) for item in parse_answer('Answer: ["A->C", "A->B", "jump"]').items]
    ['A->C', 'A->B', 'jump']
    """
    within_words(text, limits, source)
    if policy.read is Read.SMARTPLAY:
        return _smartplay(text)
    tokens = list(leaf_tokens(_parser().parse(text)))
    if policy.read is Read.SCAN:
        moves = [t for t in tokens if t.type in _MOVES]
        if not moves:
            raise AnswerParseError("no move found; expected e.g. 'A -> C' or a line from the list of all actions",
                                   Location(source, 1, 1))
        raw = [(t.start_pos, t.end_pos, SpanKind.OUTSIDE) for t in _content(tokens) if t.type not in _MOVES]
        return _answer(text, [_action(t) for t in moves], raw, "moves scanned from the text",
                       ("every move written anywhere in the answer was read, in order (read=scan)",))
    if policy.pick is Pick.COMMITTED:
        return read_tokens(text, _toks(tokens), Pick.COMMITTED, policy.unclosed, source=source, nothing=_NOTHING,
                           expected=_EXPECTED, in_prose=_IN_PROSE, forms={"action lines": "move lines"})
    segments = _segments(tokens)
    found = _candidates(segments)
    if not found:
        hint = _IN_PROSE if any(t.type in _MOVES for t in tokens) else ""
        raise AnswerParseError(_NOTHING + hint, Location(source, 1, 1), _EXPECTED)
    candidates = []
    for candidate in found:
        items, raw = candidate.read(text)
        raw += [(i.start, i.end, SpanKind.UNKNOWN) for i in items if isinstance(i.action, Unknown)]
        candidates.append(Candidate(candidate.form, tuple(items), tuple(raw), candidate.span.start,
                                    candidate.span.stop, delimited=bool(candidate.bracket)))
    chosen, reading, notes = choose(text, candidates, policy.pick, source=source, what="lists of moves")
    outside = _outside(segments, found[candidates.index(chosen)])
    return finish(text, chosen, reading, notes, policy.unclosed, source, outside)


_NOTHING = "no list of moves found; expected lines such as '1. A -> C' or SmartPlay's action text"
_EXPECTED = ("A -> C", "1.", "[")
_IN_PROSE = "; moves appear only inside prose (try read=scan or read=smartplay)"
_KINDS = {"COMMA": Kind.SEP, "DOT": Kind.PUNCT, "QUOTE": Kind.LAYOUT, "EMPH": Kind.LAYOUT, "FENCE": Kind.FENCE,
          "CONNECTOR": Kind.CONNECTOR, "NUMBERING": Kind.NUMBERING, "BULLET": Kind.BULLET, "LSQB": Kind.LSQB,
          "RSQB": Kind.RSQB, "NL": Kind.NL, "REMARK": Kind.REMARK, "NUMBER": Kind.WORD}


def _toks(tokens: list[Token]) -> list[Tok]:
    """The answer's tokens as the generic candidate finder sees them (a label word is a word: the generic
    markers decide what labels an answer)."""
    return arrows([Tok(Kind.ACTION, t.start_pos, t.end_pos, move_of(t)) if t.type in _MOVES else
                   Tok(_KINDS.get(t.type) or word_kind(t.value), t.start_pos, t.end_pos) for t in tokens])


def parse_token(token: str) -> Move | Unknown:
    """One element of a list answer: a move if the text is exactly one move, else unknown.

    >>> parse_token("Move the top disk of rod C to the top of rod A"), parse_token("jump")
    (<Move.CA: 4>, Unknown(text='jump'))
    """
    tokens = list(leaf_tokens(_parser().parse(token)))
    moves = [t for t in tokens if t.type in _MOVES]
    junk = [t for t in _content(tokens) if t.type not in _MOVES and t.type != "REMARK"]
    return move_of(moves[0]) if len(moves) == 1 and not junk else Unknown(token)
