"""The tokens a world's reader hands to the candidate finder, and the repetition words folded into actions.

A world lexes an answer with its own grammar; :class:`Tok` says what each token is to the finder
(:mod:`plancheck.translators.candidates`), and an action token carries its action. Repetition words
are read here, world-agnostically, from the text next to each action: ``RIGHT twice``,
``move up 3 times``, ``UP x2``, ``(3x)``, ``2x DOWN``, ``3 steps``. Counts above :data:`MAX_REPEAT`
are not read as counts.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

MAX_REPEAT = 100


class Kind(str, Enum):
    """What a token is, to the candidate finder."""

    ACTION = "action"
    WORD = "word"  # content that names no action (words, numbers, other characters)
    SEP = "sep"  # , or ; (separates the elements of a list)
    NL = "nl"
    NUMBERING = "numbering"  # "3." at the start of a line
    BULLET = "bullet"  # "-" or "*" at the start of a line
    LSQB = "["
    RSQB = "]"
    FENCE = "fence"  # ``` with its language tag
    PIPE = "pipe"  # a table's "|"
    LAYOUT = "layout"  # quotes, emphasis, arrows and dashes between actions
    CONNECTOR = "connector"  # then, next, finally, first, and
    PUNCT = "punct"  # . ! ?
    DASH = "dash"  # - or : after an action: what follows describes it ("RIGHT - move right to (4, 3)")
    REMARK = "remark"  # a remark in parentheses
    COMMENT = "comment"  # "# ..." or "// ..." to the end of the line
    LABEL = "label"  # a word of a label that starts its line ("Final answer:"): layout on a line of actions


QUIET = {Kind.LAYOUT, Kind.CONNECTOR, Kind.PUNCT, Kind.SEP, Kind.FENCE, Kind.DASH}
CONTINUE = re.compile(r"then|next|afterwards", re.IGNORECASE)
CONNECTORS = re.compile(r"(?:first(?:ly)?|second(?:ly)?|third(?:ly)?|then|next|finally|lastly|and|now|afterwards|"
                        r"also|so|after|that)", re.IGNORECASE)


_PUNCTUATION = {".": Kind.PUNCT, "!": Kind.PUNCT, "?": Kind.PUNCT, "\u3002": Kind.PUNCT, "\uff01": Kind.PUNCT,
                ":": Kind.DASH, "\uff1a": Kind.DASH, "-": Kind.DASH, "\u2013": Kind.DASH, "\u2014": Kind.DASH,
                "|": Kind.PIPE, "=": Kind.LAYOUT, ">": Kind.LAYOUT, "{": Kind.LAYOUT, "}": Kind.LAYOUT,
                "\u2192": Kind.LAYOUT, "\u21d2": Kind.LAYOUT, "\u27f6": Kind.LAYOUT, "\uff0c": Kind.SEP,
                "\uff1b": Kind.SEP, "\u3001": Kind.SEP}


def word_kind(text: str) -> Kind:
    """The kind of a token that is no action, by its text: a connector word, punctuation, a dash, a table's
    pipe, an arrow or brace (layout), else a word. A world's reader uses it for its grammar's catch-all tokens."""
    if len(text) == 1 and text in _PUNCTUATION:
        return _PUNCTUATION[text]
    return Kind.CONNECTOR if is_connector(text) else Kind.WORD


def arrows(toks: list[Tok]) -> list[Tok]:
    """The tokens with each "-" right before a ">" (an arrow "->" lexed as two characters) made layout."""
    for index in range(1, len(toks)):
        if toks[index - 1].kind is Kind.DASH and toks[index].kind is Kind.LAYOUT and \
                toks[index - 1].end == toks[index].start and toks[index].end - toks[index].start == 1:
            toks[index - 1] = replace(toks[index - 1], kind=Kind.LAYOUT)
    return toks


def is_connector(word: str) -> bool:
    """A word that may stand before an action on a line without making it prose ("First, UP", "then TAKE")."""
    return CONNECTORS.fullmatch(word) is not None


@dataclass(frozen=True, slots=True)
class Tok:
    """One token: its kind, its place in the text, and (for an action) the action and its repetition count.

    A world may insert a zero-width ``[`` and ``]`` around a list its format delimits otherwise (the rest of a
    marker's line); the ``[``'s ``action`` then names the list's form.
    """

    kind: Kind
    start: int
    end: int
    action: Any = None
    count: int = 1


# -- repetition -------------------------------------------------------------------------------------

_WORDS = {"once": 1, "twice": 2, "thrice": 3, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
          "eight": 8, "nine": 9, "ten": 10}
_UNITS = r"(?:times|steps?|cells?|squares?|spaces?|tiles?|moves?)\b"
_AFTER = re.compile(
    r"(?:\*\*|__|[\"'`])*[ \t]*(?:"
    r"[x×*][ \t]*(?P<a>\d{1,4})(?![\w.])"
    r"|\([ \t]*(?:[x×][ \t]*(?P<b>\d{1,4})|(?P<c>\d{1,4})[ \t]*(?:[x×]|times)|(?P<w1>once|twice|thrice))[ \t]*\)"
    rf"|(?P<d>\d{{1,4}})[ \t]*{_UNITS}"
    r"|(?P<w2>once|twice|thrice)\b"
    rf"|(?P<w3>two|three|four|five|six|seven|eight|nine|ten)[ \t]+{_UNITS})", re.IGNORECASE)
_BEFORE = re.compile(r"(?<![\w.])(?P<n>\d{1,4})[ \t]*[x×][ \t]*(?:\*\*|__|[\"'`])*$", re.IGNORECASE)


def expand_repetitions(text: str, toks: Sequence[Tok]) -> list[Tok]:
    """The tokens with each action's repetition words folded into it (``count``, its span widened).

    >>> toks = [Tok(Kind.ACTION, 0, 5, "RIGHT"), Tok(Kind.WORD, 6, 11), Tok(Kind.SEP, 11, 12),
    ...         Tok(Kind.ACTION, 13, 15, "UP")]
    >>> [(t.action, t.count, t.end) for t in expand_repetitions("RIGHT twice, UP", toks)]
    [('RIGHT', 2, 11), (None, 1, 12), ('UP', 1, 15)]
    """
    out: list[Tok] = []
    skip_to = -1
    for index, tok in enumerate(toks):
        if tok.start < skip_to:
            continue
        if tok.kind is not Kind.ACTION:
            out.append(tok)
            continue
        window = min(len(text), tok.end + 40)  # repetition words stand right next to the action
        line_end = text.find("\n", tok.end, window)
        line_end = window if line_end < 0 else line_end
        start, end, count = tok.start, tok.end, 1
        after = _AFTER.match(text, tok.end, line_end)
        if after is not None:
            count = _count(after)
            end = after.end()
        line_start = text.rfind("\n", max(0, tok.start - 12), tok.start) + 1 or max(0, tok.start - 12)
        before = _BEFORE.search(text, line_start, tok.start)
        if before is not None and count == 1 and (not out or out[-1].end <= before.start()
                                                   or out[-1].kind is not Kind.ACTION):
            count = int(before.group("n"))
            start = before.start()
        if count == 1 or not 1 < count <= MAX_REPEAT:
            out.append(replace(tok, start=start, end=end) if count == 1 and (start, end) != (tok.start, tok.end)
                       else tok)
            continue
        while start < tok.start and out and out[-1].start >= start and out[-1].end > out[-1].start:
            out.pop()  # the words of a count written before the action ("3x UP")
        out.append(Tok(Kind.ACTION, start, end, tok.action, count))
        skip_to = end
    return out


def _count(match: re.Match) -> int:
    for group in ("a", "b", "c", "d"):
        if match.group(group):
            return int(match.group(group))
    word = match.group("w1") or match.group("w2") or match.group("w3")
    return _WORDS[word.lower()]
