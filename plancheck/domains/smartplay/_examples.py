"""The contract corpus of a SmartPlay episode world: episode logs with the verdict each must get.

Built by playing the world's own reference policy and changing one thing: a reward, a score, the
action read from a reply, the seed removed (checked from the text), an unreadable reply under
either reading.
"""

from __future__ import annotations

from dataclasses import replace

from plancheck.episodes.game import Replies
from plancheck.episodes.log import Episode, Step
from plancheck.episodes.play import play
from plancheck.world import EpisodeExample


class _Replies:
    """Replies from a list, in order."""

    def __init__(self, texts):
        self.texts = list(texts)

    def replies(self, step, game):
        return Replies(self.texts[step - 1])


def _changed(episode: Episode, k: int, **changes) -> Episode:
    steps = list(episode.steps)
    steps[k - 1] = replace(steps[k - 1], **changes)
    return replace(episode, steps=tuple(steps))


def corpus(episodes, seed: int = 1) -> list[EpisodeExample]:
    """The examples for a SmartPlay world's ``episodes``."""
    instance = episodes.instance(episodes.env)
    settings = episodes.settings({})[0]
    game = episodes.game(instance, seed, settings)
    bayes = play(episodes, instance, seed, settings, episodes.policy("bayes", game, seed),
                 policy_name="reference:bayes", game=game)
    actions = game.actions()
    fifth: Step = bayes.steps[4]
    other = next(a for a in actions if a != fifth.action)
    unseeded = replace(bayes, header=replace(bayes.header, seed=None))
    rising = [k for k, s in enumerate(bayes.steps, start=1) if k > 1 and s.score > bayes.steps[k - 2].score]
    replies = ["no idea"] + [actions[0]] * (settings["steps"] - 1)
    fallback = play(episodes, instance, seed, settings, _Replies(replies), policy_name="replay")
    strict = play(episodes, instance, seed, {**settings, "reading": "strict"}, _Replies(replies[1:3] + replies),
                  policy_name="replay")
    return [
        EpisodeExample("the Bayes-optimal policy", bayes, True),
        EpisodeExample("a reward the draw does not give", _changed(bayes, 5, reward=-fifth.reward or 1), False, 5,
                       "the reward is", False),
        EpisodeExample("a score one too high", _changed(bayes, 9, score=bayes.steps[8].score + 1), False, 9,
                       "the score is", False),
        EpisodeExample("an action the reply does not name", _changed(bayes, 5, action=other), False, 5,
                       f"the reply reads as {fifth.action!r} under the smartplay reading", False),
        EpisodeExample("no seed: checked from the text", unseeded, True),
        EpisodeExample("no seed, a score that rises for no hidden best action",
                       _changed(unseeded, rising[0], score=bayes.steps[rising[0] - 2].score), False, rising[0],
                       "SmartPlay's score counts one hidden best action", False),
        EpisodeExample("SmartPlay's silent fallback, reported", fallback, True),
        EpisodeExample("an unreadable reply under the strict reading ends the episode", strict, False, 3,
                       "the reply names no action the strict reading accepts"),
    ]
