"""Checking Crafter logs: exact replay with the seed, the observational checker without it, the corpus."""

from __future__ import annotations

from dataclasses import replace

import pytest

from plancheck.domains.smartplay.crafter import examples, prompts
from plancheck.domains.smartplay.crafter.check import outcomes
from plancheck.domains.smartplay.crafter.observe import Frame, NotAnObservation, Seen, read_frame
from plancheck.domains.smartplay.crafter.world import WORLD
from plancheck.episodes.check import check_episode
from plancheck.episodes.play import play

EPISODES = WORLD.episodes


def _play(seed: int, policy: str, **settings):
    instance = EPISODES.instance("Crafter")
    resolved = EPISODES.settings(settings)[0]
    game = EPISODES.game(instance, seed, resolved)
    return play(EPISODES, instance, seed, resolved, EPISODES.policy(policy, game, seed), policy_name=policy,
                game=game)


def test_every_observation_of_a_real_episode_reads_back_exactly(original):
    records = original.run("episodes", "--seeds", "11", "--steps", "300")
    for record in records:
        frame = read_frame(record["obs"])
        assert frame.text() == record["obs"]
    with pytest.raises(NotAnObservation, match="line 3"):
        read_frame(records[1]["obs"].replace(" steps to your", " step to your", 1))
    with pytest.raises(NotAnObservation):
        read_frame(records[1]["obs"] + "\n- wood: 0")
    assert read_frame(prompts.OUT_OF_MAP).out_of_map


@pytest.mark.parametrize("seed,policy", [(2, "random"), (4, "random"), (1, "unlock:collect_stone")])
def test_genuine_logs_pass_by_replay_and_from_their_text(seed, policy):
    episode = _play(seed, policy)
    replayed = check_episode(EPISODES, episode)
    followed = check_episode(EPISODES, replace(episode, header=replace(episode.header, seed=None)))
    assert replayed.valid and followed.valid, (replayed.failure, followed.failure)
    assert replayed.scores["score"] == followed.scores["score"] == episode.steps[-1].score
    assert replayed.scores["achievements"] == followed.scores["achievements"]


def test_the_paper_history_and_numpy_seeding_replay_too():
    episode = _play(7, "random", history=5, seeding="numpy", episode=3, steps=60)
    assert len(episode.steps) <= 60 and episode.header.settings["episode"] == 3
    assert check_episode(EPISODES, episode).valid
    other = replace(episode, header=replace(episode.header, settings={**episode.header.settings, "episode": 2}))
    assert not check_episode(EPISODES, other).valid


def test_the_corpus_gets_its_verdicts():
    found = examples.examples()
    assert len(found) == 9
    for example in found:
        verdict = check_episode(EPISODES, example.episode)
        assert verdict.valid == example.valid, (example.name, verdict.failure)
        assert verdict.consistent == example.consistent, example.name
        if example.failure is not None:
            assert verdict.failure.step == example.step and example.failure in verdict.failure.reason, \
                (example.name, verdict.failure)


def _frame(facing: str, **inventory: int) -> Frame:
    return Frame("noop", facing=facing, vitals={"health": 9, "food": 9, "drink": 9, "energy": 9},
                 inventory=inventory, seen=(Seen("table", 2, "north"),))


def test_what_the_text_allows_for_each_action():
    assert outcomes(_frame("tree"), "do")[0] == [({"wood": 1}, ("collect_wood",))]
    assert outcomes(_frame("tree", wood=9), "do")[0] == [({}, ("collect_wood",))]  # clamped, still unlocked
    assert outcomes(_frame("stone"), "do")[0] == [({}, ())]  # no pickaxe
    assert outcomes(_frame("grass", wood=2), "place_table")[0] == [({"wood": -2}, ("place_table",))]
    assert outcomes(_frame("cow", wood=2), "place_table")[0] == [({}, ())]  # a creature stands there
    assert outcomes(_frame("water", stone=1), "place_stone")[0] == [({"stone": -1}, ("place_stone",))]
    # a table 2 steps straight north: a diagonal one may be as near, so the text cannot tell
    possible, how = outcomes(_frame("grass", wood=1), "make_wood_pickaxe")
    assert possible == [({}, ()), ({"wood": -1, "wood_pickaxe": 1}, ("make_wood_pickaxe",))] and "cannot" in how
    diagonal = replace(_frame("grass", wood=1), seen=(Seen("table", 2, "north-west"),))
    assert outcomes(diagonal, "make_wood_pickaxe")[0] == [({"wood": -1, "wood_pickaxe": 1}, ("make_wood_pickaxe",))]
    asleep = replace(_frame("tree"), sleeping=True, vitals={"health": 9, "food": 9, "drink": 9, "energy": 5})
    assert outcomes(asleep, "do")[0] == [({}, ())]
    waking = replace(asleep, vitals={**asleep.vitals, "energy": 9})
    assert outcomes(waking, "do")[0] == [({"wood": 1}, ("wake_up", "collect_wood"))]
