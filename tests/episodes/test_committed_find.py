"""The places where a reply names actions (plancheck/episodes/committed.py ``_find``): the one-pass version gives
what the earlier scan of every kept place gave (kept here as the oracle) on generated replies."""

from __future__ import annotations

import random

from plancheck.episodes.committed import _find, _Named, _patterns

ACTIONS = ("Move North", "Move South", "Noop", "Pull slot machine 1.", "Pull slot machine 12.", "Rock", "Paper",
           "move_north", "Do")
PIECES = ("Move North", "move north", "Move  South", "noop", "Noops", "Pull slot machine 1.", "slot machine 12",
          "Pull slot machine 12.", "Rock", "rocks", "Paper.", "move_north", "Do", "do", " ", " ", "\n", ", ", "Final "
          "answer: ", "not ", "Wait, ", "1", "2", ".")


def _scan(reply: str, actions: tuple[str, ...]) -> list[_Named]:
    """``_find`` as it was until issue 22."""
    found = []
    for index, pattern in enumerate(_patterns(actions)):
        for match in pattern.finditer(reply):
            end = match.end() - (1 if match.group(0).endswith(".") and not actions[index].endswith(".") else 0)
            found.append(_Named(match.start(), end, index))
    found.sort(key=lambda n: (n.start, -(n.end - n.start)))
    kept: list[_Named] = []
    for item in found:
        if not any(k.start <= item.start and item.end <= k.end for k in kept):
            kept.append(item)
    return kept


def test_find_agrees_with_the_scan_it_replaces():
    rng = random.Random(22)
    nested = 0
    for _ in range(1500):
        reply = "".join(rng.choice(PIECES) for _ in range(rng.randrange(1, 20)))
        actions = tuple(rng.sample(ACTIONS, rng.randrange(1, len(ACTIONS) + 1)))
        assert _find(reply, actions) == _scan(reply, actions), (reply, actions)
        places = [(m.start(), m.end()) for p in _patterns(actions) for m in p.finditer(reply)]
        nested += len(_find(reply, actions)) < len(places)
    assert nested > 50  # places inside longer ones were left out


def test_replies_too_long_to_weigh_are_said_to_be_not_judged():
    """A 1 MB reply once took seconds to minutes; it is read as ambiguous with the reason, never guessed."""
    from plancheck.episodes.committed import read_committed

    menu = ["Rock", "Paper", "Scissor"]
    many = read_committed("I choose Rock. " * 1500, menu)
    assert (many.status, many.action) == ("ambiguous", None) and "1500 times" in many.why and "not judged" in many.why
    huge = read_committed("Rock " * 200_000, menu)
    assert (huge.status, huge.action) == ("ambiguous", None) and "200000 words" in huge.why
    assert read_committed("I choose Rock. " * 900, menu).action == "Rock"  # below both bounds: judged
