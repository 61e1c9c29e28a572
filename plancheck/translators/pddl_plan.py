"""Plan text <-> action tuples, in the usual one ``(action arg ...)`` per line form.

Reads Fast Downward's ``sas_plan`` and VAL-style plans: ``;`` starts a comment, a
``; cost = N`` comment is kept as the claimed cost, names are case-insensitive, and a step may
carry a time stamp ``0.000:`` and a duration ``[1]`` (both ignored; the plan is sequential).
Anything else outside a step is a :class:`~plancheck.errors.PDDLError` with its line and column.

A plan whose every line is one step or nothing (a comment, blanks) is read line by line with one regular
expression, each distinct line once (a 4,095-step Hanoi plan has 173 of them); any other text goes through
the s-expression reader, which also locates every error. Both give the same plans
(tests/pddl/test_validate_fast.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import compress, count

from plancheck.errors import LimitError, Location, PDDLError
from plancheck.limits import DEFAULT, Limits, has_digit_run
from plancheck.translators.pddl_model import Atom, atom_text
from plancheck.translators.pddl_sexpr import SList, Sym, parse_sexprs, where

_COST = re.compile(r"^\s*;+\s*cost\s*=\s*([+-]?\d+(?:\.\d+)?)", re.IGNORECASE | re.MULTILINE)
_TIME = re.compile(r"^\d+(\.\d+)?:$")
_DURATION = re.compile(r"^\[\d+(\.\d+)?\]$")


@dataclass(frozen=True, slots=True)
class PlanStep:
    """One step: the action as a tuple (name first) and where it was written."""

    action: Atom
    line: int
    column: int

    def __str__(self) -> str:
        return atom_text(self.action)


@dataclass(frozen=True, slots=True)
class Plan:
    """A sequential plan: its actions and where each was written (line and column of its ``(``);
    ``claimed_cost`` is the ``; cost = N`` comment, if any. Steps are kept as three tuples (a long plan is
    read without an object per step); :attr:`steps` and :meth:`step` put them together."""

    actions: tuple[Atom, ...]
    lines: tuple[int, ...]
    columns: tuple[int, ...]
    claimed_cost: float | None = None
    source: str | None = None

    @property
    def steps(self) -> tuple[PlanStep, ...]:
        return tuple(map(PlanStep, self.actions, self.lines, self.columns))

    def step(self, index: int) -> PlanStep:
        """The step at ``index`` (0-based)."""
        return PlanStep(self.actions[index], self.lines[index], self.columns[index])

    @classmethod
    def of(cls, actions: Iterable[Atom | str]) -> Plan:
        """A plan from tuples or ``"(move a b)"`` strings (strings are parsed); a step's line is its index.

        >>> Plan.of([("Move", "A", "b"), "(stack c d)"]).actions
        (('move', 'a', 'b'), ('stack', 'c', 'd'))
        """
        steps: list[Atom] = []
        lines: list[int] = []
        columns: list[int] = []
        for index, action in enumerate(actions, start=1):
            if isinstance(action, str):
                read = read_plan(action)
                steps.extend(read.actions)
                lines.extend(index for _ in read.actions)
                columns.extend(read.columns)
            else:
                steps.append(tuple(part.lower() for part in action))
                lines.append(index)
                columns.append(1)
        return cls(tuple(steps), tuple(lines), tuple(columns))


Steps = tuple[tuple[Atom, ...], tuple[int, ...], tuple[int, ...]]  # actions, lines, columns


def _step(node: SList, source: str | None) -> Atom:
    if not node.items:
        raise PDDLError("empty step: expected (action-name argument ...)", where(node, source))
    for item in node.items:
        if not isinstance(item, Sym):
            raise PDDLError("a plan step holds only names, not nested lists", where(item, source))
    return tuple(item.text for item in node.items)  # type: ignore[union-attr]


def read_plan(text: str, source: str | None = None, limits: Limits = DEFAULT) -> Plan:
    """The steps of a plan file.

    >>> plan = read_plan("(pick-up A)\\n0.5: (stack a b) [1]\\n; cost = 2 (unit cost)\\n")
    >>> [str(step) for step in plan.steps], plan.claimed_cost
    (['(pick-up a)', '(stack a b)'], 2.0)
    """
    read = _simple_steps(text, limits)
    if read is None:
        read = _any_steps(text, source, limits)
    comment = text.find(";")  # the claimed cost is in a comment: the lines before the first one are skipped
    costs = [] if comment < 0 else list(_COST.finditer(text, text.rfind("\n", 0, comment) + 1))
    digits = sum(char.isdigit() for char in costs[-1].group(1)) if costs else 0
    if digits > limits.digits:
        line = text.count("\n", 0, costs[-1].start(1)) + 1
        raise LimitError(f"{limits.digits} exceeded: the plan's claimed cost is a number of {digits} digits",
                         Location(source, line), option="max_digits")
    return Plan(*read, float(costs[-1].group(1)) if costs else None, source)


def _any_steps(text: str, source: str | None, limits: Limits) -> Steps:
    """The steps of any plan text, through the s-expression reader (errors located)."""
    steps: list[Atom] = []
    lines: list[int] = []
    columns: list[int] = []
    for node in parse_sexprs(text, source, limits):
        if isinstance(node, SList):
            steps.append(_step(node, source))
            lines.append(node.line)
            columns.append(node.column)
        elif _TIME.match(node.text) or (_DURATION.match(node.text) and steps):
            continue
        else:
            raise PDDLError(f"expected a step such as (action arg ...), found {node.text!r}", where(node, source))
    return tuple(steps), tuple(lines), tuple(columns)


# A line holding one step and nothing else but spaces and a comment, or nothing but spaces and a comment:
# the lines of Fast Downward's and most planners' plans. Symbols and spaces as the s-expression reader's.
_STEP_LINE = re.compile(r"(\s*)(?:\(\s*([^\s();]+(?:\s+[^\s();]+)*)\s*\)\s*)?(?:;.*)?")


def _simple_steps(text: str, limits: Limits) -> Steps | None:
    """The steps of a plan whose every line is :data:`_STEP_LINE` (each distinct line read once, the plan put
    together by C-level maps); None for any other text, which :func:`_any_steps` reads (the same steps when
    both read it: tested)."""
    if has_digit_run(text, limits.digits):  # a number too long: the s-expression reader says where
        return None
    rows = text.split("\n")
    step_of: dict[str, Atom | None] = {}  # a line's step; None for a line without one
    column_of: dict[str, int] = {}
    for row in set(rows):
        match = _STEP_LINE.fullmatch(row)
        if match is None:
            return None
        if match.group(2) is None:
            step_of[row] = None
        else:
            step_of[row] = tuple(map(str.lower, match.group(2).split()))
            column_of[row] = match.end(1) + 1
    found = list(map(step_of.__getitem__, rows))
    return (tuple(filter(None, found)), tuple(compress(count(1), found)),
            tuple(map(column_of.__getitem__, compress(rows, found))))


def plan_text(actions: Iterable[Atom], cost: float | None = None) -> str:
    """Plan file text, one step per line, with a ``; cost = N`` line when ``cost`` is given.

    >>> print(plan_text([("move", "a", "b")], cost=1), end="")
    (move a b)
    ; cost = 1
    """
    lines = [atom_text(tuple(action)) for action in actions]
    if cost is not None:
        lines.append(f"; cost = {cost:g}")
    return "".join(line + "\n" for line in lines)
