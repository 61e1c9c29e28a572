"""Execute PDDL action instances on states: check the precondition, apply the effects, add the cost.

A state is the frozenset of the true ground atoms whose predicate some effect changes (closed
world); atoms of the other, static, predicates are true in every state and kept apart, so a step
copies only what can change. Only the action instances a plan names are instantiated, so
validating a plan never grounds the whole task. Conditions are evaluated in the state before the
action; deletes are applied before adds (an atom both deleted and added ends true), as in VAL and
Fast Downward. Quantifiers range over the objects and constants of the parameter's type,
subtypes included.

Two ways to run an instance, with the same results (tests/pddl/test_validate_fast.py): ``evaluate`` walks
the schema's condition and effects in the state; ``apply`` uses the instance grounded once, when its
schema is plain (a conjunction of literals and equalities, effects that are literals and cost increases):
its static conditions and cost worked out, it is two set tests and two set operations per step. When
``apply`` gives no answer (a condition fails, or the schema is not plain) ``evaluate`` decides and says
why; ``transition`` is the two together.

:class:`PddlRules` wraps this in :class:`plancheck.rules.SearchRules`, so the generic executor and
searches run on any PDDL task; its ``actions`` enumerates every typed instance (fine for small
tasks such as the worlds' exports, not meant for large ones).
"""

from __future__ import annotations

import itertools
import math
import operator
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import NamedTuple

from plancheck.rules import Applied, Outcome, Rejected
from plancheck.translators.pddl_model import (
    TOTAL_COST,
    Action,
    And,
    Atom,
    Condition,
    Domain,
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
    Problem,
    When,
    atom_text,
    is_variable,
)

State = frozenset[Atom]
Binding = Mapping[str, str]


class UndefinedValue(Exception):
    """A cost expression has no value: it needs a function value the problem does not define, divides by
    zero, or its value is too large for a number."""


@dataclass(frozen=True, slots=True)
class Transition:
    """What one action instance does in a state: the next state (None if not applicable), its cost."""

    state: State | None
    cost: float = 0.0
    unmet: tuple[Condition, ...] = ()
    reason: str | None = None


def describe(condition: Condition) -> str:
    """One unmet ground condition in words.

    >>> describe(Pred("holding", ("k1",))), describe(Not(Pred("open", ("d",))))
    ('(holding k1) is false', '(open d) is true')
    """
    if isinstance(condition, Not) and isinstance(condition.arg, (Pred, Equals)):
        return f"{condition.arg} is true"
    return f"{condition} is false"


class PddlTask:
    """A domain and a problem, with the objects of every type worked out once."""

    def __init__(self, domain: Domain, problem: Problem):
        self.domain, self.problem = domain, problem
        self.type_of: dict[str, str] = dict(problem.objects)
        members: dict[str, list[str]] = {}
        ancestors = {kind: domain.ancestors(kind) for kind in set(self.type_of.values())}
        for name, kind in sorted(self.type_of.items()):
            for ancestor in ancestors[kind]:
                members.setdefault(ancestor, []).append(name)
        self._members = {kind: tuple(names) for kind, names in members.items()}
        self.fluents = frozenset(_changed(effect) for action in domain.actions.values()
                                 for effect in _flatten(action.effects))
        self.static = frozenset(atom for atom in problem.init if atom[0] not in self.fluents)
        self._grounded: dict[Atom, _Ground | None] = {}
        self._plain: dict[str, _PlainSchema | None] = {}
        self._quantified: dict[Exists | ForAll, tuple[tuple[Param, ...], bool]] = {}

    def initial_state(self) -> State:
        return frozenset(atom for atom in self.problem.init if atom[0] in self.fluents)

    def objects(self, types: tuple[str, ...]) -> tuple[str, ...]:
        """The objects of any of ``types`` (subtypes included), sorted."""
        if len(types) == 1:
            return self._members.get(types[0], ())
        return tuple(sorted({name for kind in types for name in self._members.get(kind, ())}))

    def is_a(self, name: str, types: tuple[str, ...]) -> bool:
        kind = self.type_of.get(name)
        return kind is not None and not self._above[kind].isdisjoint(types)

    @cached_property
    def _above(self) -> dict[str, frozenset[str]]:
        """Each object type and the types above it (``is_a`` runs for every argument of every step)."""
        return {kind: frozenset(self.domain.ancestors(kind)) for kind in set(self.type_of.values())}

    def bindings(self, params: tuple[Param, ...], base: Binding) -> Iterator[dict[str, str]]:
        """Every assignment of objects to ``params`` on top of ``base``."""
        pools = [self.objects(p.types) for p in params]
        for values in itertools.product(*pools):
            yield {**base, **{p.name: v for p, v in zip(params, values)}}

    def instance_problem(self, action: Atom) -> str | None:
        """Why ``action`` names no action instance of this task (unknown name, arity, object, type)."""
        name, args = action[0], action[1:]
        schema = self.domain.actions.get(name)
        if schema is None:
            return f"unknown action {name!r}"
        if len(args) != schema.arity:
            return f"{name} takes {schema.arity} argument(s), not {len(args)}"
        for param, arg in zip(schema.params, args):
            if arg not in self.type_of:
                return f"unknown object {arg!r}"
            if not self.is_a(arg, param.types):
                wanted = param.types[0] if len(param.types) == 1 else " or ".join(param.types)
                return f"{arg} is a {self.type_of[arg]}, but {param.name} of {name} must be a {wanted}"
        return None

    @cached_property
    def uses_cost_metric(self) -> bool:
        """Whether the metric is ``minimize (total-cost)`` (then action costs count, else plan length)."""
        metric = self.problem.metric
        return metric is not None and metric.direction == "minimize" and metric.expression == FTerm(TOTAL_COST)

    # -- evaluation ---------------------------------------------------------------------------
    def holds(self, condition: Condition, binding: Binding, state: State) -> bool:
        if isinstance(condition, Pred):
            atom = (condition.name, *(binding.get(a, a) for a in condition.args))
            return atom in (state if condition.name in self.fluents else self.static)
        if isinstance(condition, Not):
            return not self.holds(condition.arg, binding, state)
        if isinstance(condition, And):
            return all(self.holds(part, binding, state) for part in condition.parts)
        if isinstance(condition, Or):
            return any(self.holds(part, binding, state) for part in condition.parts)
        if isinstance(condition, Equals):
            return binding.get(condition.left, condition.left) == binding.get(condition.right, condition.right)
        if isinstance(condition, Imply):
            return not self.holds(condition.condition, binding, state) or \
                self.holds(condition.consequence, binding, state)
        params, vacuous = self._used(condition)
        if isinstance(condition, Exists):
            return not vacuous and any(self.holds(condition.body, b, state) for b in self.bindings(params, binding))
        return vacuous or all(self.holds(condition.body, b, state) for b in self.bindings(params, binding))

    def _used(self, condition: Exists | ForAll) -> tuple[tuple[Param, ...], bool]:
        """The quantifier's parameters its body reads, and whether one it does not read has no object (then no
        assignment exists). A parameter the body never reads only multiplies the assignments by its objects (an
        ALFRED goal's unused ``?ko``: 14 s a validation), so it is checked for objects once instead."""
        if condition not in self._quantified:
            free = _free(condition.body)
            self._quantified[condition] = (tuple(p for p in condition.params if p.name in free),
                                           any(not self.objects(p.types) for p in condition.params
                                               if p.name not in free))
        return self._quantified[condition]

    def unmet(self, condition: Condition, binding: Binding, state: State) -> list[Condition]:
        """The ground parts of ``condition`` that fail: conjuncts, universal instances, literals."""
        if self.holds(condition, binding, state):
            return []
        if isinstance(condition, And):
            return [u for part in condition.parts for u in self.unmet(part, binding, state)]
        if isinstance(condition, ForAll):  # each failing instance once (an unused parameter repeats none)
            return [u for b in self.bindings(self._used(condition)[0], binding)
                    for u in self.unmet(condition.body, b, state)]
        if isinstance(condition, Imply):
            return self.unmet(condition.consequence, binding, state)
        return [ground(condition, binding)]

    def value(self, expression: NumExpr, binding: Binding, overrides: Mapping[Atom, float] | None = None) -> float:
        """The value of a cost expression; ``overrides`` replaces initial values (e.g. the final total-cost)."""
        if isinstance(expression, Number):
            return expression.value
        if isinstance(expression, FTerm):
            key = (expression.name, *(binding.get(a, a) for a in expression.args))
            if overrides is not None and key in overrides:
                return overrides[key]
            if key not in self.problem.values:
                raise UndefinedValue(f"{atom_text(key)} has no value in the problem's :init")
            return self.problem.values[key]
        left = self.value(expression.left, binding, overrides)
        right = self.value(expression.right, binding, overrides)
        if expression.op == "/" and right == 0:
            raise UndefinedValue(f"{expression} divides by zero")
        result = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv}[expression.op](
            left, right)
        if not math.isfinite(result):
            raise UndefinedValue(f"{expression} is too large for a number")
        return result

    def _collect(self, effects: tuple[Effect, ...], binding: Binding, state: State,
                 adds: set[Atom], deletes: set[Atom]) -> float:
        cost = 0.0
        for effect in effects:
            if isinstance(effect, Literal):
                atom = (effect.atom.name, *(binding.get(a, a) for a in effect.atom.args))
                (adds if effect.positive else deletes).add(atom)
            elif isinstance(effect, When):
                if self.holds(effect.condition, binding, state):
                    cost += self._collect(effect.effects, binding, state, adds, deletes)
            elif isinstance(effect, ForAllEffect):
                for inner in self.bindings(effect.params, binding):
                    cost += self._collect(effect.effects, inner, state, adds, deletes)
            else:
                cost += self.value(effect.amount, binding)
        return cost

    def transition(self, state: State, action: Atom) -> Transition:
        """Apply one action instance (its name and arguments must be valid: see ``instance_problem``)."""
        applied = self.apply(state, action)
        if applied is not None:
            return Transition(*applied)
        return self.evaluate(state, action)

    def apply(self, state: State, action: Atom) -> tuple[State, float] | None:
        """The next state and the cost when the grounded form of ``action`` (see :class:`_Ground`) applies in
        ``state``; None when it does not or the action has no grounded form: :meth:`evaluate` then says what
        happens and why (the same as :meth:`transition`)."""
        grounded = self._grounded.get(action, _UNSEEN)
        if grounded is _UNSEEN:
            grounded = self._grounded[action] = self._ground(action)
        if grounded is None or not grounded.needs <= state or not grounded.forbids.isdisjoint(state):
            return None
        return (state - grounded.deletes) | grounded.adds, grounded.cost

    def _ground(self, action: Atom) -> _Ground | None:
        """The grounded form of ``action`` when its schema has one (see :func:`_plain_schema`), its static
        conditions hold and its cost is defined; else None."""
        schema = self._plain.get(action[0], _UNSEEN)
        if schema is _UNSEEN:
            schema = self._plain[action[0]] = _plain_schema(self.domain.actions[action[0]], self.fluents)
        if schema is None:
            return None
        row = action[1:] + schema.pool
        static = self.static  # static atoms and equalities are the same in every state: checked once here
        if not all(get(row) in static for get in schema.static_needs) or \
                any(get(row) in static for get in schema.static_forbids):
            return None
        for positive, left, right in schema.equalities:
            if (row[left] == row[right]) != positive:
                return None
        cost = 0.0
        if schema.costs:
            binding = dict(zip(schema.params, action[1:]))
            try:
                for amount in schema.costs:
                    cost += self.value(amount, binding)
            except UndefinedValue:
                return None
        return tuple.__new__(_Ground, (frozenset([get(row) for get in schema.needs]),
                                       frozenset([get(row) for get in schema.forbids]),
                                       frozenset([get(row) for get in schema.adds]),
                                       frozenset([get(row) for get in schema.deletes]), cost))

    def evaluate(self, state: State, action: Atom) -> Transition:
        """:meth:`transition` by evaluating the schema's conditions and effects in ``state`` (what
        :meth:`apply` computes faster, and the reasons when a step fails)."""
        schema: Action = self.domain.actions[action[0]]
        binding = {p.name: arg for p, arg in zip(schema.params, action[1:])}
        text = atom_text(action)
        failed = self.unmet(schema.precondition, binding, state)
        if failed:
            return Transition(None, 0.0, tuple(failed),
                              f"{text} is not applicable: " + ", ".join(describe(c) for c in failed))
        adds: set[Atom] = set()
        deletes: set[Atom] = set()
        try:
            cost = self._collect(schema.effects, binding, state, adds, deletes)
        except UndefinedValue as error:
            return Transition(None, 0.0, (), f"the cost of {text} is undefined: {error}")
        return Transition((state - deletes) | adds, cost)


class _Ground(NamedTuple):
    """An action instance whose precondition is a conjunction of literals and equalities and whose effects
    are literals and cost increases, with its static conditions found true: it applies in a state that holds
    ``needs`` and none of ``forbids``, and then deletes, adds and costs what it says (deletes before adds)."""

    needs: frozenset[Atom]
    forbids: frozenset[Atom]
    adds: frozenset[Atom]
    deletes: frozenset[Atom]
    cost: float


@dataclass(frozen=True, slots=True)
class _PlainSchema:
    """An action schema whose precondition is a conjunction of literals and equalities and whose effects are
    literals and cost increases, taken apart once: the fluent atoms it needs true and false, the static atoms it
    needs true and false, its equalities (with the truth they need), the atoms it adds and deletes, the costs.
    An atom is an ``itemgetter`` that picks it out of ``action[1:] + pool``: the pool holds the predicate names,
    the constants and the atoms without arguments (whole) that the schema's atoms use."""

    params: tuple[str, ...]
    pool: tuple[str | Atom, ...]
    needs: tuple[Callable[[tuple], Atom], ...]
    forbids: tuple[Callable[[tuple], Atom], ...]
    static_needs: tuple[Callable[[tuple], Atom], ...]
    static_forbids: tuple[Callable[[tuple], Atom], ...]
    equalities: tuple[tuple[bool, int, int], ...]  # the truth needed, the positions compared
    adds: tuple[Callable[[tuple], Atom], ...]
    deletes: tuple[Callable[[tuple], Atom], ...]
    costs: tuple[NumExpr, ...]


def _plain_schema(schema: Action, fluents: frozenset[str]) -> _PlainSchema | None:
    """``schema`` taken apart (see :class:`_PlainSchema`), or None when it is not of that form."""
    params = tuple(p.name for p in schema.params)
    pool: list[str | Atom] = []

    def index(item: str | Atom) -> int:
        if isinstance(item, str) and item in params:
            return params.index(item)
        if item not in pool:
            pool.append(item)
        return len(params) + pool.index(item)

    def getter(atom: Pred) -> Callable[[tuple], Atom]:
        if not atom.args:
            return operator.itemgetter(index((atom.name,)))
        return operator.itemgetter(index(atom.name), *(index(a) for a in atom.args))

    needs, forbids, static_needs, static_forbids, equalities, adds, deletes, costs = ([] for _ in range(8))
    for literal in _conjuncts(schema.precondition):
        if literal is None:
            return None
        positive = not isinstance(literal, Not)
        condition = literal if positive else literal.arg
        if isinstance(condition, Equals):
            equalities.append((positive, index(condition.left), index(condition.right)))
        elif condition.name in fluents:
            (needs if positive else forbids).append(getter(condition))
        else:
            (static_needs if positive else static_forbids).append(getter(condition))
    for effect in schema.effects:
        if isinstance(effect, Literal):
            (adds if effect.positive else deletes).append(getter(effect.atom))
        elif isinstance(effect, Increase):
            costs.append(effect.amount)
        else:
            return None
    return _PlainSchema(params, tuple(pool), tuple(needs), tuple(forbids), tuple(static_needs),
                        tuple(static_forbids), tuple(equalities), tuple(adds), tuple(deletes), tuple(costs))


_UNSEEN = object()


def _conjuncts(condition: Condition) -> Iterator[Condition | None]:
    """The literals and equalities of a conjunction (through nested ``and``); None for any other part."""
    if isinstance(condition, And):
        for part in condition.parts:
            yield from _conjuncts(part)
    elif isinstance(condition, (Pred, Equals)) or (isinstance(condition, Not) and
                                                    isinstance(condition.arg, (Pred, Equals))):
        yield condition
    else:
        yield None


def _flatten(effects: tuple[Effect, ...]) -> Iterator[Literal | Increase]:
    """The literal and cost effects inside ``effects`` (through ``when`` and ``forall``)."""
    for effect in effects:
        if isinstance(effect, (When, ForAllEffect)):
            yield from _flatten(effect.effects)
        else:
            yield effect


def _changed(effect: Literal | Increase) -> str:
    return effect.atom.name if isinstance(effect, Literal) else effect.target.name


def _free(condition: Condition) -> frozenset[str]:
    """The variables ``condition`` reads that no quantifier inside it binds."""
    if isinstance(condition, Pred):
        return frozenset(term for term in condition.args if is_variable(term))
    if isinstance(condition, Equals):
        return frozenset(term for term in (condition.left, condition.right) if is_variable(term))
    if isinstance(condition, Not):
        return _free(condition.arg)
    if isinstance(condition, (And, Or)):
        return frozenset().union(*map(_free, condition.parts))
    if isinstance(condition, Imply):
        return _free(condition.condition) | _free(condition.consequence)
    return _free(condition.body) - {param.name for param in condition.params}


def ground(condition: Condition, binding: Binding) -> Condition:
    """``condition`` with its free variables replaced by their values in ``binding``."""
    def term(name: str) -> str:
        return binding.get(name, name)

    if isinstance(condition, Pred):
        return Pred(condition.name, tuple(term(a) for a in condition.args))
    if isinstance(condition, Equals):
        return Equals(term(condition.left), term(condition.right))
    if isinstance(condition, Not):
        return Not(ground(condition.arg, binding))
    if isinstance(condition, (And, Or)):
        return type(condition)(tuple(ground(p, binding) for p in condition.parts))
    if isinstance(condition, Imply):
        return Imply(ground(condition.condition, binding), ground(condition.consequence, binding))
    inner = {k: v for k, v in binding.items() if k not in {p.name for p in condition.params}}
    return type(condition)(condition.params, ground(condition.body, inner))


class PddlRules:
    """A PDDL task as :class:`plancheck.rules.SearchRules`; actions are atom tuples like ``("move", "a", "b")``."""

    horizon = None
    stops_at_goal = False

    def __init__(self, domain: Domain, problem: Problem):
        self.task = PddlTask(domain, problem)
        self._initial: State = self.task.initial_state()

    def initial_state(self) -> State:
        return self._initial

    def goal_reached(self, state: State) -> bool:
        return self.task.holds(self.task.problem.goal, {}, state)

    def step(self, state: State, action: Atom) -> Outcome:
        problem = self.task.instance_problem(action)
        if problem is not None:
            return Rejected(f"{atom_text(action)} is not an action of this task: {problem}")
        result = self.task.transition(state, action)
        if result.state is None:
            return Rejected(result.reason or "not applicable", tuple(str(c) for c in result.unmet))
        return Applied(result.state)

    def actions(self, state: State) -> Iterator[Atom]:
        """Every applicable action instance, in a fixed order (schemas as declared, objects sorted)."""
        for schema in self.task.domain.actions.values():
            for binding in self.task.bindings(schema.params, {}):
                if self.task.holds(schema.precondition, binding, state):
                    yield (schema.name, *(binding[p.name] for p in schema.params))

    def cost(self, state: State, action: Atom) -> float:
        """The action's cost under the metric: its total-cost increase, or 1 without a cost metric."""
        if not self.task.uses_cost_metric:
            return 1.0
        return self.task.transition(state, action).cost
