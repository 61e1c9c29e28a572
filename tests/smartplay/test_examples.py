"""Every example of the SmartPlay episode worlds gets its expected verdict."""

from __future__ import annotations

import pytest

from plancheck.domains.smartplay.bandits import examples as bandits
from plancheck.domains.smartplay.rps import examples as rps
from plancheck.episodes.check import check_episode


@pytest.mark.parametrize("module", [bandits, rps], ids=["bandits", "rps"])
def test_the_examples_get_their_verdicts(module):
    found = module.EXAMPLES
    assert len(found) == 8
    for example in found:
        verdict = check_episode(module.WORLD.episodes, example.episode)
        assert verdict.valid == example.valid, (example.name, verdict.failure)
        assert verdict.consistent == example.consistent, example.name
        if example.failure is not None:
            assert verdict.failure.step == example.step and example.failure in verdict.failure.reason, \
                (example.name, verdict.failure)
        assert verdict.optimal["score"] == module.OPTIMUM["score"]
    fallback = next(e for e in found if "fallback" in e.name)
    notes = check_episode(module.WORLD.episodes, fallback.episode).notes
    assert notes[0].startswith("step 1: no action text in the reply; SmartPlay takes action 0")
