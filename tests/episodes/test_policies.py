"""The generic players: replays and an external agent process speaking JSON lines."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from plancheck.episodes.check import check_episode
from plancheck.episodes.log import write_episodes
from plancheck.episodes.play import play
from plancheck.episodes.policies import AgentError, CommandPolicy, describe_policy, replays
from plancheck.errors import BadInputError

from .toy import EPISODES, Policy

AGENT = f"{sys.executable} {Path(__file__).with_name('agent.py')}"
SETTINGS = {"reading": "lenient"}


def test_an_agent_process_plays_and_its_prompts_are_logged():
    with CommandPolicy(AGENT) as agent:
        episode = play(EPISODES, "coin", 8, SETTINGS, agent, policy_name=f"cmd:{AGENT}")
    assert {s.reply for s in episode.steps} == {"I choose: tails"}  # it is read leniently: no exact word
    assert {s.read for s in episode.steps} == {"none"} and {s.action for s in episode.steps} == {"heads"}
    assert episode.steps[0].prompt == ({"role": "user", "content": "Toss. Heads or tails?"},)
    assert check_episode(EPISODES, episode).valid


def test_one_agent_plays_several_episodes():
    with CommandPolicy(f"{AGENT} echo") as agent:
        for number in (1, 2):
            agent.episode = number
            episode = play(EPISODES, "coin", number, SETTINGS, agent, policy_name="cmd")
            assert episode.steps[1].reply == "step 2 turn 1/1, 1 messages"


@pytest.mark.parametrize(("mode", "words"), [
    ("garbage", 'the agent wrote "I\'d pull machine 2", not a JSON line'),
    ("exit", "the agent process exited with status 3"),
    ("silent", "no reply from the agent within 0.5 s"),
])
def test_an_agent_that_breaks_the_protocol_is_named(mode, words):
    with pytest.raises(AgentError) as error, CommandPolicy(f"{AGENT} {mode}", timeout=0.5) as agent:
        play(EPISODES, "coin", 1, SETTINGS, agent, policy_name="cmd")
    assert str(error.value).startswith("episode 1, step 1, turn 1: ")
    assert words in str(error.value)


def test_a_missing_agent_is_bad_input():
    with pytest.raises(BadInputError, match="cannot start the agent"), CommandPolicy("no-such-agent-xyz"):
        pass


def test_replay_a_log_or_a_list_of_replies(tmp_path):
    original = play(EPISODES, "coin", 3, SETTINGS, Policy(["tails", "heads", "?"] * 2), policy_name="test")
    write_episodes(tmp_path / "log.jsonl", [original])
    [again] = replays(tmp_path / "log.jsonl")
    replayed = play(EPISODES, "coin", 3, SETTINGS, again, policy_name="replay")
    assert [s.to_json() for s in replayed.steps] == [s.to_json() for s in original.steps]
    (tmp_path / "list.json").write_text(json.dumps(["tails", ["a thought", "heads"]]))
    [listed] = replays(tmp_path / "list.json")
    assert [r.reply for r in listed.steps] == ["tails", "heads"] and listed.steps[1].earlier == ("a thought",)
    with pytest.raises(BadInputError, match="has replies for 2 step"):
        play(EPISODES, "coin", 3, SETTINGS, listed, policy_name="replay")
    (tmp_path / "bad.json").write_text("[1]")
    with pytest.raises(BadInputError, match="reply 1 must be text"):
        replays(tmp_path / "bad.json")


def test_policy_names_as_the_header_records_them():
    assert [describe_policy(p) for p in ("bayes", "reference:bayes", "replay:x", "cmd:python a.py")] == \
        ["reference:bayes", "reference:bayes", "replay:x", "cmd:python a.py"]
