"""Read PDDL text into s-expressions that remember where they are (grammar: ``grammars/pddl.lark``).

A :class:`Sym` is one symbol, lower-cased (PDDL is case-insensitive); an :class:`SList` is a
parenthesised list. Both carry the 1-based line and column of their first character, so the
readers built on top (:mod:`plancheck.translators.pddl_reader`, :mod:`plancheck.translators.pddl_plan`)
can point at the exact spot of every problem. Unbalanced parentheses become a
:class:`~plancheck.errors.PDDLError` that names the unclosed ``(`` or the stray ``)``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedToken

from plancheck.errors import LimitError, Location, PDDLError
from plancheck.limits import DEFAULT, Limits


@dataclass(frozen=True, slots=True)
class Sym:
    """A symbol (name, ``?variable``, number, ``:keyword``, ``-``), lower-cased."""

    text: str
    line: int
    column: int

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class SList:
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


class _ToNodes(Transformer):
    def list(self, children: list) -> SList:
        opener = children[0]
        return SList(tuple(children[1:-1]), opener.line, opener.column)

    def SYMBOL(self, token: Token) -> Sym:
        return Sym(token.value.lower(), token.line, token.column)

    def start(self, children: list) -> tuple[Node, ...]:
        return tuple(children)


@cache
def _parser() -> Lark:
    return Lark.open("pddl.lark", rel_to=__file__, parser="lalr", lexer="basic",
                     transformer=_ToNodes())


def _unclosed(text: str) -> tuple[int, int]:
    """Line and column of the innermost ``(`` that is never closed."""
    stack: list[tuple[int, int]] = []
    for number, line in enumerate(text.split("\n"), start=1):  # lines as the lexer counts them: "\n" only
        for column, char in enumerate(line.split(";", 1)[0], start=1):
            if char == "(":
                stack.append((number, column))
            elif char == ")" and stack:
                stack.pop()
    return stack[-1] if stack else (1, 1)


_PARENTHESIS = re.compile(r";[^\n]*|[()]")
_SYMBOL = re.compile(r";[^\n]*|[^\s();]+")
_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)")


def _within_limits(text: str, limits: Limits, source: str | None) -> None:
    """Refuse parentheses nested deeper than ``limits.nesting`` (the readers recurse per level) and numbers of
    more than ``limits.digits`` digits (they would be read as infinity), before anything else is read."""
    if text.count("(") > limits.nesting:
        depth = 0
        for match in _PARENTHESIS.finditer(text):
            if match.group() == "(":
                depth += 1
                if depth > limits.nesting:
                    raise LimitError(f"{limits.nesting} exceeded: parentheses nest deeper than {limits.nesting} "
                                     "levels", _location(text, match.start(), source), option="max_nesting")
            elif match.group() == ")":
                depth -= 1
    if _digit_run(limits.digits).search(text):
        for match in _SYMBOL.finditer(text):
            symbol = match.group()
            digits = sum(char.isdigit() for char in symbol)
            if digits > limits.digits and _NUMBER.fullmatch(symbol):
                raise LimitError(f"{limits.digits} exceeded: a number of {digits} digits",
                                 _location(text, match.start(), source), option="max_digits")


@lru_cache(maxsize=8)
def _digit_run(digits: int) -> re.Pattern:
    return re.compile(f"[0-9]{{{digits + 1}}}")


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
    _within_limits(text, limits, source)
    try:  # every character lexes, so the only failures are unbalanced parentheses
        return _parser().parse(text)
    except UnexpectedToken as error:
        if error.token.type == "$END":
            line, column = _unclosed(text)
            raise PDDLError("this '(' is never closed", Location(source, line, column)) from None
        raise PDDLError("this ')' closes nothing", Location(source, error.line, error.column)) from None


def where(node: Node, source: str | None) -> Location:
    """The location of ``node`` in ``source``."""
    return Location(source, node.line, node.column)
