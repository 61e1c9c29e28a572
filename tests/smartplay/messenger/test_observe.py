"""Observation texts read back into what they say; malformed texts named with their line."""

from __future__ import annotations

import random

import pytest

from plancheck.domains.smartplay.messenger import prompts
from plancheck.domains.smartplay.messenger.instance import STEP_LIMITS, start
from plancheck.domains.smartplay.messenger.observe import ObservationError, read
from plancheck.domains.smartplay.messenger.run import Runner


def _texts(level: int, seeds: range):
    rng = random.Random(level)
    for seed in seeds:
        game = Runner(start(level, seed))
        yield game.reset()
        for _ in range(STEP_LIMITS[level]):
            step = game.step(rng.randrange(5))
            yield step.observation
            if step.done:
                break


@pytest.mark.parametrize("level", [1, 2, 3])
def test_every_text_the_game_writes_reads_back_to_the_same_text(level):
    for text in _texts(level, range(60)):
        view = read(text)
        if view.error:
            assert text == prompts.ENVIRONMENT_ERROR
            continue
        flag = prompts.HAS_MESSAGE if view.has_message else prompts.NO_MESSAGE
        seen = "You see:\n" + "\n".join(f"- {s}" for s in view.seen) if view.seen else \
            "You see nothing away from you."
        head = f"You took action {view.action}.\n\n" if view.action else ""
        assert head + flag + "\n\n" + seen == text


@pytest.mark.parametrize("text, message", [
    ("You took action Jump.\n\nYou (agent) don't have the message.\n\nYou see:\n- dog 2 steps to your west",
     "line 1: 'You took action Jump.' names no Messenger action"),
    ("You (agent) has the message.\n\nYou see:\n- dog 2 steps to your west", "line 1: expected the message flag"),
    ("You (agent) don't have the message.\n\nYou see:\n- dog two steps to your west", "line 4: '- dog two steps"),
    ("You (agent) don't have the message.\n\nYou see:\n- cat 2 steps to your west", "'cat' is not a Messenger"),
    ("You (agent) don't have the message.\n\nYou see:\n- dog 1 steps to your north-west", "not a possible place"),
    ("You (agent) don't have the message.\n\nYou see:\n- sword 2 steps to your west\n- dog 2 steps to your east",
     "ascending id"),
])
def test_malformed_texts_are_named(text, message):
    with pytest.raises(ObservationError, match=message.replace("(", r"\(")):
        read(text)
