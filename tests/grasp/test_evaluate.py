"""Batch evaluation of GRASP answers: the paper's baseline numbers, the GPT-3.5 responses, broken records."""

from __future__ import annotations

import json
import random

import pytest

from plancheck.cli import main
from plancheck.demo import run_demo
from plancheck.domains.grasp.baselines import greedy, random_walk
from plancheck.domains.grasp.optima import published_optima
from plancheck.domains.grasp.rules import Action, GraspRules
from plancheck.domains.grasp.world import WORLD
from plancheck.verifier.batch import evaluate_records
from plancheck.verifier.execute import execute
from tests.extras import needs_fast_downward


def _evaluate(shared_data, *paths, indices=None):
    records = [r for p in paths for f in (sorted(p.iterdir()) if p.is_dir() else [p])
               for r in WORLD.read_answers(f, shared_data, indices=indices)]
    return list(evaluate_records(WORLD, records, shared_data))


def test_recorded_baselines_reproduce_the_papers_averages(shared_data):
    """Paper Table 1, 'Average' row, grid indices 0-9: greedy 0.35, random walk -1.14."""
    baselines = shared_data / "grasp" / "baselines"
    for name, published in (("greedy", 0.35), ("random", -1.14)):
        items = _evaluate(shared_data, baselines / name, indices="0-9")
        assert len(items) == 1600 and all(item.verdict is not None for item in items)
        mean = sum(item.verdict.scores["paper"] for item in items) / len(items)
        assert round(mean, 2) == published, name


def test_summary_command_prints_table1_with_the_published_averages(shared_data, capsys):
    baselines = shared_data / "grasp" / "baselines"
    code = main(["evaluate", "grasp", str(baselines / "greedy"), str(baselines / "random"), "--indices", "0-9",
                 "--summary", "--json", "--data", str(shared_data), "--no-progress", "--table", "factors"])
    assert code == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["records"] == 3200 and summary["broken"] == 0
    assert summary["models"]["greedy"]["rows"]["average"]["energy"] == 0.35
    assert summary["models"]["random"]["rows"]["average"]["energy"] == -1.14
    assert summary["models"]["random"]["rows"]["average"]["length"] == 19.0
    labels = [row[0] for row in summary["rows"]]
    assert labels[:5] == ["energy: random", "energy: upDown", "energy: leftRight", "energy: cluster", "energy: spiral"]
    assert labels[-1] == "average" and len(labels) == 16


def test_all_1600_gpt35_responses_are_accounted_for(shared_data, tmp_path):
    out = tmp_path / "verdicts.jsonl"
    code = main(["evaluate", "grasp", str(shared_data / "grasp" / "llm" / "gpt35_responses.jsonl"),
                 "-o", str(out), "--data", str(shared_data), "--no-progress"])
    assert code == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == 1600 and [r["line"] for r in rows] == list(range(1, 1601))
    unparsed = [r for r in rows if "error" in r or not r["verdict"]["parsed"]]
    assert all(r["verdict"]["parse_error"] for r in unparsed if "verdict" in r)
    assert len(unparsed) == 0  # every published response holds a readable list (see test_grasp_parse)
    assert sum(r["verdict"]["valid"] for r in rows) < 1600


# A scored answer among broken records of every kind (benchmarks/grasp_identity.py adds more of its own)
BROKEN_RECORDS = [
    json.dumps({"instance": "inner_random_free.jsonl-0-0-0-0", "response": "[UP, TAKE]"}),
    "{not json",
    json.dumps({"instance": "inner_random_free.jsonl-999-0-0-0", "response": "[UP]"}),
    json.dumps({"instance": "inner_random_free.jsonl-1-0-0-0"}),
    json.dumps(["a list"]),
    json.dumps({"custom_id": "inner_random_free.jsonl-2-0-0-0", "response": None, "error": {"code": "x"}}),
    json.dumps({"instance": "inner_random_free.jsonl-3-1-1-1", "response": "no list here"}),
    json.dumps({"instance": "inner_random_free.jsonl-4-1-1-1", "answer": ["up", "take", "drop"]}),
    json.dumps({"custom_id": "inner_random_free.jsonl-5-0-0-0",
                "response": {"status_code": 429, "body": {"error": {"message": "Rate limit reached"}}}}),
]


def test_broken_records_are_reported_with_their_lines_and_the_rest_scored(shared_data, tmp_path, capsys):
    answers = tmp_path / "answers.jsonl"
    answers.write_text("\n".join(BROKEN_RECORDS) + "\n")
    out = tmp_path / "out.jsonl"
    assert main(["evaluate", "grasp", str(answers), "-o", str(out), "--data", str(shared_data), "--summary"]) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["line"] for r in rows] == [1, 2, 3, 4, 5, 6, 7, 8, 9]
    errors = {r["line"]: r["error"] for r in rows if "error" in r}
    assert set(errors) == {2, 3, 4, 5, 6, 9}
    assert errors[9] == "the request failed (HTTP status 429): Rate limit reached"
    assert "not JSON" in errors[2] and "index 999" in errors[3] and "no answer" in errors[4]
    assert "the request failed" in errors[6]
    assert rows[6]["verdict"]["parsed"] is False and "no list" in rows[6]["verdict"]["parse_error"]
    assert rows[7]["verdict"]["actions"] == ["UP", "TAKE", "DROP"]
    err = capsys.readouterr().err
    assert "line 2" in err and "line 6" in err


def test_seeded_baselines_are_deterministic_and_follow_the_rules(shared_data):
    envs = list(WORLD.instances(["all"], shared_data, indices="0-2"))
    for env in envs:
        rules = GraspRules(env)
        walk = random_walk(env, random.Random(f"{env.id}/0"))
        assert walk == random_walk(env, random.Random(f"{env.id}/0"))
        assert len(walk) == 19 and walk[1::2][:6] == [Action.TAKE] * 6 and walk[-1] is Action.DROP
        plan = greedy(env, random.Random(f"{env.id}/0"))
        assert plan == greedy(env, random.Random(f"{env.id}/0"))
        trace = execute(rules, plan)
        assert len(plan) <= 20
        # greedy never takes from an empty cell; like the paper's, it ignores the carry limit
        assert all("carry limit" in step.reason for step in trace.steps if not step.ok)
        assert trace.strictly_valid or env.setting.carry_limit is not None
        assert trace.final.position == env.grid.start and trace.final.carried == 0
        if env.setting.carry_limit is None:
            assert trace.final.energy[env.grid.start[0] * 11 + env.grid.start[1]] == plan.count(Action.TAKE)


def test_solve_command_runs_the_baselines(shared_data, capsys):
    assert main(["solve", "grasp", "outer_cluster_free.jsonl-5-1-0-1", "--planner", "greedy", "--seed", "3",
                 "--data", str(shared_data)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["planner"] == "greedy" and result["status"] == "solved" and result["proven_optimal"] is False
    # greedy brings every unit it takes back to the start: the units taken minus 0.3 a step (this setting's cost)
    plan = result["plan"]
    assert plan[-1] == "DROP" and result["values"]["delivered"] == pytest.approx(plan.count("TAKE") - 0.3 * len(plan))
    assert (len(plan), plan.count("TAKE"), result["values"]["delivered"]) == (19, 6, 0.3)


@needs_fast_downward
def test_solve_command_gives_the_certified_optimum_and_checks_agree(shared_data, tmp_path, capsys):
    env_id = "outer_cluster_block.jsonl-3-0-0-0"
    for rule in ("paper", "delivered"):
        assert main(["solve", "grasp", env_id, "--rule", rule, "--data", str(shared_data)]) == 0
        native = json.loads(capsys.readouterr().out)
        assert native["planner"] == "native" and native["proven_optimal"] is True and native["rule"] == rule
        assert native["values"][rule] == published_optima()[env_id][rule]
        (tmp_path / "plan.txt").write_text(str(native["plan"]).replace("'", ""))
        assert main(["check", "grasp", env_id, str(tmp_path / "plan.txt"), "--json", "--data", str(shared_data)]) == 0
        verdict = json.loads(capsys.readouterr().out)
        assert verdict["scores"][rule] == native["values"][rule] and verdict["ratio"][rule] == 1.0
    assert main(["solve", "grasp", env_id, "--planner", "fast-downward", "--data", str(shared_data)]) == 0
    planner = json.loads(capsys.readouterr().out)
    assert planner["proven_optimal"] is True and planner["values"]["paper"] == published_optima()[env_id]["paper"]
    assert main(["solve", "grasp", env_id, "--planner", "pyperplan", "--data", str(shared_data)]) == 1
    assert json.loads(capsys.readouterr().out)["status"] == "unsupported"


def test_export_command_writes_both_models_for_both_rules(shared_data, tmp_path, capsys):
    assert main(["export", "grasp", "outer_cluster_block.jsonl-3-0-0-0", "inner_random_free.jsonl-0-1-1-1",
                 "--out", str(tmp_path), "--data", str(shared_data)]) == 0
    names = sorted(path.name for path in tmp_path.iterdir())
    assert names == sorted(["grasp-validation-domain.pddl", "grasp-planning-domain.pddl"] + [
        f"{env}.{rule}.{model}.pddl" for env in ("outer_cluster_block.jsonl-3-0-0-0", "inner_random_free.jsonl-0-1-1-1")
        for rule in ("paper", "delivered") for model in ("validation", "planning")])


def test_demo_runs_offline_on_the_shipped_sample():
    report = run_demo()
    assert report.ok and report.scored == 480
    assert set(report.summary.data["models"]) == {"greedy", "random", "gpt-3.5-turbo-0125"}
    assert "step 1: TAKE at (7, 4): the cell holds no energy" in report.showcase
    optimum = {model: (score, best) for model, score, best in report.optimum}
    assert set(optimum) == {"greedy", "random", "gpt-3.5-turbo-0125"}
    assert all(score < best for score, best in optimum.values())
