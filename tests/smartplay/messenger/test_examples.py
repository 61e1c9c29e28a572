"""The contract corpus: every example log of the three Messenger worlds gets the verdict it states."""

from __future__ import annotations

import pytest

from plancheck.domains.smartplay.messenger import examples
from plancheck.domains.smartplay.messenger.world import WORLD_L1, WORLD_L2, WORLD_L3
from plancheck.episodes.check import check_episode

WORLDS = {1: WORLD_L1, 2: WORLD_L2, 3: WORLD_L3}


@pytest.mark.parametrize("level", [1, 2, 3])
def test_every_example_gets_its_verdict(level):
    corpus = examples.examples(level)
    assert len(corpus) == 7
    for example in corpus:
        verdict = check_episode(WORLDS[level].episodes, example.episode)
        assert verdict.valid == example.valid, (example.name, verdict.failure)
        assert verdict.consistent == example.consistent, example.name
        if example.step is not None:
            assert verdict.failure.step == example.step and example.failure in verdict.failure.reason, \
                (example.name, verdict.failure)


def test_the_l1_optimum_is_what_the_optimal_player_scores():
    played = examples.examples(1)[0]
    verdict = check_episode(WORLD_L1.episodes, played.episode)
    assert verdict.scores["score"] == examples.OPTIMUM[1]["score"] and len(verdict.actions) == 2
