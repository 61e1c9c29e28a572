"""``plancheck play`` and ``plancheck convert``: episodes of interactive worlds, played or converted into logs.

``play --jobs N`` (or ``--ray``) plays the episodes on several processes; the log is the same, in seed order.
A ``cmd:`` agent then runs once per episode instead of once for all.
"""

from __future__ import annotations

import io
import sys
from functools import partial
from typing import Any

from plancheck.cli.common import OK
from plancheck.cli.outputs import input_paths, output_stream
from plancheck.cli.parallel import ordered_map
from plancheck.cli.progress import Progress
from plancheck.errors import BadInputError
from plancheck.registry import get_world
from plancheck.world import World


def _episode(world: World, instance: Any, settings: dict, players: Any, number: int, seed: int,
             model: str | None) -> tuple[str, str]:
    """One episode's log (JSONL text) and its line for stderr."""
    from plancheck.episodes.check import check_episode
    from plancheck.episodes.log import dump_episodes
    from plancheck.episodes.play import play

    episodes = world.episodes
    game = episodes.game(instance, seed, settings)
    episode = play(episodes, instance, seed, settings, players.policy(number, game, seed),
                   policy_name=players.name, model=model, game=game)
    text = io.StringIO()
    dump_episodes([episode], text)
    scores = check_episode(episodes, episode).scores
    said = (f"{world.name} {episode.header.instance} seed {seed}: {len(episode.steps)} step(s), "
            + ", ".join(f"{rule} {_number_text(value)}" for rule, value in scores.items()))
    return text.getvalue(), said


def play_one(world_name: str, instance_id: str, options: dict, policy: str, count: int, timeout: float,
             model: str | None, job: tuple[int, int]) -> tuple[str, str]:
    """Episode ``job`` = (number, seed), played in whichever process runs it, with its own players."""
    from plancheck.episodes.policies import Players

    world = get_world(world_name)
    episodes = world.episodes
    settings, _ = episodes.settings(options)
    with Players(policy, episodes, count, timeout) as players:
        return _episode(world, episodes.instance(instance_id), settings, players, job[0], job[1], model)


def cmd_play(args, world: World, options: dict) -> int:
    from plancheck.episodes.policies import Players

    episodes = world.episodes
    instance = episodes.instance(args.instance)
    settings, _ = episodes.settings(options)
    if args.episodes < 1:
        raise BadInputError("--episodes must be at least 1")
    if args.seed + args.episodes > 2 ** 32:
        raise BadInputError("the seeds SEED .. SEED+N-1 must stay below 2**32")
    players = Players(args.policy, episodes, args.episodes, args.reply_timeout)
    jobs = [(number, args.seed + number) for number in range(args.episodes)]
    replayed = input_paths([args.policy.removeprefix("replay:")]) if args.policy.startswith("replay:") else []
    progress = Progress("episodes", not args.no_progress and args.episodes > 1, total=args.episodes)
    try:
        with output_stream(args.output, replayed) as stream:
            if args.jobs > 1 or args.ray is not None:
                work = partial(play_one, world.name, args.instance, options, args.policy, args.episodes,
                               args.reply_timeout, args.model)
                played = ordered_map(work, jobs, jobs=args.jobs, ray=args.ray, chunk=1)
            else:
                played = _here(world, instance, settings, players, jobs, args.model)
            for text, said in played:
                stream.write(text)
                stream.flush()
                progress.say(said)
                progress.tick()
    finally:
        progress.done()
    return OK


def _here(world: World, instance: Any, settings: dict, players: Any, jobs: list[tuple[int, int]],
          model: str | None):
    with players:
        for number, seed in jobs:
            yield _episode(world, instance, settings, players, number, seed, model)


def _number_text(value: Any) -> str:
    return f"{value:.4g}" if isinstance(value, float) else str(value)


def cmd_convert(args, world: World, options: dict) -> int:
    from plancheck.episodes.log import dump_episodes

    count = 0
    with output_stream(args.output, input_paths(args.runs)) as stream:
        for path in args.runs:
            episodes = list(world.convert(path, seed=args.seed, model=args.model, **options))
            dump_episodes(episodes, stream)
            count += len(episodes)
    if args.output:
        print(f"wrote {count} episode(s) to {args.output}", file=sys.stderr)
    return OK
