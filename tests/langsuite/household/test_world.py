"""The Household world end to end: play, check, evaluate, solve, export, stats on the command line."""

from __future__ import annotations

import json

from plancheck.cli import main
from plancheck.domains.langsuite.household.check import check_replies
from plancheck.domains.langsuite.household.instance import task
from plancheck.domains.langsuite.household.rules import Task
from plancheck.domains.langsuite.household.world import WORLD
from plancheck.episodes.check import check_episode
from plancheck.episodes.log import read_episodes

EID = "FloorPlan10-pick_and_place_simple"


def test_play_check_and_a_tampered_log(tmp_path, capsys):
    log = tmp_path / "optimal.jsonl"
    assert main(["play", "household", EID, "--policy", "optimal", "-o", str(log)]) == 0
    (episode,) = list(read_episodes(log))
    assert episode.steps[-1].action == "stop" and episode.steps[-1].score == 1.0
    verdict = check_episode(WORLD.episodes, episode)
    assert verdict.valid and verdict.scores["pw_success"] == 1.0 and verdict.optimal["steps"] == 7
    lines = log.read_text().splitlines()
    step = json.loads(lines[3])
    step["observation"] = step["observation"].replace("Turn left", "Turned left")
    lines[3] = json.dumps(step)
    tampered = tmp_path / "tampered.jsonl"
    tampered.write_text("\n".join(lines) + "\n")
    capsys.readouterr()
    assert main(["check", "household", str(tampered)]) == 1
    out = capsys.readouterr().out
    assert "step 3: the observation is" in out and "Turned left" in out


def test_replies_solve_export_and_the_summary(tmp_path, capsys):
    replies = tmp_path / "replies.json"
    replies.write_text(json.dumps(["YES", "Act: move_ahead", "Act: turn_left", "Act: open [fridge_0]",
                                   "Act: pick_up [egg_0]", "Act: turn_right", "Act: turn_left",
                                   "Act: put [egg_0, microwave_0]", "Act: stop"]))
    assert main(["check", "household", EID, str(replies), "--json"]) == 0
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["scores"]["success"] == 1 and verdict["scores"]["pw_success"] == 7 / 9
    assert main(["solve", "household", EID]) == 0  # its output is JSON lines: solve has no --json
    solved = json.loads(capsys.readouterr().out)
    assert solved["proven_optimal"] and solved["values"]["steps"] == 7
    assert main(["export", "household", EID, "--out", str(tmp_path / "pddl")]) == 0
    assert (tmp_path / "pddl" / "langsuite-household-domain.pddl").is_file()
    assert main(["export", "household", EID, "--format", "langsuite", "--out", str(tmp_path / "ls")]) == 0
    traj = json.loads((tmp_path / "ls" / f"{EID}.json").read_text())
    assert traj["pddl_params"]["object_target"] == "Egg"
    assert traj["scene"]["init_action"]["rotation"] in (0, 90, 180, 270)
    logs = tmp_path / "logs"
    logs.mkdir()
    assert main(["play", "household", EID, "--policy", "optimal", "--model", "optimal-play",
                 "-o", str(logs / "a.jsonl")]) == 0
    capsys.readouterr()
    assert main(["evaluate", "household", str(logs), "--summary", "--json"]) == 0
    table = json.loads(capsys.readouterr().out)
    rows = {row[0]: row for row in table["rows"] if row[1] == "low"}
    assert rows["optimal-play"][3:8] == rows["optimal (reference, low level)"][3:8]
    assert rows["Reflexion (paper, gpt-3.5)"][6] == 14.89


def test_a_reply_list_s_read_status_says_where_langsuite_s_action_is_not_the_committed_one():
    """Of two actions LangSuitE takes the first; the action is kept, and the verdict reads ambiguous at that step
    when the reply commits to the other."""
    household = Task(task("FloorPlan10-pick_and_place_simple"))
    plain = check_replies(household, ["YES", "Act: move_ahead", "Act: turn_left"])
    assert plain.read.status.value == "clear"
    verdict = check_replies(household, ["YES", "Act: I will not turn_left yet; move_ahead"])
    assert verdict.actions == ("(opening: accepted)", "turn_left")
    assert verdict.read.status.value == "ambiguous" and "at step(s) 2" in verdict.read.why
    assert any(note.startswith("reply 2: ") and "the reply's committed answer is move_ahead" in note
               for note in verdict.notes), verdict.notes
