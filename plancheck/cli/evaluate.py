"""``plancheck evaluate``: files of answers, one verdict per record, the benchmark's summary table."""

from __future__ import annotations

import json
import sys
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from plancheck.cli.common import BAD_INPUT, OK, data_dir, emit, json_out
from plancheck.cli.progress import Progress
from plancheck.errors import BadInputError
from plancheck.verifier.batch import evaluate_records
from plancheck.verifier.render import table_text
from plancheck.world import BrokenRecord, Capability, Record, World


def _answer_files(paths: Sequence[Path]) -> Iterator[Path]:
    """The answer files named or found in the named folders, each once (a repeat is said on stderr)."""
    seen: set[Path] = set()
    for path in paths:
        if path.is_dir():
            found = sorted(p for p in path.rglob("*") if p.is_file() and p.suffix in (".jsonl", ".json", ".jl"))
        elif path.is_file():
            found = [path]
        else:
            raise BadInputError(f"{path} does not exist")
        for file in found:
            if file.resolve() in seen:
                print(f"plancheck: note: {file} is named twice; its records are read once", file=sys.stderr)
                continue
            seen.add(file.resolve())
            yield file


def _records(world: World, files: Sequence[Path], data: Path | None, stdin: Path | None,
             options: dict) -> Iterator[Record | BrokenRecord]:
    for path in files:
        for record in world.read_answers(path, data, **options):
            yield replace(record, source="<stdin>") if path == stdin else record


def cmd_evaluate(args, world: World, options: dict) -> int:
    data = data_dir(args)
    with tempfile.TemporaryDirectory() as spool:
        stdin = None
        if Path("-") in args.responses:  # spooled, so every world's file reader serves it
            stdin = Path(spool) / "stdin.jsonl"
            stdin.write_bytes(sys.stdin.buffer.read())
        files = [stdin if path == Path("-") else path for path in args.responses]
        return _evaluate(args, world, options, _items(world, list(_answer_files(files)), data, stdin, options))


def _items(world: World, files: list[Path], data: Path | None, stdin: Path | None, options: dict) -> Iterator[Any]:
    """The batch items of the files: episode logs are checked as episodes (every file, for a world
    that takes no answers; else the files that start with an episode header), answers as answers."""
    if not world.supports(Capability.PLAY):
        yield from evaluate_records(world, _records(world, files, data, stdin, options), data, **options)
        return
    from plancheck.episodes.batch import evaluate_episodes
    from plancheck.episodes.log import is_episode_log

    for path in files:
        if not world.supports(Capability.ANSWERS) or is_episode_log(path):
            for item in evaluate_episodes(world.episodes, [path]):
                yield replace(item, record=replace(item.record, source="<stdin>")) if path == stdin else item
        else:
            yield from evaluate_records(world, _records(world, [path], data, stdin, options), data, **options)


def _evaluate(args, world: World, options: dict, items: Iterator[Any]) -> int:
    progress = Progress("records", not args.no_progress)
    stream = json_out(args.output) if (args.output or not args.summary) else None
    results, broken, scored = [], [], 0
    try:
        for item in items:
            progress.tick()
            if item.verdict is not None:
                scored += 1
                if args.summary:  # keep verdicts (without their traces) only when a summary needs them
                    results.append((item.record, replace(item.verdict, steps=())))
            else:
                broken.append(item)
            if stream is not None:
                emit(item.to_json(), stream)
    finally:
        progress.done()
        if stream is not None and args.output:
            stream.close()
    for item in broken[:20]:
        print(f"broken record: {item.record.source}, line {item.record.line}: {item.error}", file=sys.stderr)
    if len(broken) > 20:
        print(f"... and {len(broken) - 20} more broken records", file=sys.stderr)
    if args.summary:
        summary = world.summarize(results, **options)
        summary_json = {**summary.to_json(), "records": len(results) + len(broken), "broken": len(broken)}
        if args.json:
            print(json.dumps(summary_json, indent=2))
        else:
            if results:
                print(table_text(summary.header, summary.rows, summary.title, summary.labels))
            unparsed = sum(1 for _, verdict in results if not verdict.parsed)
            noted = sum(1 for record, _ in results if record.notes)
            note = f"; {unparsed} answer(s) could not be parsed" if unparsed else ""
            if noted:
                note += f"; {noted} record(s) noted (e.g. no answer: the record's own reference was checked)"
            print(f"{len(results)} records scored, {len(broken)} broken{note}")
    if not scored and not broken:
        chosen = f" with --indices {options['indices']}" if options.get("indices") else ""
        print(f"plancheck: error: no answer records in {', '.join(str(path) for path in args.responses)}{chosen}",
              file=sys.stderr)
    return OK if scored else BAD_INPUT
