"""MANGO reference answers: the oracle scores 1 everywhere; routes are shortest; PDDL and Fast Downward agree."""

from __future__ import annotations

import networkx as nx
import pytest

from plancheck.domains.mango.check import check_answer
from plancheck.domains.mango.graph import Edge, Moves, map_graph
from plancheck.domains.mango.instance import graph_of, select
from plancheck.domains.mango.pddl import Naming, domain_text, problem_text
from plancheck.domains.mango.questions import DFQuestion
from plancheck.domains.mango.solve import oracle_answer, reference, solve
from plancheck.errors import PDDLError
from plancheck.solvers.external import run_fast_downward
from plancheck.solvers.result import Status
from tests.extras import needs_fast_downward


@pytest.fixture(scope="module")
def answerable(shared_data):
    return [i for i in select(["all"], shared_data) if i.answerable]


def test_oracle_scores_one_on_every_answerable_question(answerable):
    assert len(answerable) == 3595 + 3022
    for instance in answerable:
        verdict = check_answer(instance, oracle_answer(instance))
        assert verdict.parsed and verdict.valid and verdict.goal_reached, instance.id
        assert set(verdict.scores.values()) == {1.0}, instance.id


def test_routes_are_shortest_on_the_known_map_and_exist_iff_answerable(shared_data):
    for instance in select(["all"], shared_data):
        if isinstance(instance.question, DFQuestion):
            continue
        route = reference(instance).trajectory
        known = graph_of(instance, "known")
        q = instance.question
        assert (route is not None) == instance.answerable
        if route is not None:
            assert len(route) == nx.shortest_path_length(known, q.src, q.dst)
            assert all(known.has_edge(m.before, m.after, m.action) for m in route)


def test_df_reference_lists_every_destination(shared_data):
    for instance in select(["deephome/df", "advent/df"], shared_data):
        found = reference(instance)
        assert instance.question.dst in found.destinations and found.trajectory == instance.question.path


def test_solve_reports_certified_results(shared_data):
    [rf] = select(["905/rf/eaaf7386"], shared_data)
    result = solve(rf)
    assert result.status is Status.SOLVED and result.proven_optimal and result.plan == ("east", "south")
    assert result.values == {"strict": 1.0, "loose": 1.0, "loose_similarity": 1.0, "reasoning": 1.0}
    [stuck] = select(["905/rf/b5fa842f"], shared_data)  # from inside the car there is no way out
    assert solve(stuck).status is Status.UNSOLVABLE
    [df] = select(["905/df/2c07f44a"], shared_data)
    assert solve(df).extra["destinations"] == ["driveway"]
    with pytest.raises(Exception, match="unknown planner"):
        solve(rf, "astar")


def test_pddl_round_trips_through_an_independent_pddl_reader(shared_data, tmp_path):
    """unified-planning's reader (not plancheck's) reads the exported task with every place, action and link."""
    reader = pytest.importorskip("unified_planning.io")
    [instance] = select(["advent/rf/c02f71b0"], shared_data)
    moves = instance.game.known_moves(70)
    problem, naming = problem_text(instance.id, moves, instance.question.src, instance.question.dst)
    (tmp_path / "d.pddl").write_text(domain_text())
    (tmp_path / "p.pddl").write_text(problem)
    parsed = reader.PDDLReader().parse_problem(str(tmp_path / "d.pddl"), str(tmp_path / "p.pddl"))
    assert [a.name for a in parsed.actions] == ["go"]
    links = sum(len(moves.successors(place, action)) for place in moves.table for action in moves.table[place])
    true_facts = [fluent for fluent, value in parsed.explicit_initial_values.items() if value.is_true()]
    assert len(parsed.all_objects) == len(moves.table) + len(moves.actions) and len(true_facts) == links + 1
    assert len(set(naming.places.values())) == len(moves.table)
    with pytest.raises(PDDLError, match="not \\(go"):
        naming.read_plan(["(go l-nowhere m-east l-end-of-road)"])


def test_identifiers_are_distinct_and_valid():
    places = ["a b", "a-b", "a b!", "7 up", "'"]
    naming = Naming.of(Moves.of(map_graph([Edge(place, "a b", "go north") for place in places])))
    assert len(set(naming.places.values())) == 5 and naming.moves == {"go north": "m-go-north"}
    assert all(ident.startswith("l-") and ident.replace("-", "").isalnum() for ident in naming.places.values())




@pytest.mark.parametrize("graph", ["known", "evaluation"])
@needs_fast_downward
def test_fast_downward_finds_routes_of_the_same_length(shared_data, graph):
    """One question per game: the answerable RF question with the longest shortest route."""
    for folder in sorted((shared_data / "mango").iterdir()):
        rf = [i for i in select([f"{folder}/rf"], None) if i.answerable] if folder.name != "examples" else []
        if not rf:
            continue
        hardest = max(rf, key=lambda i: (len(reference(i, graph).trajectory), i.question.id))
        result = solve(hardest, "fast-downward", graph)
        assert result.status is Status.SOLVED and result.proven_optimal, hardest.id
        assert result.extra["length"] == len(reference(hardest, graph).trajectory)


@needs_fast_downward
def test_fast_downward_proves_unanswerable_questions_unsolvable(shared_data):
    [stuck] = select(["905/rf/b5fa842f"], shared_data)
    problem, _ = problem_text(stuck.id, stuck.game.known_moves(70), stuck.question.src, stuck.question.dst)
    assert run_fast_downward(domain_text(), problem).status is Status.UNSOLVABLE


@pytest.mark.slow
def test_fast_downward_agrees_on_every_answerable_route(answerable):
    for instance in answerable:
        if not isinstance(instance.question, DFQuestion):
            assert solve(instance, "fast-downward").proven_optimal, instance.id
