"""Quantified conditions (``PddlTask.holds`` and ``unmet``): a parameter the body never reads is checked for objects
once instead of multiplying the assignments; the truth values are those of every assignment, taken one by one."""

from __future__ import annotations

import itertools
import random

from plancheck.translators.pddl_model import And, Equals, Exists, ForAll, Imply, Not, Or, Param, Pred
from plancheck.translators.pddl_reader import read_domain, read_problem
from plancheck.verifier.pddl_exec import PddlTask

DOMAIN = """(define (domain q) (:requirements :typing :quantified-preconditions :disjunctive-preconditions
  :negative-preconditions :equality) (:types t u v) (:predicates (p ?x - t) (r ?x - t ?y - u)))"""
PROBLEM = """(define (problem q1) (:domain q) (:objects a b c - t d e - u) (:init (p a) (p b) (r a d) (r c e))
  (:goal (p a)))"""  # type v has no object
TYPES = ("t", "u", "v")
VARIABLES = ("?x", "?y", "?z")


def _reference(task: PddlTask, condition, binding: dict[str, str], state) -> bool:
    """Every assignment of every quantifier, one by one (what ``holds`` computed before the shortcut)."""
    if isinstance(condition, (Exists, ForAll)):
        pools = [task.objects(param.types) for param in condition.params]
        values = (_reference(task, condition.body, {**binding, **{p.name: v for p, v in zip(condition.params, row)}},
                             state) for row in itertools.product(*pools))
        return any(values) if isinstance(condition, Exists) else all(values)
    if isinstance(condition, Not):
        return not _reference(task, condition.arg, binding, state)
    if isinstance(condition, And):
        return all(_reference(task, part, binding, state) for part in condition.parts)
    if isinstance(condition, Or):
        return any(_reference(task, part, binding, state) for part in condition.parts)
    if isinstance(condition, Imply):
        return not _reference(task, condition.condition, binding, state) or \
            _reference(task, condition.consequence, binding, state)
    return task.holds(condition, binding, state)  # a literal or an equality: no quantifier


def _condition(rng: random.Random, depth: int = 0):
    """A random condition over ?x ?y ?z; quantifiers bind random subsets with random types (v: no object)."""
    kind = rng.choice(("pred", "pred", "eq") if depth > 2 else ("pred", "not", "and", "or", "imply", "exists",
                                                               "forall", "exists", "forall"))
    if kind == "pred":
        return rng.choice((Pred("p", (rng.choice(VARIABLES),)), Pred("r", (rng.choice(VARIABLES),
                                                                             rng.choice(VARIABLES)))))
    if kind == "eq":
        return Equals(rng.choice(VARIABLES), rng.choice(VARIABLES + ("a",)))
    if kind == "not":
        return Not(_condition(rng, depth + 1))
    if kind in ("and", "or"):
        return (And if kind == "and" else Or)(tuple(_condition(rng, depth + 1) for _ in range(rng.randint(1, 3))))
    if kind == "imply":
        return Imply(_condition(rng, depth + 1), _condition(rng, depth + 1))
    params = tuple(Param(name, (rng.choice(TYPES),)) for name in rng.sample(VARIABLES, rng.randint(1, 3)))
    return (Exists if kind == "exists" else ForAll)(params, _condition(rng, depth + 1))


def test_quantifiers_hold_as_every_assignment_says_with_unused_parameters_and_empty_types():
    domain = read_domain(DOMAIN)
    task = PddlTask(domain, read_problem(PROBLEM, domain))
    state = task.initial_state() | task.static
    rng = random.Random(7)
    outer = {"?x": "a", "?y": "d", "?z": "b"}  # free variables get these values
    for _ in range(3000):
        condition = Exists((Param("?x", ("t",)), Param("?y", ("u",)), Param("?z", ("t",))), _condition(rng)) \
            if rng.random() < 0.2 else _condition(rng)
        assert task.holds(condition, outer, state) == _reference(task, condition, outer, state), condition


def test_an_unused_parameter_decides_only_by_having_objects():
    domain = read_domain(DOMAIN)
    task = PddlTask(domain, read_problem(PROBLEM, domain))
    state = task.initial_state() | task.static
    body = Pred("p", ("?x",))
    for quantifier, unused, expected in ((Exists, "u", True), (Exists, "v", False), (ForAll, "v", True),
                                         (ForAll, "u", False)):
        condition = quantifier((Param("?x", ("t",)), Param("?k", (unused,))), body)
        assert task.holds(condition, {}, state) is expected
    failing = ForAll((Param("?x", ("t",)), Param("?k", ("u",))), body)  # (p c) fails: once, not once per ?k
    assert [str(part) for part in task.unmet(failing, {}, state)] == ["(p c)"]
