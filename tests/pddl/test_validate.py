"""The PDDL validator: verdicts, first failures, unmet goals, costs, bad input, the CLI."""

from __future__ import annotations

import io
import json

import pytest

from plancheck import cli, registry
from plancheck.errors import PDDLError
from plancheck.solvers.search import breadth_first_search
from plancheck.translators.pddl_plan import read_plan
from plancheck.translators.pddl_reader import read_domain, read_problem
from plancheck.verifier.execute import execute
from plancheck.verifier.pddl_exec import PddlRules
from plancheck.verifier.pddl_validate import validate, validate_files, validate_text
from tests.pddl.corpus import DOMAIN, PROBLEM, cases

CASES = {case.name: case for case in cases()}


def _keydoor():
    return CASES["keydoor/p01"].read()


@pytest.mark.parametrize("name", sorted(CASES))
def test_reference_plans_are_valid_at_the_cost_the_planner_claimed(name):
    case = CASES[name]
    report = validate_files(case.domain_path, case.problem_path, case.plan_path)
    assert report.valid, report.text()
    assert report.claimed_cost is not None and report.cost == report.claimed_cost
    assert report.notes == ()


def test_action_costs_come_from_static_functions():
    report = validate_files(CASES["roads/p01"].domain_path, CASES["roads/p01"].problem_path,
                            CASES["roads/p01"].plan_path)
    assert report.metric == "total-cost"
    assert report.cost != report.length  # 11 steps, weighted roads


def test_first_failing_step_with_unmet_atoms():
    domain, problem = _keydoor()
    plan = read_plan(CASES["keydoor/p01"].plan_text)
    steps = [a for a in plan.actions if a[0] != "pickup" or a[2] != "k1"]  # never pick up k1
    report = validate(domain, problem, steps)
    assert not report.valid
    assert report.failure.step == 7 and report.failure.action == "(unlock c1_1 c2_1 k1)"
    assert report.failure.unmet == ("(holding k1)",)
    assert report.text() == "Plan invalid: step 7: (unlock c1_1 c2_1 k1) is not applicable: (holding k1) is false"
    assert report.executed == 6 and report.cost is None


def test_negative_preconditions_and_disjunctions_are_reported():
    domain, problem = _keydoor()
    report = validate(domain, problem, [("move", "c0_0", "c1_0"), ("move", "c1_0", "c2_1")])
    assert report.failure.step == 2 and report.failure.unmet == ("(adj c1_0 c2_1)", "(not (locked c2_1))")
    assert "(locked c2_1) is true" in report.failure.reason
    report = validate(domain, problem, [("unlock", "c0_0", "c0_1", "k1")])
    assert "(or (opens k1 c0_1) (= k1 master)) is false" in report.failure.reason


def test_goal_not_reached():
    domain, problem = _keydoor()
    report = validate(domain, problem, [("move", "c0_0", "c0_1")])
    assert not report.valid and report.failure is None
    assert [str(goal) for goal in report.unmet_goals] == ["(at c3_3)"]
    assert report.text() == "Plan invalid: goal not reached after 1 step: (at c3_3) is false"
    assert report.to_json()["unmet_goals"] == ["(at c3_3)"]


@pytest.mark.parametrize("line, message", [
    ("(mve c0_0 c0_1)", "unknown action 'mve'"),
    ("(move c0_0)", "move takes 2 argument(s), not 1"),
    ("(move c0_0 c9_9)", "unknown object 'c9_9'"),
    ("(move c0_0 k1)", "k1 is a key, but ?to of move must be a cell"),
])
def test_steps_that_name_no_action_instance_are_bad_input(line, message):
    domain, problem = _keydoor()
    plan = read_plan(f"(move c0_0 c0_1)\n; comment\n  {line}\n", "plan.txt")
    with pytest.raises(PDDLError) as caught:
        validate(domain, problem, plan)
    assert message in caught.value.message and "step 2" in caught.value.message
    assert (caught.value.location.source, caught.value.location.line, caught.value.location.column) == \
        ("plan.txt", 3, 3)


def test_bad_steps_are_found_before_execution():
    """A bad step late in the plan is bad input even when an earlier step already fails."""
    domain, problem = _keydoor()
    with pytest.raises(PDDLError, match="step 3"):
        validate(domain, problem, [("move", "c3_3", "c3_2"), ("move", "c0_0", "c0_1"), ("fly", "c0_0")])


CONDITIONAL = """(define (domain lamps) (:requirements :adl)
  (:types lamp switch)
  (:constants s1 - switch)
  (:predicates (on ?l - lamp) (wired ?s - switch ?l - lamp) (p) (q))
  (:action flip :parameters (?s - switch)
    :effect (forall (?l - lamp) (and (when (and (wired ?s ?l) (on ?l)) (not (on ?l)))
                                     (when (and (wired ?s ?l) (not (on ?l))) (on ?l)))))
  (:action both :parameters () :precondition (not (p)) :effect (and (not (q)) (q) (p)))
  (:action check :parameters ()
    :precondition (and (forall (?l - lamp) (imply (wired s1 ?l) (on ?l))) (exists (?l - lamp) (not (on ?l))))
    :effect (p)))"""
CONDITIONAL_PROBLEM = """(define (problem lp) (:domain lamps)
  (:objects l1 l2 l3 - lamp s2 - switch)
  (:init (on l1) (wired s1 l1) (wired s1 l2) (wired s2 l2) (wired s2 l3))
  (:goal (and (on l3) (not (on l1)))))"""


def test_conditional_effects_read_the_state_before_the_action():
    domain = read_domain(CONDITIONAL)
    problem = read_problem(CONDITIONAL_PROBLEM, domain)
    rules = PddlRules(domain, problem)
    trace = execute(rules, [("flip", "s1")])
    assert trace.final == frozenset({("on", "l2")})  # flipping s1 turned l1 off and l2 on
    assert rules.task.static == frozenset({("wired", "s1", "l1"), ("wired", "s1", "l2"), ("wired", "s2", "l2"),
                                           ("wired", "s2", "l3")})
    assert validate(domain, problem, [("flip", "s1"), ("flip", "s2")]).valid
    assert [str(g) for g in validate(domain, problem, [("flip", "s1")]).unmet_goals] == ["(on l3)"]
    report = validate(domain, problem, [("flip", "s2")])
    assert report.text() == "Plan invalid: goal not reached after 1 step: (on l1) is true"


def test_add_wins_over_delete_and_quantified_preconditions():
    domain = read_domain(CONDITIONAL)
    problem = read_problem(CONDITIONAL_PROBLEM.replace("(:init", "(:init (q)"), domain)
    rules = PddlRules(domain, problem)
    after = rules.step(rules.initial_state(), ("both",)).state
    assert ("q",) in after and ("p",) in after
    again = rules.step(after, ("both",))
    assert not again.ok and again.unmet == ("(not (p))",)


def test_universal_precondition_reports_each_failing_instance():
    domain = read_domain(CONDITIONAL)
    problem = read_problem(CONDITIONAL_PROBLEM, domain)
    report = validate(domain, problem, [("check",)])
    assert report.failure.unmet == ("(on l2)",)


def test_undefined_cost_value_fails_the_step():
    case = CASES["roads/p01"]
    problem_text = case.problem_path.read_text().replace("(= (road-length a b) 4)", "")
    report = validate_text(case.domain_path.read_text(), problem_text, "(drive t1 a b)\n")
    assert report.failure.step == 1 and "(road-length a b) has no value" in report.failure.reason


def test_claimed_cost_mismatch_is_noted():
    case = CASES["gripper/p01"]
    report = validate_text(case.domain_path.read_text(), case.problem_path.read_text(),
                           case.plan_text.replace("; cost = 11", "; cost = 9"))
    assert report.valid and report.notes == ("the plan claims cost 9, but its cost is 11",)


@pytest.mark.parametrize("name", ["gripper/p01", "blocksworld/p01", "briefcase/p01"])
def test_breadth_first_search_on_the_pddl_rules_matches_the_optimal_length(name):
    domain, problem = CASES[name].read()
    result = breadth_first_search(PddlRules(domain, problem))
    assert result.cost == read_plan(CASES[name].plan_text).claimed_cost
    assert validate(domain, problem, result.plan).valid


# -- the command line ----------------------------------------------------------------------------

@pytest.fixture
def run(monkeypatch, capsys):
    """Run ``plancheck`` in-process; worlds are not needed for ``validate``."""
    monkeypatch.setattr(registry, "WORLDS", {})

    def invoke(*args: str, stdin: str = ""):
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(stdin.encode())))
        code = cli.main(list(args))
        out, err = capsys.readouterr()
        return code, out, err
    return invoke


def test_cli_valid_invalid_bad_input(run):
    case = CASES["keydoor/p01"]
    files = (str(case.domain_path), str(case.problem_path))
    code, out, _ = run("validate", *files, str(case.plan_path))
    assert code == 0 and out.startswith("Plan valid: 17 steps, cost 17 (plan length)")
    code, out, _ = run("validate", *files, "-", stdin="(move c0_0 c0_1)\n(unlock c0_1 c1_1 k1)\n")
    assert code == 1 and out.startswith("Plan invalid: step 2: (unlock c0_1 c1_1 k1) is not applicable")
    code, out, err = run("validate", *files, "-", stdin="(move c0_0 c0_1)\n(mve c0_1 c1_1)\n")
    assert code == 2 and out == "" and "<stdin>, line 2, column 1: step 2 (mve c0_1 c1_1): unknown action" in err
    code, _, err = run("validate", files[0], files[0], str(case.plan_path))
    assert code == 2 and "expected (problem name) after define" in err
    code, _, err = run("validate", *files, "/nonexistent/plan")
    assert code == 2 and "cannot read /nonexistent/plan" in err


def test_cli_json(run):
    case = CASES["roads/p01"]
    code, out, _ = run("validate", "--json", str(case.domain_path), str(case.problem_path), str(case.plan_path))
    data = json.loads(out)
    assert code == 0 and data["valid"] is True and data["cost"] == data["claimed_cost"] == 23
    assert data["metric"] == "total-cost" and data["steps"] == 11 and data["failure"] is None


def test_either_types_existential_goals_and_cost_arithmetic():
    domain = read_domain(DOMAIN.replace("(dist ?a ?b))", "(* 2 (dist ?a ?b)))"))
    problem = read_problem(PROBLEM, domain)
    report = validate(domain, problem, [("drive", "t", "x", "y")])
    assert report.valid and report.cost == 6 and report.metric == "total-cost"
    with pytest.raises(PDDLError, match="x is a place, but \\?v of drive must be a truck or car"):
        validate(domain, problem, [("drive", "x", "x", "y")])
    report = validate(domain, problem, [])
    assert [str(g) for g in report.unmet_goals] == ["(exists (?v - vehicle) (at ?v y))"]
