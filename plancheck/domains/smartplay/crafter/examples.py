"""The contract corpus: Crafter episode logs with the verdict each must get, and the optima.

Built by playing the certified shortest unlock of a wooden pickaxe on seed 1 (then Noop), cut to
its first 40 steps with the step limit set to 40, and changing one thing: a reward, a score, the
action read, the seed removed (checked from the text), an inventory change or an unlock the text
does not allow, SmartPlay's fallback, the strict reading.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import cache

from plancheck.domains.smartplay.crafter.world import WORLD
from plancheck.episodes.game import Replies
from plancheck.episodes.log import Episode
from plancheck.episodes.play import play
from plancheck.world import EpisodeExample, Optimum

SEED, STEPS = 1, 40
# The shortest tech-tree sequences (Do/Place/Make actions; walking is extra on a real map).
OPTIMUM = {"collect_wood": 1, "place_table": 3, "make_wood_pickaxe": 5, "collect_stone": 6, "collect_diamond": 18}


class _Replies:
    def __init__(self, texts):
        self.texts = list(texts)

    def replies(self, step, game):
        return Replies(self.texts[step - 1])


def _changed(episode: Episode, k: int, **changes) -> Episode:
    steps = list(episode.steps)
    steps[k - 1] = replace(steps[k - 1], **changes)
    return replace(episode, steps=tuple(steps))


@cache
def examples() -> list[EpisodeExample]:
    episodes = WORLD.episodes
    instance = episodes.instance("Crafter")
    settings = episodes.settings({"steps": STEPS})[0]
    game = episodes.game(instance, SEED, settings)
    planned = play(episodes, instance, SEED, settings, episodes.policy("unlock:make_wood_pickaxe", game, SEED),
                   policy_name="reference:unlock:make_wood_pickaxe", game=game)
    steps = planned.steps
    unlock = next(k for k, s in enumerate(steps, start=1) if s.info["unlocked"])
    quiet = next(k for k, s in enumerate(steps, start=1) if k > 3 and s.action.startswith("Move")
                 and not s.info["unlocked"])
    unseeded = replace(planned, header=replace(planned.header, seed=None))
    other = "Move East" if steps[quiet - 1].action != "Move East" else "Move West"
    wood = next(k for k, s in enumerate(steps, start=1) if "collect_wood" in s.info["unlocked"])
    extra = re.sub(r"- wood: \d", "- wood: 9", steps[quiet - 1].observation, count=1)
    if extra == steps[quiet - 1].observation:
        extra = extra.replace("You have nothing in your inventory.", "Your inventory:\n- sapling: 1")
    replies = ["no idea"] + ["Noop"] * (STEPS - 1)
    fallback = play(episodes, instance, SEED, settings, _Replies(replies), policy_name="replay")
    strict = play(episodes, instance, SEED, {**settings, "reading": "strict"}, _Replies(["Noop", "Do", *replies]),
                  policy_name="replay")
    return [
        EpisodeExample("the certified wooden pickaxe plan", planned, True),
        EpisodeExample("a reward one too high", _changed(planned, quiet, reward=steps[quiet - 1].reward + 1), False,
                       quiet, "the reward is", False),
        EpisodeExample("a score one too high", _changed(planned, unlock, score=steps[unlock - 1].score + 1), False,
                       unlock, "the score is", False),
        EpisodeExample("an action the reply does not name", _changed(planned, quiet, action=other), False, quiet,
                       "the reply reads as", False),
        EpisodeExample("no seed: checked from the text", unseeded, True),
        EpisodeExample("no seed, an item from nowhere", _changed(unseeded, quiet, observation=extra), False, quiet,
                       "the inventory changes by", False),
        EpisodeExample("no seed, the first wood without the score's unlock",
                       _changed(unseeded, wood, reward=None, score=steps[wood - 2].score), False, wood,
                       "collect_wood (the text shows it) but the score says nothing was unlocked", False),
        EpisodeExample("SmartPlay's silent fallback, reported", fallback, True),
        EpisodeExample("an unreadable reply under the strict reading ends the episode", strict, False, 3,
                       "the reply names no action the strict reading accepts"),
    ]


EXAMPLES = tuple(examples())
OPTIMA = tuple(Optimum("Crafter", {"actions": float(length)}, {"goal": goal}) for goal, length in OPTIMUM.items())
