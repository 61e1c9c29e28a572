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
from functools import cache

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
    The marker's own words are the format's syntax, not text to report (as in the harness reader)."""
    markers = [match.span() for match in PLAN_MARKER.finditer(text)]
    toks = [t for t in toks if not any(low <= t.start < high for low, high in markers)]
    for match in PLAN_MARKER.finditer(text):
        line_end = text.find("\n", match.end())
        line_end = len(text) if line_end < 0 else line_end
        rest = [t for t in toks if match.end() <= t.start < line_end]
        if not any(t.kind is Kind.ACTION for t in rest) or any(t.kind in (Kind.LSQB, Kind.RSQB) for t in rest):
            continue  # nothing on the marker's line, or a bracket list of its own
        first = next(i for i, t in enumerate(toks) if t.start >= match.end())
        last = first + len(rest)
        toks = toks[:first] + [Tok(Kind.LSQB, rest[0].start, rest[0].start, "comma-separated actions")] + rest + \
            [Tok(Kind.RSQB, rest[-1].end, rest[-1].end)] + toks[last:]
    return toks


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
