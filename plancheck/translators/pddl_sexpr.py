"""Read PDDL text into s-expressions that remember where they are (grammar: ``pddl.lark`` beside this file).

A :class:`Sym` is one symbol, lower-cased (PDDL is case-insensitive); an :class:`SList` is a
parenthesised list. Both carry the 1-based line and column of their first character, so the
readers built on top (:mod:`plancheck.translators.pddl_reader`, :mod:`plancheck.translators.pddl_plan`)
can point at the exact spot of every problem. Unbalanced parentheses become a
:class:`~plancheck.errors.PDDLError` that names the unclosed ``(`` or the stray ``)``.

The grammar is four tokens and one rule (a list pairs parentheses), so the reader is its tokens as one
regular expression and a stack: about 5 times faster than Lark's LALR parser of the same grammar (which
made 70-77 % of ``validate``'s time), and the same nodes, positions and errors (tests/pddl/test_reader.py
parses every test file and random texts both ways). The nodes are named tuples, immutable and hashable like
frozen dataclasses but built about 4 times faster (a problem of 6,000 facts has 30,000 of them); as tuples,
a node also equals a plain tuple of its fields. The text is read line by line (no token spans a line).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from plancheck.errors import LimitError, Location, PDDLError
from plancheck.limits import DEFAULT, Limits, has_digit_run


class Sym(NamedTuple):
    """A symbol (name, ``?variable``, number, ``:keyword``, ``-``), lower-cased."""

    text: str
    line: int
    column: int

    def __str__(self) -> str:
        return self.text


class SList(NamedTuple):
    """A parenthesised list of symbols and lists."""

    items: tuple[Sym | SList, ...]
    line: int
    column: int

    def __str__(self) -> str:
        return "(" + " ".join(str(item) for item in self.items) + ")"

    @property
    def head(self) -> str | None:
        """The first item's text when it is a symbol (``and``, ``:action``, a predicate name)."""
        return self.items[0].text if self.items and isinstance(self.items[0], Sym) else None


Node = Sym | SList


_TOKENS = re.compile(r"[()]|[^\s();]+|;[^\n]*")  # the grammar's LPAR, RPAR, SYMBOL, COMMENT; whitespace between
_SYMBOL = re.compile(r";[^\n]*|[^\s();]+")
_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)")


def _digits_within(text: str, limits: Limits, source: str | None) -> None:
    """Refuse numbers of more than ``limits.digits`` digits (they would be read as infinity), before anything
    else is read (one byte search when no run of digits is that long)."""
    if has_digit_run(text, limits.digits):
        for match in _SYMBOL.finditer(text):
            symbol = match.group()
            digits = sum(char.isdigit() for char in symbol)
            if digits > limits.digits and _NUMBER.fullmatch(symbol):
                raise LimitError(f"{limits.digits} exceeded: a number of {digits} digits",
                                 _location(text, match.start(), source), option="max_digits")


def _location(text: str, offset: int, source: str | None) -> Location:
    return Location(source, text.count("\n", 0, offset) + 1, offset - text.rfind("\n", 0, offset))


def parse_sexprs(text: str, source: str | None = None, limits: Limits = DEFAULT) -> tuple[Node, ...]:
    """The top-level s-expressions of ``text``, within ``limits`` (nesting, digits of numbers).

    >>> first, second = parse_sexprs("(on A b) ; comment\\n(clear ?X)")
    >>> str(first), first.items[1], (second.line, second.column), second.head
    ('(on a b)', Sym(text='a', line=1, column=5), (2, 1), 'clear')
    >>> parse_sexprs("(a (b)")
    Traceback (most recent call last):
    plancheck.errors.PDDLError: <input>, line 1, column 1: this '(' is never closed
    >>> parse_sexprs("(a\\n (b (c)))", limits=Limits(nesting=2))
    Traceback (most recent call last):
    plancheck.errors.LimitError: <input>, line 2, column 5: max_nesting 2 exceeded: parentheses nest deeper than ...
    """
    _digits_within(text, limits, source)
    tops: list[Node] = []
    items, opened = tops, []  # the list being filled; the open lists around it: (items, line, column)
    nesting, new = limits.nesting, tuple.__new__  # nodes are built without their __new__'s keyword handling
    lowered = text.isascii()  # then lower-casing keeps every column, and is done once
    if lowered:
        text = text.lower()
    for line, row in enumerate(text.split("\n"), start=1):  # lines as the grammar counts them: "\n" only
        for match in _TOKENS.finditer(row):  # no token spans a line
            token = match.group()
            if token == "(":
                if len(opened) >= nesting:  # the readers built on these nodes recurse per level
                    raise LimitError(f"{nesting} exceeded: parentheses nest deeper than {nesting} levels",
                                     Location(source, line, match.start() + 1), option="max_nesting")
                opened.append((items, line, match.start() + 1))
                items = []
            elif token == ")":
                if not opened:
                    raise PDDLError("this ')' closes nothing", Location(source, line, match.start() + 1))
                outer, at_line, at_column = opened.pop()
                outer.append(new(SList, (tuple(items), at_line, at_column)))
                items = outer
            elif token[0] != ";":
                items.append(new(Sym, (token if lowered else token.lower(), line, match.start() + 1)))
    if opened:
        _, at_line, at_column = opened[-1]
        raise PDDLError("this '(' is never closed", Location(source, at_line, at_column))
    return tuple(tops)


def where(node: Node, source: str | None) -> Location:
    """The location of ``node`` in ``source``."""
    return Location(source, node.line, node.column)
