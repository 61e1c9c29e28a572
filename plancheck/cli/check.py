"""``plancheck check``: one answer, one verdict."""

from __future__ import annotations

import sys
from itertools import islice
from pathlib import Path
from typing import TYPE_CHECKING, Any

from plancheck.cli.common import FAILED, OK, data_dir, emit, limits_of, read_answer
from plancheck.cli.outputs import input_paths, refuse_overlap, write_atomically
from plancheck.errors import BadInputError, Location
from plancheck.limits import DEFAULT, Limits
from plancheck.verifier.render import printable, verdict_text
from plancheck.verifier.verdict import Semantics, Verdict
from plancheck.world import Capability, World

if TYPE_CHECKING:
    from plancheck.episodes.log import Episode


def cmd_check(args, world: World, options: dict) -> int:
    if world.supports(Capability.PLAY):
        if not world.supports(Capability.ANSWERS):
            return _check_episode(args, world, args.log)
        if len(args.files) == 1:
            return _check_episode(args, world, args.files[0])
        if len(args.files) != 2:
            raise BadInputError(f"check {world.name} takes an instance and an answer file, or an episode log")
        args.instance, args.answer = args.files
    instance = one_instance(world, args.instance, data_dir(args), options, "check")
    source = "<stdin>" if args.answer == "-" else args.answer
    answer = read_answer(args.answer, options["limits"])
    verdict = world.check(instance, answer, source=source, **options)
    if world.supports(Capability.PDDL_PLAN) and args.pddl_plan is not None:
        _write_pddl_plan(world, instance, answer, verdict, args.pddl_plan, source, options)
    return _show(args, verdict)


def one_instance(world: World, name: str, data: Path | None, options: dict, command: str) -> Any:
    """The one instance ``name`` names (a selector naming several is refused)."""
    # a selector may name thousands of instances, each one built when it is read: two are enough to refuse it
    instances = list(islice(world.instances([name], data, **options), 2))
    if len(instances) != 1:
        raise BadInputError(f"{name!r} names {'no instance' if not instances else 'several instances'}; "
                            f"{command} needs exactly one")
    return instances[0]


def one_episode(world: World, path: str, number: int | None, limits: Limits = DEFAULT) -> Episode:
    """The episode of a log (``-``: standard input) that ``--episode`` names, or its only one (its lines read
    within ``limits``)."""
    from plancheck.episodes.log import BrokenEpisode, read_episodes

    source = "<stdin>" if path == "-" else path
    if path != "-" and not Path(path).is_file():
        raise BadInputError(f"episode log {path} {'is a folder' if Path(path).is_dir() else 'does not exist'}")
    episodes = list(read_episodes(Path(source), read_answer(path, None) if path == "-" else None, limits))
    if number is not None:
        if not 1 <= number <= len(episodes):
            raise BadInputError(f"{source} holds {len(episodes)} episode(s); there is no episode {number}")
        episode = episodes[number - 1]
    elif len(episodes) != 1:
        raise BadInputError(f"{source} holds {len(episodes)} episodes; choose one with --episode K, or use "
                            f"`plancheck evaluate {world.name}`" if episodes else f"{source} holds no episode")
    else:
        episode = episodes[0]
    if isinstance(episode, BrokenEpisode):
        raise BadInputError(episode.reason, Location(episode.source, episode.line))
    return episode


def _check_episode(args, world: World, path: str) -> int:
    from plancheck.episodes.check import check_episode

    return _show(args, check_episode(world.episodes, one_episode(world, path, args.episode, limits_of(args))))


def _write_pddl_plan(world: World, instance: Any, answer: str, verdict: Verdict, path: Path, source: str,
                     options: dict) -> None:
    if not verdict.parsed:
        print(f"no PDDL plan written to {path}: the answer could not be read", file=sys.stderr)
        return
    problem, text = world.pddl_plan(instance, answer, source=source, **options)
    refuse_overlap(path, input_paths([source]), "--pddl-plan")
    write_atomically(path, text)
    print(f"wrote the answer as a PDDL plan to {path}; problem file {problem} (plancheck export "
          f"{world.name} {world.instance_id(instance)} -o DIR)", file=sys.stderr)


def _show(args, verdict: Verdict) -> int:
    """Print the verdict as JSON, as its feedback message, or as a report; the exit code says whether it passed."""
    semantics = Semantics(args.semantics)
    if args.json:
        emit(verdict.to_json(), indent=2)
    elif args.feedback:
        print(printable(verdict.feedback()))
    else:
        print(verdict_text(verdict, semantics, show_steps=args.steps))
    return OK if verdict.passed(semantics) else FAILED
