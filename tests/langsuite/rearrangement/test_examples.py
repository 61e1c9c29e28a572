"""Every Rearrangement example gets its expected verdict."""

from __future__ import annotations

from plancheck.domains.langsuite.rearrangement import examples
from plancheck.episodes.check import check_episode


def test_the_examples_get_their_verdicts():
    found = examples.examples()
    assert len(found) == 8
    for example in found:
        verdict = check_episode(examples.WORLD.episodes, example.episode)
        assert verdict.valid == example.valid, (example.name, verdict.failure)
        assert verdict.consistent == example.consistent, example.name
        if example.failure is not None:
            assert verdict.failure.step == example.step and example.failure in verdict.failure.reason, \
                (example.name, verdict.failure)
        assert verdict.optimal["steps"] == examples.OPTIMUM["steps"]
    lax = check_episode(examples.WORLD.episodes, found[-1].episode)
    assert any("step 2: goto is not an action of the low-level prompt" in n for n in lax.notes)
    assert lax.metrics["prompt_violation"].startswith("step 2")
