"""``plancheck render``: a picture of an instance and of an answer (or of an interactive world's episode)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from plancheck.cli.check import one_episode, one_instance
from plancheck.cli.common import OK, data_dir, read_answer
from plancheck.errors import BadInputError
from plancheck.limits import Limits
from plancheck.world import Capability, World


def _episode_answer(world: World, instance: Any, path: str, number: int | None, limits: Limits) -> tuple[Any, Any]:
    """An episode log as the answer: the episode and its verdict; it must be an episode of ``instance``."""
    from plancheck.episodes.check import check_episode

    episode = one_episode(world, path, number, limits)
    named = world.episodes.instance_id(world.episodes.instance(episode.header.instance))
    if named != world.instance_id(instance):
        raise BadInputError(f"{path} is an episode of {named}, not of {world.instance_id(instance)}")
    return episode, check_episode(world.episodes, episode)


def _is_log(world: World, path: str) -> bool:
    if not world.supports(Capability.PLAY):
        return False
    if not world.supports(Capability.ANSWERS):
        return True
    from plancheck.episodes.log import is_episode_log

    return path != "-" and Path(path).is_file() and is_episode_log(Path(path))


def cmd_render(args, world: World, options: dict) -> int:
    from plancheck.drawing.output import picture_format, save

    picture_format(args.output)  # a wrong suffix is said before any work
    instance = one_instance(world, args.instance, data_dir(args), options, "render")
    answer, verdict = None, None
    if args.answer is not None:
        if _is_log(world, args.answer):
            answer, verdict = _episode_answer(world, instance, args.answer, args.episode, options["limits"])
        else:
            answer = read_answer(args.answer, options["limits"])
            source = "<stdin>" if args.answer == "-" else args.answer
            verdict = world.check(instance, answer, source=source, **options)
    picture = world.render(instance, answer, verdict=verdict, **options)
    if str(args.output) == "-":
        from plancheck.drawing.svg import to_svg

        print(to_svg(picture.still))
        return OK
    save(picture, args.output)
    frames = f", {len(picture.frames) or 1} frame(s)" if args.output.suffix.lower() == ".gif" else ""
    print(f"wrote {args.output}{frames}", file=sys.stderr)
    return OK
