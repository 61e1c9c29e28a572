"""The validator's fast paths against its full evaluation: grounded action instances (``PddlTask.apply``) give
the same reports as evaluating every step's schema (``PddlTask.evaluate``), and the line-by-line plan reader
gives the same plans as the s-expression reader."""

from __future__ import annotations

import random

import pytest

from plancheck.errors import BadInputError, PDDLError
from plancheck.limits import Limits
from plancheck.translators.pddl_plan import _any_steps, _simple_steps, read_plan
from plancheck.translators.pddl_reader import read_domain, read_problem
from plancheck.verifier.pddl_exec import PddlRules, PddlTask
from plancheck.verifier.pddl_validate import validate
from tests.pddl.corpus import DOMAIN, PROBLEM, cases, mutations

# The corpus's small task with a second object and an undefined cost: (drive t y x) has no (dist y x).
PROBLEM_UNDEFINED = PROBLEM.replace("(:objects t - truck x y - place)", "(:objects t - truck c - car x y - place)") \
    .replace("(road x y)", "(road x y) (road y x) (road x depot) (at c y)")


# Its domain without the conditional effect: plain actions, which the fast path grounds.
DOMAIN_PLAIN = DOMAIN.replace("\n                 (forall (?w - vehicle) (when (at ?w ?a) (not (road ?a ?b)))))", ")")


def _tasks():
    found = [(case.name, *case.read(), list(read_plan(case.plan_text).actions)) for case in cases()]
    for domain_name, text in (("small", DOMAIN), ("small-plain", DOMAIN_PLAIN)):
        domain = read_domain(text)
        for problem_name, problem in (("", PROBLEM), ("-undefined-cost", PROBLEM_UNDEFINED)):
            found.append((domain_name + problem_name, domain, read_problem(problem, domain), []))
    return found


def _instances(task: PddlTask) -> list[tuple[str, ...]]:
    """Every well-typed action instance of the task (the corpus's tasks are small)."""
    return [(schema.name, *(b[p.name] for p in schema.params))
            for schema in task.domain.actions.values() for b in task.bindings(schema.params, {})]


def _plans(domain, problem, rng: random.Random, count: int) -> list[tuple[tuple[str, ...], ...]]:
    """Random walks (each step a random instance that the full evaluation applies, found by trying up to 100),
    each broken at a random step by a random instance with probability 1/2."""
    task = PddlTask(domain, problem)
    instances = _instances(task)
    plans = []
    for _ in range(count):
        state, steps = task.initial_state(), []
        for _ in range(rng.randrange(1, 25)):
            for _ in range(100):
                action = rng.choice(instances)
                applied = task.evaluate(state, action).state
                if applied is not None:
                    state = applied
                    steps.append(action)
                    break
            else:  # nothing applies (as far as 100 tries tell)
                break
        if steps and rng.random() < 0.5:
            steps.insert(rng.randrange(len(steps) + 1), rng.choice(instances))
        plans.append(tuple(steps))
    return plans


def _fully_evaluated(monkeypatch):
    monkeypatch.setattr(PddlTask, "apply", lambda self, state, action: None)


@pytest.mark.parametrize("name, domain, problem, reference", _tasks(), ids=lambda v: v if isinstance(v, str) else "")
def test_grounded_instances_give_the_reports_of_the_full_evaluation(name, domain, problem, reference, monkeypatch):
    rng = random.Random(name)
    plans = _plans(domain, problem, rng, 30)
    if reference:
        plans += [tuple(reference)] + [steps for _, steps in
                                       mutations(next(c for c in cases() if c.name == name), 30, seed=7)]
    fast = [validate(domain, problem, plan) for plan in plans]
    with monkeypatch.context() as patch:
        _fully_evaluated(patch)
        full = [validate(domain, problem, plan) for plan in plans]
    assert [r.to_json() for r in fast] == [r.to_json() for r in full]
    assert [r.text() for r in fast] == [r.text() for r in full]
    # the plans reach the cases that matter: failures past the first step, and (with a reference) valid plans
    assert any(r.failure is not None and r.failure.step > 1 for r in fast), name
    assert any(r.failure is None for r in fast), name
    if reference:
        assert any(r.valid for r in fast), name
    if name.endswith("undefined-cost"):
        assert any(r.failure is not None and "undefined" in r.failure.reason for r in fast)
    task = PddlTask(domain, problem)  # the fast path grounds instances of plain schemas, and only of those
    for action in {action for plan in plans for action in plan}:
        task.apply(task.initial_state(), action)
    grounded = [action for action, form in task._grounded.items() if form is not None]
    assert bool(grounded) == (not name.startswith("small") or name.startswith("small-plain")), name
    if name == "briefcase/p01":  # move has a conditional effect; put-in and take-out are plain
        assert {action[0] for action in grounded} == {"put-in", "take-out"}

def test_grounded_instances_step_like_the_full_evaluation_in_a_search():
    case = next(c for c in cases() if c.name == "keydoor/p01")
    rules = PddlRules(*case.read())
    instances = _instances(rules.task)
    state = rules.initial_state()
    rng = random.Random(3)
    for _ in range(200):
        action = rng.choice(instances)
        assert rules.task.transition(state, action) == rules.task.evaluate(state, action)
        applied = rules.task.evaluate(state, action).state
        state = applied if applied is not None and rng.random() < 0.7 else state


# --- plan text: the line-by-line reader against the s-expression reader ---------------------------------

_PIECES = ["(move a b)", "(Move  A\tb )", "( pick-up x )", "(noop)", ";  comment", "; cost = 7", "", "  ", "\r",
           "(a b) ; trailing", "0.000: (move a b) [1.000]", "(a (b))", "()", "(a b", "a b)", "(a b) (c d)",
           "(ä Ö)", "(İ x)", "(x 12345678901234567890)", "\u00a0(x y)\u00a0", "\x0b", "(x;y)", "[1]", ")"]


def _both(text: str, limits: Limits | None = None):
    limits = limits or Limits()
    try:
        full = ("ok", _any_steps(text, "plan", limits))
    except BadInputError as error:  # PDDLError, LimitError
        full = ("error", str(error))
    return _simple_steps(text, limits), full


def test_the_line_reader_reads_what_the_sexpression_reader_reads():
    rng = random.Random(11)
    simple = 0
    for _ in range(3000):
        text = "\n".join(rng.choice(_PIECES) for _ in range(rng.randrange(0, 6)))
        fast, full = _both(text)
        if fast is not None:
            simple += 1
            assert full == ("ok", fast), repr(text)
    assert simple > 300  # the fast reader took a good share of them
    assert _simple_steps("(x 1234)\n", Limits(digits=3)) is None
    assert _both("(x 1234)\n", Limits(digits=3))[1][0] == "error"


def test_read_plan_keeps_positions_and_errors():
    plan = read_plan("; found\n  (Drive T x)\n\n(drive t x) ; again\n", "plan")
    assert plan.actions == (("drive", "t", "x"),) * 2 and (plan.lines, plan.columns) == ((2, 4), (3, 1))
    assert [(s.line, s.column, str(s)) for s in plan.steps] == [(2, 3, "(drive t x)"), (4, 1, "(drive t x)")]
    with pytest.raises(PDDLError, match="line 2, column 3"):
        read_plan("(a b)\n  x (c d)\n", "plan")


@pytest.mark.slow
def test_long_hanoi_plans_broken_anywhere_give_the_reports_of_the_full_evaluation(monkeypatch):
    """The Hanoi export (10 disks, 1,023 steps) with 60 broken optimal plans: a step repeated, deleted, or two
    swapped at random places; grounded and fully evaluated runs give the same reports."""
    from plancheck.domains.smartplay.hanoi.instance import HanoiInstance
    from plancheck.domains.smartplay.hanoi.pddl import DOMAIN_FILE, export, to_pddl_plan
    from plancheck.domains.smartplay.hanoi.solve import recursive_plan

    instance = HanoiInstance(10)
    files = export(instance)
    domain = read_domain(files[DOMAIN_FILE])
    problem = read_problem(files[f"{instance.id}.pddl"], domain)
    optimal = list(to_pddl_plan(instance, recursive_plan(10)))
    rng = random.Random(5)
    plans = [tuple(optimal)]
    for index in range(60):
        steps, i, j = list(optimal), rng.randrange(len(optimal)), rng.randrange(len(optimal))
        if index % 3 == 0:
            steps.insert(i, steps[i])
        elif index % 3 == 1:
            del steps[i]
        else:
            steps[i], steps[j] = steps[j], steps[i]
        plans.append(tuple(steps))
    fast = [validate(domain, problem, plan).to_json() for plan in plans]
    _fully_evaluated(monkeypatch)
    assert fast == [validate(domain, problem, plan).to_json() for plan in plans]
    assert fast[0]["valid"] and sum(not report["valid"] for report in fast) > 40
