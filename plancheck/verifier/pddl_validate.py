"""Validate a sequential plan against any PDDL domain and problem, VAL-style, and report why.

First every step is checked to name an action instance of the task (known action, right arity,
known objects of the right types); a step that does not is bad input (a
:class:`~plancheck.errors.PDDLError` with the plan's line and column), as VAL refuses such
plans too. Then the plan runs from the initial state: the first step whose precondition fails
is reported with the unmet conditions, or, when every step applies, the unmet goals. The cost is
the metric ``minimize (total-cost)`` (other metric expressions are evaluated too), else the length.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from plancheck.errors import Location, PDDLError
from plancheck.limits import DEFAULT, Limits
from plancheck.translators.pddl_model import TOTAL_COST, Atom, Condition, Domain, Problem, atom_text
from plancheck.translators.pddl_plan import Plan, read_plan
from plancheck.translators.pddl_reader import read_domain, read_problem, read_text_file
from plancheck.verifier.pddl_exec import PddlTask, UndefinedValue, describe


@dataclass(frozen=True, slots=True)
class StepFailure:
    """The first step that cannot be applied: its number (1-based), the action, why, unmet conditions."""

    step: int
    action: str
    reason: str
    unmet: tuple[str, ...] = ()


@dataclass(frozen=True)
class ValidationReport:
    """The outcome of validating one plan. ``cost`` is None when a step failed."""

    domain: str
    problem: str
    length: int
    executed: int
    failure: StepFailure | None
    unmet_goals: tuple[Condition, ...]
    cost: float | None
    metric: str
    claimed_cost: float | None = None
    notes: tuple[str, ...] = ()

    @property
    def valid(self) -> bool:
        return self.failure is None and not self.unmet_goals

    def text(self) -> str:
        """A short report for people: the verdict line, then notes."""
        if self.failure is not None:
            head = f"Plan invalid: step {self.failure.step}: {self.failure.reason}"
        elif self.unmet_goals:
            head = (f"Plan invalid: goal not reached after {_steps(self.length)}: "
                    + ", ".join(describe(goal) for goal in self.unmet_goals))
        else:
            head = f"Plan valid: {_steps(self.length)}, cost {_number(self.cost)} ({self.metric})"
        return "\n".join([head] + [f"note: {note}" for note in self.notes])

    def to_json(self) -> dict[str, Any]:
        return {
            "valid": self.valid,
            "domain": self.domain,
            "problem": self.problem,
            "steps": self.length,
            "executed": self.executed,
            "failure": None if self.failure is None else {
                "step": self.failure.step, "action": self.failure.action,
                "reason": self.failure.reason, "unmet": list(self.failure.unmet)},
            "unmet_goals": [str(goal) for goal in self.unmet_goals],
            "cost": _plain(self.cost),
            "metric": self.metric,
            "claimed_cost": _plain(self.claimed_cost),
            "notes": list(self.notes),
        }


def _number(value: float | None) -> str:
    return "-" if value is None else f"{value:g}"


def _plain(value: float | None) -> float | int | None:
    """Integral costs as ints in JSON (``23``, not ``23.0``)."""
    return int(value) if value is not None and float(value).is_integer() else value


def _steps(count: int) -> str:
    return f"{count} step" + ("" if count == 1 else "s")


def check_steps(task: PddlTask, plan: Plan) -> None:
    """Raise :class:`PDDLError` at the first step that names no action instance of the task."""
    for action in dict.fromkeys(plan.actions):  # plans repeat their actions: each is checked once, in order
        problem = task.instance_problem(action)
        if problem is not None:
            index = plan.actions.index(action)
            step = plan.step(index)
            raise PDDLError(f"step {index + 1} {step}: {problem}", Location(plan.source, step.line, step.column))


def _metric_name(task: PddlTask) -> str:
    metric = task.problem.metric
    if metric is None:
        return "plan length"
    return "total-cost" if task.uses_cost_metric else f"{metric.direction} {metric.expression}"


def _metric_value(task: PddlTask, total: float, length: int, notes: list[str]) -> float | None:
    metric = task.problem.metric
    if metric is None:
        return float(length)
    if task.uses_cost_metric:
        return total
    try:
        return task.value(metric.expression, {}, {(TOTAL_COST,): total})
    except UndefinedValue as error:
        notes.append(f"the metric cannot be evaluated: {error}")
        return None


def validate(domain: Domain, problem: Problem, plan: Plan | Iterable[Atom | str]) -> ValidationReport:
    """Validate ``plan`` (a :class:`Plan`, or action tuples / ``"(a b)"`` strings) on the task.

    >>> from plancheck.translators.pddl_reader import read_domain, read_problem
    >>> d = read_domain("(define (domain s) (:predicates (at ?x) (key)) (:action go :parameters (?a ?b) "
    ...                 ":precondition (and (at ?a) (key)) :effect (and (not (at ?a)) (at ?b))))")
    >>> p = read_problem("(define (problem p) (:domain s) (:objects x y) (:init (at x)) (:goal (at y)))", d)
    >>> print(validate(d, p, [("go", "x", "y")]).text())
    Plan invalid: step 1: (go x y) is not applicable: (key) is false
    """
    if not isinstance(plan, Plan):
        plan = Plan.of(plan)
    task = PddlTask(domain, problem)
    check_steps(task, plan)
    notes: list[str] = []
    if problem.domain_name != domain.name:
        notes.append(f"the problem names domain {problem.domain_name!r}, the domain is {domain.name!r}")
    state = task.initial_state()
    total = problem.values.get((TOTAL_COST,), 0.0)
    apply = task.apply
    for index, action in enumerate(plan.actions, start=1):
        applied = apply(state, action)
        if applied is None:  # not applicable, or an action the fast path leaves to the full evaluation
            result = task.evaluate(state, action)
            if result.state is None:
                failure = StepFailure(index, atom_text(action), result.reason or "not applicable",
                                      tuple(str(c) for c in result.unmet))
                return ValidationReport(domain.name, problem.name, len(plan.actions), index - 1, failure, (),
                                        None, _metric_name(task), plan.claimed_cost, tuple(notes))
            applied = result.state, result.cost
        state, total = applied[0], total + applied[1]
    unmet = tuple(task.unmet(problem.goal, {}, state))
    cost = _metric_value(task, total, len(plan.actions), notes)
    if cost is not None and not math.isfinite(cost):
        notes.append("the plan's cost is too large for a number")
        cost = None
    if plan.claimed_cost is not None and cost is not None and abs(plan.claimed_cost - cost) > 1e-9:
        notes.append(f"the plan claims cost {plan.claimed_cost:g}, but its cost is {cost:g}")
    return ValidationReport(domain.name, problem.name, len(plan.actions), len(plan.actions), None, unmet, cost,
                            _metric_name(task), plan.claimed_cost, tuple(notes))


def validate_text(domain_text: str, problem_text: str, plan_text: str, *,
                  sources: tuple[str | None, str | None, str | None] = (None, None, None),
                  limits: Limits = DEFAULT) -> ValidationReport:
    """Validate from PDDL text (what the worlds use on the PDDL they export); text beyond ``limits`` (nesting,
    digits of numbers) is refused."""
    domain = read_domain(domain_text, sources[0], limits)
    problem = read_problem(problem_text, domain, sources[1], limits)
    return validate(domain, problem, read_plan(plan_text, sources[2], limits))


def validate_files(domain_path: Path | str, problem_path: Path | str, plan_path: Path | str, *,
                   limits: Limits = DEFAULT) -> ValidationReport:
    """Validate files (within ``limits``); a plan path ``-`` reads the plan from standard input."""
    domain_path, problem_path = Path(domain_path), Path(problem_path)
    if str(plan_path) == "-":
        plan_text, plan_source = sys.stdin.read(), "<stdin>"
    else:
        plan_text, plan_source = read_text_file(Path(plan_path)), str(plan_path)
    return validate_text(read_text_file(domain_path), read_text_file(problem_path), plan_text,
                         sources=(str(domain_path), str(problem_path), plan_source), limits=limits)
