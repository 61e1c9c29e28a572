"""``plancheck evaluate``: files of answers, one verdict per record, the benchmark's summary table.

Records are read lazily, one unit (record or episode) at a time, and scored here, on ``--jobs N`` processes
or as Ray tasks (``--ray``); the verdicts come out in input order whichever scores them, and nothing
grows with the batch but the summary's own counts (and, for ``--duplicates``, one key per distinct answer).
Duplicates are found here, in input order, before the records go to be scored
(:class:`plancheck.verifier.batch.DuplicateCheck`); an internal error is caught per record wherever it is
scored, and the run exits 3 (``--debug``: the traceback). ``-o`` is written safely
(:mod:`plancheck.cli.outputs`) and ``--resume`` continues a killed run (:mod:`plancheck.cli.resume`).
"""

from __future__ import annotations

import json
import os
import re
import stat
import sys
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from functools import partial
from itertools import islice
from pathlib import Path
from typing import Any, NamedTuple

from plancheck.cli.common import BAD_INPUT, INTERNAL, OK, data_dir, emit, json_line
from plancheck.cli.output import TableRows, output_format
from plancheck.cli.outputs import OutputFile, refuse_overlap, stdin_blocks
from plancheck.cli.parallel import ordered_map, portable, world_of
from plancheck.cli.progress import Progress
from plancheck.cli.resume import Resumed, manifest, start
from plancheck.errors import BadInputError
from plancheck.limits import LIMIT_HELP
from plancheck.translators.answer import ReadStatus
from plancheck.verifier.batch import INTERNAL_ERROR, BatchItem, DuplicateCheck, Marked, evaluate_record
from plancheck.verifier.render import table_markdown, table_text
from plancheck.verifier.rows import answer_row
from plancheck.verifier.stats import statistics
from plancheck.verifier.verdict import Semantics, Verdict
from plancheck.world import BrokenRecord, Capability, Record, World

SUFFIXES = (".jsonl", ".json", ".jl")
_SHOWN = 20  # broken records listed on stderr; the rest are counted


def _problem(file: Path) -> str | None:
    """Why a folder's entry named like an answer file cannot be read as one, or None when it can."""
    try:
        mode = file.stat().st_mode
    except FileNotFoundError:
        return "a link to a missing file" if file.is_symlink() else "vanished while the folder was read"
    except OSError as error:
        return f"cannot be read: {error.strerror}"
    if stat.S_ISDIR(mode):
        return None
    if not stat.S_ISREG(mode):
        kind = "a FIFO" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode) else "a device"
        return f"not a regular file ({kind})"
    try:
        os.close(os.open(file, os.O_RDONLY))
    except OSError as error:
        return f"cannot be read: {error.strerror}"
    return None


def answer_files(paths: Sequence[Path]) -> Iterator[Path | BrokenRecord]:
    """The answer files named or found in the named folders, each once (a repeat is said on stderr); an entry
    of a folder that is named like one but cannot be read (unreadable, a FIFO, a dangling link) is a
    BrokenRecord naming it, in its place."""
    seen: set[Path] = set()
    for path in paths:
        if path.is_dir():
            found = sorted(p for p in path.rglob("*") if p.suffix in SUFFIXES)
        elif path.is_file():
            found = [path]
        else:
            raise BadInputError(f"{path} does not exist")
        for file in found:
            if (problem := _problem(file)) is not None:
                yield BrokenRecord(0, problem, str(file))
                continue
            if file.is_dir():
                continue
            if file.resolve() in seen:
                print(f"plancheck: note: {file} is named twice; its records are read once", file=sys.stderr)
                continue
            seen.add(file.resolve())
            yield file


def _units(world: World, entries: Sequence[Path | BrokenRecord], data: Path | None, stdin: Path | None,
           options: dict) -> Iterator[Any]:
    """Every unit of the batch in order: records (answers) or episodes (episode logs: every file of a world
    that takes no answers, else the files that start with an episode header); a file that fails while it is
    read gives a BrokenRecord after the units read from it."""
    episodic = world.supports(Capability.PLAY)
    for entry in entries:
        if isinstance(entry, BrokenRecord):
            yield entry
            continue
        try:
            if episodic and (not world.supports(Capability.ANSWERS) or _is_log(entry)):
                from plancheck.episodes.log import read_episodes
                found = read_episodes(entry, limits=options["limits"])
            else:
                found = world.read_answers(entry, data, **options)
            if entry == stdin:
                found = (replace(unit, source="<stdin>") for unit in found)
            yield from found
        except OSError as error:
            yield BrokenRecord(0, f"cannot be read: {error.strerror or error}", "<stdin>" if entry == stdin
                               else str(entry))


def _marked(units: Iterator[Any], check: DuplicateCheck, here: bool) -> Iterator[Any]:
    """The units with each record marked by the duplicate check, in input order (episodes as they are); a record
    scored on another process (not ``here``) goes without its instance, which that process resolves again."""
    for unit in units:
        if isinstance(unit, (Record, BrokenRecord)):
            unit = check.mark(unit)
            if not here and isinstance(unit, Marked):
                unit = unit._replace(instance=None)
        yield unit


def _is_log(path: Path) -> bool:
    from plancheck.episodes.log import is_episode_log

    return is_episode_log(path)


class Scored(NamedTuple):
    """A unit's outcome as the command needs it: its output row as a JSON line (or, for CSV and Parquet, as
    the row itself), its record, its verdict (kept only for the tables, a plot or the HTML report; with its
    steps for the report only) or why it could not be scored (``internal``: a bug in plancheck); the first
    record it repeats, and whether it was left out as a duplicate (``--duplicates first``). A NamedTuple: as
    immutable as a frozen dataclass, built at half the cost (one per record)."""

    line: str
    record: Any
    verdict: Verdict | None
    error: str | None
    row: dict[str, Any] | None = None
    duplicate_of: str | None = None
    skipped: bool = False
    internal: bool = False


@dataclass(frozen=True, slots=True)
class RowSettings:
    """How output rows are made: their format, the semantics of ``passed``, the headline rule, the versions."""

    format: str
    semantics: str
    rule: str | None
    versions: dict[str, Any]


def score(world: World | str, data: Path | None, options: dict, keep: str, rows: RowSettings, debug: bool,
          unit: Any) -> Scored:
    """Score one unit (in whichever process runs it): a record as the duplicate check marked it, or an episode;
    ``keep``: the verdict with its steps ("steps", for pictures), without them ("verdict", for the tables or a
    plot) or not at all (""); ``debug``: an internal error is raised, not reported as the unit's error."""
    world = world_of(world)
    if isinstance(unit, (Record, BrokenRecord, Marked, BatchItem)):
        item = evaluate_record(world, unit, data, debug=debug, **options)
    else:
        from plancheck.episodes.batch import evaluate_episode
        item = evaluate_episode(world.episodes, unit, debug=debug)
    verdict = None if not keep or item.verdict is None else item.verdict if keep == "steps" else \
        replace(item.verdict, steps=())
    row = answer_row(world.name, item, semantics=rows.semantics, rule=rows.rule, versions=rows.versions)
    line, row = (json_line(row), None) if rows.format == "jsonl" else ("", row)
    return Scored(line, item.record, verdict, item.error, row, item.duplicate_of, item.skipped, item.internal)


def _record_of(unit: Any) -> Any:
    """The record a unit's output line is about."""
    if isinstance(unit, (Record, BrokenRecord)):
        return unit
    if isinstance(unit, (Marked, BatchItem)):
        return unit.record
    from plancheck.episodes.batch import record_of
    from plancheck.episodes.log import Episode

    return record_of(unit) if isinstance(unit, Episode) else BrokenRecord(unit.line, unit.reason, unit.source)


def _replayed(unit: Any, line: dict[str, Any], keep: str) -> Scored:
    """The outcome an earlier run wrote for ``unit`` (``--resume``); bad input if it is about another record."""
    record = _record_of(unit)
    if line.get("source") != record.source or line.get("line") != record.line:
        raise BadInputError(f"cannot resume: the partial output's line for {record.source}, line {record.line} "
                            f"is about {line.get('source')}, line {line.get('line')}")
    verdict = Verdict.from_json(line["verdict"]) if keep and "verdict" in line else None
    error = line.get("error")
    return Scored("", record, verdict, error, duplicate_of=line.get("duplicate_of"), skipped="skipped" in line,
                  internal=error is not None and error.startswith(INTERNAL_ERROR))


def _outcomes(units: Iterator[Any], resumed: Resumed, work: Any, args: Any, keep: str) -> Iterator[Scored]:
    prior = resumed.prior()
    for unit, line in zip(islice(units, resumed.lines), prior):
        yield _replayed(unit, line, keep)
    yield from ordered_map(work, units, jobs=args.jobs, ray=args.ray)


def count_read(counts: dict[str, dict[str, int]], record: Record, verdict: Verdict) -> None:
    """Count an answer by its read status (clear, ambiguous, none), in all and under its model."""
    status = verdict.read.status.value
    for key in ("all", record.model):
        if key not in counts:
            counts[key] = dict.fromkeys(_READ_STATUSES, 0)
        counts[key][status] += 1


_READ_STATUSES = tuple(status.value for status in ReadStatus)


def cmd_evaluate(args, world: World, options: dict) -> int:
    data = data_dir(args)
    if args.output:
        refuse_overlap(args.output, [path for path in args.responses if path != Path("-")])
    elif args.resume:
        raise BadInputError("--resume needs -o FILE, the output of the run to continue")
    if args.plot is not None or args.html is not None:
        _check_picture_options(args)
    keep = "steps" if args.html is not None else \
        "verdict" if args.summary or args.stats or args.plot is not None else ""
    fmt = output_format(args.format, args.output)
    if args.resume and fmt != "jsonl":
        raise BadInputError(f"--resume continues JSON lines output, not {fmt}", option="resume")
    rows = RowSettings(fmt, args.semantics, options.get("rule"), world.versions())
    output = OutputFile(args.output) if args.output else None
    with tempfile.TemporaryDirectory(prefix="plancheck-") as spool:
        try:
            if output is not None:
                output.lock()  # before anything is read: a second run on the same output stops at once
            stdin = _spool(Path(spool)) if Path("-") in args.responses else None
            entries = list(answer_files([stdin if path == Path("-") else path for path in args.responses]))
            resumed = Resumed()
            if output is not None:
                inputs = [("-" if e == stdin else str(e), e) for e in entries if isinstance(e, Path)]
                settings = {"command": "evaluate", "world": world.name, "data": str(data), "options": options,
                            "duplicates": args.duplicates}
                resumed = start(output, manifest(json.loads(json.dumps(settings, default=str)), inputs), args.resume)
            progress = Progress("records", not args.no_progress)
            lines = _line_counts([e for e in entries if isinstance(e, Path)], stdin) if progress.enabled else {}
            progress.total = sum(lines.values()) or None
            here = args.jobs <= 1 and args.ray is None
            check = DuplicateCheck(world, data, args.duplicates, args.debug, **options)
            units = _marked(_units(world, entries, data, stdin, options), check, here)
            work = partial(score, portable(world, args.jobs, args.ray), data, options, keep, rows, args.debug)
            outcomes = _positioned(_outcomes(units, resumed, work, args, keep), lines, progress)
            return _evaluate(args, world, options, outcomes, output, resumed, progress, fmt)
        finally:
            if output is not None:
                output.release()


def _line_counts(files: Sequence[Path], stdin: Path | None) -> dict[str, int]:
    """Each file's number of lines, by the name its records carry (for the bar's total, on a terminal only)."""
    counts = {}
    for path in files:
        if path.is_dir():
            continue
        with open(path, "rb") as handle:
            counts["<stdin>" if path == stdin else str(path)] = sum(chunk.count(b"\n") for chunk in
                                                                    iter(lambda: handle.read(1 << 20), b""))
    return counts


def _positioned(outcomes: Iterator[Scored], lines: dict[str, int], progress: Progress) -> Iterator[Scored]:
    """The outcomes, moving the bar to each one's line among all the input lines (or counting them)."""
    if not progress.enabled:
        yield from outcomes
        return
    offset, current = 0, None
    for outcome in outcomes:
        if lines:
            source = outcome.record.source
            if source != current:
                offset += lines.get(current, 0) if current is not None else 0
                current = source
            progress.advance(offset + outcome.record.line)
        progress.tick()
        yield outcome


def _spool(folder: Path) -> Path:
    """Standard input, copied to a file in ``folder`` (so every world's file reader serves it)."""
    path = folder / "stdin.jsonl"
    with open(path, "wb") as file:
        for block in stdin_blocks():
            file.write(block)
    return path


def _evaluate(args, world: World, options: dict, outcomes: Iterator[Scored], output: OutputFile | None,
              resumed: Resumed, progress: Progress, fmt: str) -> int:
    drawing = args.plot is not None or args.html is not None
    stats = args.stats
    tables = TableRows(fmt) if fmt != "jsonl" and (args.output or not (args.summary or stats or drawing)) else None
    stream = output.open(resumed.keep) if output is not None and tables is None else \
        None if args.summary or stats or drawing or tables is not None else sys.stdout
    counts = {"scored": 0, "broken": 0, "unparsed": 0, "noted": 0, "skipped": 0, "internal": 0, "duplicates": 0}
    first_internal: list[Scored] = []
    duplicates: list[Scored] = []  # the first few, for stderr
    reads: dict[str, dict[str, int]] = {"all": dict.fromkeys(_READ_STATUSES, 0)}  # by model too
    shown: list[Scored] = []
    kept: list[tuple[Any, Verdict]] = []  # for --stats, --plot and --html only
    broken: list[tuple[str, int, str]] = []  # for --html only

    def scored() -> Iterator[tuple[Any, Verdict]]:
        for outcome in outcomes:
            if stream is not None and outcome.line:
                stream.write(outcome.line)
            if tables is not None and outcome.row is not None:
                tables.add(outcome.row)
            if outcome.duplicate_of is not None:
                counts["duplicates"] += 1
                if len(duplicates) < _DUPLICATES_SHOWN:
                    duplicates.append(outcome)
            if outcome.skipped:
                counts["skipped"] += 1
                continue
            if outcome.internal:
                counts["internal"] += 1
                if not first_internal:
                    first_internal.append(outcome)
            if outcome.error is not None:
                counts["broken"] += 1
                if len(shown) < _SHOWN:
                    shown.append(outcome)
                if args.html is not None:
                    broken.append((outcome.record.source, outcome.record.line, outcome.error))
                continue
            counts["scored"] += 1
            if outcome.verdict is not None:
                counts["unparsed"] += not outcome.verdict.parsed
                counts["noted"] += bool(outcome.record.notes)
                count_read(reads, outcome.record, outcome.verdict)
                if stats or drawing:
                    kept.append((outcome.record, outcome.verdict))
                yield outcome.record, outcome.verdict

    pairs = scored()
    try:
        summary = world.summarize(pairs, **options) if args.summary else None
        for _ in pairs:  # whatever the summary did not read is still written
            pass
    finally:
        progress.done()
    if tables is not None:
        _write_table(tables, output)
    if output is not None:
        output.commit()
    for outcome in shown:
        where = f"{outcome.record.source}, line {outcome.record.line}" if outcome.record.line else \
            f"{outcome.record.source} (the whole file)"
        print(f"broken record: {where}: {_flags(outcome.error)}", file=sys.stderr)
    if counts["broken"] > _SHOWN:
        print(f"... and {counts['broken'] - _SHOWN} more broken records", file=sys.stderr)
    _report_duplicates(duplicates, counts["duplicates"], args.duplicates)
    if summary is not None or stats:
        _tables(args, world, options, summary, kept if stats else None, counts, reads)
    if drawing and kept:
        _draw(args, world, options, kept, broken)
    if not counts["scored"] and not counts["broken"]:
        chosen = f" with --indices {options['indices']}" if options.get("indices") else ""
        print(f"plancheck: error: no answer records in {', '.join(str(path) for path in args.responses)}{chosen}",
              file=sys.stderr)
    if first_internal:
        record = first_internal[0].record
        print(f"plancheck: internal error (a bug in plancheck) in {counts['internal']} record(s), the first at "
              f"{record.source}, line {record.line}; the other records were scored; rerun with --debug for the "
              "traceback", file=sys.stderr)
        return INTERNAL
    return OK if counts["scored"] else BAD_INPUT


_DUPLICATES = {"each": "each scored", "first": "only the first scored", "error": "counted as broken"}
_DUPLICATES_SHOWN = 5
_LIMIT = re.compile(rf"(?<![\w'])max_({'|'.join(LIMIT_HELP)})(?= \d)")


def _flags(reason: str) -> str:
    """A broken record's reason with the limits named by their flags (``--max-digits``)."""
    return _LIMIT.sub(lambda match: "--max-" + match.group(1).replace("_", "-"), reason)


def _report_duplicates(duplicates: list[Scored], count: int, policy: str) -> None:
    """Duplicates are always said: how many, what was done with them (``--duplicates``), the first few."""
    if not count:
        return
    print(f"plancheck: note: {count} record(s) repeat an earlier record of the same answerer and "
          f"instance ({_DUPLICATES[policy]}; --duplicates each|first|error)", file=sys.stderr)
    for outcome in duplicates:
        print(f"duplicate record: {outcome.record.source}, line {outcome.record.line}: {outcome.record.instance}, "
              f"first at {outcome.duplicate_of}", file=sys.stderr)
    if count > len(duplicates):
        print(f"... and {count - len(duplicates)} more duplicate records", file=sys.stderr)


def _write_table(tables: TableRows, output: OutputFile | None) -> None:
    """The kept rows as CSV (to the output or standard output) or Parquet (to the output's file)."""
    if tables.format == "csv":
        tables.write_csv(output.open() if output is not None else sys.stdout)
    else:
        assert output is not None  # output_format refuses Parquet without a file
        output.close()
        tables.write_parquet(output.partial)


def _tables(args, world: World, options: dict, summary: Any, results: list | None, counts: dict[str, int],
            reads: dict[str, dict[str, int]]) -> None:
    """The world's summary table (--summary) and the statistics table (--stats, from ``results``), as text,
    Markdown or JSON, with the counts of records and of answers by read status."""
    statistics_table = statistics(results, args.semantics, options.get("rule"), args.resamples) \
        if results is not None else None
    total = counts["scored"] + counts["broken"] + counts["skipped"]
    if args.json:
        data = {**summary.to_json()} if summary is not None else {}
        data.update({"records": total, "broken": counts["broken"], "duplicates": counts["duplicates"], "read": reads,
                     "versions": world.versions()})
        if statistics_table is not None:
            data["statistics"] = statistics_table.to_json()
        emit(data, indent=2, ascii_only=True)
        return
    show = table_markdown if args.markdown else table_text
    if counts["scored"]:
        shown = [t for t in (summary, statistics_table) if t is not None]
        print("\n\n".join(show(t.header, t.rows, t.title, t.labels) for t in shown))
    note = f"; {counts['unparsed']} answer(s) could not be parsed" if counts["unparsed"] else ""
    if counts["noted"]:
        note += f"; {counts['noted']} record(s) noted (e.g. no answer: the record's own reference was checked)"
    if counts["duplicates"]:
        note += f"; {counts['duplicates']} duplicate(s) ({_DUPLICATES[args.duplicates]})"
    print(f"{'' if not args.markdown else chr(10)}{counts['scored']} records scored, {counts['broken']} broken{note}")
    print("read: " + ", ".join(f"{count} {status}" for status, count in reads["all"].items()))


def _check_picture_options(args) -> None:
    """Wrong file names are said before any answer is scored."""
    from plancheck.drawing.output import picture_format

    if args.plot is not None and picture_format(args.plot) == ".gif":
        raise BadInputError(f"{args.plot}: the plot is a still picture: .svg or .png", option="plot")
    if args.html is not None and args.html.suffix.lower() not in (".html", ".htm"):
        raise BadInputError(f"{args.html}: the report is an HTML file (.html)", option="html")
    if args.pictures < 0:
        raise BadInputError("must be 0 or more", option="pictures")


def _draw(args, world: World, options: dict, results: list, broken: list[tuple[str, int, str]]) -> None:
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
        page = pictures.html_report(world, entries, world.summarize(results, **options), plot, broken,
                                    Semantics(args.semantics))
        progress.done()
        args.html.write_text(page, encoding="utf-8", errors="backslashreplace")  # model text: lone surrogates
        print(f"wrote the report to {args.html}", file=sys.stderr)
