"""The SmartPlay episode worlds on the command line: play, check, evaluate, stats, prompt, convert."""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

import pytest

from plancheck.cli import main
from plancheck.domains.smartplay import _frame
from plancheck.episodes.log import read_episodes

AGENT = f"{sys.executable} {Path(__file__).parent.parent / 'episodes' / 'agent.py'}"
GAMES = {"bandits": "BanditTwoArmedHighLowFixed", "rps": "RockPaperScissorBasic"}


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("world", GAMES)
def test_play_check_and_evaluate(world, capsys, tmp_path):
    log = tmp_path / "logs" / "bayes.jsonl"
    log.parent.mkdir()
    code, _, err = run(capsys, "play", world, GAMES[world], "--policy", "bayes", "--seed", "5", "--episodes", "3",
                       "-o", str(log))
    assert code == 0 and err.count(f"{world} {GAMES[world]} seed ") == 3
    assert [e.header.seed for e in read_episodes(log)] == [5, 6, 7]
    code, _, err = run(capsys, "check", world, str(log))
    assert code == 2 and "holds 3 episodes; choose one with --episode K" in err
    code, out, _ = run(capsys, "check", world, str(log), "--episode", "2", "--json")
    verdict = json.loads(out)
    assert code == 0 and verdict["valid"] and verdict["metrics"]["seed"] == 6 and len(verdict["steps"]) == 50
    lines = log.read_text().splitlines()
    step = json.loads(lines[51 + 7])  # the second episode's step 7
    step["reward"] = -step["reward"] if step["reward"] else 1
    lines[51 + 7] = json.dumps(step)
    log.write_text("\n".join(lines) + "\n")
    code, out, _ = run(capsys, "check", world, str(log), "--episode", "2")
    assert code == 1 and "strictly valid: no, step 7: the reward is" in out and "the log contradicts the rules" in out
    code, out, _ = run(capsys, "evaluate", world, str(log.parent), "--summary", "--paper", "gpt-4-0613,Human")
    assert code == 0 and "GPT-4-0613 (paper)" in out and "Human (paper)" in out and "Bayes-optimal (expected)" in out
    assert "3 records scored, 0 broken" in out
    model_row = next(line for line in out.splitlines() if line.startswith("reference:bayes"))
    assert model_row.split()[1:2] == ["3"] and model_row.split()[-1] == "1"  # one inconsistent episode
    code, out, _ = run(capsys, "evaluate", world, str(log))
    assert code == 0 and [json.loads(line)["verdict"]["valid"] for line in out.splitlines()] == [True, False, True]


def test_an_agent_process_plays_with_smartplays_prompts_which_check_verifies(capsys, tmp_path):
    log = tmp_path / "agent.jsonl"
    code, _, _ = run(capsys, "play", "bandits", "BanditTwoArmedHighLowFixed", "--policy", f"cmd:{AGENT}",
                     "--model", "scripted", "-o", str(log))
    [episode] = read_episodes(log)
    assert code == 0 and episode.header.model == "scripted" and episode.header.policy.startswith("cmd:")
    step = episode.steps[3]
    assert step.reply == "I choose: Pull slot machine 2." and step.earlier[0].startswith("Thinking about step 4")
    assert [m["role"] for m in step.prompt] == ["system"] * 4 + ["user", "assistant", "user"]
    assert step.prompt[-1]["content"] == _frame.QUESTIONS[1]
    code, out, _ = run(capsys, "check", "bandits", str(log))
    assert code == 0 and "score[score]: " in out
    lines = log.read_text().splitlines()
    data = json.loads(lines[4])
    data["prompt"][2]["content"] = data["prompt"][2]["content"].replace("Step 1:", "Step 2:")
    lines[4] = json.dumps(data)
    log.write_text("\n".join(lines) + "\n")
    code, out, _ = run(capsys, "check", "bandits", str(log))
    assert code == 1 and "step 4: prompt message 3 (system) differs from the benchmark's at character" in out


def test_the_strict_reading_ends_an_episode_at_an_unreadable_reply(capsys, tmp_path):
    replies = tmp_path / "replies.json"
    replies.write_text(json.dumps(["Rock", "paper!", "I'd play scissors or rock", "Paper"]))
    log = tmp_path / "strict.jsonl"
    code, _, _ = run(capsys, "play", "rps", "RockPaperScissorBasic", "--policy", f"replay:{replies}",
                     "--reading", "strict", "-o", str(log))
    [episode] = read_episodes(log)
    assert code == 0 and [s.action for s in episode.steps] == ["Rock", "Paper", None]
    code, out, _ = run(capsys, "check", "rps", str(log))
    assert code == 1 and "step 3: the reply names no action the strict reading accepts (the reply names several " \
                         "actions (Scissor, Rock); the reply's committed answer is Rock (several actions named and " \
                         "none marked as the answer; the last named was read)); the episode ends here" in out
    code, out, _ = run(capsys, "check", "rps", str(log), "--semantics", "benchmark")
    assert code == 0
    code, _, err = run(capsys, "play", "rps", "RockPaperScissorBasic", "--policy", f"replay:{replies}")
    assert code == 2 and "has replies for 4 step(s); the episode needs step 5" in err


def test_stats_prompt_and_usage(capsys):
    code, out, _ = run(capsys, "stats", "bandits")
    assert code == 0 and "Bayes-optimal (expected)  48.61        1.08" in out
    code, out, _ = run(capsys, "stats", "rps", "--json")
    assert code == 0 and ["", "", "", "", "Bayes-optimal (expected)", 46.17754139196861, 1.073896311441130] in \
        [[round(c, 15) if isinstance(c, float) else c for c in row] for row in json.loads(out)["rows"]]
    code, out, _ = run(capsys, "prompt", "rps", "all", "--json")
    messages = json.loads(out)["messages"]
    assert code == 0 and messages[-1]["content"] == _frame.QUESTIONS[0] and len(messages) == 4
    code, _, err = run(capsys, "play", "rps", "RockPaperScissorBasic", "--policy", "nonsense")
    assert code == 2 and "offers oracle, bayes, random, replay:FILE and cmd:'COMMAND'" in err
    code, _, err = run(capsys, "play", "bandits", "Bandit", "--policy", "bayes")
    assert code == 2 and "not a bandit instance" in err
    assert main(["solve", "bandits", "all"]) == 2  # the bandit has nothing to solve: said plainly
    assert "the bandits world does not offer solve" in capsys.readouterr().err


@pytest.mark.parametrize("form", ["csv", "jsonl"])
def test_convert_smartplay_style_tables(form, capsys, tmp_path):
    log = tmp_path / "agent.jsonl"
    run(capsys, "play", "rps", "RockPaperScissorBasic", "--policy", f"cmd:{AGENT}", "--seed", "9", "-o", str(log))
    [episode] = read_episodes(log)
    observations = [episode.header.observation] + [s.observation for s in episode.steps]
    table, total = [], 0
    for k, step in enumerate(episode.steps):  # written as SmartPlay's harness writes its table: row k before step k+1
        previous = episode.steps[k - 1] if k else None
        table.append({"Context": step.prompt[1]["content"], "Step": k, "OBS": observations[k],
                      "History": _frame.history(observations[:k], 50), "Score": previous.score if previous else 0,
                      "Reward": previous.reward if previous else 0, "Total Reward": total,
                      _frame.QUESTIONS[0]: step.earlier[0], _frame.QUESTIONS[1]: step.reply, "Action": step.action})
        total += step.reward
    path = tmp_path / f"run.{form}"
    if form == "csv":
        with open(path, "w", newline="", encoding="utf-8") as stream:
            writer = csv.DictWriter(stream, fieldnames=list(table[0]))
            writer.writeheader()
            writer.writerows(table)
    else:
        path.write_text("".join(json.dumps(row) + "\n" for row in table))
    converted = tmp_path / "converted.jsonl"
    code, _, err = run(capsys, "convert", "rps", str(path), "--seed", "9", "-o", str(converted))
    assert code == 0 and "wrote 1 episode(s)" in err
    [back] = read_episodes(converted)
    assert back.steps[-1].observation is None and back.steps[0].prompt == episode.steps[0].prompt
    code, out, _ = run(capsys, "check", "rps", str(converted), "--json")
    assert code == 0 and json.loads(out)["scores"]["score"] == episode.steps[-1].score


def test_smartplay_s_fallback_and_a_differing_answer_are_not_read_clearly(capsys, tmp_path):
    """SmartPlay's action is the one taken (the log stays SmartPlay's), but a reply it mapped to action 0 or whose
    committed answer differs is not clear: the step, the log, evaluate's read line and the rows say so."""
    replies = tmp_path / "replies.json"
    replies.write_text(json.dumps(["Pull slot machine 2",
                                   "Pull slot machine 1. paid less.\nAction: Pull slot machine 2.",
                                   "Final answer: Pull slot machine 2. (not Pull slot machine 1.)"]))
    log = tmp_path / "play" / "log.jsonl"
    log.parent.mkdir()
    code, _, _ = run(capsys, "play", "bandits", "BanditTwoArmedHighLowFixed", "--policy", f"replay:{replies}",
                     "--steps", "3", "-o", str(log))
    [episode] = read_episodes(log)
    assert code == 0 and [s.action for s in episode.steps] == ["Pull slot machine 1."] * 2 + ["Pull slot machine 2."]
    assert [s.read for s in episode.steps] == ["ambiguous", "ambiguous", "clear"]
    assert episode.steps[1].notes == ("SmartPlay takes Pull slot machine 1., the action written first",
                                      "the reply's committed answer is Pull slot machine 2. (introduced as the "
                                      "answer: 'Action:'), not Pull slot machine 1.")
    code, out, _ = run(capsys, "check", "bandits", str(log))
    assert code == 0 and "read: ambiguous (1 of 3 replies read clearly; ambiguous at step(s) 1, 2; the benchmark's " \
                         "rule took an action the reply does not commit to at step(s) 1, 2)" in out
    rows = tmp_path / "rows.jsonl"
    code, out, _ = run(capsys, "evaluate", "bandits", str(log), "--summary", "-o", str(rows))
    assert "read: 0 clear, 1 ambiguous, 0 none" in out
    assert [json.loads(line)["read"] for line in rows.read_text().splitlines()] == ["ambiguous"]
