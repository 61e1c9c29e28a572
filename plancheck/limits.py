"""How much of an untrusted input plancheck reads: bytes, list lengths, nesting and digits, with one set of defaults.

Hostile or broken input costs one record a clear error, never a crash or the rest of a batch. Every reader of
answers, records and PDDL takes a :class:`Limits`; the command line sets them with ``--max-answer-bytes``,
``--max-answer-words``, ``--max-list-length``, ``--max-nesting`` and ``--max-digits`` (the same flags in every
world). A value beyond a limit is a :class:`~plancheck.errors.LimitError` naming the limit, and where the input
says where.

:func:`load_json` is ``json.loads`` within limits: nesting is checked before decoding (Python's decoder recurses
and dies on deep input), integers and decimals with more digits than allowed are refused (Python refuses more
than 4,300 digits with a ValueError, and ``1e999`` became infinity), and so are ``NaN`` and ``Infinity``,
which are not JSON. Each error names the field (the keys leading to the value) and its line and column.

>>> load_json('{"index": 3, "answer": ["UP"]}')
{'index': 3, 'answer': ['UP']}
>>> load_json('{"meta": {"index": Infinity}}', source="a.jsonl", line=7)
Traceback (most recent call last):
plancheck.errors.BadInputError: a.jsonl, line 7, column 20: field 'meta.index' holds Infinity, which is not a JSON ...
>>> load_json('{"id": ' + "9" * 120 + '}', Limits(digits=100))
Traceback (most recent call last):
plancheck.errors.LimitError: <input>, line 1, column 8: max_digits 100 exceeded: field 'id' is a number of 120 digits
>>> load_json('{"a": [[[[1]]]]}', Limits(nesting=3))
Traceback (most recent call last):
plancheck.errors.LimitError: <input>, line 1, column 9: max_nesting 3 exceeded: field 'a' nests deeper than 3 levels
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, fields
from functools import lru_cache
from typing import Any

from plancheck.errors import BadInputError, InstanceNotFoundError, LimitError, Location

_WORDS = re.compile(r"\w+")
_MARKS = re.compile(r"\w+|[^\w\s]|\n")  # a word, a mark (bracket, comma, ...) or a line break
MAX_NESTING = 200  # the readers of JSON and PDDL recurse once or a few times per level; 200 levels stay safe


@dataclass(frozen=True, slots=True)
class Limits:
    """The sizes an input may have. ``answer_bytes``: one answer (a ``check`` answer file, a JSONL line or
    one entry of a JSON file of answers); ``answer_words``: the words of one free-text answer that a
    world reads token by token (GRASP, Hanoi, MANGO, BabyAI Plan and Decompose), and four times as many words,
    marks and line breaks (reading costs about 10-20 microseconds a token, so a megabyte of one-character tokens
    would take 10-60 s; a plan of 40,000 actions written ``[UP, UP, ...]`` has 40,000 words and 80,000 marks);
    ``list_length``: the elements of a list (in a record, or the actions read from an answer); ``nesting``:
    levels of brackets in JSON, in a MANGO answer's list, or of parentheses in PDDL; ``digits``: digits of one
    number (in JSON, PDDL, or an instance id)."""

    answer_bytes: int = 1_048_576
    answer_words: int = 50_000
    list_length: int = 100_000
    nesting: int = 100
    digits: int = 100

    def __post_init__(self) -> None:
        for item in fields(self):
            value = getattr(self, item.name)
            if type(value) is not int or value < 1:
                raise BadInputError(f"must be a whole number >= 1, not {value!r}", option=f"max_{item.name}")
        if self.nesting > MAX_NESTING:
            raise BadInputError(f"may be at most {MAX_NESTING} (the readers recurse per level), not {self.nesting}",
                                option="max_nesting")

    def bytes_of(self, size: int, what: str, where: Location | None = None) -> None:
        """Refuse ``what`` (e.g. "the answer") of ``size`` bytes when it is above ``answer_bytes``."""
        if size > self.answer_bytes:
            raise LimitError(f"{self.answer_bytes} exceeded: {what} has {size} bytes", where,
                             option="max_answer_bytes")

    def text(self, text: str, what: str, where: Location | None = None) -> None:
        """Refuse a text whose UTF-8 form is above ``answer_bytes`` (measured only when it may be)."""
        if len(text) * 4 > self.answer_bytes:
            self.bytes_of(len(text.encode("utf-8", "surrogatepass")), what, where)

    def words(self, text: str, what: str, where: Location | None = None) -> None:
        """Refuse a text (``what``: "the answer") of more than ``answer_words`` words, or of more than four times
        as many words, marks and line breaks (counted at C speed, only when the text is long enough to hold that
        many).

        >>> Limits().words("[UP, TAKE]", "the answer")
        >>> Limits(answer_words=10).words("UP " * 11, "the answer")
        Traceback (most recent call last):
        plancheck.errors.LimitError: max_answer_words 10 exceeded: the answer holds 11 words
        >>> Limits(answer_words=10).words("[]" * 21, "the answer")
        Traceback (most recent call last):
        plancheck.errors.LimitError: max_answer_words 10 exceeded: the answer holds 42 words, marks and line breaks \
(at most 40, four a word)
        """
        if len(text) > self.answer_words and (count := _WORDS.subn("", text)[1]) > self.answer_words:
            raise LimitError(f"{self.answer_words} exceeded: {what} holds {count:,} words", where,
                             option="max_answer_words")
        most = 4 * self.answer_words
        if len(text) > most and (count := _MARKS.subn("", text)[1]) > most:
            raise LimitError(f"{self.answer_words} exceeded: {what} holds {count:,} words, marks and line breaks "
                             f"(at most {most:,}, four a word)", where, option="max_answer_words")

    def length(self, count: int, what: str, where: Location | None = None) -> None:
        """Refuse a list (``what``: "'answer'", "the actions read") of ``count`` elements above ``list_length``."""
        if count > self.list_length:
            raise LimitError(f"{self.list_length} exceeded: {what} holds {count} elements", where,
                             option="max_list_length")

    def integer(self, digits: str, what: str, where: Location | None = None) -> int:
        """The value of a run of decimal digits (``what`` names it), refused above ``digits`` digits.

        >>> Limits(digits=3).integer("042", "the index")
        42
        """
        if len(digits) > self.digits:
            raise LimitError(f"{self.digits} exceeded: {what} has {len(digits)} digits", where,
                             option="max_digits")
        return int(digits)


DEFAULT = Limits()


def id_number(digits: str, what: str) -> int:
    """A number written in an instance id or selector (``what`` names it): at most ``DEFAULT.digits`` digits,
    whatever the flags say (no id needs more; Python refuses more than 4,300).

    >>> id_number("7", "the seed")
    7
    >>> id_number("1" * 101, "the seed")
    Traceback (most recent call last):
    plancheck.errors.InstanceNotFoundError: the seed has 101 digits; numbers in ids have at most 100
    """
    if len(digits) > DEFAULT.digits:
        raise InstanceNotFoundError(f"{what} has {len(digits)} digits; numbers in ids have at most {DEFAULT.digits}")
    return int(digits)

LIMIT_HELP = {  # the command line's flags, --max-answer-bytes ...; one place for every world
    "answer_bytes": "largest answer read: a check answer file, one JSONL line or one entry of a JSON file",
    "answer_words": "most words of a free-text answer, read token by token (and 4 x N words, marks and line breaks)",
    "list_length": "most elements of a list: in a record, or the actions read from one answer",
    "nesting": f"most levels of nesting: JSON brackets, PDDL parentheses (at most {MAX_NESTING})",
    "digits": "most digits of one number: in JSON, in PDDL, in an instance id",
}

_STRING = r'"[^"\\]*(?:\\.[^"\\]*)*"'
_STRUCTURE = re.compile(_STRING + r"|[\[\]{}:]")
_TOKEN = re.compile(_STRING + r"|[\[\]{}:]|NaN|-?Infinity|-?\d[\d.eE+-]*")


class _Refused(Exception):
    """Raised inside the decoder by a hook; :func:`load_json` finds where and says why."""


def _constant(_: str) -> Any:
    raise _Refused


@lru_cache(maxsize=8)
def _hooks(digits: int) -> tuple[bytes, json.JSONDecoder, json.JSONDecoder]:
    """What a run of more than ``digits`` digits looks like in :func:`_digit_runs`, and the two decoders (built
    once, not per line): with a check of every integer (when such a run is in the text), and without."""
    def integer(text: str) -> int:
        if len(text.lstrip("-")) > digits:
            raise _Refused
        return int(text)

    def decimal(text: str) -> float:
        value = float(text)
        if not math.isfinite(value) or len(text) > digits and sum(char.isdigit() for char in text) > digits:
            raise _Refused
        return value

    return (b"0" * (digits + 1),
            json.JSONDecoder(parse_int=integer, parse_float=decimal, parse_constant=_constant),
            json.JSONDecoder(parse_float=decimal, parse_constant=_constant))


def has_digit_run(text: str, longer_than: int) -> bool:
    """Whether ``text`` holds a run of more than ``longer_than`` ASCII digits (what ``[0-9]{n+1}`` finds).

    >>> has_digit_run("x = 1234;", 3), has_digit_run("x = 123;", 3)
    (True, False)
    """
    return b"0" * (longer_than + 1) in _digit_runs(text)


def _digit_runs(text: str) -> bytes:
    """The text with each ASCII digit as ``0`` and every other byte of its UTF-8 as a space: a run of n digits is
    found as ``b"0" * n`` by a byte search, 10x faster than the regular expression ``[0-9]{n}`` (a grid line of
    1.3 kB: 1.2 us, not 11)."""
    return text.encode("utf-8", "surrogatepass").translate(_DIGITS_AS_ZERO)


_DIGITS_AS_ZERO = bytes(48 if 48 <= byte <= 57 else 32 for byte in range(256))


def _where(text: str, offset: int, source: str | None, line: int) -> Location:
    before = text.rfind("\n", 0, offset)
    return Location(source, line + text.count("\n", 0, offset), offset - before)


def _field(text: str, offset: int) -> str:
    """The keys leading to the value at ``offset`` (``'meta.index'``), or "a value" at the top."""
    keys: list[str | None] = []
    last = ""
    for match in _STRUCTURE.finditer(text, 0, offset):
        token = match.group()
        if token[0] == '"':
            last = token
        elif token == ":" and keys:
            keys[-1] = _key(last)
        elif token in "[{":
            keys.append(None)
        elif keys:
            keys.pop()
    path = ".".join(key for key in keys if key is not None)
    return f"field {path!r}" if path else "a value"


def _key(token: str) -> str:
    try:
        return json.loads(token)
    except json.JSONDecodeError:  # a bad escape: the text is not JSON, the key is shown as written
        return token[1:-1]


def _too_deep(text: str, nesting: int) -> int | None:
    """The offset of the first bracket deeper than ``nesting`` levels, or None."""
    if text.count("[") + text.count("{") <= nesting:
        return None
    depth = 0
    for match in _STRUCTURE.finditer(text):
        char = text[match.start()]
        if char in "[{":
            depth += 1
            if depth > nesting:
                return match.start()
        elif char in "]}":
            depth -= 1
    return None


def _refused(text: str, limits: Limits, source: str | None, line: int) -> BadInputError:
    """Why a hook refused a value: the first number with too many digits or infinite, or a constant."""
    for match in _TOKEN.finditer(text):
        token = match.group()
        if token[0] in '"[]{}:':
            continue
        where = _where(text, match.start(), source, line)
        if token.lstrip("-") in ("NaN", "Infinity"):
            return BadInputError(f"{_field(text, match.start())} holds {token}, which is not a JSON number", where)
        count = sum(char.isdigit() for char in token)
        if count > limits.digits:
            return LimitError(f"{limits.digits} exceeded: {_field(text, match.start())} is a number of {count} "
                              "digits", where, option="max_digits")
        if not math.isfinite(float(token)):
            return BadInputError(f"{_field(text, match.start())} is too large a number ({token})", where)
    raise AssertionError("a decoder hook refused a value that is not there")  # pragma: no cover


def load_json(text: str, limits: Limits = DEFAULT, *, source: str | None = None, line: int = 1) -> Any:
    """``json.loads(text)`` within ``limits`` (see the module docstring); ``source`` and ``line`` (where the text
    starts) place the errors. Text that is not JSON raises :class:`json.JSONDecodeError` as ``json.loads`` does."""
    deep = None if text.count("[") + text.count("{") <= limits.nesting else _too_deep(text, limits.nesting)
    if deep is not None:
        raise LimitError(f"{limits.nesting} exceeded: {_field(text, deep)} nests deeper than {limits.nesting} levels",
                         _where(text, deep, source, line), option="max_nesting")
    long_run, checked, plain = _hooks(limits.digits)
    if text.startswith("\ufeff"):  # json.loads's own error for a byte order mark left in the text
        json.loads(text)
    decoder = checked if long_run in _digit_runs(text) else plain
    try:
        return _decoded(decoder, text)
    except _Refused:
        raise _refused(text, limits, source, line) from None


def _decoded(decoder: json.JSONDecoder, text: str) -> Any:
    """``decoder.decode(text)``: a text that is exactly one value (the usual line) is scanned directly, without the
    whitespace matches around it; any other text (whitespace around the value, or not JSON) is decoded by
    ``decode``, which raises json's own error."""
    try:
        value, end = decoder.scan_once(text, 0)
    except StopIteration:
        return decoder.decode(text)
    return value if end == len(text) else decoder.decode(text)
