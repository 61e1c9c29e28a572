"""Reading PDDL domains, problems and plans: the model, and errors with file, line and column."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plancheck.errors import PDDLError
from plancheck.translators.pddl_model import And, Exists, ForAllEffect, Increase, Literal, Not, Param, Pred, When
from plancheck.translators.pddl_plan import Plan, plan_text, read_plan
from plancheck.translators.pddl_reader import read_domain, read_problem
from plancheck.translators.pddl_sexpr import parse_sexprs
from plancheck.translators.pddl_writer import domain_text, problem_text
from tests.pddl.corpus import DOMAIN, PROBLEM, cases


def test_every_corpus_task_reads():
    for case in cases():
        domain, problem = case.read()
        assert domain.actions and problem.init, case.name
        assert all(isinstance(atom, tuple) and all(isinstance(part, str) for part in atom) for atom in problem.init)


def test_domain_model():
    domain = read_domain(DOMAIN, "d.pddl")
    assert domain.types == {"truck": "vehicle", "car": "vehicle", "vehicle": "object", "place": "object"}
    assert domain.ancestors("car") == ("car", "vehicle", "object")
    assert domain.constants == {"depot": "place"}
    drive = domain.actions["drive"]
    assert drive.params == (Param("?v", ("truck", "car")), Param("?a", ("place",)), Param("?b", ("place",)))
    assert isinstance(drive.precondition, And) and drive.precondition.parts[0] == Pred("at", ("?v", "?a"))
    assert drive.effects[0] == Literal(Pred("at", ("?v", "?a")), False)
    assert isinstance(drive.effects[2], Increase) and str(drive.effects[2]) == "(increase (total-cost) (dist ?a ?b))"
    assert isinstance(drive.effects[3], ForAllEffect) and isinstance(drive.effects[3].effects[0], When)


def test_problem_model_includes_constants_and_values():
    domain = read_domain(DOMAIN)
    problem = read_problem(PROBLEM, domain)
    assert problem.objects == {"depot": "place", "t": "truck", "x": "place", "y": "place"}
    assert problem.init == frozenset({("at", "t", "x"), ("road", "x", "y")})
    assert problem.values == {("dist", "x", "y"): 3.0, ("total-cost",): 0.0}
    assert isinstance(problem.goal, Exists)
    assert str(problem.metric) == "(:metric minimize (total-cost))"


def test_names_are_case_insensitive():
    domain = read_domain(DOMAIN.replace("(at ?v ?a)", "(AT ?V ?a)").replace("define", "DEFINE"))
    assert domain.actions["drive"].precondition.parts[0] == Pred("at", ("?v", "?a"))


def _position(text: str, anchor: str) -> tuple[int, int]:
    """1-based line and column of the first ``anchor`` in ``text``."""
    offset = text.index(anchor)
    return text.count("\n", 0, offset) + 1, offset - text.rfind("\n", 0, offset)


@pytest.mark.parametrize("old, new, message, anchor", [
    ("(road ?a ?b) (not", "(raod ?a ?b) (not", "unknown predicate 'raod'", "raod"),
    ("(at ?v ?a) (road", "(at ?v) (road", "predicate at takes 2 argument(s), not 1", "(at ?v)"),
    ("(at ?v ?b) (increase", "(at ?q ?b) (increase", "variable ?q is not bound here", "?q"),
    ("?a ?b - place)\n", "?a ?b - plase)\n", "unknown type 'plase'", "plase"),
    (":action-costs)", ":action-costs :durative-actions)", "requirement :durative-actions is not supported",
     ":durative"),
    ("(not (= ?a ?b))", "(> (dist ?a ?b) 2)", "numeric conditions are not supported", "(> "),
    ("(increase (total-cost)", "(decrease (total-cost)", "numeric effect decrease is not supported", "(decrease"),
    ("(forall (?w - vehicle)", "(forall (?w - vehicle", "this '(' is never closed", "(define"),
    ("(:action drive", "(:action drive :cost 1", "expected :parameters, :precondition or :effect", ":cost"),
    ("(:constants depot - place)", "(:constants depot - place) (:constants x)", "section :constants appears twice",
     "(:constants x"),
])
def test_domain_errors_name_line_and_column(old, new, message, anchor):
    assert old in DOMAIN
    text = DOMAIN.replace(old, new, 1)
    with pytest.raises(PDDLError) as caught:
        read_domain(text, "d.pddl")
    error = caught.value
    assert message in error.message
    assert (error.location.source, error.location.line, error.location.column) == ("d.pddl", *_position(text, anchor))


def test_a_stray_parenthesis_is_located():
    """One ')' too many closes (define ...) early; the last ')' of the text is the one left over."""
    text = DOMAIN.replace("(at ?v ?a) (road", "(at ?v ?a)) (road", 1)
    with pytest.raises(PDDLError, match="this '\\)' closes nothing") as caught:
        read_domain(text)
    offset = text.rindex(")")
    expected = (text.count("\n", 0, offset) + 1, offset - text.rfind("\n", 0, offset))
    assert (caught.value.location.line, caught.value.location.column) == expected


@pytest.mark.parametrize("old, new, message, anchor", [
    ("(at t x)", "(at t z)", "unknown object or constant 'z'", "z)"),
    ("t - truck", "t - lorry", "unknown type 'lorry'", "lorry"),
    ("(= (dist x y) 3)", "(= (dist x y) far)", "expected a number", "far"),
    ("(:goal (exists (?v - vehicle) (at ?v y)))", "", "the problem has no (:goal ...)", "(define"),
    ("(:metric minimize", "(:metric smallest", "expected (:metric minimize|maximize expression)", "(:metric"),
    ("(road x y)", "(road x ?y)", "variable ?y is not bound here", "?y"),
])
def test_problem_errors_name_line_and_column(old, new, message, anchor):
    domain = read_domain(DOMAIN)
    text = PROBLEM.replace(old, new, 1)
    with pytest.raises(PDDLError) as caught:
        read_problem(text, domain, "p.pddl")
    error = caught.value
    assert message in error.message
    assert (error.location.line, error.location.column) == _position(text, anchor)


def test_plan_reading():
    plan = read_plan("; found by FD\n(Drive T x Y)\n\n0.000: (drive t y x) [1.000]\n; cost = 6 (general cost)\n",
                     "sas_plan")
    assert plan.actions == (("drive", "t", "x", "y"), ("drive", "t", "y", "x"))
    assert [(s.line, s.column) for s in plan.steps] == [(2, 1), (4, 8)]
    assert plan.claimed_cost == 6
    assert read_plan(plan_text(plan.actions, 6)).actions == plan.actions


@pytest.mark.parametrize("text, message, line, column", [
    ("(a b)\nmove c d\n", "expected a step such as (action arg ...), found 'move'", 2, 1),
    ("(a (b))\n", "a plan step holds only names", 1, 4),
    ("(a b)\n()\n", "empty step", 2, 1),
    ("(a b\n", "never closed", 1, 1),
])
def test_plan_errors(text, message, line, column):
    with pytest.raises(PDDLError) as caught:
        read_plan(text, "plan")
    assert message in caught.value.message
    assert (caught.value.location.line, caught.value.location.column) == (line, column)


def test_plan_of_tuples_and_strings():
    assert Plan.of([("A", "B"), "(c d)"]).actions == (("a", "b"), ("c", "d"))


def test_negated_effects_print_as_pddl():
    domain = read_domain(DOMAIN)
    assert str(Not(Pred("road", ("x", "y")))) == "(not (road x y))"
    assert str(domain.actions["drive"].effects[1]) == "(at ?v ?b)"


_PDDLISH = st.text(alphabet="()?-:; \n\tabc=01", max_size=200)


@settings(max_examples=300, deadline=None)
@given(_PDDLISH)
def test_readers_are_total(text):
    """Any text parses or fails with a PDDLError (never another exception, never a hang)."""
    for read in (parse_sexprs, read_plan, read_domain):
        try:
            read(text)
        except PDDLError as error:
            assert error.location is not None
    try:
        read_problem(text, read_domain(DOMAIN))
    except PDDLError:
        pass


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["move", "pick-up", "x1"]),
                          st.lists(st.from_regex(r"[a-z][a-z0-9_-]{0,6}", fullmatch=True), max_size=3)),
                max_size=8))
def test_plan_text_round_trips(steps):
    actions = tuple((name, *args) for name, args in steps)
    assert read_plan(plan_text(actions)).actions == actions


def test_writer_round_trips_the_corpus():
    for case in cases():
        domain, problem = case.read()
        again = read_domain(domain_text(domain))
        assert again == domain, case.name
        assert read_problem(problem_text(problem, domain), again) == problem, case.name


# --- the reader against Lark's LALR parser of the same grammar (plancheck/translators/pddl.lark) ---

@cache
def _lark_parser():
    from lark import Lark

    grammar = Path(__file__).resolve().parents[2] / "plancheck" / "translators" / "pddl.lark"
    return Lark(grammar.read_text(), parser="lalr", lexer="basic")


def _lark_nodes(text: str):
    """The grammar's own parse, as (text, line, column) trees, or the error's kind and place."""
    from lark import Token
    from lark.exceptions import UnexpectedToken

    parser = _lark_parser()

    def convert(node):
        if isinstance(node, Token):
            return (node.value.lower(), node.line, node.column)
        return (tuple(convert(child) for child in node.children[1:-1]),
                node.children[0].line, node.children[0].column)

    try:
        return tuple(convert(child) for child in parser.parse(text).children)
    except UnexpectedToken as error:
        return ("unclosed",) if error.token.type == "$END" else ("stray", error.line, error.column)


def _our_nodes(text: str):
    from plancheck.translators.pddl_sexpr import SList

    def convert(node):
        if isinstance(node, SList):
            return (tuple(convert(child) for child in node.items), node.line, node.column)
        return (node.text, node.line, node.column)

    try:
        return tuple(convert(node) for node in parse_sexprs(text))
    except PDDLError as error:
        kind = "unclosed" if "never closed" in error.message else "stray"
        return (kind,) if kind == "unclosed" else (kind, error.location.line, error.location.column)


def test_the_reader_gives_the_grammar_s_nodes_on_every_test_file():
    corpus = sorted((Path(__file__).resolve().parents[1] / "data" / "pddl").rglob("*"))
    texts = [path.read_text() for path in corpus if path.is_file()]
    assert len(texts) > 10
    for text in texts:
        assert _our_nodes(text) == _lark_nodes(text)


@given(st.text(alphabet=st.sampled_from(list("() ;\n\t\r\x0bab?-:1é\u2028\x1c")), max_size=60))
def test_the_reader_gives_the_grammar_s_nodes_and_errors_on_any_text(text):
    assert _our_nodes(text) == _lark_nodes(text)
