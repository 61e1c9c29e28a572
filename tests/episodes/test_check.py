"""The generic check on a toy world: every kind of inconsistency is found and said in plain words."""

from __future__ import annotations

from dataclasses import replace

import pytest

from plancheck.episodes.check import check_episode
from plancheck.episodes.log import Episode
from plancheck.episodes.play import play
from plancheck.errors import BadInputError
from plancheck.verifier.verdict import Semantics

from .toy import EPISODES, Policy


def played(seed: int = 1, replies=("heads",) * 6, reading: str = "exact") -> Episode:
    return play(EPISODES, "coin", seed, {"reading": reading}, Policy(replies), policy_name="test")


def with_step(episode: Episode, k: int, **changes) -> Episode:
    steps = list(episode.steps)
    steps[k - 1] = replace(steps[k - 1], **changes)
    return replace(episode, steps=tuple(steps))


def ending(done: bool) -> int:
    """A seed whose heads-only episode reaches the goal (``done``) or does not."""
    return next(seed for seed in range(100) if played(seed).steps[-1].done == done)


def test_a_played_episode_passes_and_reaches_its_goal():
    episode = played(ending(True))
    verdict = check_episode(EPISODES, episode)
    assert verdict.valid and verdict.consistent and verdict.passed(Semantics.STRICT)
    assert verdict.goal_reached and verdict.goal_step == len(episode.steps) < 6
    assert verdict.metrics["read_clear"] == len(episode.steps) == verdict.metrics["steps"]
    assert [s.state for s in verdict.steps][0].startswith("coin ")
    verdict = check_episode(EPISODES, played(ending(False)))
    assert verdict.valid and verdict.goal_reached is False and not verdict.passed(Semantics.STRICT)


@pytest.mark.parametrize(("change", "words"), [
    ({"observation": "It was sideways."}, "the observation is 'It was sideways.' but the rules give"),
    ({"reward": 7}, "the reward is 7 but the rules give"),
    ({"score": 9}, "the score is 9 but the rules give"),
    ({"done": True}, "the log says done=true but the rules say false"),
    ({"action": "tails"}, "the reply reads as 'heads' under the exact reading, but the log says 'tails'"),
    ({"read": "ambiguous"}, "the reply reads clear under the exact reading, but the log says ambiguous"),
    ({"info": {"coin": "edge"}}, "info['coin'] is 'edge' but the rules give"),
    ({"prompt": ({"role": "user", "content": "Toss! Heads or tails?"},)},
     "prompt message 1 (user) differs from the benchmark's at character 5: '! Heads or tails?' where the "
     "benchmark has '. Heads or tails?'"),
])
def test_a_tampered_first_step_is_the_failure(change, words):
    episode = played(seed=3)
    assert not episode.steps[0].done
    verdict = check_episode(EPISODES, with_step(episode, 1, **change))
    assert not verdict.valid and not verdict.consistent
    assert verdict.failure.step == 1 and words in verdict.failure.reason
    assert not verdict.passed(Semantics.BENCHMARK)  # a log that contradicts the rules passes nothing


def test_a_wrong_reward_says_the_draw():
    episode = played(seed=3)
    wrong = 1 - episode.steps[0].reward
    verdict = check_episode(EPISODES, with_step(episode, 1, reward=wrong))
    assert verdict.failure.reason.endswith(f"(the coin fell {episode.steps[0].info['coin']})")


def test_the_scores_are_the_rules_even_after_an_inconsistency():
    episode = played(seed=4)
    tampered = with_step(episode, 1, score=100)
    assert check_episode(EPISODES, tampered).scores == check_episode(EPISODES, episode).scores


def test_the_log_may_not_go_on_after_the_end_nor_stop_before_it():
    episode = played(ending(True))
    longer = replace(episode, steps=episode.steps + (replace(episode.steps[-1], step=len(episode.steps) + 1),))
    verdict = check_episode(EPISODES, longer)
    assert verdict.failure.step == len(episode.steps) + 1
    assert "ended at step" in verdict.failure.reason and "the log goes on" in verdict.failure.reason
    shorter = replace(episode, steps=episode.steps[:1])
    verdict = check_episode(EPISODES, shorter)
    assert verdict.failure.step == 2 and "the log ends after 1 step(s)" in verdict.failure.reason


def test_an_unreadable_reply_under_the_strict_reading_ends_the_episode_consistently():
    episode = played(replies=["heads", "I think heads", "heads"])
    assert len(episode.steps) == 2 and episode.steps[-1].action is None and episode.steps[-1].done
    verdict = check_episode(EPISODES, episode)
    assert verdict.consistent and not verdict.valid
    assert verdict.failure.step == 2 and "names no action the exact reading accepts" in verdict.failure.reason
    assert verdict.goal_reached is False and not verdict.passed(Semantics.STRICT)
    lenient = played(replies=["heads", "I think heads"] + ["heads"] * 4, reading="lenient")
    verdict = check_episode(EPISODES, lenient)
    assert verdict.valid and verdict.metrics["read_none"] == 1
    assert verdict.notes == ("step 2: no guess; heads taken",)


def test_the_first_observation_and_the_header_are_checked():
    episode = played()
    verdict = check_episode(EPISODES, replace(episode, header=replace(episode.header, observation="Toss!")))
    assert verdict.failure.step == 0 and "the first observation is 'Toss!'" in verdict.failure.reason
    with pytest.raises(BadInputError, match="a log of world 'other', not 'coin'"):
        check_episode(EPISODES, replace(episode, header=replace(episode.header, world="other")))
    with pytest.raises(BadInputError, match="unknown setting"):
        check_episode(EPISODES, replace(episode, header=replace(episode.header, settings={"speed": 2})))
    verdict = check_episode(EPISODES, replace(episode, header=replace(episode.header, settings={})))
    assert "reading not logged: exact" in verdict.notes


def test_info_keys_the_world_does_not_report_are_noted():
    verdict = check_episode(EPISODES, with_step(played(), 1, info={"mood": "good"}))
    assert verdict.valid and "info key(s) mood not checked (the world does not report them)" in verdict.notes


def test_a_reply_less_step_takes_the_logged_action():
    episode = played(seed=5)
    verdict = check_episode(EPISODES, with_step(episode, 1, reply=None, read=None))
    assert verdict.valid and verdict.notes[0] == "step 1: no reply logged; the logged action was taken"
    verdict = check_episode(EPISODES, with_step(episode, 1, reply=None, action="edge"))
    assert verdict.failure.reason == "the logged action 'edge' is not one of ['heads', 'tails']"


def test_an_unseeded_log_is_followed_from_its_text():
    episode = played(seed=6)
    unseeded = replace(episode, header=replace(episode.header, seed=None))
    verdict = check_episode(EPISODES, unseeded)
    assert verdict.valid and "checked by observation" in verdict.form
    verdict = check_episode(EPISODES, with_step(unseeded, 1, reward=1 - episode.steps[0].reward))
    assert verdict.failure.step == 1 and "pays" in verdict.failure.reason
