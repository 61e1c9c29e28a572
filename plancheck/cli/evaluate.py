"""``plancheck evaluate``: files of answers, one verdict per record, the benchmark's summary table."""

from __future__ import annotations

import json
import sys
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import nullcontext
from dataclasses import replace
from pathlib import Path
from typing import Any

from plancheck.cli.common import BAD_INPUT, OK, data_dir
from plancheck.cli.output import RowWriter, output_format
from plancheck.cli.progress import Progress
from plancheck.errors import BadInputError
from plancheck.verifier.batch import evaluate_records
from plancheck.verifier.render import table_markdown, table_text
from plancheck.verifier.rows import answer_row
from plancheck.verifier.stats import statistics
from plancheck.verifier.verdict import Semantics
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
        found = list(_answer_files(files))
        progress = Progress("records", not args.no_progress)
        if progress.enabled:  # the bar counts input lines: one pass over the files, only on a terminal
            progress.total = sum(lines.values()) if (lines := _line_counts(found, stdin)) else None
            return _evaluate(args, world, options, _positioned(_items(world, found, data, stdin, options), lines,
                                                               progress), progress)
        return _evaluate(args, world, options, _items(world, found, data, stdin, options), progress)


def _line_counts(files: Sequence[Path], stdin: Path | None) -> dict[str, int]:
    """Each file's number of lines, by the name its records carry."""
    counts = {}
    for path in files:
        with open(path, "rb") as handle:
            counts["<stdin>" if path == stdin else str(path)] = sum(chunk.count(b"\n") for chunk in
                                                                    iter(lambda: handle.read(1 << 20), b""))
    return counts


def _positioned(items: Iterator[Any], lines: dict[str, int], progress: Progress) -> Iterator[Any]:
    """The items, moving the bar to each one's line among all the input lines."""
    offset, current = 0, None
    for item in items:
        source = item.record.source
        if source != current:
            offset += lines.get(current, 0) if current is not None else 0
            current = source
        progress.advance(offset + item.record.line)
        yield item


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


def _evaluate(args, world: World, options: dict, items: Iterator[Any], progress: Progress) -> int:
    drawing = args.plot is not None or args.html is not None
    if drawing:
        _check_picture_options(args, world)
    tables = args.summary or args.stats
    fmt = output_format(args.format, args.output)
    writer = RowWriter(args.output, fmt) if (args.output or not (tables or drawing)) else None
    versions, rule = world.versions(), options.get("rule")
    results, broken, scored = [], [], 0
    with writer if writer is not None else nullcontext():
        try:
            for item in items:
                progress.tick()
                if item.verdict is not None:
                    scored += 1
                    if args.html is not None:  # pictures replay the verdict's steps
                        results.append((item.record, item.verdict))
                    elif tables or drawing:  # keep verdicts (without their traces) only when a table needs them
                        results.append((item.record, replace(item.verdict, steps=())))
                else:
                    broken.append(item)
                if writer is not None:
                    writer.write(answer_row(world.name, item, semantics=args.semantics, rule=rule, versions=versions))
        finally:
            progress.done()
    for item in broken[:20]:
        print(f"broken record: {item.record.source}, line {item.record.line}: {item.error}", file=sys.stderr)
    if len(broken) > 20:
        print(f"... and {len(broken) - 20} more broken records", file=sys.stderr)
    if tables:
        _tables(args, world, options, results, broken)
    if drawing and results:
        _draw(args, world, options, results, broken)
    if not scored and not broken:
        chosen = f" with --indices {options['indices']}" if options.get("indices") else ""
        print(f"plancheck: error: no answer records in {', '.join(str(path) for path in args.responses)}{chosen}",
              file=sys.stderr)
    return OK if scored else BAD_INPUT


def _tables(args, world: World, options: dict, results: list, broken: list) -> None:
    """The world's summary table (--summary) and the statistics table (--stats), as text, Markdown or JSON."""
    summaries = []
    if args.summary:
        summaries.append(world.summarize(results, **options))
    statistics_table = statistics(results, args.semantics, options.get("rule"), args.resamples)
    if args.stats:
        summaries.append(statistics_table)
    if args.json:
        data = {**summaries[0].to_json()} if args.summary else {}
        data.update({"records": len(results) + len(broken), "broken": len(broken),
                     "statistics": statistics_table.to_json(), "versions": world.versions()})
        print(json.dumps(data, indent=2))
        return
    show = table_markdown if args.markdown else table_text
    if results:
        print("\n\n".join(show(s.header, s.rows, s.title, s.labels) for s in summaries))
    unparsed = sum(1 for _, verdict in results if not verdict.parsed)
    noted = sum(1 for record, _ in results if record.notes)
    note = f"; {unparsed} answer(s) could not be parsed" if unparsed else ""
    if noted:
        note += f"; {noted} record(s) noted (e.g. no answer: the record's own reference was checked)"
    print(f"{'' if not args.markdown else chr(10)}{len(results)} records scored, {len(broken)} broken{note}")


def _check_picture_options(args, world: World) -> None:
    """Wrong file names and a world without pictures are said before any answer is scored."""
    from plancheck.drawing.output import picture_format

    if args.plot is not None and picture_format(args.plot) == ".gif":
        raise BadInputError(f"{args.plot}: the plot is a still picture: .svg or .png", option="plot")
    if args.html is not None and args.html.suffix.lower() not in (".html", ".htm"):
        raise BadInputError(f"{args.html}: the report is an HTML file (.html)", option="html")
    if args.pictures < 0:
        raise BadInputError("must be 0 or more", option="pictures")


def _draw(args, world: World, options: dict, results: list, broken: list) -> None:
    """``--plot`` and ``--html``."""
    from plancheck import pictures
    from plancheck.drawing.output import save
    from plancheck.drawing.shapes import Picture

    plot = pictures.summary_plot(world, results, options)
    if args.plot is not None:
        save(Picture(plot), args.plot)
        print(f"wrote the plot to {args.plot}", file=sys.stderr)
    if args.html is not None:
        progress = Progress("pictures", not args.no_progress, total=min(len(results), args.pictures))
        entries = pictures.entries(world, results, data_dir(args), options, args.pictures, progress.tick)
        page = pictures.html_report(world, entries, world.summarize(results, **options), plot,
                                    [(b.record.source, b.record.line, b.error) for b in broken],
                                    Semantics(args.semantics))
        progress.done()
        args.html.write_text(page, encoding="utf-8")
        print(f"wrote the report to {args.html}", file=sys.stderr)
