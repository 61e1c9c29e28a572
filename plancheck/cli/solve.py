"""``plancheck solve`` and ``plancheck export``: certified plans and PDDL files.

Instances are solved (or exported) here, on ``--jobs N`` processes or as Ray tasks, the output in the
selection's order whichever; ``solve -o`` is written safely and ``--resume`` continues a killed run.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Iterator
from functools import partial
from itertools import islice
from pathlib import Path
from typing import Any

from plancheck.cli.common import FAILED, INTERNAL, OK, count_selected, data_dir, json_line, select
from plancheck.cli.outputs import OutputFile, input_paths, refuse_overlap, write_atomically
from plancheck.cli.parallel import ordered_map, portable, world_of
from plancheck.cli.progress import Progress
from plancheck.cli.resume import Resumed, manifest, start
from plancheck.errors import BadInputError, UnsupportedError
from plancheck.verifier.batch import internal_reason
from plancheck.world import World

INTERNAL_STATUS = "internal error"


def solve_one(world: World | str, options: dict, instance: Any, debug: bool = False) -> tuple[str, str, bool]:
    """One instance's result line, status and whether it is proven optimal (in whichever process runs it).
    An unexpected exception (a bug) costs that instance only: its line has the status ``internal error``.
    Bad input (an unsupported request included) is not a bug: it stops the run, with exit 2; with ``debug``
    any exception stops it."""
    checker = world_of(world)
    try:
        result = checker.solve(instance, **options)
    except Exception as error:
        if debug or isinstance(error, BadInputError):  # UnsupportedError is one too
            raise
        line = {"instance": checker.instance_id(instance), "status": INTERNAL_STATUS,
                "message": internal_reason(error)}
        return json_line(line), INTERNAL_STATUS, False
    return json_line(result.to_json()), result.status.value, result.proven_optimal


def _prior(resumed: Resumed, instances: Iterator[Any], world: World) -> Iterator[tuple[str, str, bool]]:
    """The results an earlier run wrote (``--resume``), checked to be about the same instances."""
    for instance, line in zip(islice(instances, resumed.lines), resumed.prior()):
        if line.get("instance") != world.instance_id(instance):
            raise BadInputError(f"cannot resume: the partial output names {line.get('instance')} where the "
                                f"selection has {world.instance_id(instance)}")
        yield "", line["status"], bool(line.get("proven_optimal"))


def cmd_solve(args, world: World, options: dict) -> int:
    data = data_dir(args)
    inputs = input_paths(args.selectors)
    output = OutputFile(args.output) if args.output else None
    resumed = Resumed()
    if output is not None:
        refuse_overlap(args.output, inputs)
        settings = {"command": "solve", "world": world.name, "selectors": args.selectors, "data": str(data),
                    "options": options}
        run = manifest(json.loads(json.dumps(settings, default=str)), [(str(path), path) for path in inputs
                                                                         if path.is_file()])
        resumed = start(output, run, args.resume)
    elif args.resume:
        raise BadInputError("--resume needs -o FILE, the output of the run to continue")
    progress = Progress("instances", not args.no_progress)
    if progress.enabled:
        progress.total = count_selected(world, args.selectors, data_dir(args), options)
    statuses: Counter[str] = Counter()
    proven, warned = 0, [0]  # warned: how many instances got the planner warning
    try:
        stream = output.open(resumed.keep) if output is not None else sys.stdout
        instances = _warned(world, select(world, args.selectors, data, options), options, progress, warned)
        if args.jobs > 1 or args.ray is not None:
            results = ordered_map(partial(solve_one, world.name, options, debug=args.debug), instances,
                                  jobs=args.jobs, ray=args.ray)
        else:  # here, with the search's progress on a terminal
            results = (solve_one(world, {**options, "report": progress.search(world.instance_id(i))}, i, args.debug)
                       for i in instances)
        for line, status, optimal in _chain(_prior(resumed, instances, world), results):
            progress.tick()
            statuses[status] += 1
            proven += optimal
            if line:
                stream.write(line)
            if status == INTERNAL_STATUS and line:
                found = json.loads(line)
                progress.say(f"plancheck: {found['instance']}: {found['message']}; the other instances go on "
                             "(rerun it with --debug for the traceback)")
        if output is not None:
            output.commit()
    finally:
        progress.done()
        if output is not None:
            output.release()
    if warned[0] > 1:
        print(f"plancheck: warning: the same for {warned[0] - 1} more instance(s)", file=sys.stderr)
    if args.output:
        counts = ", ".join(f"{count} {status}" for status, count in statuses.most_common())
        print(f"{sum(statuses.values())} instance(s): {counts or 'none'}; {proven} proven optimal; "
              f"written to {args.output}", file=sys.stderr)
    if statuses[INTERNAL_STATUS]:
        return INTERNAL
    return FAILED if set(statuses) - {"solved"} else OK


def _warned(world: World, instances: Iterator[Any], options: dict, progress: Progress,
            warned: list[int]) -> Iterator[Any]:
    """The instances, with the world's warning before a planner run that cannot finish (said once, then counted)."""
    for instance in instances:
        warning = world.solve_warning(instance, **options)
        if warning is not None:
            if not warned[0]:
                progress.say(f"plancheck: warning: {world.instance_id(instance)}: {warning}")
            warned[0] += 1
        yield instance


def _chain(first: Iterator[Any], then: Iterator[Any]) -> Iterator[Any]:
    """``first`` to its end, then ``then`` (drawn only after: both read the same instances)."""
    yield from first
    yield from then


def export_one(world: World | str, options: dict, instance: Any) -> dict[str, str] | UnsupportedError:
    """One instance's PDDL files, or why it has none (in whichever process runs it)."""
    try:
        return world_of(world).export(instance, **options)
    except UnsupportedError as error:
        return error


def cmd_export(args, world: World, options: dict) -> int:
    written: dict[str, int] = {}  # file name -> hash of the text written (shared domains are written once)
    without: list[UnsupportedError] = []
    progress = Progress("instances", not args.no_progress)
    if progress.enabled:
        progress.total = count_selected(world, args.selectors, data_dir(args), options)
    instances = select(world, args.selectors, data_dir(args), options)
    try:
        for files in ordered_map(partial(export_one, portable(world, args.jobs, args.ray), options), instances,
                                 jobs=args.jobs, ray=args.ray):
            progress.tick()
            if isinstance(files, UnsupportedError):  # this instance has no PDDL form: said, and the others go on
                without.append(files)
                continue
            args.output.mkdir(parents=True, exist_ok=True)  # only once an instance is known: a typo leaves no folder
            for name, text in files.items():
                if written.get(name) != hash(text):
                    write_atomically(Path(args.output) / name, text)
                    written[name] = hash(text)
    finally:
        progress.done()
    if without and not written:
        raise without[0] if len(without) == 1 else UnsupportedError(
            f"none of the {len(without)} selected instances has a PDDL form, e.g. {without[0]}")
    skipped = f"; {len(without)} instance(s) have no PDDL form, e.g. {without[0]}" if without else ""
    print(f"wrote {len(written)} file(s) to {args.output}{skipped}")
    return OK
