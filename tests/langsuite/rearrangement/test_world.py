"""The Rearrangement world end to end: play, check, evaluate, solve, export, stats on the command line."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from plancheck.cli import main
from plancheck.domains.langsuite.rearrangement.game import RearrangementGame
from plancheck.domains.langsuite.rearrangement.instance import episode, langsuite_batch, select
from plancheck.domains.langsuite.rearrangement.parse import LangSuitEReading
from plancheck.episodes.check import check_episode
from plancheck.episodes.log import read_episodes

EID = "FloorPlan422_21"
AGENT = Path(__file__).parent / "agent.py"


def test_selectors():
    assert len(list(select(["val"]))) == 1000 and len(list(select(["FloorPlan21"]))) == 50
    assert len(langsuite_batch()) == 50 and len(set(langsuite_batch())) == 50


def test_the_reading_names_every_outcome():
    game = RearrangementGame(episode(EID), {"level": "low"})
    game.reset()
    reading = LangSuitEReading()
    assert reading.read("I cannot", game.actions()).action == "(opening: refused)"
    game.step("(opening: accepted)", "YES")
    menu = game.actions()
    assert reading.read("Thought: hmm", menu).action == "(thought)"
    several = reading.read("Act: move_ahead then turn_left", menu)
    assert (several.status, several.action) == ("ambiguous", "(several actions)")
    assert reading.read("Act: dance", menu).status == "none"
    unknown = reading.read("Act: pick_up [banana_9]", menu)
    assert unknown.action == "pick_up" and "banana_9" in unknown.notes[0]
    assert reading.read("Act: pick_up [toiletpaper_0]", menu).action == "pick_up [toiletpaper_0]"


def test_a_list_of_replies_reads_as_its_replies_read():
    from plancheck.domains.langsuite.rearrangement.world import WORLD
    clear = WORLD.check(episode(EID), ["YES", "Thought: look", "Act: move_ahead", "Act: stop"])
    assert (clear.read.status.value, clear.read.why) == ("clear", "4 of 4 replies read clearly")
    mixed = WORLD.check(episode(EID), ["YES", "Act: move_ahead then turn_left", "Act: dance", "Act: stop"])
    assert mixed.read.status.value == "ambiguous"
    assert mixed.read.why == "2 of 4 replies read clearly; ambiguous at step(s) 2; no action at step(s) 3"
    unread = WORLD.check(episode(EID), ["YES", "Act: dance", "Act: stop"])
    assert unread.read.status.value == "clear" and "no action at step(s) 2" in unread.read.why


def test_play_check_and_a_tampered_log(tmp_path, capsys):
    log = tmp_path / "optimal.jsonl"
    assert main(["play", "rearrangement", EID, "--policy", "optimal", "-o", str(log)]) == 0
    (episode_log,) = list(read_episodes(log))
    assert episode_log.steps[-1].action == "stop" and episode_log.steps[-1].done
    from plancheck.domains.langsuite.rearrangement.world import WORLD
    verdict = check_episode(WORLD.episodes, episode_log)
    assert verdict.consistent and verdict.valid
    assert verdict.scores["restored"] == 1.0 and verdict.scores["steps"] == verdict.optimal["steps"] == 13
    lines = log.read_text().splitlines()
    step = json.loads(lines[3])
    step["observation"] = step["observation"].replace("Moved forward", "Moved backward")
    lines[3] = json.dumps(step)
    tampered = tmp_path / "tampered.jsonl"
    tampered.write_text("\n".join(lines) + "\n")
    capsys.readouterr()
    assert main(["check", "rearrangement", str(tampered)]) == 1
    assert "step 3: the observation is 'Feedback: Action succeeded. Moved backward" in capsys.readouterr().out


def test_an_agent_process_plays_and_its_prompts_are_checked(tmp_path):
    log = tmp_path / "agent.jsonl"
    assert main(["play", "rearrangement", EID, "--policy", f"cmd:{sys.executable} {AGENT}", "-o", str(log)]) == 0
    (played,) = list(read_episodes(log))
    assert [s.action for s in played.steps] == ["(opening: accepted)", "(thought)", "turn_left", "turn_left", "stop"]
    assert played.steps[2].prompt[-1]["content"] == "OK."  # the thought's answer is the next prompt
    assert main(["check", "rearrangement", str(log)]) == 1  # goal not reached
    from plancheck.domains.langsuite.rearrangement.world import WORLD
    assert check_episode(WORLD.episodes, played).consistent


def test_replies_check_solve_export_stats_and_the_summary(tmp_path, capsys):
    replies = tmp_path / "replies.json"
    replies.write_text(json.dumps(["YES", "Act: goto [toilet_0]", "Act: stop"]))
    assert main(["check", "rearrangement", EID, str(replies), "--json"]) == 1
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["failure"]["step"] == 2 and "not an action of the low-level prompt" in verdict["failure"]["reason"]
    assert main(["check", "rearrangement", EID, str(replies), "--semantics", "benchmark"]) == 1  # no success
    capsys.readouterr()
    assert main(["solve", "rearrangement", EID]) == 0  # its output is JSON lines: solve has no --json
    solved = json.loads(capsys.readouterr().out)
    assert solved["proven_optimal"] and solved["values"]["actions"] == 11 and solved["plan"][0] == "YES"
    assert main(["export", "rearrangement", EID, "--out", str(tmp_path / "pddl")]) == 0
    assert (tmp_path / "pddl" / "langsuite-rearrangement-domain.pddl").is_file()
    capsys.readouterr()
    assert main(["stats", "rearrangement", "FloorPlan422_21", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["rows"][0][:3] == ["FloorPlan422_21", "val", 3]
    logs = tmp_path / "logs"
    logs.mkdir()
    assert main(["play", "rearrangement", EID, "--policy", "optimal", "--model", "optimal-play",
                 "-o", str(logs / "a.jsonl")]) == 0
    assert main(["play", "rearrangement", EID, "--policy", "expert", "--model", "expert-play",
                 "-o", str(logs / "b.jsonl")]) == 0
    capsys.readouterr()
    assert main(["evaluate", "rearrangement", str(logs), "--summary", "--json"]) == 0
    table = json.loads(capsys.readouterr().out)
    players = {row[0]: row for row in table["rows"] if row[1] == "low"}
    assert players["optimal-play"][3:7] == players["optimal (reference)"][3:7]
    # this expert run crashes (LangSuitE's expert finds no path); the played log ends it with a stop
    assert players["expert-play"][3:6] == players["expert (reference)"][3:6]
    assert players["expert-play"][6] == players["expert (reference)"][6] + 1
    assert players["ReAct (paper, gpt-3.5)"][3] == 5.0
