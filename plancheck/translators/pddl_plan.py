"""Plan text <-> action tuples, in the usual one ``(action arg ...)`` per line form.

Reads Fast Downward's ``sas_plan`` and VAL-style plans: ``;`` starts a comment, a
``; cost = N`` comment is kept as the claimed cost, names are case-insensitive, and a step may
carry a time stamp ``0.000:`` and a duration ``[1]`` (both ignored; the plan is sequential).
Anything else outside a step is a :class:`~plancheck.errors.PDDLError` with its line and column.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from plancheck.errors import LimitError, Location, PDDLError
from plancheck.limits import DEFAULT, Limits
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
    """A sequential plan; ``claimed_cost`` is the ``; cost = N`` comment, if any."""

    steps: tuple[PlanStep, ...]
    claimed_cost: float | None = None
    source: str | None = None

    @property
    def actions(self) -> tuple[Atom, ...]:
        return tuple(step.action for step in self.steps)

    @classmethod
    def of(cls, actions: Iterable[Atom | str]) -> Plan:
        """A plan from tuples or ``"(move a b)"`` strings (strings are parsed).

        >>> Plan.of([("Move", "A", "b"), "(stack c d)"]).actions
        (('move', 'a', 'b'), ('stack', 'c', 'd'))
        """
        steps: list[PlanStep] = []
        for index, action in enumerate(actions, start=1):
            if isinstance(action, str):
                steps.extend(PlanStep(s.action, index, s.column) for s in read_plan(action).steps)
            else:
                steps.append(PlanStep(tuple(part.lower() for part in action), index, 1))
        return cls(tuple(steps))


def _step(node: SList, source: str | None) -> PlanStep:
    if not node.items:
        raise PDDLError("empty step: expected (action-name argument ...)", where(node, source))
    for item in node.items:
        if not isinstance(item, Sym):
            raise PDDLError("a plan step holds only names, not nested lists", where(item, source))
    return PlanStep(tuple(item.text for item in node.items), node.line, node.column)  # type: ignore[union-attr]


def read_plan(text: str, source: str | None = None, limits: Limits = DEFAULT) -> Plan:
    """The steps of a plan file.

    >>> plan = read_plan("(pick-up A)\\n0.5: (stack a b) [1]\\n; cost = 2 (unit cost)\\n")
    >>> [str(step) for step in plan.steps], plan.claimed_cost
    (['(pick-up a)', '(stack a b)'], 2.0)
    """
    steps: list[PlanStep] = []
    for node in parse_sexprs(text, source, limits):
        if isinstance(node, SList):
            steps.append(_step(node, source))
        elif _TIME.match(node.text) or (_DURATION.match(node.text) and steps):
            continue
        else:
            raise PDDLError(f"expected a step such as (action arg ...), found {node.text!r}", where(node, source))
    costs = list(_COST.finditer(text))
    digits = sum(char.isdigit() for char in costs[-1].group(1)) if costs else 0
    if digits > limits.digits:
        line = text.count("\n", 0, costs[-1].start(1)) + 1
        raise LimitError(f"{limits.digits} exceeded: the plan's claimed cost is a number of {digits} digits",
                         Location(source, line), option="max_digits")
    return Plan(tuple(steps), float(costs[-1].group(1)) if costs else None, source)


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
