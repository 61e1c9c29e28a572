"""The contract corpus of the Messenger worlds: episode logs with the verdict each must get, and the optimum.

Built by playing a level's reference player and changing one thing: a reward, the action read from a
reply, the seed removed (checked from the text), an observation the rules cannot give, a reply
SmartPlay's reading falls back on, an unreadable reply under the strict reading.
"""

from __future__ import annotations

from dataclasses import replace

from plancheck.domains.smartplay._examples import _changed, _Replies
from plancheck.domains.smartplay.messenger.world import WORLD_L1, WORLD_L2, WORLD_L3
from plancheck.episodes.log import Episode
from plancheck.episodes.play import play
from plancheck.world import EpisodeExample, Optimum

OPTIMUM = {1: {"score": 1.0}}  # MessengerL1: every start is won in two moves; L2/L3 have no known optimum


def _unseeded(episode: Episode) -> Episode:
    return replace(episode, header=replace(episode.header, seed=None))


def _farther(text: str) -> str:
    """The text with the first entity listed two steps farther away."""
    head, _, rest = text.partition("- ")
    name, distance, tail = rest.split(" ", 2)
    return f"{head}- {name} {int(distance) + 2} {tail}"


def examples(level: int = 1, seed: int = 3) -> list[EpisodeExample]:
    """The examples of ``messenger-l<level>``."""
    episodes = {1: WORLD_L1, 2: WORLD_L2, 3: WORLD_L3}[level].episodes
    instance = episodes.instance(episodes.env)
    settings = episodes.settings({})[0]
    game = episodes.game(instance, seed, settings)
    best = "optimal" if level == 1 else "planner"
    played = play(episodes, instance, seed, settings, episodes.policy(best, game, seed),
                  policy_name=f"reference:{best}", game=game)
    last = len(played.steps)
    first = played.steps[0]
    other = next(a for a in game.actions() if a != first.action)
    unseeded = _unseeded(played)
    replies = ["no idea"] + ["Do Nothing"] * (settings["steps"] - 1)
    fallback = play(episodes, instance, seed, settings, _Replies(replies), policy_name="replay")
    strict = play(episodes, instance, seed, {**settings, "reading": "strict"}, _Replies(["Do Nothing", "no idea"]),
                  policy_name="replay")
    return [
        EpisodeExample(f"the {best} player", played, True),
        EpisodeExample("a reward the rules do not give", _changed(played, last, reward=-1.0, score=-1.0), False,
                       last, "the reward is", False),
        EpisodeExample("an action the reply does not name", _changed(played, 1, action=other), False, 1,
                       f"the reply reads as {first.action!r} under the smartplay reading", False),
        EpisodeExample("no seed: checked from the text", unseeded, True),
        EpisodeExample("no seed, an entity farther than the rules allow",
                       _changed(unseeded, 1, observation=_farther(first.observation)), False, 1,
                       "the observation is" if level == 1 else "but the rules allow", False),
        EpisodeExample("SmartPlay's silent fallback to Move North, reported", fallback, True),
        EpisodeExample("an unreadable reply under the strict reading ends the episode", strict, False, 2,
                       "the reply names no action the strict reading accepts"),
    ]


# The contract corpus per world of this package (tests/test_worlds.py): examples and the L1 optimum.
EXAMPLES = {f"messenger-l{level}": tuple(examples(level)) for level in (1, 2, 3)}
OPTIMA = {"messenger-l1": (Optimum("MessengerL1", OPTIMUM[1], {"policy": "optimal", "seed": 3}),
                          Optimum("MessengerL1/seed=3", OPTIMUM[1]))}
