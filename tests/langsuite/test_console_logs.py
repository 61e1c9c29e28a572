"""LangSuitE's console logs of IQA and Household runs convert into episode logs that check.

The writer (``console_writer.py``) emits what LangSuitE's run loops log, from plancheck's play; it is
proved equal to the messages LangSuitE's own code logged in all 204 dev-run conversations (IQA 100,
Household 104). The fixtures in ``data/console/`` are its output for the cases below (a test keeps them
so); each converts into an episode log whose replay by ``check`` gives every logged message, the actions
the replies played and the end LangSuitE logged.
"""

from __future__ import annotations

import gzip
import hashlib
import json
from pathlib import Path

import pytest

from plancheck.domains.langsuite.console import Message, rebuild_reply, reply_pieces
from plancheck.domains.langsuite.household import report as household_report
from plancheck.domains.langsuite.household.convert import convert as convert_household
from plancheck.domains.langsuite.household.instance import task
from plancheck.domains.langsuite.household.rules import Task as HouseholdTask
from plancheck.domains.langsuite.household.world import WORLD as HOUSEHOLD
from plancheck.domains.langsuite.iqa import world as iqa_world
from plancheck.domains.langsuite.iqa.convert import convert as convert_iqa
from plancheck.domains.langsuite.iqa.instance import question
from plancheck.domains.langsuite.iqa.rules import Task as IqaTask
from plancheck.episodes.check import check_episode, replay_episode
from plancheck.errors import BadInputError
from tests.langsuite.console_writer import (
    HOUSEHOLD_AGENT,
    IQA_AGENT,
    household_messages,
    iqa_messages,
    lines,
)

DATA = Path(__file__).parent / "data"
CONSOLE = DATA / "console"

IQA_OPTIMAL = ["YES", "Act: move_ahead", "Act: turn_left", "Act: move_ahead", "Act: move_ahead", "Act: move_ahead",
               "Act: open [fridge_0]", "Act: turn_left", "Act: turn_left"] + ["Act: move_ahead"] * 4 + \
              ["Act: turn_right"] + ["Act: move_ahead"] * 8 + ["Act: open [microwave_0]", "answer [1]"]
IQA_CASES = {  # file: question, level, seed, replies (LangSuitE's file names: data_type_{qt}_idx_{index}_.jl)
    "data_type_2_idx_1_.jl": ("FloorPlan1-counting-apple", "low", 0, IQA_OPTIMAL),  # the optimum: an answer
    "data_type_0_idx_2_.jl": ("FloorPlan1-existence-mug-removed", "low", 3,  # refusal, pass, Stop; the limit
                              ["I do not know", "YES", "Thought: where could it be?", "Act: open", "Stop",
                               "Act: turn_left", "Act: open [fridge_0]"] + ["turn_right"] * 30),
    "data_type_1_idx_3_.jl": ("FloorPlan2-contains-apple-fridge", "high", 5,  # a name that is no object
                              ["Sure.", "Act: goto [fridge_0]", "Act: open [fridge_0]", "Act: goto [unicorn_0]"]),
    "data_type_0_idx_4_.jl": ("FloorPlan1-existence-apple", "low", 0,  # goto at the low level: empty feedback
                              ["YES", "move_ahead", "Act: goto [fridge_0]"]),
}
HOUSEHOLD_OPTIMAL = ["YES", "Act: move_ahead", "Act: turn_left", "Act: open [fridge_0]", "Act: pick_up [egg_0]",
                     "Act: put [egg_0, microwave_0]", "Act: stop"]
HOUSEHOLD_CASES = {  # file: task, level, replies, the task path LangSuitE logs first (its file name from it)
    "plancheck--FloorPlan10-pick_and_place_simple.json.jl": ("FloorPlan10-pick_and_place_simple", "low",
                                                             HOUSEHOLD_OPTIMAL),
    "plancheck--FloorPlan10-pick_and_place_simple-2.json.jl": (
        "FloorPlan10-pick_and_place_simple", "low",
        ["I do not know", "YES", "Thought: the egg: is it in the fridge?\nAct: move_ahead",
         "Obs: I see it\nAct: turn_left", "move_ahead\nThought: is it: here?", "Thought: nothing to do yet", "",
         "Act: open [fridge_0] and pick_up [egg_0]", "Act: pick_up [egg_0]", "Act: stop"]),
    "plancheck--FloorPlan2-pick_heat_then_place_in_recep.json.jl": (  # heat has no low-level template: crash
        "FloorPlan2-pick_heat_then_place_in_recep", "low", ["YES", "Act: heat [egg_0, microwave_0]"]),
}


def _iqa_text(name: str) -> str:
    qid, level, seed, replies = IQA_CASES[name]
    return lines(iqa_messages(IqaTask(question(qid), level), seed, replies), IQA_AGENT)


def _household_text(name: str) -> str:
    tid, level, replies = HOUSEHOLD_CASES[name]
    path = "plancheck/" + name.split("--", 1)[1].removesuffix(".jl")
    return lines(household_messages(HouseholdTask(task(tid), level), replies, task_path=path), HOUSEHOLD_AGENT)


def _hash(obj) -> str:
    return hashlib.sha256(json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode()).hexdigest()[:16]


def _traces(name: str) -> list[dict]:
    return json.loads(gzip.decompress((DATA / f"dev_{name}_traces.json.gz").read_bytes()))["traces"]


def _same_as_logged(messages, log) -> bool:
    """The writer's messages against what LangSuitE logged (role and text, or its hash)."""
    if any(isinstance(m, list) for m in log):
        want = [tuple(m) if isinstance(m, list) else (m["role"], _hash(m["content"])) for m in log]
        return [(r, _hash(c)) for r, c, _ in messages] == want
    return [(r, c) for r, c, _ in messages] == [(m["role"], m["content"]) for m in log]


@pytest.mark.parametrize("every", [pytest.param(1, marks=pytest.mark.slow), 12])
def test_the_writer_logs_what_langsuite_logged_in_the_dev_runs(every):
    """Every dev-run conversation (slow), or every 12th (fast)."""
    iqa, household = _traces("iqa"), _traces("household")
    assert (len(iqa), len(household)) == (100, 104)
    assert all(_same_as_logged(iqa_messages(IqaTask(question(t["question"]), t["level"]), t["seed"], t["replies"]),
                               t["log"]) for t in iqa[::every])
    assert all(_same_as_logged(household_messages(HouseholdTask(task(t["task"]), t["level"]), t["replies"]), t["log"])
               for t in household[::every])


@pytest.mark.parametrize("name", sorted(IQA_CASES) + sorted(HOUSEHOLD_CASES))
def test_the_fixtures_are_the_writer_s_output(name):
    text = _iqa_text(name) if name in IQA_CASES else _household_text(name)
    assert (CONSOLE / ("iqa" if name in IQA_CASES else "household") / name).read_text() == text


@pytest.fixture
def no_optimum(monkeypatch):
    """The optimum is not what these tests are about (it costs a search per episode)."""
    monkeypatch.setattr(iqa_world, "_optimum", lambda *a: None)
    monkeypatch.setattr(iqa_world, "_optimum_at", lambda *a: None)
    monkeypatch.setattr(household_report, "optimum_steps", lambda *a: None)


def _played(episodes, episode):
    return [(c.action, c.transition.observation if c.transition else None) for c in replay_episode(episodes, episode)]


def _slow_but(names, fast):
    return [n if n in fast else pytest.param(n, marks=pytest.mark.slow) for n in sorted(names)]


@pytest.mark.parametrize("name", _slow_but(IQA_CASES, ("data_type_2_idx_1_.jl", "data_type_1_idx_3_.jl")))
def test_an_iqa_console_log_converts_seeded_and_unseeded(name, no_optimum):
    qid, level, seed, replies = IQA_CASES[name]
    path = CONSOLE / "iqa" / name
    for given in (seed, None):
        (episode,) = convert_iqa(path, seed=given)
        assert episode.header.instance == qid and episode.header.settings["level"] == level
        verdict = check_episode(iqa_world.WORLD.episodes, episode)
        assert verdict.consistent, verdict.failure
        assert [s.observation for s in episode.steps] == [o for _, o in _played(iqa_world.WORLD.episodes, episode)]
    assert [s.action for s in episode.steps][:len(replies)] == list(verdict.actions)[:len(replies)]
    assert episode.header.extra["langsuite_result"] == [verdict.scores["correct"] and "Your are right!"
                                                        or "Your are wrong!", "DONE!"]


def test_iqa_endings_convert_as_langsuite_logs_them(no_optimum):
    steps = {name: convert_iqa(CONSOLE / "iqa" / name, seed=IQA_CASES[name][2]).__next__().steps for name in IQA_CASES}
    assert steps["data_type_2_idx_1_.jl"][-1].action == "answer [1]"
    limit = steps["data_type_0_idx_2_.jl"]
    assert len(limit) == 30 and limit[-1].reply is None and limit[-1].observation == "Your are right!"
    silent = steps["data_type_1_idx_3_.jl"][-1]
    assert silent.action.startswith("open [") and silent.observation == "Your are wrong!"
    assert steps["data_type_0_idx_4_.jl"][-1].action == "goto [fridge_0]"


@pytest.mark.parametrize("name", _slow_but(HOUSEHOLD_CASES, ("plancheck--FloorPlan10-pick_and_place_simple-2.json.jl",
                                                             )))
def test_a_household_console_log_converts(name, no_optimum):
    tid, level, replies = HOUSEHOLD_CASES[name]
    (episode,) = convert_household(CONSOLE / "household" / name)
    assert episode.header.instance == tid
    verdict = check_episode(HOUSEHOLD.episodes, episode)
    assert verdict.consistent, verdict.failure
    assert [s.observation for s in episode.steps] == [o for _, o in _played(HOUSEHOLD.episodes, episode)]
    result = episode.header.extra["langsuite_result"]
    if "heat" in name:
        assert result == [] and verdict.metrics["crashed"]
    else:
        assert float(result[0]) == pytest.approx(verdict.scores["goal_conditions"]) and result[2] == "DONE!"
        assert result[1] == HouseholdTask(task(tid), level).texts.verdict(bool(verdict.scores["success"]))


def test_a_rebuilt_reply_is_cut_into_the_logged_pieces(no_optimum):
    (episode,) = convert_household(CONSOLE / "household" / "plancheck--FloorPlan10-pick_and_place_simple-2.json.jl")
    assert "converted_notes" not in episode.header.extra
    assert [s.action for s in episode.steps][2:6] == ["move_ahead", "(self-feedback)", "move_ahead", "(thought)"]


def test_unknown_or_inconsistent_input_names_the_line(tmp_path):
    source = (CONSOLE / "iqa" / "data_type_2_idx_1_.jl").read_text().splitlines(keepends=True)
    cases = {
        "not json": (source[:3] + ["{oops\n"] + source[4:], "line 4: not a JSON line"),
        "two replies": (source[:3] + [source[1]] + source[3:], "line 5: two replies in a row"),
        "after DONE": (source + [source[1]], f"line {len(source) + 1}: LangSuitE logs nothing after 'DONE!'"),
        "no verdict": (source[:-2] + [source[-1]], f"line {len(source) - 1}: 'DONE!' without LangSuitE's verdict"),
    }
    for label, (text, expected) in cases.items():
        path = tmp_path / "data_type_2_idx_1_.jl"
        path.write_text("".join(text))
        with pytest.raises(BadInputError, match=expected):
            list(convert_iqa(path, seed=0))
    path.write_text("".join(source))
    with pytest.raises(BadInputError, match="unknown IQA question"):
        list(convert_iqa(path, instance="FloorPlan1-counting-unicorn"))
    household = (CONSOLE / "household" / "plancheck--FloorPlan10-pick_and_place_simple.json.jl").read_text()
    path = tmp_path / "run.jl"
    path.write_text(household.replace("plancheck/FloorPlan10", "plancheck/Kitchen10", 1))
    with pytest.raises(BadInputError, match="line 1: the task path"):
        list(convert_household(path))


def test_a_changed_feedback_is_caught_by_check(tmp_path, no_optimum):
    text = (CONSOLE / "iqa" / "data_type_2_idx_1_.jl").read_text()
    path = tmp_path / "data_type_2_idx_1_.jl"
    path.write_text(text.replace("Turn left by '90' degrees", "Turn left by '45' degrees", 1))
    (episode,) = convert_iqa(path, seed=0)
    verdict = check_episode(iqa_world.WORLD.episodes, episode)
    assert not verdict.consistent and "Turn left by '45' degrees" in verdict.failure.reason


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["iqa", "household"])
def test_every_dev_run_round_trips(kind, tmp_path, no_optimum):
    """All 204 dev-run conversations: written, converted, checked. A Household run that raised inside its
    step (3) logs nothing of the reply that raised, so its log ends a step early: check says so."""
    short = []
    for k, t in enumerate(_traces(kind)):
        if kind == "iqa":
            path = tmp_path / f"data_type_0_idx_{k}_.jl"
            path.write_text(lines(iqa_messages(IqaTask(question(t["question"]), t["level"]), t["seed"], t["replies"]),
                                  IQA_AGENT))
            (episode,) = convert_iqa(path, seed=t["seed"], instance=t["question"])
            verdict = check_episode(iqa_world.WORLD.episodes, episode)
        else:
            path = tmp_path / f"plancheck--{t['task']}.json.jl"
            path.write_text(lines(household_messages(HouseholdTask(task(t["task"]), t["level"]), t["replies"]),
                                  HOUSEHOLD_AGENT))
            (episode,) = convert_household(path)
            verdict = check_episode(HOUSEHOLD.episodes, episode)
        if not verdict.consistent:
            short.append(verdict.failure.reason)
    if kind == "iqa":
        assert short == []
    else:
        assert len(short) == 3 and all("the log ends after" in r for r in short)


@pytest.mark.parametrize("reply", ["Thought: plan\nStep 1: go there", "Obs: I see it\nAct: turn_left", "Act:",
                                   "Thought: a: b\nAct: pick_up [egg_0]: now", "move_ahead\nThought: is it: here?",
                                   "I think: yes\n\nAct: stop", "Thought:x", "Act: open [fridge_0]\nextra: words"])
def test_a_reply_is_rebuilt_from_the_pieces_langsuite_logs(reply):
    pieces = [Message(k + 2, "assistant", text, kind) for k, (kind, text) in enumerate(reply_pieces(reply))]
    rebuilt, note = rebuild_reply(pieces, Path("run.jl"))
    assert note is None and reply_pieces(rebuilt) == reply_pieces(reply)


@pytest.mark.slow
def test_an_unseeded_log_that_one_start_fits_gets_that_start_s_optimum():
    """Converted without its seed, the optimal episode fits one start point, seed 0's: its optimum is the one
    from there (24 timesteps, the episode's own length); the log that 6 starts fit gets none, and says so."""
    (episode,) = convert_iqa(CONSOLE / "iqa" / "data_type_2_idx_1_.jl")
    verdict = check_episode(iqa_world.WORLD.episodes, episode)
    assert verdict.optimal == {"steps": 24.0} and verdict.scores["steps"] == 24.0
    assert any("one fits it, (1, 1) facing north; the optimum is the one from there" in n for n in verdict.notes)
    (several,) = convert_iqa(CONSOLE / "iqa" / "data_type_1_idx_3_.jl")
    verdict = check_episode(iqa_world.WORLD.episodes, several)
    assert verdict.optimal is None and any("6 start points LangSuitE can draw fit it; no optimum" in n
                                           for n in verdict.notes)
