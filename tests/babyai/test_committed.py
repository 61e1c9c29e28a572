"""The committed reading's marker lists (domains/babyai/committed.py): the linear ``_marked_lists`` gives the tokens
the earlier quadratic one gave (kept here as the oracle) on generated answers full of markers, lines and brackets."""

from __future__ import annotations

import random

from plancheck.domains.babyai.committed import _ACTIONS, _KINDS, PLAN_MARKER, _lexer, _marked_lists
from plancheck.translators.tokens import Kind, Tok, arrows, word_kind


def _quadratic(text: str, toks: list[Tok]) -> list[Tok]:
    """``_marked_lists`` as it was until issue 22: the token list rebuilt once per marker."""
    markers = [match.span() for match in PLAN_MARKER.finditer(text)]
    toks = [t for t in toks if not any(low <= t.start < high for low, high in markers)]
    for match in PLAN_MARKER.finditer(text):
        line_end = text.find("\n", match.end())
        line_end = len(text) if line_end < 0 else line_end
        rest = [t for t in toks if match.end() <= t.start < line_end]
        if not any(t.kind is Kind.ACTION for t in rest) or any(t.kind in (Kind.LSQB, Kind.RSQB) for t in rest):
            continue
        first = next(i for i, t in enumerate(toks) if t.start >= match.end())
        last = first + len(rest)
        toks = toks[:first] + [Tok(Kind.LSQB, rest[0].start, rest[0].start, "comma-separated actions")] + rest + \
            [Tok(Kind.RSQB, rest[-1].end, rest[-1].end)] + toks[last:]
    return toks


def _tokens(text: str) -> list[Tok]:
    return arrows([Tok(Kind.ACTION, t.start_pos, t.end_pos, _ACTIONS[t.type]) if t.type in _ACTIONS else
                   Tok(_KINDS.get(t.type) or word_kind(t.value), t.start_pos, t.end_pos)
                   for t in _lexer("parse_words").lex(text)])


PIECES = ("The LLM's action sequence is:", "the llm’s action sequence is", "THE LLM'S ACTION SEQUENCE IS: ",
          "xThe LLM's action sequence is:", "left", "right", "forward", "pick up", "toggle", "done", "go", "ball",
          "Wait,", ", ", ",", " ", " ", "\n", "\n", "[", "]", "(maybe)", "# note", "1. ", "- ", "x2", "'", ".", "->")


def test_marked_lists_agree_with_the_quadratic_oracle():
    rng = random.Random(22)
    marked = 0
    for _ in range(1000):
        text = "".join(rng.choice(PIECES) for _ in range(rng.randrange(1, 30)))
        toks = _tokens(text)
        new = _marked_lists(text, list(toks))
        assert new == _quadratic(text, list(toks)), text
        marked += any(t.kind is Kind.LSQB and t.start == t.end for t in new)
    assert marked > 100  # the generated answers do put markers' lines in brackets


def test_many_markers_on_one_line_or_on_many_lines():
    one_line = "The LLM's action sequence is: left, forward " * 200
    many_lines = "The LLM's action sequence is: left, forward\n" * 200
    for text in (one_line, many_lines, "Wait, " + many_lines + "[left]"):
        toks = _tokens(text)
        assert _marked_lists(text, list(toks)) == _quadratic(text, list(toks))
