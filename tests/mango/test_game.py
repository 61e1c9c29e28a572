"""MANGO game loading against the release data: walkthrough cut, graphs, question labels."""

from __future__ import annotations

import json
from pathlib import Path

import networkx as nx
import pytest

from plancheck.domains.mango.game import load_game, parse_walkthrough, walkthrough_prefix
from plancheck.domains.mango.graph import OPPOSITE, Edge, Moves, evaluation_graph, imputed_edges, known_graph, map_graph
from plancheck.domains.mango.instance import find_question, game_folders, select, split_selector
from plancheck.domains.mango.questions import Difficulty, Task
from plancheck.domains.mango.scoring import walk
from plancheck.errors import BadInputError, DataNotFoundError, InstanceNotFoundError


@pytest.fixture(scope="module")
def games(shared_data):
    return [load_game(folder) for folder in game_folders(shared_data)]


@pytest.fixture(scope="module")
def records(shared_data):
    return [json.loads(p.read_text()) for p in sorted((shared_data / "mango" / "examples").rglob("*.json"))]


def test_all_fifteen_shared_games_load(games):
    assert len(games) == 15
    for game in games:
        assert game.steps[0].act == "Init"
        assert len(game.rf) == len(game.locations) * (len(game.locations) - 1)  # every ordered pair


def test_prefix_is_byte_identical_to_the_recorded_prompts(shared_data, records):
    game = load_game(shared_data / "mango" / "905")
    assert len(records) == 36
    for record in records:
        assert walkthrough_prefix(game.walkthrough, record["model_cutoff_num"]) == record["walkthrough_text"]


@pytest.mark.parametrize("cutoff", [0, 5, 33, 70])
def test_prefix_holds_steps_up_to_the_cutoff_only(games, cutoff):
    for game in games:
        prefix = walkthrough_prefix(game.walkthrough, cutoff)
        last = min(cutoff, len(game.steps) - 1)
        assert f"==>STEP NUM: {last}\n" in prefix
        assert f"==>STEP NUM: {last + 1}\n" not in prefix
        assert "===========" not in prefix
        assert game.steps[min(cutoff, len(game.steps) - 1)].act in prefix


def test_walkthrough_errors_name_the_line():
    text = ("===========\n==>STEP NUM: 0\n==>ACT: Init\n==>OBSERVATION: a\n"
            "===========\n==>STEP NUM: 2\n==>ACT: east\n==>OBSERVATION: b\n")
    with pytest.raises(BadInputError) as error:
        parse_walkthrough(text, "w.walkthrough")
    assert error.value.location.line == 6 and "step 2 where step 1" in error.value.message
    with pytest.raises(BadInputError, match="must start with"):
        parse_walkthrough("===========\nhello\n", "w")


def test_question_labels_follow_from_the_edges(games):
    """DF labels are the maxima over the path's edges; RF labels the minima over the pair's paths."""
    for game in games:
        edge = {(e.src, e.action, e.dst): e for e in game.edges}
        by_pair: dict[tuple[str, str], list] = {}
        for q in game.df:
            steps = [edge[m.before, m.action, m.after] for m in q.path]
            assert q.labels.min_step_total_answerable == max(e.edge_min_step_answerable for e in steps)
            assert q.labels.min_step_forward_answerable == max(e.seen_in_forward_answerable for e in steps)
            by_pair.setdefault((q.src, q.dst), []).append(q)
        for q in game.rf:
            paths = by_pair.get((q.src, q.dst), [])
            assert q.num_paths == len(paths)
            assert q.labels.min_step_total_answerable == min((p.labels.min_step_total_answerable for p in paths),
                                                             default=9999)


def test_df_questions_are_every_simple_path(games):
    for game in games:
        graph = map_graph(game.edges)
        paths = {tuple((u, k, v) for u, v, k in p) for s in graph for t in graph if s != t
                 for p in nx.all_simple_edge_paths(graph, s, t)}
        assert paths == {tuple((m.before, m.action, m.after) for m in q.path) for q in game.df}


@pytest.mark.parametrize("cutoff", [0, 12, 25, 50, 70])
def test_answerable_and_easy_mean_a_route_exists_in_the_prefix(games, cutoff):
    """Answerable at T iff the edges revealed by T connect the pair; easy iff the edges walked forward by T do."""
    for game in games:
        revealed = nx.MultiDiGraph([(e.src, e.dst) for e in game.edges if e.edge_min_step_answerable <= cutoff])
        forward = nx.MultiDiGraph([(e.src, e.dst) for e in game.edges if e.seen_in_forward_answerable <= cutoff])
        for q in game.rf:
            level = q.labels.difficulty(cutoff)
            answerable = q.src in revealed and q.dst in revealed and nx.has_path(revealed, q.src, q.dst)
            easy = q.src in forward and q.dst in forward and nx.has_path(forward, q.src, q.dst)
            assert (level is not Difficulty.UNANSWERABLE) == answerable
            assert (level is Difficulty.EASY) == easy


def test_imputed_edges_mirror_directions_only_when_missing(games):
    for game in games:
        triples = {e.triple for e in game.edges}
        for edge in game.imputed:
            assert edge.imputed and edge.triple not in triples
            assert (edge.dst, OPPOSITE[edge.action], edge.src) in triples
        evaluation = {e.triple for e in game.edges + game.imputed}
        for e in game.edges:
            if e.action in OPPOSITE:
                assert (e.dst, OPPOSITE[e.action], e.src) in evaluation
    assert sum(len(g.imputed) for g in games) > 0


def test_imputation_keeps_an_existing_opposite_and_handles_self_loops():
    edges = [Edge("a", "b", "north"), Edge("b", "a", "south"), Edge("c", "c", "up"), Edge("a", "d", "enter")]
    assert [e.triple for e in imputed_edges(edges)] == [("c", "down", "c")]
    assert evaluation_graph(edges).number_of_edges() == 5


def test_nondeterministic_and_self_loop_moves_walk_every_branch(shared_data):
    deephome = load_game(shared_data / "mango" / "deephome")
    assert len(deephome.moves.successors("railcar", "out")) == 2
    assert walk(deephome.moves, "railcar", ["out"])[0] == frozenset(deephome.moves.successors("railcar", "out"))
    advent = load_game(shared_data / "mango" / "advent")
    places = advent.moves.successors("in swiss cheese room", "northwest")
    assert set(places) == {"in swiss cheese room", "oriental room"}


def test_move_tables_built_without_networkx_equal_those_of_the_networkx_graphs(games):
    """The check path builds its tables straight from the edges; networkx's graphs are the second route."""
    compared = 0
    for game in games:
        assert game.moves == Moves.of(evaluation_graph(game.edges))
        steps = sorted({e.edge_min_step_answerable for e in game.edges} | {0, 1, 10**6})
        for cutoff in steps:
            assert game.known_moves(cutoff) == Moves.of(known_graph(map_graph(game.edges), cutoff)), cutoff
            compared += 1
    assert compared > 250


def test_duplicate_edges_keep_the_first_revealed():
    graph = map_graph([Edge("a", "b", "up", edge_min_step_answerable=30),
                       Edge("a", "b", "up", edge_min_step_answerable=10)])
    assert Moves.of(graph).successors("a", "up") == ("b",)
    early = [Edge("a", "b", "up", edge_min_step_answerable=30), Edge("a", "b", "up", edge_min_step_answerable=10)]
    assert Moves.of_edges(early, cutoff=20).successors("a", "up") == ("b",)
    assert Moves.of_edges(early, cutoff=5).successors("a", "up") == () and Moves.of_edges(early, 5).actions == ()
    assert graph.edges["a", "b", "up"]["edge"].edge_min_step_answerable == 10


def test_selectors(shared_data, tmp_path):
    assert split_selector("x/y/905/rf/abc") == ("x/y/905", Task.RF, "abc")
    ids = [i.id for i in select(["905"], shared_data)]
    assert len(ids) == 36 and ids[0].startswith("905/df/") and ids[-1].startswith("905/rf/")
    assert len(list(select(["905/rf"], shared_data, answerable_only=True))) == 16
    by_path = list(select([str(shared_data / "mango" / "905" / "rf" / "0853694d")], None))
    assert [i.id for i in by_path] == ["905/rf/0853694d864cf82010cd2ed729f6b2535217b158133ff1ce472fc8539a8bf1c8"]
    game = load_game(shared_data / "mango" / "905")
    with pytest.raises(InstanceNotFoundError, match="6 characters"):
        find_question(game, Task.RF, "08")
    with pytest.raises(InstanceNotFoundError, match="no MANGO game"):
        list(select(["nonesuch"], shared_data))
    with pytest.raises(DataNotFoundError):
        list(select(["905"], None))
    with pytest.raises(BadInputError, match="cutoff -1"):
        list(select(["905"], shared_data, cutoff=-1))
    with pytest.raises(DataNotFoundError):
        load_game(tmp_path / "nowhere")


def test_damaged_files_are_reported_with_their_line(shared_data, tmp_path):
    source = shared_data / "mango" / "905"
    folder = tmp_path / "905"
    folder.mkdir()
    for path in source.iterdir():
        (folder / path.name).write_text(path.read_text())
    lines = (folder / "905.all2all.jsonl").read_text().splitlines()
    record = json.loads(lines[2])
    record["path_details"][0]["action"] = "west"
    lines[2] = json.dumps(record)
    (folder / "905.all2all.jsonl").write_text("\n".join(lines) + "\n")
    with pytest.raises(BadInputError) as error:
        load_game(folder)
    assert error.value.location.line == 3 and "not a map edge" in error.value.message
    assert Path(error.value.location.source) == folder / "905.all2all.jsonl"  # the damaged file, by name


def test_a_walkthrough_that_is_not_utf8_is_bad_input(shared_data, tmp_path):
    folder = tmp_path / "905"
    folder.mkdir()
    for path in (shared_data / "mango" / "905").iterdir():
        (folder / path.name).write_bytes(path.read_bytes())
    walkthrough = folder / "905.walkthrough"
    walkthrough.write_bytes(b"==>STEP NUM: 0\n==>ACT: Init\n\x89\n" + walkthrough.read_bytes())
    with pytest.raises(BadInputError) as error:
        load_game(folder)
    assert (error.value.location.line, error.value.location.column) == (3, 1) and "not UTF-8" in error.value.message
