"""The commands that show instances: worlds, instances, prompt, stats."""

from __future__ import annotations

import argparse

from plancheck.cli.common import OK, count_selected, data_dir, emit, select
from plancheck.cli.outputs import input_paths, output_stream
from plancheck.cli.progress import Progress
from plancheck.errors import BadInputError
from plancheck.registry import UNSUPPORTED, get_world, world_names
from plancheck.verifier.render import table_text
from plancheck.world import Capability, World


def cmd_worlds(args: argparse.Namespace) -> int:
    worlds = [get_world(name) for name in world_names()]
    if args.json:
        emit([{"name": w.name, "title": w.title, "capabilities": [c.value for c in Capability if w.supports(c)]}
              for w in worlds]
             + [{"name": name, "title": why, "supported": False} for name, why in UNSUPPORTED.items()],
             indent=2, ascii_only=True)
    else:
        width = max(len(name) for name in (*world_names(), *UNSUPPORTED))
        for world in worlds:
            print(f"{world.name:{width}s} {world.title}")
        for name, why in UNSUPPORTED.items():
            print(f"{name:{width}s} {why}")
    return OK


def cmd_instances(args, world: World, options: dict) -> int:
    count = 0
    for instance in select(world, args.selectors or ["all"], data_dir(args), options, ids=not args.json):
        if args.limit is not None and count >= args.limit:
            break
        if args.json:
            emit(world.instance_json(instance), ascii_only=True)
        else:  # an id (listed without building the instance)
            print(instance)
        count += 1
    return OK


def cmd_prompt(args, world: World, options: dict) -> int:
    progress = Progress("prompts", not args.no_progress and args.output is not None)  # not over prompts printed
    if progress.enabled:
        progress.total = count_selected(world, args.selectors, data_dir(args), options)
    try:
        with output_stream(args.output, input_paths(args.selectors)) as stream:
            for instance in select(world, args.selectors, data_dir(args), options):
                prompt = world.prompt(instance, **options)
                progress.tick()
                if args.json or args.output:
                    emit(prompt.to_json(), stream)
                else:
                    if prompt.system is not None:
                        print(f"=== {prompt.instance}: system ===\n{prompt.system}")
                    for role, content in prompt.context:
                        print(f"=== {prompt.instance}: {role} ===\n{content}")
                    if prompt.user is not None:  # LangSuitE sends system messages only
                        print(f"=== {prompt.instance}: user ===\n{prompt.user}")
    finally:
        progress.done()
    return OK


def cmd_stats(args, world: World, options: dict) -> int:
    progress = Progress("instances", not args.no_progress)
    if progress.enabled:
        progress.total = count_selected(world, args.selectors or ["all"], data_dir(args), options)
    try:
        summary = world.stats(args.selectors or ["all"], data_dir(args), **options, report=progress.tick)
    finally:
        progress.done()
    if not summary.rows:
        raise BadInputError(f"no instance matches {' '.join(args.selectors or ['all'])} with the options given")
    if args.json:
        emit(summary.to_json(), indent=2, ascii_only=True)
    else:
        print(table_text(summary.header, summary.rows, summary.title, summary.labels))
    return OK
