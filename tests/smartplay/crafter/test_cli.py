"""The crafter world on the command line: worlds, play, check, evaluate, solve, export, prompt."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from plancheck.cli import main
from plancheck.domains.smartplay.crafter import prompts
from plancheck.episodes.log import read_episodes

AGENT = f"{sys.executable} {Path(__file__).parents[2] / 'episodes' / 'agent.py'}"


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_worlds_lists_crafter_and_minecraft_as_unsupported(capsys):
    code, out, _ = run(capsys, "worlds")
    lines = {line.split()[0]: line for line in out.splitlines()}
    assert code == 0 and "SmartPlay Crafter" in lines["crafter"] and "unsupported" in lines["minecraft"]
    listed = json.loads(run(capsys, "worlds", "--json")[1])
    assert {"name": "minecraft", "supported": False}.items() <= listed[-1].items()


def test_play_check_and_evaluate(capsys, tmp_path):
    log = tmp_path / "random.jsonl"
    code, _, err = run(capsys, "play", "crafter", "Crafter", "--policy", "random", "--seed", "2", "--episodes", "2",
                       "--steps", "30", "-o", str(log))
    assert code == 0 and err.count("crafter Crafter seed ") == 2
    assert [e.header.seed for e in read_episodes(log)] == [2, 3]
    code, out, _ = run(capsys, "check", "crafter", str(log), "--episode", "2", "--json")
    verdict = json.loads(out)
    assert code == 0 and verdict["valid"] and verdict["metrics"]["seed"] == 3 and len(verdict["steps"]) == 30
    code, out, _ = run(capsys, "evaluate", "crafter", str(log), "--summary", "--paper", "GPT-4-0613")
    assert code == 0 and "Crafter score" in out and "GPT-4-0613 (paper)" in out and "50.5" in out


def test_play_and_evaluate_give_the_same_output_whatever_the_jobs(capsys, tmp_path):
    """``--jobs`` (issue 22, item 6) as in the other episodic worlds: the same log and verdicts, in seed order."""
    logs, verdicts = [], []
    for jobs in ("1", "2"):
        log = tmp_path / f"log{jobs}.jsonl"
        code, _, err = run(capsys, "play", "crafter", "Crafter", "--policy", "random", "--seed", "5", "--episodes",
                           "3", "--steps", "20", "-o", str(log), "--jobs", jobs)
        assert code == 0 and [line.split(":")[0] for line in err.splitlines()] == [
            f"crafter Crafter seed {seed}" for seed in (5, 6, 7)]
        logs.append(log.read_bytes())
        code, out, _ = run(capsys, "evaluate", "crafter", str(log), "--jobs", jobs)
        assert code == 0 and len(out.splitlines()) == 3
        verdicts.append(out.replace(str(log), "LOG"))
    assert logs[0] == logs[1] and verdicts[0] == verdicts[1]


def test_an_agent_process_plays_and_its_prompts_are_checked(capsys, tmp_path):
    log = tmp_path / "agent.jsonl"
    code, _, _ = run(capsys, "play", "crafter", "Crafter", "--policy", f"cmd:{AGENT}", "--seed", "1", "--steps", "3",
                     "-o", str(log))
    episode = next(iter(read_episodes(log)))
    assert code == 0 and episode.steps[0].prompt[1]["content"] == prompts.manual()
    assert episode.steps[0].prompt[2]["content"].startswith("Most recent 1 steps of the player's in-game observation")
    code, out, _ = run(capsys, "check", "crafter", str(log))
    assert code == 0 and out.splitlines()[1].startswith("PASS")


def test_prompt_is_smartplays_first_question(capsys):
    code, out, _ = run(capsys, "prompt", "crafter", "Crafter", "--json")
    messages = json.loads(out)["messages"]
    assert code == 0 and [m["role"] for m in messages] == ["system"] * 4 + ["user"]
    assert messages[-1]["content"] == "What is the best action to take? Let's think step by step, "


def test_solve_and_export_the_tech_tree(capsys, tmp_path):
    code, out, _ = run(capsys, "solve", "crafter", "Crafter", "--goal", "make_stone_pickaxe", "--no-progress")
    result = json.loads(out)
    assert code == 0 and result["proven_optimal"] and len(result["plan"]) == 8
    code, out, _ = run(capsys, "export", "crafter", "Crafter", "--goal", "collect_iron", "--out", str(tmp_path))
    assert code == 0 and sorted(p.name for p in tmp_path.iterdir()) == ["crafter-collect-iron.pddl",
                                                                       "crafter-domain.pddl"]
    code, _, err = run(capsys, "export", "crafter", "Crafter", "--goal", "wake_up", "--out", str(tmp_path))
    assert code == 2 and "no PDDL model" in err


def test_solve_on_a_seeds_map(capsys):
    code, out, _ = run(capsys, "solve", "crafter", "Crafter", "--goal", "place_table", "--planner", "map",
                       "--map-seed", "1", "--no-progress")
    result = json.loads(out)
    assert code == 0 and result["proven_optimal"] and result["plan"][-1] == "Place Table"
    assert result["real_unlocked_at"] == len(result["plan"]) == result["real_lower_bound"] == 8


@pytest.mark.parametrize("goal", ["eat_cow"])
def test_map_goals_that_need_creatures_are_refused(capsys, goal):
    code, _, err = run(capsys, "solve", "crafter", "Crafter", "--goal", goal, "--planner", "map", "--no-progress")
    assert code == 2 and "needs creatures" in err
