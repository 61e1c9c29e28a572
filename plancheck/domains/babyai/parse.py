"""Read BabyAI answers in the published formats (grammars: ``grammars/babyai_*.lark``).

Each reader follows the published harness, but reports what the harness drops silently:

* Plan (LLM-BabyBench): the text after the first "The LLM's action sequence is: " (any case),
  split at commas; an item is an action when, stripped and lower-cased, it is an action name
  (``left, right, forward, pickup, drop, toggle, done``). Other items ("left." or "go north") are
  unknown actions: the harness drops them, and so does the default policy (``unknown="skip"``),
  but they are listed. Without the marker the answer is unreadable (the harness reads nothing),
  unless ``marker="optional"``, which reads the whole text.
* Predict (LLM-BabyBench): after "The agent's final state is: ", the first ``((x, y), dir)``;
  failing that, the first three integers (the harness's fallback, noted).
* Decompose (LLM-BabyBench): the lines between "<START>" and "<END>" (any case; lines may end in
  ``\r\n``; an "<END>" right after "<START>" is an empty list), one subgoal each,
  like ``(GoNextToSubgoal, (3, 4))`` (a position on another subgoal is ignored, as by the harness);
  unknown or malformed lines, and GoNextTo without an (x, y), are listed and skipped.
* Numbers of more than ``MAX_DIGITS`` digits are no coordinates: a Predict answer holding one is
  unreadable, a GoNextTo line holding one is listed and skipped.
* LangSuitE: one response per line (or a list of responses), read as LangSuitE reads it: every
  match of its action regex in the lower-cased response is an action (an action word, even inside
  another word such as "stopped", then optionally a colour and an object type, as in
  ``pick_up [red ball]``); a response with no match or several is an unknown action, which
  LangSuitE answers with an error message while the step counter still advances.
"""

from __future__ import annotations

import re
import string
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from lark import Lark, Token, UnexpectedInput

from plancheck.domains.babyai.rules import ACTION_NAMES, Action
from plancheck.domains.babyai.tasks import LANGSUITE_ACTIONS, SUBGOAL_KINDS, IGAction, Subgoal
from plancheck.episodes.check import replies_reading
from plancheck.episodes.committed import read_committed
from plancheck.episodes.game import AMBIGUOUS, CLEAR, NONE
from plancheck.errors import AnswerParseError, Location
from plancheck.rules import Unknown
from plancheck.translators.answer import ParsedAction, ParsedAnswer, SpanKind, line_and_column, make_span

PLAN_MARKER = "the llm's action sequence is: "
PREDICT_MARKER = "the agent's final state is: "
MAX_DIGITS = 100  # in a coordinate or direction
# Markers are found in any case without lower-casing the text: str.lower() may lengthen it ("İ" -> "i̇"),
# which shifted every offset after such a character.
_PLAN_AT = re.compile(re.escape(PLAN_MARKER), re.IGNORECASE)
_PREDICT_AT = re.compile(re.escape(PREDICT_MARKER), re.IGNORECASE)
# LangSuitE responses are lexed in lower case for the same reason only A-Z are lowered: offsets stay true.
_ASCII_LOWER = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)


@cache
def _parser(name: str) -> Lark:
    return Lark.open(f"parse_{name}.lark", rel_to=__file__, parser="lalr", lexer="basic",
                     propagate_positions=False, maybe_placeholders=False)


def _tokens(name: str, text: str, offset: int, whole: str, source: str | None) -> list[Token]:
    try:
        return list(_parser(name).lex(text))
    except UnexpectedInput as error:  # the token grammars are total; this guards against regressions
        line, column = line_and_column(whole, offset + error.pos_in_stream)
        raise AnswerParseError("unreadable character", Location(source, line, column)) from None


def _outside(text: str, start: int, end: int) -> list:
    """The text between ``start`` and ``end``, without surrounding whitespace, as an 'outside' span."""
    piece = text[start:end]
    if not piece.strip():
        return []
    start += len(piece) - len(piece.lstrip())
    end -= len(piece) - len(piece.rstrip())
    return [make_span(text, start, end, SpanKind.OUTSIDE)]


# -- Plan ------------------------------------------------------------------------------------------

def parse_plan(text: str, *, marker: str = "required", source: str | None = None) -> ParsedAnswer[Action]:
    """The actions of a Plan answer.

    >>> answer = parse_plan("Easy. The LLM's action sequence is: left, Forward, jump, toggle")
    >>> [str(item.action) for item in answer.items]
    ['left', 'forward', 'jump', 'toggle']
    >>> [(s.kind.value, s.text) for s in answer.spans]
    [('outside the answer', 'Easy.'), ('unknown action', 'jump')]
    """
    found = _PLAN_AT.search(text)
    at = -1 if found is None else found.start()
    if at < 0 and marker == "required":
        raise AnswerParseError(f"no {PLAN_MARKER.strip()!r} marker (the harness reads no actions)",
                               Location(source, 1, 1), ("The LLM's action sequence is: ",))
    start = 0 if at < 0 else at + len(PLAN_MARKER)
    spans = _outside(text, 0, at) if at > 0 else []
    items: list[ParsedAction] = []
    for token in _tokens("actions", text[start:], start, text, source):
        if token.type != "ITEM":
            continue
        word = token.value.strip()
        if not word:
            continue
        lead = token.start_pos + start + (len(token.value) - len(token.value.lstrip()))
        _add_action(text, word, lead, items, spans)
    notes = () if at >= 0 else ("no marker: the whole text was read as the action list (marker=optional)",)
    return ParsedAnswer(tuple(items), tuple(spans), "comma-separated actions", notes)


def parse_action_list(tokens: Sequence[str]) -> ParsedAnswer[Action]:
    """A ready list of action names (an answer file's JSON list), read as :func:`parse_plan` reads
    each comma-separated item; unknown names are reported as spans, blank items are layout.

    Positions are offsets in the list written as the harness's answer, ``a, b, ...``.

    >>> answer = parse_action_list(["left", " Forward ", "jump", ""])
    >>> [str(item.action) for item in answer.items], [(s.kind.value, s.text, s.column) for s in answer.spans]
    (['left', 'forward', 'jump'], [('unknown action', 'jump', 18)])
    """
    text = ", ".join(tokens)
    items: list[ParsedAction] = []
    spans = []
    offset = 0
    for token in tokens:
        word = token.strip()
        lead = offset + (len(token) - len(token.lstrip()))
        offset += len(token) + 2
        if word:
            _add_action(text, word, lead, items, spans)
    return ParsedAnswer(tuple(items), tuple(spans), "action list")


def _add_action(text: str, word: str, lead: int, items: list[ParsedAction], spans: list) -> None:
    """The action named by ``word`` (at offset ``lead`` of ``text``); an unknown name is also a span."""
    action = ACTION_NAMES.get(word.lower())
    items.append(ParsedAction(Unknown(word) if action is None else action, lead, lead + len(word)))
    if action is None:
        spans.append(make_span(text, lead, lead + len(word), SpanKind.UNKNOWN))


# -- Predict ---------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class PredictedState:
    """A Predict answer: the cell and direction read, how, and the text around it."""

    x: int
    y: int
    dir: int
    form: str
    spans: tuple = ()
    notes: tuple[str, ...] = ()


def parse_state(text: str, *, source: str | None = None) -> PredictedState:
    """The final state of a Predict answer.

    >>> answer = parse_state("... The agent's final state is: ((3, 4), 2)")
    >>> answer.x, answer.y, answer.dir
    (3, 4, 2)
    """
    found = _PREDICT_AT.search(text)
    at = -1 if found is None else found.start()
    if at < 0:
        raise AnswerParseError(f"no {PREDICT_MARKER.strip()!r} marker (the harness reads no state)",
                               Location(source, 1, 1), ("The agent's final state is: ",))
    start = at + len(PREDICT_MARKER)
    tokens = _tokens("state", text[start:], start, text, source)
    spans = _outside(text, 0, at)
    state = next((t for t in tokens if t.type == "STATE"), None)
    if state is not None:
        x, y, d = (_number(v, text, start + state.start_pos, source) for v in _ints(state.value))
        begin, end = start + state.start_pos, start + state.end_pos
        spans += _outside(text, start, begin) + _outside(text, end, len(text))
        return PredictedState(x, y, d, "((x, y), dir)", tuple(spans))
    numbers = [t for t in tokens if t.type == "INT"][:3]
    if len(numbers) < 3:
        line, column = line_and_column(text, start)
        raise AnswerParseError("no ((x, y), dir) and fewer than three integers after the marker",
                               Location(source, line, column), ("((x, y), dir)",))
    x, y, d = (_number(t.value, text, start + t.start_pos, source) for t in numbers)
    return PredictedState(x, y, d, "first three integers", tuple(spans),
                          ("no ((x, y), dir) after the marker: the first three integers were read, as the "
                           "harness does",))


def _number(value: str, text: str, offset: int, source: str | None) -> int:
    """An integer of the answer; one with more than :data:`MAX_DIGITS` digits is no coordinate (and
    Python's ``int`` refuses 4,300 digits, ``float`` 309)."""
    if len(value.lstrip("-")) > MAX_DIGITS:
        line, column = line_and_column(text, offset)
        raise AnswerParseError(f"an integer of {len(value.lstrip('-'))} digits (more than {MAX_DIGITS}) is not a "
                               f"coordinate", Location(source, line, column))
    return int(value)


def _ints(value: str) -> list[str]:
    out, current = [], ""
    for ch in value:
        if ch.isdigit() or (ch == "-" and not current):
            current += ch
        elif current:
            out.append(current)
            current = ""
    return out + ([current] if current else [])


# -- Decompose -------------------------------------------------------------------------------------

_START = re.compile(r"<start>\r?\n", re.IGNORECASE)  # a line break, \n or \r\n (a file saved on Windows)
_END = re.compile(r"\r?\n<end>", re.IGNORECASE)


def parse_subgoals(text: str, *, source: str | None = None) -> ParsedAnswer[Subgoal]:
    """The subgoals of a Decompose answer.

    >>> answer = parse_subgoals("Plan:\\n<START>\\n(GoNextToSubgoal, (3, 5))\\n(PickupSubgoal)\\nfly\\n<END>")
    >>> [str(item.action) for item in answer.items]
    ['(GoNextToSubgoal, (3, 5))', '(PickupSubgoal)', 'fly']
    """
    opening = _START.search(text)
    if opening is None:
        raise AnswerParseError("no '<START>' line (the harness cannot read the subgoals)",
                               Location(source, 1, 1), ("<START>",))
    at, start = opening.span()
    closing = _END.search(text, start - 1)  # the line break ending <START> may begin <END>: an empty list
    notes: list[str] = []
    if closing is None:
        end = after = len(text)
        notes.append("no '<END>' line: the subgoals run to the end of the answer")
    else:
        end, after = closing.span()
    spans = _outside(text, 0, at) + _outside(text, after, len(text))
    items: list[ParsedAction] = []
    offset = start
    for raw in text[start:max(start, end)].split("\n"):
        line = raw.strip()
        lead = offset + (len(raw) - len(raw.lstrip()))
        offset += len(raw) + 1
        if not line:
            continue
        subgoal = _subgoal(line)
        if subgoal is None:
            items.append(ParsedAction(Unknown(line), lead, lead + len(line)))
            spans.append(make_span(text, lead, lead + len(line), SpanKind.UNKNOWN))
        else:
            items.append(ParsedAction(subgoal, lead, lead + len(line)))
    return ParsedAnswer(tuple(items), tuple(spans), "subgoal lines", tuple(notes))


def _subgoal(line: str) -> Subgoal | None:
    try:
        tree = _parser("subgoals").parse(line)
    except UnexpectedInput:
        return None
    name = next(t for t in tree.children if isinstance(t, Token)).value
    cells = [c for c in tree.children if not isinstance(c, Token)]
    if name not in SUBGOAL_KINDS:
        return None
    if name == "GoNextToSubgoal":
        if not cells or len(cells[0].children) != 2 or any(len(t.value.lstrip("-")) > MAX_DIGITS
                                                             for t in cells[0].children):
            return None
        x, y = (int(t.value) for t in cells[0].children)
        return Subgoal(name, (x, y))
    return Subgoal(name)  # the harness accepts and ignores a position on the other subgoals


# -- LangSuitE -------------------------------------------------------------------------------------

OPENINGS = ("auto", "langsuite", "none")
_REFUSALS = ("not", "don't")  # LangSuitE: a reply holding either keeps the game from starting
_COLOURS = ("red", "green", "blue", "yellow", "purple", "grey")
_THINGS = ("box", "key", "ball", "door")


def _ig_action(match: str) -> IGAction:
    """The word, colour and type of one ACTION token (``word [colours gap type``, all but the word
    optional): of several colour words in a row the last counts, as in LangSuitE's pattern.

    >>> str(_ig_action("pick_up [greenred_ball")), str(_ig_action("toggle [ ")), str(_ig_action("drop [red"))
    ('pick_up [red ball]', 'toggle', 'drop [red]')
    """
    word = next(w for w in LANGSUITE_ACTIONS if match.startswith(w))
    rest = match[len(word):]
    kind = next((t for t in _THINGS if rest.endswith(t)), None)
    rest = rest[:len(rest) - len(kind or "")]
    while rest and (rest[-1].isspace() or rest[-1] == "_"):
        rest = rest[:-1]
    color = next((c for c in _COLOURS if rest.endswith(c)), None)
    return IGAction(word, color, kind)


def parse_langsuite(responses: str | list[str], *, opening: str = "auto",
                    source: str | None = None) -> ParsedAnswer[IGAction]:
    """LangSuitE actions, one per response (a list, or text with one response per line).

    LangSuitE first asks the model whether it can play ("Respond YES if you can play this game") and
    starts the game at the first reply that holds neither "not" nor "don't" (case-sensitive, inside
    words too, as its released code tests); those replies are not steps. ``opening``: ``langsuite``
    reads the responses as the whole conversation and applies that rule; ``none`` reads them as
    starting after it; ``auto`` applies it only when the first response names no action. The
    opening replies are kept as spans outside the answer, with a note.

    >>> answer = parse_langsuite("Act: turn_left\\nAct: pick_up [red ball]\\nthinking...\\nstop [N/A]")
    >>> [str(item.action) for item in answer.items]
    ['turn_left', 'pick_up [red ball]', 'thinking...', 'stop']
    >>> answer = parse_langsuite(["I do not know.", "Yes, I can.", "Act: move_ahead"])
    >>> [str(item.action) for item in answer.items], answer.spans[0].kind.value, len(answer.notes)
    (['move_ahead'], 'outside the answer', 1)
    """
    if opening not in OPENINGS:
        raise ValueError(f"opening must be one of {', '.join(OPENINGS)}, not {opening!r}")
    if isinstance(responses, str):
        text = responses
        lines, offset = [], 0
        for raw in text.split("\n"):
            if raw.strip():
                lines.append((offset, raw))
            offset += len(raw) + 1
    else:
        text = "\n".join(responses)
        lines, offset = [], 0
        for raw in responses:
            lines.append((offset, raw))
            offset += len(raw) + 1
    items: list[ParsedAction] = []
    spans = []
    notes: tuple[str, ...] = ()
    count = _opening_length(lines, opening, text, source)
    for offset, raw in lines[:count]:
        lead = offset + (len(raw) - len(raw.lstrip()))
        spans.append(make_span(text, lead, lead + len(raw.strip()), SpanKind.OUTSIDE))
    if count == 1:
        notes = (f"the first response {lines[0][1].strip()[:60]!r} answers LangSuitE's opening question: not a step",)
    elif count:
        notes = (f"the first {count} responses answer LangSuitE's opening question (the game starts at "
                 f"{lines[count - 1][1].strip()[:60]!r}): not steps",)
    del lines[:count]
    reads = []  # each step's read status: a response holding several actions is ambiguous, none names none
    guessed: list[int] = []  # steps where LangSuitE's one match is not the response's committed answer
    for step, (offset, raw) in enumerate(lines, start=1):
        lexed = _tokens("langsuite", raw.translate(_ASCII_LOWER), offset, text, source)
        found = [t for t in lexed if t.type == "ACTION"]
        status = CLEAR if len(found) == 1 else AMBIGUOUS if found else NONE
        if len(found) == 1 and not _commits_to(raw, _ig_action(found[0].value)):
            status = AMBIGUOUS
            guessed.append(step)
        reads.append((step, status))
        if len(found) != 1:
            shown = raw.strip()
            lead = offset + (len(raw) - len(raw.lstrip()))
            items.append(ParsedAction(Unknown(shown), lead, lead + len(shown)))
            spans.append(make_span(text, lead, lead + len(shown), SpanKind.UNKNOWN))
            continue
        action = _ig_action(found[0].value)
        at = offset + found[0].start_pos
        items.append(ParsedAction(action, at, at + len(action.word)))
    if guessed:
        notes += (f"response(s) {', '.join(map(str, guessed))}: LangSuitE's one action match is not the response's "
                  "committed answer (an action in a thought, or rejected)",)
    return ParsedAnswer(tuple(items), tuple(spans), "one action per response", notes,
                        replies_reading(reads, guessed))


IG_MENU = tuple(LANGSUITE_ACTIONS) + tuple(f"{word} [{' '.join(p for p in (colour, thing) if p)}]"
                                           for word in ("pick_up", "drop", "toggle")
                                           for colour in (None, *_COLOURS) for thing in _THINGS)


def _commits_to(response: str, action: IGAction) -> bool:
    """Whether the response's committed answer (:mod:`plancheck.episodes.committed`) is ``action`` (its word,
    when the answer names no object)."""
    committed = read_committed(response, IG_MENU)
    return committed.status == CLEAR and committed.action is not None and \
        committed.action.split(" [", 1)[0] == action.word


def _opening_length(lines: list[tuple[int, str]], opening: str, text: str, source: str | None) -> int:
    """How many of the first responses answer LangSuitE's opening question (see parse_langsuite)."""
    if opening == "none" or not lines:
        return 0
    if opening == "auto" and _names_action(lines[0], text, source):
        return 0
    count = 0
    while count < len(lines) and any(word in lines[count][1] for word in _REFUSALS):
        count += 1
    return min(count + 1, len(lines))


def _names_action(line: tuple[int, str], text: str, source: str | None) -> bool:
    offset, raw = line
    return any(t.type == "ACTION" for t in _tokens("langsuite", raw.translate(_ASCII_LOWER), offset, text, source))

