"""``plancheck play`` and ``plancheck convert``: episodes of interactive worlds, played or converted into logs."""

from __future__ import annotations

import sys
from typing import Any

from plancheck.cli.common import OK, json_out
from plancheck.cli.progress import Progress
from plancheck.errors import BadInputError
from plancheck.world import World


def cmd_play(args, world: World, options: dict) -> int:
    from plancheck.episodes.check import check_episode
    from plancheck.episodes.log import dump_episodes
    from plancheck.episodes.play import play
    from plancheck.episodes.policies import Players

    episodes = world.episodes
    instance = episodes.instance(args.instance)
    settings, _ = episodes.settings(options)
    if args.episodes < 1:
        raise BadInputError("--episodes must be at least 1")
    if args.seed + args.episodes > 2 ** 32:
        raise BadInputError("the seeds SEED .. SEED+N-1 must stay below 2**32")
    players = Players(args.policy, episodes, args.episodes, args.reply_timeout)
    stream = json_out(args.output)
    progress = Progress("episodes", not args.no_progress and args.episodes > 1, total=args.episodes)
    try:
        with players:
            for number in range(args.episodes):
                seed = args.seed + number
                game = episodes.game(instance, seed, settings)
                episode = play(episodes, instance, seed, settings, players.policy(number, game, seed),
                               policy_name=players.name, model=args.model, game=game)
                dump_episodes([episode], stream)
                stream.flush()
                scores = check_episode(episodes, episode).scores
                progress.say(f"{world.name} {episode.header.instance} seed {seed}: {len(episode.steps)} step(s), "
                             + ", ".join(f"{rule} {_number_text(value)}" for rule, value in scores.items()))
                progress.tick()
    finally:
        progress.done()
        if args.output:
            stream.close()
    return OK


def _number_text(value: Any) -> str:
    return f"{value:.4g}" if isinstance(value, float) else str(value)


def cmd_convert(args, world: World, options: dict) -> int:
    from plancheck.episodes.log import dump_episodes

    stream = json_out(args.output)
    count = 0
    try:
        for path in args.runs:
            episodes = list(world.convert(path, seed=args.seed, model=args.model, **options))
            dump_episodes(episodes, stream)
            count += len(episodes)
    finally:
        if args.output:
            stream.close()
    if args.output:
        print(f"wrote {count} episode(s) to {args.output}", file=sys.stderr)
    return OK
