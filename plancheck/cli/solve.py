"""``plancheck solve`` and ``plancheck export``: certified plans and PDDL files."""

from __future__ import annotations

import sys
from collections import Counter

from plancheck.cli.common import FAILED, OK, count_selected, data_dir, emit, json_out, select
from plancheck.cli.progress import Progress
from plancheck.errors import UnsupportedError
from plancheck.world import World


def cmd_solve(args, world: World, options: dict) -> int:
    stream = json_out(args.output)
    progress = Progress("instances", not args.no_progress)
    if progress.enabled:
        progress.total = count_selected(world, args.selectors, data_dir(args), options)
    statuses: Counter[str] = Counter()
    proven, warned = 0, 0
    try:
        for instance in select(world, args.selectors, data_dir(args), options):
            warning = world.solve_warning(instance, **options)
            if warning is not None:
                if not warned:
                    progress.say(f"plancheck: warning: {world.instance_id(instance)}: {warning}")
                warned += 1
            result = world.solve(instance, **options, report=progress.search(world.instance_id(instance)))
            progress.tick()
            statuses[result.status.value] += 1
            proven += result.proven_optimal
            emit(result.to_json(), stream)
    finally:
        progress.done()
        if args.output:
            stream.close()
    if warned > 1:
        print(f"plancheck: warning: the same for {warned - 1} more instance(s)", file=sys.stderr)
    if args.output:
        counts = ", ".join(f"{count} {status}" for status, count in statuses.most_common())
        print(f"{sum(statuses.values())} instance(s): {counts or 'none'}; {proven} proven optimal; "
              f"written to {args.output}", file=sys.stderr)
    return FAILED if set(statuses) - {"solved"} else OK


def cmd_export(args, world: World, options: dict) -> int:
    written: set[str] = set()
    without: list[UnsupportedError] = []
    progress = Progress("instances", not args.no_progress)
    if progress.enabled:
        progress.total = count_selected(world, args.selectors, data_dir(args), options)
    try:
        for instance in select(world, args.selectors, data_dir(args), options):
            progress.tick()
            try:
                files = world.export(instance, **options)
            except UnsupportedError as error:  # this instance has no PDDL form: said, and the others go on
                without.append(error)
                continue
            args.output.mkdir(parents=True, exist_ok=True)  # only once an instance is known: a typo leaves no folder
            for name, text in files.items():
                (args.output / name).write_text(text, encoding="utf-8")
                written.add(name)
    finally:
        progress.done()
    if without and not written:
        raise without[0] if len(without) == 1 else UnsupportedError(
            f"none of the {len(without)} selected instances has a PDDL form, e.g. {without[0]}")
    skipped = f"; {len(without)} instance(s) have no PDDL form, e.g. {without[0]}" if without else ""
    print(f"wrote {len(written)} file(s) to {args.output}{skipped}")
    return OK
