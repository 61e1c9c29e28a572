"""The three Messenger worlds on the command line: play, check (seeded replay and observation), evaluate,
stats, prompt, solve and export (L1)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from plancheck.cli import main
from plancheck.domains.smartplay.messenger import report
from plancheck.domains.smartplay.messenger.solve import reference_score
from plancheck.domains.smartplay.messenger.world import WORLD_L2, WORLD_L3
from plancheck.episodes.log import read_episodes

AGENT = f"{sys.executable} {Path(__file__).parent.parent.parent / 'episodes' / 'agent.py'}"
POLICIES = {1: "optimal", 2: "planner", 3: "planner"}


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def unseed(path: Path) -> Path:
    lines = path.read_text().splitlines()
    header = json.loads(lines[0])
    header["seed"] = None
    out = path.with_name("unseeded-" + path.name)
    out.write_text("\n".join([json.dumps(header)] + lines[1:]) + "\n")
    return out


def test_the_three_levels_are_worlds(capsys):
    code, out, _ = run(capsys, "worlds")
    assert code == 0 and re.search(r"^messenger-l1 +SmartPlay MessengerL1 ", out, re.M)
    assert "messenger-l2" in out and "messenger-l3" in out


@pytest.mark.parametrize("level", [1, 2, 3])
def test_play_then_check_by_replay_and_by_observation(level, capsys, tmp_path):
    log = tmp_path / "played.jsonl"
    for policy in (POLICIES[level], "random"):
        code, _, err = run(capsys, "play", f"messenger-l{level}", f"MessengerL{level}", "--policy", policy,
                           "--seed", "4", "-o", str(log))
        assert code == 0 and f"MessengerL{level} seed 4" in err
        for path, how in ((log, "replay of the seed"), (unseed(log), "observation")):
            code, out, _ = run(capsys, "check", f"messenger-l{level}", str(path), "--json")
            verdict = json.loads(out)
            assert code == 0 and verdict["valid"] and how in verdict["form"], verdict["failure"]
        if policy != "random":
            assert verdict["scores"]["score"] == 1 and verdict["metrics"]["won"]


def _tamper(path: Path, step: int, change) -> None:
    lines = path.read_text().splitlines()
    record = json.loads(lines[step])
    change(record)
    lines[step] = json.dumps(record)
    path.write_text("\n".join(lines) + "\n")


def test_an_l1_log_is_replayed_exactly_even_without_its_seed(capsys, tmp_path):
    log = tmp_path / "l1.jsonl"
    run(capsys, "play", "messenger-l1", "MessengerL1", "--policy", "optimal", "--seed", "0", "-o", str(log))
    unseeded = unseed(log)
    _tamper(unseeded, 2, lambda step: step.update(reward=-1.0, score=-1.0))
    code, out, _ = run(capsys, "check", "messenger-l1", str(unseeded))
    assert code == 1 and "step 2: the reward is -1.0 but the rules give 1.0 (the avatar is at row 3, column 5" in out
    _tamper(unseeded, 0, lambda header: header.update(observation=header["observation"].replace("north", "west")))
    code, out, _ = run(capsys, "check", "messenger-l1", str(unseeded))
    assert code == 1 and "step 0: the first observation: two entities are shown on the same cell" in out


def test_an_l2_text_the_rules_cannot_produce_is_named(capsys, tmp_path):
    log = tmp_path / "l2.jsonl"
    run(capsys, "play", "messenger-l2", "MessengerL2", "--policy", "random", "--seed", "2", "-o", str(log))
    unseeded = unseed(log)
    _tamper(unseeded, 3, lambda step: step.update(observation=re.sub(
        r"(\d+) steps to your", lambda m: f"{int(m.group(1)) + 4} steps to your", step["observation"], count=1)))
    code, out, _ = run(capsys, "check", "messenger-l2", str(unseeded))
    assert code == 1 and re.search(r"step 3: the text says '\w+ \d+ steps to your [a-z-]+', but the rules allow", out)


def test_an_agent_plays_with_smartplays_prompts_and_a_wrong_manual_is_caught(capsys, tmp_path):
    log = tmp_path / "agent.jsonl"
    code, _, _ = run(capsys, "play", "messenger-l2", "MessengerL2", "--policy", f"cmd:{AGENT}", "--seed", "1",
                     "-o", str(log))
    [episode] = read_episodes(log)
    assert code == 0 and episode.steps[0].prompt[1]["content"].startswith("In the game, MESSENGER")
    assert episode.steps[2].prompt[2]["content"].startswith("Most recent 2 steps of the player's in-game observation")
    unseeded = unseed(log)
    assert run(capsys, "check", "messenger-l2", str(unseeded))[0] == 0
    _tamper(unseeded, 1, lambda step: step["prompt"][1].update(content=step["prompt"][1]["content"].replace(
        "\n\nTo solve", " Really.\n\nTo solve")))
    code, out, _ = run(capsys, "check", "messenger-l2", str(unseeded))
    assert code == 1 and "step 0: the manual's sentences are not three sentences SmartPlay draws" in out


def test_evaluate_prints_the_papers_columns_beside_the_references(capsys, tmp_path):
    folder = tmp_path / "logs"
    folder.mkdir()
    run(capsys, "play", "messenger-l1", "MessengerL1", "--policy", "random", "--seed", "0", "--episodes", "6",
        "-o", str(folder / "random.jsonl"))
    code, out, _ = run(capsys, "evaluate", "messenger-l1", str(folder), "--summary", "--paper", "GPT-4-0613")
    assert code == 0 and "6 records scored, 0 broken" in out
    assert re.search(r"^random \(expected\) +- +0\.46 +-0\.08", out, re.M)
    assert re.search(r"^always Move North \(expected\) +- +0\.38 +-0\.25", out, re.M)
    assert re.search(r"^GPT-4-0613 \(paper\) +- +0\.90 +0\.80", out, re.M)


def test_stats_and_the_recorded_references(capsys):
    code, out, _ = run(capsys, "stats", "messenger-l1")
    assert code == 0 and "optimal" in out and "0.46" in out
    code, out, _ = run(capsys, "stats", "messenger-l3")
    assert code == 0 and "MessengerL3" in out
    assert {label.split(",")[0] for label, _ in report.references(2)} == {"random", "always Move North", "planner"}


@pytest.mark.parametrize("world, name", [(WORLD_L2, "planner"), (WORLD_L2, "random"), (WORLD_L3, "north")])
def test_recorded_reference_runs_replay_to_the_same_scores(world, name):
    runs = report.recorded_runs()[str(world.level)][name]
    first = runs["seeds"][0]
    for offset in range(3):
        assert reference_score(world.level, first + offset, name) == runs["scores"][offset]


def test_solve_and_export_l1_episodes(capsys, tmp_path):
    code, out, _ = run(capsys, "solve", "messenger-l1", "MessengerL1/seed=0..2", "--planner", "bfs")
    results = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and all(r["proven_optimal"] and len(r["plan"]) == 2 for r in results)
    code, out, _ = run(capsys, "export", "messenger-l1", "MessengerL1/seed=3", "--out", str(tmp_path / "pddl"))
    assert code == 0 and sorted(p.name for p in (tmp_path / "pddl").iterdir()) == [
        "messenger-l1-domain.pddl", "messengerl1-v0-seed3.pddl"]
    code, _, err = run(capsys, "solve", "messenger-l1", "MessengerL1")
    assert code == 2 and "name one, e.g. MessengerL1/seed=7" in err


def test_an_unseeded_log_without_its_start_or_with_a_garbled_text_is_named(capsys, tmp_path):
    log = tmp_path / "l2.jsonl"
    run(capsys, "play", "messenger-l2", "MessengerL2", "--policy", "planner", "--seed", "5", "-o", str(log))
    unseeded = unseed(log)
    _tamper(unseeded, 2, lambda step: step.update(observation=step["observation"].replace("steps to your",
                                                                                          "step toward your", 1)))
    code, out, _ = run(capsys, "check", "messenger-l2", str(unseeded))
    assert code == 1 and "step 2: line 6: '- " in out and "is not '- <name> <d> steps to your <direction>'" in out
    _tamper(unseeded, 0, lambda header: header.pop("observation"))
    code, out, _ = run(capsys, "check", "messenger-l2", str(unseeded))
    assert code == 1 and "step 0: the first observation is not logged" in out
