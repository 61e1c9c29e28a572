"""BabyAI's committed reading of Plan and Decompose answers (``--read committed``, the default).

The harness readers (:func:`~plancheck.domains.babyai.parse.parse_plan`,
:func:`~plancheck.domains.babyai.parse.parse_subgoals`, ``--read harness``) take everything after
the first marker, split at commas, and drop what is not an exact action name. These read the answer
as a careful person would, with the candidates and the choice every free-text world shares
(:mod:`plancheck.translators.candidates`, :mod:`plancheck.translators.reading`):

* Plan: the rest of a line after "The LLM's action sequence is:" is a comma-separated list
  (delimited like a bracket list); so are bracket lists, code blocks, tables and numbered lines of
  actions anywhere. Action words: minigrid's names in any case and the spellings models use
  ("turn left", "move forward", "pick up", "open" for toggle; grammar ``parse_words.lark``);
  repetition words are expanded ("forward x3"). A later marker after "Wait, ..." corrects an
  earlier one; a list introduced as explanation is no answer. With ``marker="required"`` (the
  harness's rule) an answer without the marker is unreadable.
* Decompose: each ``<START>`` ... ``<END>`` block is a list, one subgoal per line (numbering,
  bullets, code fences and comments are layout), the last block introduced as the answer wins;
  subgoals may be written without their parentheses, "Subgoal" suffix or comma (grammar
  ``parse_subgoal_words.lark``). With ``marker="required"`` an answer without ``<START>`` is
  unreadable.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from functools import cache
from heapq import heappop, heappush

from lark import Lark

from plancheck.domains.babyai.rules import Action
from plancheck.domains.babyai.tasks import Subgoal
from plancheck.errors import AnswerParseError, Location
from plancheck.translators.answer import ParsedAnswer, Pick
from plancheck.translators.candidates import read_tokens
from plancheck.translators.markers import Role
from plancheck.translators.reading import Unclosed
from plancheck.translators.tokens import Kind, Tok, arrows, word_kind

PLAN_MARKER = re.compile(r"the[ \t]+llm(?:'|’)?s[ \t]+action[ \t]+sequence[ \t]+is[ \t]*:?", re.IGNORECASE)
_ACTIONS = {"LEFT": Action.left, "RIGHT": Action.right, "FORWARD": Action.forward, "PICKUP": Action.pickup,
            "DROP": Action.drop, "TOGGLE": Action.toggle, "DONE": Action.done}
_KINDS = {"NUMBERING": Kind.NUMBERING, "BULLET": Kind.BULLET, "FENCE": Kind.FENCE, "LSQB": Kind.LSQB,
          "RSQB": Kind.RSQB, "SEP": Kind.SEP, "QUOTE": Kind.LAYOUT, "EMPH": Kind.LAYOUT, "NL": Kind.NL,
          "PAREN": Kind.REMARK, "COMMENT": Kind.COMMENT, "NUMBER": Kind.WORD, "START": Kind.LSQB, "END": Kind.RSQB}
_CELL = re.compile(r"\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\)")
_NAMES = {name.lower(): f"{name}Subgoal" for name in ("GoNextTo", "GoTo", "Open", "Close", "Pickup", "Drop")}


@cache
def _lexer(name: str) -> Lark:
    return Lark.open(f"{name}.lark", rel_to=__file__, parser="lalr", lexer="basic", maybe_placeholders=False)


def read_plan(text: str, *, marker: str = "required", unclosed: str = "accept",
              source: str | None = None) -> ParsedAnswer[Action]:
    """The actions of a Plan answer, read by the committed policy.

    >>> answer = read_plan("The LLM's action sequence is: left, forward, forward\\nWait, the ball is on the "
    ...                    "right.\\nThe LLM's action sequence is: Turn right, move forward x2, pick up.")
    >>> [str(item.action) for item in answer.items], answer.reading.status.value
    (['right', 'forward', 'forward', 'pickup'], 'ambiguous')
    """
    if marker == "required" and PLAN_MARKER.search(text) is None:
        raise AnswerParseError("no \"The LLM's action sequence is:\" marker (the harness reads no actions; "
                               "--marker optional reads any list)", Location(source, 1, 1),
                               ("The LLM's action sequence is: ",))
    toks = arrows([Tok(Kind.ACTION, t.start_pos, t.end_pos, _ACTIONS[t.type]) if t.type in _ACTIONS else
                   Tok(_KINDS.get(t.type) or word_kind(t.value), t.start_pos, t.end_pos)
                   for t in _lexer("parse_words").lex(text)])
    return read_tokens(text, _marked_lists(text, toks), Pick.COMMITTED, Unclosed(unclosed), source=source,
                       extra_labels=((PLAN_MARKER, Role.ANSWER),), nothing="no list of actions found",
                       expected=("left, forward, ...",), forms={"action lines": "comma-separated actions"})


def _marked_lists(text: str, toks: list[Tok]) -> list[Tok]:
    """The tokens with the rest of each marker's line in brackets: the harness's list is delimited by its marker.
    The marker's own words are the format's syntax, not text to report (as in the harness reader).

    The markers are taken in order. The rest of a marker's line is bracketed when it holds an action and no
    bracket, counting the zero-width brackets put around an earlier marker's rest (so of two markers on one line
    usually only the first is bracketed). The tokens come sorted and apart (a lexer's), so the rest of a line is a
    run of them: counts up to each token and a heap of the brackets put in so far make each marker cost a
    logarithm, not a pass over the tokens (that was quadratic: 1 MB of answers took more than 20 s).
    """
    markers = [match.span() for match in PLAN_MARKER.finditer(text)]
    if not markers:
        return list(toks)
    lows = [low for low, _ in markers]
    toks = [t for t in toks if not (at := bisect_right(lows, t.start)) or t.start >= markers[at - 1][1]]
    starts = [t.start for t in toks]
    actions, brackets = [0], [0]  # how many actions and brackets the tokens before each index hold
    for t in toks:
        actions.append(actions[-1] + (t.kind is Kind.ACTION))
        brackets.append(brackets[-1] + (t.kind in (Kind.LSQB, Kind.RSQB)))
    put: list[int] = []  # a heap: where the brackets put in so far stand
    opens: set[int] = set()  # the indices of the tokens a '[' is put before
    closes: dict[int, int] = {}  # the indices of the tokens ']' are put after, and how many
    line_end = -1
    for _, end in markers:
        if line_end < end:
            line_end = text.find("\n", end)
            line_end = len(text) if line_end < 0 else line_end
        while put and put[0] < end:
            heappop(put)  # before this marker, so before every later one too
        first, last = bisect_left(starts, end), bisect_left(starts, line_end)
        if actions[last] == actions[first] or brackets[last] > brackets[first] or (put and put[0] < line_end):
            continue  # nothing on the marker's line, or a bracket list of its own
        opens.add(first)
        closes[last - 1] = closes.get(last - 1, 0) + 1
        heappush(put, toks[first].start)
        heappush(put, toks[last - 1].end)
    marked: list[Tok] = []
    for index, t in enumerate(toks):
        if index in opens:
            marked.append(Tok(Kind.LSQB, t.start, t.start, "comma-separated actions"))
        marked.append(t)
        marked.extend([Tok(Kind.RSQB, t.end, t.end)] * closes.get(index, 0))
    return marked


def read_subgoals(text: str, *, marker: str = "required", unclosed: str = "accept",
                  source: str | None = None) -> ParsedAnswer[Subgoal]:
    """The subgoals of a Decompose answer, read by the committed policy.

    >>> answer = read_subgoals("Example:\\n<START>\\n(OpenSubgoal)\\n<END>\\nMy answer:\\n<START>\\n"
    ...                        "1. GoNextTo (3, 5)\\n2. (PickupSubgoal)  # the key\\n<END>")
    >>> [str(item.action) for item in answer.items], answer.reading.status.value
    (['(GoNextToSubgoal, (3, 5))', '(PickupSubgoal)'], 'clear')
    """
    if marker == "required" and not re.search(r"<start>", text, re.IGNORECASE):
        raise AnswerParseError("no '<START>' line (the harness cannot read the subgoals; --marker optional reads "
                               "any list)", Location(source, 1, 1), ("<START>",))
    toks = []
    for token in _lexer("parse_subgoal_words").lex(text):
        if token.type in ("GONEXT", "SUBGOAL"):
            toks.append(Tok(Kind.ACTION, token.start_pos, token.end_pos, _subgoal(token.value)))
        elif token.value == ",":
            toks.append(Tok(Kind.LAYOUT, token.start_pos, token.end_pos))
        else:
            toks.append(Tok(_KINDS.get(token.type) or word_kind(token.value), token.start_pos, token.end_pos))
    return read_tokens(text, toks, Pick.COMMITTED, Unclosed(unclosed), source=source,
                       nothing="no list of subgoals found", expected=("<START>",),
                       forms={"bracket list": "subgoal lines", "unclosed bracket list": "subgoal lines (no <END>)"})


def _subgoal(value: str) -> Subgoal:
    """A subgoal token's kind and (for GoNextTo) cell; a cell on another subgoal is ignored, as by the harness."""
    name = re.match(r"[\s(]*([A-Za-z]+?)(?:subgoal)?\b", value, re.IGNORECASE)
    kind = _NAMES[name.group(1).lower()] if name else "OpenSubgoal"
    if kind == "GoToSubgoal":
        kind = "GoNextToSubgoal"
    if kind != "GoNextToSubgoal":
        return Subgoal(kind)
    x, y = _CELL.search(value).groups()  # type: ignore[union-attr]
    return Subgoal(kind, (int(x), int(y)))
