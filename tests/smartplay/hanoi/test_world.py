"""The Hanoi world end to end: verdicts, answer files, the PDDL export and planners, solve, the CLI."""

from __future__ import annotations

import io
import json
import random

import pytest

from plancheck import cli, registry
from plancheck.domains.smartplay.hanoi.instance import HanoiInstance
from plancheck.domains.smartplay.hanoi.pddl import DOMAIN_FILE, export, hanoi_domain, hanoi_problem, to_pddl_plan
from plancheck.domains.smartplay.hanoi.rules import HanoiRules, Move, apply, initial_state
from plancheck.domains.smartplay.hanoi.solve import certify, recursive_plan, solve
from plancheck.domains.smartplay.hanoi.world import WORLD
from plancheck.solvers.result import Status
from plancheck.solvers.search import breadth_first_search
from plancheck.translators.pddl_plan import plan_text
from plancheck.translators.pddl_reader import read_domain, read_problem
from plancheck.verifier.execute import execute
from plancheck.verifier.pddl_exec import PddlRules
from plancheck.verifier.pddl_validate import validate_text
from tests.extras import needs_fast_downward, needs_pyperplan, needs_symk

H3 = HanoiInstance(3)
OPTIMAL_3 = "\n".join(move.sentence for move in recursive_plan(3))


def test_optimal_answer_passes_with_full_scores():
    verdict = WORLD.check(H3, OPTIMAL_3)
    assert verdict.valid and verdict.goal_step == 7 and verdict.form == "move lines"
    assert verdict.scores == {"score": 3, "normalised": 1.0, "completion": 1, "reward": 100}
    assert verdict.ratio("score") == 1.0 and verdict.metrics["invalid_moves"] == 0


def test_invalid_moves_cost_reward_and_stay_no_ops():
    verdict = WORLD.check(H3, "A->C\nA->C\nA->B\nC->B")
    assert not verdict.valid and verdict.failure.step == 2
    assert verdict.failure.reason == "A->C puts disk 1 on the smaller disk 0"
    assert verdict.scores["reward"] == -1 and verdict.scores["score"] == 0 and verdict.metrics["invalid_moves"] == 1
    assert [s.ok for s in verdict.steps] == [True, False, True, True]
    assert verdict.steps[-1].state == "A[2] B[1, 0] C[]"


@pytest.mark.parametrize("unknown, executed, reward, final", [
    ("noop", 3, -1, "A[2, 1] B[0] C[]"), ("skip", 2, 0, "A[2, 1] B[0] C[]"), ("action0", 3, 0, "A[2] B[1, 0] C[]")])
def test_unknown_slot_policies(unknown, executed, reward, final):
    verdict = WORLD.check(H3, '["A->C", "teleport", "C->B"]', unknown=unknown)
    assert verdict.metrics["executed"] == executed and verdict.scores["reward"] == reward
    assert verdict.metrics["final"] == final
    assert [s.text for s in verdict.spans] == ["teleport"]
    assert any("action 0" in note for note in verdict.notes) == (unknown == "action0")


def test_action_lists_and_unparseable_answers():
    assert WORLD.check(H3, [m.sentence for m in recursive_plan(3)]).scores["completion"] == 1
    verdict = WORLD.check(H3, "I would think about it.")
    assert not verdict.parsed and verdict.goal_reached is False


def test_steps_past_the_goal_are_ignored_by_the_score_but_not_by_strict_validity():
    verdict = WORLD.check(H3, OPTIMAL_3 + "\nA->B")
    assert verdict.ignored == 1 and verdict.scores["score"] == 3 and verdict.goal_step == 7
    assert not verdict.valid and (verdict.failure.step, verdict.failure.action) == (8, "A->B")
    assert WORLD.check(H3, OPTIMAL_3).valid


def test_smartplay_files_evaluate_to_the_recorded_outcomes(shared_data):
    folder = shared_data / "smartplay"
    rollouts = json.loads((folder / "hanoi_optimal_rollouts.json").read_text())
    records = list(WORLD.read_answers(folder / "hanoi_optimal_rollouts.json", shared_data))
    assert [r.instance for r in records] == ["Hanoi3Disk-v0", "Hanoi4Disk-v0"]
    lines = (folder / "hanoi_optimal_rollouts.json").read_text().split("\n")
    assert [lines[r.line - 1].strip() for r in records] == ['"Hanoi3Disk": {', '"Hanoi4Disk": {']  # where each starts
    for record, recorded in zip(records, rollouts.values(), strict=True):
        verdict = WORLD.check(WORLD.resolve(record, shared_data), list(record.actions))
        last = recorded["steps"][-1]
        assert verdict.scores["score"] == last["score"] and verdict.scores["completion"] == last["completed"]
        assert verdict.scores["reward"] == sum(step["reward"] for step in recorded["steps"])
    example = json.loads((folder / "hanoi3_invalid_and_score_drop_example.json").read_text())
    (record,) = WORLD.read_answers(folder / "hanoi3_invalid_and_score_drop_example.json", shared_data)
    verdict = WORLD.check(WORLD.resolve(record, shared_data), list(record.actions))
    assert verdict.scores["score"] == example["steps"][-1]["score"]
    assert verdict.scores["reward"] == sum(step["reward"] for step in example["steps"])
    assert verdict.metrics["invalid_moves"] == sum(step["invalid_action"] for step in example["steps"])


def test_jsonl_answers(tmp_path):
    path = tmp_path / "answers.jsonl"
    path.write_text("\n".join([
        json.dumps({"instance": "hanoi-3", "response": OPTIMAL_3}),
        json.dumps({"env_id": "Hanoi4Disk-v0", "answer": [1, 0]}),
        "not json",
        json.dumps({"instance": "hanoi-3"}),
        json.dumps({"instance": "hanoi-3", "answer": [7]}),
    ]) + "\n")
    records = list(WORLD.read_answers(path, None))
    assert records[0].text == OPTIMAL_3 and records[1].actions == (Move.AC.sentence, Move.AB.sentence)
    assert [getattr(r, "reason", None) is not None for r in records] == [False, False, True, True, True]
    assert records[2].line == 3 and "not JSON" in records[2].reason


# -- PDDL --------------------------------------------------------------------------------------------

def test_export_reads_back_and_validates_the_optimal_plan():
    for disks in (1, 3, 4):
        instance = HanoiInstance(disks)
        files = export(instance)
        domain = read_domain(files[DOMAIN_FILE])
        assert domain == hanoi_domain()
        assert read_problem(files[f"{instance.id}.pddl"], domain) == hanoi_problem(instance)
        report = validate_text(files[DOMAIN_FILE], files[f"{instance.id}.pddl"],
                               plan_text(to_pddl_plan(instance, recursive_plan(disks))))
        assert report.valid and report.cost == 2 ** disks - 1


def test_native_rules_and_pddl_agree_on_random_moves():
    """For random move sequences, a move is valid natively iff its PDDL instance is applicable, and the
    states correspond."""
    rng = random.Random(11)
    instance = HanoiInstance(3)
    rules = PddlRules(hanoi_domain(), hanoi_problem(instance))
    for _ in range(60):
        native, pddl, history = initial_state(3), rules.initial_state(), []
        for _ in range(12):
            move = rng.choice(list(Move))
            outcome = apply(native, move)
            rods = (move.name[0].lower(), move.name[1].lower())
            instances = [a for a in rules.actions(pddl) if (a[2], a[3]) == rods]
            assert bool(instances) == outcome.ok
            if outcome.ok:
                history.append(move)
                assert instances == [to_pddl_plan(instance, history)[-1]]
                native, pddl = outcome.state, rules.step(pddl, instances[0]).state
            on_rod = {(atom[1], atom[2]) for atom in pddl if atom[0] == "on-rod" and atom[1].startswith("d")}
            assert on_rod == {(f"d{disk}", rod.lower()) for rod, disks in zip("ABC", native) for disk in disks}


def test_breadth_first_search_on_the_export_finds_7_moves():
    result = breadth_first_search(PddlRules(hanoi_domain(), hanoi_problem(H3)))
    assert result.cost == 7


@pytest.mark.parametrize("planner", [pytest.param("fast-downward", marks=needs_fast_downward),
                                     pytest.param("pyperplan", marks=needs_pyperplan)])
@pytest.mark.parametrize("disks", [3, 4])
def test_planners_find_certified_optimal_plans(planner, disks):
    result = solve(HanoiInstance(disks), planner, timeout=120)
    assert result.status is Status.SOLVED, result.message
    assert result.proven_optimal and len(result.plan) == 2 ** disks - 1
    assert result.values["completion"] == 1


@pytest.mark.slow
@needs_symk
@pytest.mark.parametrize("disks", [3, 4])
def test_symk_finds_certified_optimal_plans(disks):
    result = solve(HanoiInstance(disks), "symk", timeout=300)
    assert result.status is Status.SOLVED and result.proven_optimal


def test_native_solution_is_smartplays_published_optimum(shared_data):
    rollouts = json.loads((shared_data / "smartplay" / "hanoi_optimal_rollouts.json").read_text())
    for record in rollouts.values():
        result = solve(HanoiInstance(record["num_disks"]))
        assert result.extra["action_indices"] == record["optimal_plan_action_indices"]
        assert result.proven_optimal and result.values["score"] == record["num_disks"]


def test_certification_rejects_bad_plans():
    assert certify(H3, recursive_plan(3)[:-1]) == "the plan does not end with every disk on rod C"
    assert certify(H3, [Move.BA]).startswith("move 1: B->A moves from rod B")
    beyond = solve(HanoiInstance(5))
    assert beyond.proven_optimal and beyond.values["completion"] == 0 and "30-step limit" in beyond.message
    assert execute(HanoiRules(HanoiInstance(5)), recursive_plan(5)).ignored == 1


# -- the command line ----------------------------------------------------------------------------

@pytest.fixture
def run(monkeypatch, capsys):
    monkeypatch.setattr(registry, "WORLDS", {"hanoi": registry.WORLDS["hanoi"]})

    def invoke(*args: str, stdin: str = ""):
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(stdin.encode())))
        code = cli.main(list(args))
        out, err = capsys.readouterr()
        return code, out, err
    return invoke


def test_cli_prompt_is_smartplays_message_list(run, shared_data):
    code, out, _ = run("prompt", "hanoi", "Hanoi3Disk-v0", "--style", "smartplay", "--json")
    messages = json.loads(out)["messages"]
    assert code == 0 and [m["role"] for m in messages] == ["system", "system", "system", "user"]
    assert messages[0]["content"] == "You\u2019re a player trying to play the game."
    assert messages[1]["content"] == (shared_data / "smartplay" / "hanoi3_manual.txt").read_text()
    assert messages[2]["content"] == "current step observation: Current configuration:\n- A: |bottom, [2, 1, 0], " \
                                     "top|\n- B: |bottom, [], top|\n- C: |bottom, [], top|"
    assert messages[3]["content"].startswith("Choose the best executable action")
    code, out, _ = run("prompt", "hanoi", "hanoi-4")
    assert code == 0 and "=== hanoi-4: user ===\nSolve the game" in out and "[3, 2, 1, 0]" in out


def test_cli_check_exit_codes(run):
    assert run("check", "hanoi", "hanoi-3", "-", stdin=OPTIMAL_3)[0] == 0
    code, out, _ = run("check", "hanoi", "hanoi-3", "-", stdin="A->B\nA->B")
    assert code == 1 and "strictly valid: no, step 2: A->B puts disk 1 on the smaller disk 0" in out
    assert "FAIL (not strictly valid, goal not reached) under strict semantics" in out
    code, out, _ = run("check", "hanoi", "hanoi-3", "-", "--semantics", "benchmark", stdin="A->B\nA->B")
    assert code == 1 and "FAIL (goal not reached) under benchmark semantics" in out  # the headline says why
    code, out, _ = run("check", "hanoi", "hanoi-3", "-", stdin="A->C")
    assert code == 1 and "FAIL (goal not reached) under strict semantics" in out and "strictly valid: yes" in out
    assert run("check", "hanoi", "hanoi-3", "-", stdin="no idea")[0] == 1  # no plan in the answer: check failed
    assert run("check", "hanoi", "hanoi-0", "-", stdin="A->C")[0] == 2


def test_cli_evaluate_summary(run, shared_data, tmp_path):
    path = tmp_path / "answers.jsonl"
    path.write_text(json.dumps({"instance": "hanoi-3", "response": OPTIMAL_3}) + "\n"
                    + json.dumps({"instance": "hanoi-3", "response": "A->B"}) + "\n"
                    + json.dumps({"instance": "hanoi-3", "response": "A->C", "model": "gpt"}) + "\n")
    rollouts = str(shared_data / "smartplay" / "hanoi_optimal_rollouts.json")
    code, out, err = run("evaluate", "hanoi", str(path), rollouts, str(path), "--summary", "--json", "--no-progress")
    summary = json.loads(out)
    assert code == 0 and summary["answers"] == 5 and "named twice" in err
    rows = {tuple(row[:2]): row for row in summary["rows"]}  # (model: the record's, else the file's name, instance)
    assert rows["answers", "hanoi-3"][2:6] == [2, 1.0, 1 / 2, (3 + 0) / 2]
    assert rows["gpt", "hanoi-3"][2:6] == [1, 1.0, 0.0, 1.0]
    assert rows["hanoi_optimal_rollouts", "hanoi-3"][2:6] == [1, 1.0, 1.0, 3.0]
    assert rows["hanoi_optimal_rollouts", "hanoi-4"][2:6] == [1, 1.0, 1.0, 4.0]


def test_cli_solve_export_stats(run, tmp_path):
    code, out, _ = run("solve", "hanoi", "all", "--no-progress")
    results = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and [len(r["plan"]) for r in results] == [7, 15] and all(r["proven_optimal"] for r in results)
    code, out, _ = run("export", "hanoi", "hanoi-3", "hanoi-4", "--out", str(tmp_path))
    assert code == 0 and sorted(p.name for p in tmp_path.iterdir()) == ["hanoi-3.pddl", "hanoi-4.pddl", DOMAIN_FILE]
    code, out, _ = run("stats", "hanoi", "hanoi-1..5", "--json")
    assert code == 0 and [row[4] for row in json.loads(out)["rows"]] == [1, 3, 7, 15, 31]
