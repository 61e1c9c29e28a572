"""The IQA world end to end: instances, prompt, play, check, evaluate, solve, export, stats on the command line."""

from __future__ import annotations

import json

from plancheck.cli import main
from plancheck.domains.langsuite.iqa.check import check_replies
from plancheck.domains.langsuite.iqa.instance import question
from plancheck.domains.langsuite.iqa.rules import Task
from plancheck.domains.langsuite.iqa.scene import free_starts
from plancheck.domains.langsuite.iqa.world import WORLD
from plancheck.episodes.check import check_episode
from plancheck.episodes.log import read_episodes

EID = "FloorPlan1-existence-apple"


def test_play_check_and_a_tampered_log(tmp_path, capsys):
    log = tmp_path / "optimal.jsonl"
    assert main(["play", "iqa", EID, "--policy", "optimal", "--seed", "3", "-o", str(log)]) == 0
    (episode,) = list(read_episodes(log))
    assert episode.steps[-1].observation == "Your are right!" and episode.steps[-1].done
    verdict = check_episode(WORLD.episodes, episode)
    assert verdict.valid and verdict.scores["correct"] == 1.0
    # seed 3 starts with the apple one step out of view: YES, move_ahead, answer (answering at once shows no evidence)
    assert [s.reply for s in episode.steps] == ["YES", "Act: move_ahead", "answer [True]"]
    assert verdict.scores["steps"] == verdict.optimal["steps"] == 3
    lines = log.read_text().splitlines()
    last = json.loads(lines[-1])
    last["observation"] = "Your are wrong!"
    lines[-1] = json.dumps(last)
    tampered = tmp_path / "tampered.jsonl"
    tampered.write_text("\n".join(lines) + "\n")
    capsys.readouterr()
    assert main(["check", "iqa", str(tampered)]) == 1
    assert "the observation is 'Your are wrong!' but the rules give 'Your are right!'" in capsys.readouterr().out


def test_replies_solve_export_stats_and_the_summary(tmp_path, capsys):
    replies = tmp_path / "replies.json"
    replies.write_text(json.dumps(["YES", "Act: goto [apple_0]", "Act: answer [True]"]))
    assert main(["check", "iqa", EID, str(replies), "--json"]) == 1
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["failure"]["step"] == 2 and "not an action of the low-level prompt" in verdict["failure"]["reason"]
    assert verdict["metrics"]["ended"] == "empty-prompt" and verdict["scores"]["correct"] == 0
    assert main(["solve", "iqa", EID, "--seed", "3"]) == 0  # its output is JSON lines: solve has no --json
    solved = json.loads(capsys.readouterr().out)
    assert solved["proven_optimal"] and solved["plan"][0] == "YES" and solved["plan"][-1] == "answer [True]"
    assert main(["export", "iqa", EID, "--out", str(tmp_path / "pddl")]) == 0
    assert (tmp_path / "pddl" / "langsuite-iqa-domain.pddl").is_file()
    assert main(["export", "iqa", EID, "--format", "langsuite", "--out", str(tmp_path / "ls")]) == 0
    world, qa = json.loads((tmp_path / "ls" / f"{EID}.json").read_text())
    assert qa[0]["answer"] is True and all("cornerPoints" in o["axisAlignedBoundingBox"] for o in world["objects"])
    capsys.readouterr()
    assert main(["stats", "iqa", "FloorPlan1-counting-mug-removed", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["rows"][0][3] == "0"
    logs = tmp_path / "logs"
    logs.mkdir()
    assert main(["play", "iqa", EID, "--policy", "optimal", "--model", "optimal-play",
                 "-o", str(logs / "a.jsonl")]) == 0
    assert main(["play", "iqa", "FloorPlan2-contains-apple-fridge", "--policy", "optimal", "--model", "optimal-play",
                 "-o", str(logs / "b.jsonl")]) == 0
    capsys.readouterr()
    assert main(["evaluate", "iqa", str(logs), "--summary", "--json"]) == 0
    table = json.loads(capsys.readouterr().out)
    rows = {row[0]: row for row in table["rows"] if row[1] == "low"}
    assert rows["optimal-play"][3:7] == rows["optimal (reference)"][3:7]
    assert rows["Reflexion-EmMem (paper, gpt-3.5)"][5] == 72.0


def test_an_unseeded_log_is_followed_from_every_start_it_fits(tmp_path, capsys):
    log = tmp_path / "optimal.jsonl"
    assert main(["play", "iqa", EID, "--policy", "optimal", "--seed", "7", "-o", str(log)]) == 0
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    unseeded = tmp_path / "unseeded.jsonl"
    unseeded.write_text("".join(json.dumps(line) + "\n" for line in [{**lines[0], "seed": None}, *lines[1:]]))
    (episode,) = list(read_episodes(unseeded))
    verdict = check_episode(WORLD.episodes, episode)
    seeded = check_episode(WORLD.episodes, next(iter(read_episodes(log))))
    assert verdict.valid and verdict.consistent and verdict.scores == seeded.scores
    [note] = [n for n in verdict.notes if n.startswith("an unseeded log")]
    # the observations rule out every other start: the optimum is seed 7's start's
    assert "one fits it" in note and verdict.optimal == seeded.optimal == {"steps": 7.0}
    assert len(free_starts(Task(WORLD.episodes.instance(EID)).scene)) > 1
    lines[2]["observation"] = lines[2]["observation"].replace("Obs:", "Obs: On your left, you see a unicorn_0;")
    tampered = tmp_path / "tampered.jsonl"
    tampered.write_text("".join(json.dumps(line) + "\n" for line in [{**lines[0], "seed": None}, *lines[1:]]))
    bad = check_episode(WORLD.episodes, next(iter(read_episodes(tampered))))
    assert not bad.consistent and bad.failure.step == 2 and "from none of the" in bad.failure.reason


def test_a_reply_list_s_read_status_says_where_langsuite_s_action_is_not_the_committed_one():
    """LangSuitE takes "answer" from a thought that mentions answering; the action is kept (the episode ends on a
    wrong answer) and the verdict reads ambiguous at that step."""
    task = Task(question("FloorPlan1-counting-apple"))
    plain = check_replies(task, 0, ["YES", "Act: turn_left", "answer [1]"])
    assert plain.read.status.value == "clear" and plain.read.why == "3 of 3 replies read clearly"
    verdict = check_replies(task, 0, ["YES", "Thought: I must look before I answer.\nAct: turn_left"])
    assert verdict.actions == ("(opening: accepted)", "answer")
    assert verdict.read.status.value == "ambiguous" and "at step(s) 2" in verdict.read.why
    assert any(note.startswith("reply 2: ") and "the reply's committed answer is turn_left" in note
               for note in verdict.notes), verdict.notes


def test_a_removed_class_leaves_no_parent_pointing_at_it():
    """FloorPlan5's counter top lists a plate as its first parent; with the plates removed it must not name
    the plate any more (the simulator's metadata would not): the scene once crashed every look at it."""
    item = question("FloorPlan5-existence-plate-removed")
    ids = {o["objectId"] for o in item.world_data["objects"]}
    parents = {p for o in item.world_data["objects"] for p in o.get("parentReceptacles") or ()}
    assert parents <= ids and not any(i.startswith("Plate|") for i in ids)
    kept = question("FloorPlan5-existence-plate")
    assert any(p.startswith("Plate|") for o in kept.world_data["objects"] for p in o.get("parentReceptacles") or ())
    result = WORLD.solve(item)
    assert result.status.value == "unsolvable" and result.extra["lower_bound"] > 27
