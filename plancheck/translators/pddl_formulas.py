"""Read PDDL conditions, effects and cost expressions from s-expressions, checking every name.

A :class:`Scope` knows the declared predicates and functions, the objects and constants that may
appear, and the variables bound so far (parameters, ``forall``/``exists``). Every reference is
checked against it: an undeclared predicate, a wrong arity, an unbound variable or an unknown
object raises a :class:`~plancheck.errors.PDDLError` naming the line and column.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from plancheck.errors import PDDLError
from plancheck.translators.pddl_model import (
    TOTAL_COST,
    TRUE,
    And,
    Arith,
    Condition,
    Effect,
    Equals,
    Exists,
    ForAll,
    ForAllEffect,
    FTerm,
    Imply,
    Increase,
    Literal,
    Not,
    Number,
    NumExpr,
    Or,
    Param,
    Pred,
    When,
    is_variable,
)
from plancheck.translators.pddl_sexpr import Node, SList, Sym, where

_NUMBER = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)$")
_COMPARISONS = ("<", "<=", ">", ">=")
_NUMERIC_EFFECTS = ("decrease", "assign", "scale-up", "scale-down")


def number_of(node: Node) -> float | None:
    """The value of a number symbol, or None."""
    if isinstance(node, Sym) and _NUMBER.match(node.text):
        return float(node.text)
    return None


@dataclass(frozen=True)
class Scope:
    """What names a formula may use. ``objects`` maps every usable object or constant to its type."""

    source: str | None
    predicates: Mapping[str, tuple[Param, ...]]
    functions: Mapping[str, tuple[Param, ...]]
    objects: Mapping[str, str]
    known_type: Callable[[str], bool]
    variables: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def error(self, node: Node, message: str) -> PDDLError:
        return PDDLError(message, where(node, self.source))

    def bind(self, params: tuple[Param, ...]) -> Scope:
        return Scope(self.source, self.predicates, self.functions, self.objects, self.known_type,
                     {**self.variables, **{p.name: p.types for p in params}})


def expect_list(scope: Scope, node: Node, what: str) -> SList:
    if not isinstance(node, SList):
        raise scope.error(node, f"expected {what} in parentheses, found {node.text!r}")
    return node


def read_typed_list(scope: Scope, node: SList | tuple[Node, ...], *, variables: bool,
                    what: str) -> list[tuple[Sym, tuple[str, ...]]]:
    """``?a ?b - t ?c - (either u v) ?d`` as (name, types) pairs; untyped names are ``object``."""
    items = node.items if isinstance(node, SList) else node
    result: list[tuple[Sym, tuple[str, ...]]] = []
    pending: list[Sym] = []
    index = 0
    while index < len(items):
        item = items[index]
        if isinstance(item, Sym) and item.text == "-":
            if index + 1 >= len(items):
                raise scope.error(item, f"'-' must be followed by a type in this {what}")
            kind = items[index + 1]
            if not pending:
                raise scope.error(item, f"'-' without names before it in this {what}")
            types = read_type(scope, kind)
            result.extend((name, types) for name in pending)
            pending = []
            index += 2
            continue
        if not isinstance(item, Sym):
            raise scope.error(item, f"expected a name in this {what}, found a list")
        if variables != is_variable(item.text):
            raise scope.error(item, f"expected {'a ?variable' if variables else 'a name'} in this {what}, "
                                    f"found {item.text!r}")
        pending.append(item)
        index += 1
    result.extend((name, ("object",)) for name in pending)
    return result


def read_type(scope: Scope, node: Node) -> tuple[str, ...]:
    """A type name or ``(either t ...)``, each declared."""
    if isinstance(node, SList):
        if node.head != "either" or len(node.items) < 2:
            raise scope.error(node, "expected a type name or (either type ...)")
        names = node.items[1:]
    else:
        names = (node,)
    for name in names:
        if not isinstance(name, Sym) or not scope.known_type(name.text):
            raise scope.error(name, f"unknown type {str(name)!r}")
    return tuple(name.text for name in names)  # type: ignore[union-attr]


def read_params(scope: Scope, node: Node, what: str) -> tuple[Param, ...]:
    params = read_typed_list(scope, expect_list(scope, node, what), variables=True, what=what)
    seen: set[str] = set()
    for name, _ in params:
        if name.text in seen:
            raise scope.error(name, f"variable {name.text} is declared twice")
        seen.add(name.text)
    return tuple(Param(name.text, types) for name, types in params)


def _term(scope: Scope, node: Node) -> str:
    if not isinstance(node, Sym):
        raise scope.error(node, "expected a variable or an object name, found a list")
    if is_variable(node.text):
        if node.text not in scope.variables:
            raise scope.error(node, f"variable {node.text} is not bound here")
    elif node.text not in scope.objects:
        raise scope.error(node, f"unknown object or constant {node.text!r}")
    return node.text


def read_atom(scope: Scope, node: SList) -> Pred:
    """``(predicate term ...)`` with a declared predicate of the right arity."""
    name = node.head
    if name is None:
        raise scope.error(node, "expected a predicate name")
    if name not in scope.predicates:
        raise scope.error(node.items[0], f"unknown predicate {name!r}")
    arity = len(scope.predicates[name])
    if len(node.items) - 1 != arity:
        raise scope.error(node, f"predicate {name} takes {arity} argument(s), not {len(node.items) - 1}")
    return Pred(name, tuple(_term(scope, item) for item in node.items[1:]))


def read_condition(scope: Scope, node: Node) -> Condition:
    """A goal description: and, or, not, imply, exists, forall, =, atoms; ``()`` is true."""
    node = expect_list(scope, node, "a condition")
    head = node.head
    args = node.items[1:]
    if not node.items:
        return TRUE
    if head in ("and", "or"):
        parts = tuple(read_condition(scope, arg) for arg in args)
        return And(parts) if head == "and" else Or(parts)
    if head == "not":
        _arity(scope, node, 1)
        return Not(read_condition(scope, args[0]))
    if head == "imply":
        _arity(scope, node, 2)
        return Imply(read_condition(scope, args[0]), read_condition(scope, args[1]))
    if head in ("exists", "forall"):
        _arity(scope, node, 2)
        params = read_params(scope, args[0], f"{head} variable list")
        body = read_condition(scope.bind(params), args[1])
        return Exists(params, body) if head == "exists" else ForAll(params, body)
    if head == "=":
        _arity(scope, node, 2)
        if any(isinstance(arg, SList) for arg in args):
            raise scope.error(node, "numeric conditions are not supported (only action costs are)")
        return Equals(_term(scope, args[0]), _term(scope, args[1]))
    if head in _COMPARISONS:
        raise scope.error(node, "numeric conditions are not supported (only action costs are)")
    return read_atom(scope, node)


def _arity(scope: Scope, node: SList, count: int) -> None:
    if len(node.items) - 1 != count:
        raise scope.error(node, f"({node.head} ...) takes {count} argument(s), not {len(node.items) - 1}")


def read_effect(scope: Scope, node: Node) -> tuple[Effect, ...]:
    """An effect: and, not, atoms, when, forall, ``(increase (total-cost) ...)``; ``()`` is none."""
    node = expect_list(scope, node, "an effect")
    head = node.head
    args = node.items[1:]
    if not node.items:
        return ()
    if head == "and":
        return tuple(effect for arg in args for effect in read_effect(scope, arg))
    if head == "not":
        _arity(scope, node, 1)
        return (Literal(read_atom(scope, expect_list(scope, args[0], "an atom")), False),)
    if head == "when":
        _arity(scope, node, 2)
        return (When(read_condition(scope, args[0]), read_effect(scope, args[1])),)
    if head == "forall":
        _arity(scope, node, 2)
        params = read_params(scope, args[0], "forall variable list")
        return (ForAllEffect(params, read_effect(scope.bind(params), args[1])),)
    if head == "increase":
        _arity(scope, node, 2)
        target = read_fterm(scope, expect_list(scope, args[0], "a function term"))
        if target.name != TOTAL_COST:
            raise scope.error(args[0], "only (total-cost) may be increased (action costs); "
                                       "numeric fluents are not supported")
        return (Increase(target, read_numexpr(scope, args[1])),)
    if head in _NUMERIC_EFFECTS:
        raise scope.error(node, f"numeric effect {head} is not supported (only increase of (total-cost))")
    return (Literal(read_atom(scope, node)),)


def read_fterm(scope: Scope, node: SList) -> FTerm:
    name = node.head
    if name is None or name not in scope.functions:
        raise scope.error(node, f"unknown function {str(node.items[0]) if node.items else '()'!r}")
    arity = len(scope.functions[name])
    if len(node.items) - 1 != arity:
        raise scope.error(node, f"function {name} takes {arity} argument(s), not {len(node.items) - 1}")
    return FTerm(name, tuple(_term(scope, item) for item in node.items[1:]))


def read_numexpr(scope: Scope, node: Node) -> NumExpr:
    """A number, a function term or ``(+|-|*|/ a b)`` (``(- a)`` negates)."""
    value = number_of(node)
    if value is not None:
        return Number(value)
    if isinstance(node, Sym):
        raise scope.error(node, f"expected a number or a function term, found {node.text!r}")
    if node.head in ("+", "-", "*", "/"):
        args = node.items[1:]
        if node.head == "-" and len(args) == 1:
            return Arith("-", Number(0.0), read_numexpr(scope, args[0]))
        _arity(scope, node, 2)
        return Arith(node.head, read_numexpr(scope, args[0]), read_numexpr(scope, args[1]))
    return read_fterm(scope, node)
