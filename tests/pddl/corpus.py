"""The PDDL test corpus: classic domains written for the tests, their problems and optimal plans,
and seeded plan mutations (shared by the validator tests and the cross-checks)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

from plancheck.translators.pddl_model import Atom
from plancheck.translators.pddl_plan import read_plan
from plancheck.translators.pddl_reader import read_task
from plancheck.verifier.pddl_exec import PddlTask

CORPUS = Path(__file__).resolve().parent.parent / "data" / "pddl"

# A small task using every supported feature: a type hierarchy, either, a constant, negative
# preconditions, equality, conditional effects under forall, action costs from a static function.
DOMAIN = """(define (domain d)
  (:requirements :typing :negative-preconditions :equality :conditional-effects :action-costs)
  (:types truck car - vehicle place)
  (:constants depot - place)
  (:predicates (at ?v - vehicle ?p - place) (road ?a ?b - place))
  (:functions (total-cost) - number (dist ?a ?b - place) - number)
  (:action drive
    :parameters (?v - (either truck car) ?a ?b - place)
    :precondition (and (at ?v ?a) (road ?a ?b) (not (= ?a ?b)))
    :effect (and (not (at ?v ?a)) (at ?v ?b) (increase (total-cost) (dist ?a ?b))
                 (forall (?w - vehicle) (when (at ?w ?a) (not (road ?a ?b)))))))
"""
PROBLEM = """(define (problem p) (:domain d)
  (:objects t - truck x y - place)
  (:init (at t x) (road x y) (= (dist x y) 3) (= (total-cost) 0))
  (:goal (exists (?v - vehicle) (at ?v y)))
  (:metric minimize (total-cost)))
"""


@dataclass(frozen=True)
class Case:
    """One problem of the corpus with its reference plan (from Fast Downward, astar(blind()))."""

    name: str
    domain_path: Path
    problem_path: Path
    plan_path: Path

    @property
    def plan_text(self) -> str:
        return self.plan_path.read_text()

    def read(self):
        return read_task(self.domain_path, self.problem_path)


def cases() -> list[Case]:
    found = []
    for domain in sorted(CORPUS.glob("*/domain.pddl")):
        for problem in sorted(domain.parent.glob("p*.pddl")):
            found.append(Case(f"{domain.parent.name}/{problem.stem}", domain, problem, problem.with_suffix(".plan")))
    return found


def mutations(case: Case, count: int, seed: int) -> list[tuple[str, tuple[Atom, ...]]]:
    """``count`` seeded mutants of the reference plan, each still made of well-typed action instances:
    a step deleted, two steps swapped, a step repeated, an argument replaced by another object of the
    same type, or the plan cut short."""
    domain, problem = case.read()
    task = PddlTask(domain, problem)
    plan = list(read_plan(case.plan_text).actions)
    rng = random.Random(seed)
    result = []
    for index in range(count):
        kind = ("delete", "swap", "repeat", "argument", "truncate")[index % 5]
        steps = list(plan)
        i = rng.randrange(len(steps))
        if kind == "delete":
            del steps[i]
        elif kind == "swap":
            j = rng.randrange(len(steps))
            steps[i], steps[j] = steps[j], steps[i]
        elif kind == "repeat":
            steps.insert(i, steps[i])
        elif kind == "argument" and len(steps[i]) > 1:
            position = rng.randrange(1, len(steps[i]))
            old = steps[i][position]
            pool = [o for o in task.objects((task.type_of[old],)) if o != old] or [old]
            steps[i] = steps[i][:position] + (rng.choice(pool),) + steps[i][position + 1:]
        else:
            steps = steps[:i]
        result.append((kind, tuple(steps)))
    return result
