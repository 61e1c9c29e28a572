"""Read GRASP actions from a model's free-text answer (grammar: ``parse.lark``) or a list of action names.

The grammar finds the candidate answers in the text: bracket lists (closed, or cut off at the end
of the text) and runs of numbered or bulleted lines. :class:`ParsePolicy` then decides which
candidate is the answer; every other piece of text is reported as a span, never dropped:

* In a bracket list, elements are separated by commas, semicolons or newlines. An element with
  actions gives those actions; other words next to them are *unreadable* spans. So are ``#`` and
  ``//`` comments, and an element holding only a comment is not an action slot.
  An element with no action at all (``JUMP``) is an *unknown action*: GRASP executes it as a
  no-op that uses a step (``unknown="noop"``, the benchmark's rule) or it can be skipped
  (``unknown="skip"``).
* On a numbered line (``3. TAKE (4, 7) - collect energy``) the leading action(s) count and the
  rest of the line is *commentary*; a line that starts with no action is an unknown action.
* With several candidates, ``pick`` chooses the first, the last (default) or insists on exactly
  one. Lists holding no action at all (the prompt's ``[STEP, STEP, ...]``) are candidates only
  when nothing else is. ``unclosed="accept"`` (default) takes a list cut off at the end of the
  text and notes it (unless it holds no action slot at all: a lone ``[`` is no answer);
  ``"reject"`` refuses it. A closed empty list ``[]`` is the empty plan.
* With no list at all, text made only of actions and separators is the answer; other prose is
  refused unless ``prose="scan"``, which reads every action word in it (and says so).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cache, lru_cache
from typing import TYPE_CHECKING

from plancheck.domains.grasp.rules import Action
from plancheck.errors import AnswerParseError, Location
from plancheck.limits import DEFAULT, Limits
from plancheck.rules import Unknown
from plancheck.translators.answer import (
    CLEAR,
    ParsedAction,
    ParsedAnswer,
    Pick,
    Span,
    SpanKind,
    leaf_tokens,
    make_span,
    within_words,
)
from plancheck.translators.candidates import read_tokens
from plancheck.translators.reading import Candidate, Unclosed, choose, finish
from plancheck.translators.tokens import Kind, Tok, arrows, word_kind

if TYPE_CHECKING:  # lark is imported when text is parsed: ready lists of names never need it
    from lark import Lark, Token, Tree

_LAYOUT = {"SEP", "QUOTE", "EMPH", "FENCE", "NL", "NUMBERING", "BULLET", "LSQB", "RSQB"}
_ACTIONS = {action.name for action in Action}
_SEPARATORS = {"SEP", "NL", "NUMBERING", "BULLET", "LSQB"}


class Prose(str, Enum):
    REJECT = "reject"
    SCAN = "scan"


@dataclass(frozen=True, slots=True)
class ParsePolicy:
    """How to read an answer where reasonable people differ (see the module docstring)."""

    pick: Pick = Pick.COMMITTED
    unclosed: Unclosed = Unclosed.ACCEPT
    prose: Prose = Prose.REJECT

    @classmethod
    @lru_cache(maxsize=64)  # policies are immutable: a batch asks once per record
    def of(cls, pick: str = "committed", unclosed: str = "accept", prose: str = "reject") -> ParsePolicy:
        return cls(Pick(pick), Unclosed(unclosed), Prose(prose))


@cache
def _parser() -> Lark:
    from lark import Lark

    return Lark.open("parse.lark", rel_to=__file__, parser="lalr", lexer="basic",
                     propagate_positions=False, maybe_placeholders=False)


def _is_tree(node: Tree | Token) -> bool:
    """Whether a node of the parse is a subtree: lark's tokens are strings, its trees are not."""
    return not isinstance(node, str)


def _action_of(node: Tree | Token) -> Action | None:
    if _is_tree(node) and node.data == "action":
        return Action[node.children[0].type]
    return None


def _read_list(node: Tree, form: str, text: str) -> Candidate:
    """A bracket list: split the body into elements at separators."""
    items: list[ParsedAction] = []
    spans: list[tuple[int, int, SpanKind]] = []
    body = next(child for child in node.children if _is_tree(child) and child.data == "body")
    element: list[Tree | Token] = []

    def flush() -> None:
        actions = [(a, c) for c in element if (a := _action_of(c)) is not None]
        junk = [t for c in element if _action_of(c) is None for t in leaf_tokens(c) if t.type not in _LAYOUT]
        if actions or all(t.type == "COMMENT" for t in junk):
            for action, child in actions:
                token = child.children[0]
                items.append(ParsedAction(action, token.start_pos, token.end_pos))
            spans.extend((t.start_pos, t.end_pos, SpanKind.UNREAD) for t in junk)
        else:
            start, end = junk[0].start_pos, junk[-1].end_pos
            items.append(ParsedAction(Unknown(text[start:end]), start, end))
            spans.append((start, end, SpanKind.UNKNOWN))
        element.clear()

    for child in body.children:
        if isinstance(child, str) and child.type in _SEPARATORS:
            flush()
        else:
            element.append(child)
    flush()
    tokens = list(leaf_tokens(node))
    return Candidate(form, tuple(items), tuple(spans), tokens[0].start_pos, tokens[-1].end_pos, delimited=True,
                     cut=form == "unclosed bracket list")


def _read_line(node: Tree, text: str) -> tuple[list[ParsedAction], list[tuple[int, int, SpanKind]], int, int]:
    """A numbered line: leading actions count, the rest is commentary."""
    mark = node.children[0]
    line = node.children[1]
    items: list[ParsedAction] = []
    rest: list[Token] = []
    for child in line.children:
        action = _action_of(child)
        if action is not None and not rest:
            token = child.children[0]
            items.append(ParsedAction(action, token.start_pos, token.end_pos))
        elif rest or not (isinstance(child, str) and child.type in _LAYOUT):
            rest.extend(leaf_tokens(child))
    end = max([mark.end_pos] + [t.end_pos for t in leaf_tokens(line)])
    content = [t for t in rest if t.type not in _LAYOUT] or rest
    if not content:
        return items, [], mark.start_pos, end
    start, stop = content[0].start_pos, content[-1].end_pos
    if items:
        return items, [(start, stop, SpanKind.COMMENTARY)], mark.start_pos, end
    return ([ParsedAction(Unknown(text[start:stop]), start, stop)], [(start, stop, SpanKind.UNKNOWN)],
            mark.start_pos, end)


def _candidates(tree: Tree, text: str) -> tuple[list[Candidate], list[Tree | Token]]:
    """The candidate answers in text order, and the top-level prose nodes."""
    candidates: list[Candidate] = []
    prose: list[Tree | Token] = []
    run: list[tuple[list[ParsedAction], list, int, int]] = []

    def close_run() -> None:
        if run:
            items = tuple(item for r in run for item in r[0])
            spans = tuple(span for r in run for span in r[1])
            candidates.append(Candidate("numbered lines", items, spans, run[0][2], run[-1][3]))
            run.clear()

    for child in tree.children:
        if _is_tree(child) and child.data in ("item_line", "item_tail"):
            run.append(_read_line(child, text))
        elif _is_tree(child) and child.data in ("closed", "unclosed"):
            close_run()
            form = "bracket list" if child.data == "closed" else "unclosed bracket list"
            candidates.append(_read_list(child, form, text))
        elif isinstance(child, str) and child.type == "NL":
            continue
        else:
            if not (isinstance(child, str) and child.type in _LAYOUT):
                close_run()
            prose.append(child)
    close_run()
    return candidates, prose


def _from_prose(prose: list[Tree | Token], policy: ParsePolicy) -> Candidate | None:
    actions = [(a, c.children[0]) for c in prose if (a := _action_of(c)) is not None]
    junk = [t for c in prose if _action_of(c) is None for t in leaf_tokens(c) if t.type not in _LAYOUT]
    if not actions:
        return None
    items = tuple(ParsedAction(a, t.start_pos, t.end_pos) for a, t in actions)
    if not junk:
        return Candidate("bare actions", items, (), items[0].start, items[-1].end)
    if policy.prose is Prose.SCAN:
        spans = tuple((t.start_pos, t.end_pos, SpanKind.OUTSIDE) for t in junk)
        return Candidate("actions scanned from prose", items, spans, items[0].start, items[-1].end)
    return None


def parse_answer(text: str, policy: ParsePolicy = ParsePolicy(), source: str | None = None,
                 limits: Limits = DEFAULT) -> ParsedAnswer[Action]:
    """Read the actions of one answer (refused, unread, beyond ``limits.answer_words``: a LimitError).

    >>> answer = parse_answer("Sure: [UP, 'take', Jump, move right] and done")
    >>> [str(item.action) for item in answer.items], answer.form
    (['UP', 'TAKE', 'Jump', 'RIGHT'], 'bracket list')
    >>> [(span.kind.value, span.text) for span in answer.spans]
    [('outside the answer', 'Sure:'), ('unknown action', 'Jump'), ('outside the answer', 'and done')]
    >>> answer = parse_answer("Final answer: [RIGHT twice, TAKE]\\n\\nExplanation:\\n- UP: a recap, not the answer")
    >>> [str(item.action) for item in answer.items], answer.reading.status.value, answer.notes
    (['RIGHT', 'RIGHT', 'TAKE'], 'clear', ("repetition: 'RIGHT twice' (line 1, column 16) read as 2 x RIGHT",))
    """
    within_words(text, limits, source)
    if policy.pick is Pick.COMMITTED:
        return _committed(text, policy, source)
    tree = _parser().parse(text)
    candidates, prose = _candidates(tree, text)
    notes: list[str] = []
    if not candidates:
        chosen = _from_prose(prose, policy)
        if chosen is None:
            raise AnswerParseError(_NOTHING, Location(source, 1, 1), _EXPECTED)
        if chosen.form == "actions scanned from prose":
            notes.append(_SCANNED)
        raw = [(t.start_pos, t.end_pos, SpanKind.OUTSIDE) for node in prose for t in leaf_tokens(node)
               if t.type not in _LAYOUT] if chosen.form == "bare actions" else []
        return finish(text, chosen, CLEAR, notes, policy.unclosed, source, raw)
    chosen, reading, said = choose(text, candidates, policy.pick, source=source)
    raw = [(other.start, other.end, SpanKind.OUTSIDE) for other in candidates if other is not chosen]
    for node in prose:
        raw.extend((t.start_pos, t.end_pos, SpanKind.OUTSIDE) for t in leaf_tokens(node) if t.type not in _LAYOUT)
    return finish(text, chosen, reading, said, policy.unclosed, source, raw)


_NOTHING = "no list of actions found; expected e.g. [UP, TAKE, DROP] or numbered lines"
_EXPECTED = ("[", "1.")
_SCANNED = "no list found: every action word in the prose was read, in order (prose=scan)"
_KINDS = {"NUMBERING": Kind.NUMBERING, "BULLET": Kind.BULLET, "FENCE": Kind.FENCE, "LSQB": Kind.LSQB,
          "RSQB": Kind.RSQB, "SEP": Kind.SEP, "QUOTE": Kind.LAYOUT, "EMPH": Kind.LAYOUT, "NL": Kind.NL,
          "PAREN": Kind.REMARK, "COMMENT": Kind.COMMENT, "NUMBER": Kind.WORD}


_LAYOUT_KINDS = {Kind.ACTION, Kind.NL, Kind.SEP, Kind.LAYOUT, Kind.FENCE, Kind.NUMBERING, Kind.BULLET, Kind.LSQB,
                 Kind.RSQB}


def _toks(text: str) -> list[Tok]:
    """The answer's tokens as the generic candidate finder sees them."""
    return arrows([Tok(Kind.ACTION, t.start_pos, t.end_pos, Action[t.type]) if t.type in _ACTIONS else
                   Tok(_KINDS.get(t.type) or word_kind(t.value), t.start_pos, t.end_pos) for t in _parser().lex(text)])


def _committed(text: str, policy: ParsePolicy, source: str | None) -> ParsedAnswer[Action]:
    """The committed reading (see plancheck.translators.candidates and .reading)."""
    toks = _toks(text)
    try:
        return read_tokens(text, toks, Pick.COMMITTED, policy.unclosed, source=source, nothing=_NOTHING,
                           expected=_EXPECTED, forms={"action lines": "bare actions"})
    except AnswerParseError:
        if policy.prose is not Prose.SCAN or not any(t.kind is Kind.ACTION for t in toks):
            raise
    actions = [t for t in toks if t.kind is Kind.ACTION]
    items = tuple(item for t in actions for item in [ParsedAction(t.action, t.start, t.end)] * t.count)
    raw = [(t.start, t.end, SpanKind.OUTSIDE) for t in toks if t.kind not in _LAYOUT_KINDS]
    chosen = Candidate("actions scanned from prose", items, tuple(raw), items[0].start, items[-1].end)
    return finish(text, chosen, CLEAR, [_SCANNED], policy.unclosed, source, ())


_TOKENS = {name: action for action in Action for name in (action.value, action.value.lower())}


@lru_cache(maxsize=4096)
def token_action(token: str) -> Action | Unknown:
    """One action name; names other than the canonical ones are read with the answer grammar, so
    both routes know the same synonyms ("north", "move_left", "pick up")."""
    action = _TOKENS.get(token) or _TOKENS.get(token.strip().lower().replace("_", "").replace("-", ""))
    if action is None and not set(token) & set("[],;\n") and len(token) <= 40:
        try:
            read = parse_answer(f"[{token}]")
        except AnswerParseError:
            read = None
        if read is not None and len(read.items) == 1 and not read.spans:
            action = read.items[0].action
    return action if isinstance(action, Action) else Unknown(token)


def token_actions(tokens: Sequence[str]) -> list[Action | Unknown]:
    """Each name of a ready list as its action (:class:`Unknown` when it names none)."""
    known = _TOKENS.get
    return [known(token) or token_action(token) for token in tokens]


def token_spans(tokens: Sequence[str], actions: Sequence[Action | Unknown]) -> tuple[Span, ...]:
    """The names of a ready list that name no action, as spans of the list written as ``[a, b, ...]``."""
    if Unknown not in set(map(type, actions)):  # the usual case, found without a Python step per name
        return ()
    text = "[" + ", ".join(tokens) + "]"
    spans, start = [], 1
    for token, action in zip(tokens, actions):
        if isinstance(action, Unknown):
            spans.append(make_span(text, start, start + len(token), SpanKind.UNKNOWN))
        start += len(token) + 2
    return tuple(spans)


def parse_tokens(tokens: Sequence[str]) -> ParsedAnswer[Action]:
    """A ready list of action names (the baseline files' form); unknown names become :class:`Unknown`
    and are reported as spans, as in free text.

    Positions are offsets in the list written as ``[a, b, ...]``.

    >>> [(span.kind.value, span.text, span.column) for span in parse_tokens(["up", "jump"]).spans]
    [('unknown action', 'jump', 6)]
    """
    actions = token_actions(tokens)
    items, start = [], 1
    for token, action in zip(tokens, actions):
        end = start + len(token)
        items.append(ParsedAction(action, start, end))
        start = end + 2
    return ParsedAnswer(tuple(items), token_spans(tokens, actions), TOKEN_LIST)


TOKEN_LIST = "list of action names"  # the form of a ready list


def read_answer(answer: str | Sequence[str], policy: ParsePolicy, source: str | None = None,
                limits: Limits = DEFAULT) -> ParsedAnswer[Action]:
    """Free text through the grammar, a list of action names token by token."""
    if isinstance(answer, str):
        return parse_answer(answer, policy, source, limits)
    return parse_tokens(answer)
