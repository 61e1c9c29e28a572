"""Play one episode of a world with a policy and return its log."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from plancheck.episodes.game import Episodes, Game, Policy
from plancheck.episodes.log import Episode, Header, Step
from plancheck.errors import BadInputError


def play(episodes: Episodes, instance: Any, seed: int, settings: Mapping[str, Any], policy: Policy, *,
         policy_name: str, model: str | None = None, game: Game | None = None) -> Episode:
    """Run ``policy`` on a new game from ``seed`` until it is done, the horizon is reached, or a
    reply cannot be read (the step is then logged with no action and ends the episode).

    ``game`` is the game to play when the caller built it already (a reference policy needs it).
    """
    game = game if game is not None else episodes.game(instance, seed, settings)
    reading = episodes.readings[settings["reading"]]
    header = Header(episodes.world, episodes.instance_id(instance), seed, dict(settings), policy_name,
                    observation=game.reset(), model=model)
    steps: list[Step] = []
    score = None
    k = 0
    while game.horizon is None or k < game.horizon:
        k += 1
        replies = policy.replies(k, game)
        actions = game.actions()
        if replies.reply is None:
            raise BadInputError(f"the policy {policy_name} gave no reply at step {k}")
        read = reading.read(replies.reply, actions)
        if read.action is None:
            steps.append(Step(k, replies.reply, None, read.status, read.notes, None, None, score, True,
                              replies.earlier, replies.prompt))
            break
        transition = game.step(read.action, replies.reply)
        score = transition.score
        steps.append(Step(k, replies.reply, read.action, read.status, read.notes, transition.observation,
                          transition.reward, transition.score, transition.done, replies.earlier, replies.prompt,
                          dict(transition.info) or None))
        if transition.done:
            break
    return Episode(header, tuple(steps))
