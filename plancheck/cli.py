"""The ``plancheck`` command: parses arguments, calls the library, formats output.

Exit codes: 0 = ok / valid, 1 = plan invalid or check failed, 2 = bad input or usage.
This is the only module that prints, reads environment variables or exits.
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import os
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import replace
from itertools import islice
from pathlib import Path
from typing import Any, TextIO

from plancheck import __version__
from plancheck.errors import BadInputError, Location, PlancheckError
from plancheck.files import decode_answer
from plancheck.registry import UNSUPPORTED, get_world, world_names
from plancheck.verifier.batch import evaluate_records
from plancheck.verifier.render import table_text, verdict_text
from plancheck.verifier.verdict import Semantics, Verdict
from plancheck.world import BrokenRecord, Record, World, commands_of, episodes_of, takes_answers

OK, FAILED, BAD_INPUT = 0, 1, 2

_COMMAND_HELP = {
    "instances": "list the instances a selector names (ids, published sets, generated ones)",
    "prompt": "write the benchmark's prompts for instances",
    "play": "play episodes of an interactive world with a policy and write their logs (JSONL)",
    "check": "parse, verify and score one answer (or re-verify one episode log step by step)",
    "evaluate": "score a file of answers or episode logs (JSONL in, one JSON verdict per line out)",
    "solve": "compute certified reference plans",
    "export": "write PDDL domain and problem files",
    "stats": "report counts and statistics of instances",
    "convert": "convert the benchmark's own run logs into episode logs",
}


def default_data_dir() -> Path | None:
    """$PLANCHECK_DATA, else a ``shared/data`` folder next to the working directory or the checkout."""
    if env := os.environ.get("PLANCHECK_DATA"):
        return Path(env)
    here = Path.cwd()
    checkout = Path(__file__).resolve().parent.parent
    for candidate in (here / "shared" / "data", here.parent / "shared" / "data", checkout.parent / "shared" / "data"):
        if candidate.is_dir():
            return candidate
    return None


# -- parser ----------------------------------------------------------------------------------------

def _finite(text: str) -> float:
    """A float option (time limits, weights): a finite number >= 0 (as a time limit, ``nan`` meant
    no limit at all and a negative number an instant time-out)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value >= 0):
        raise argparse.ArgumentTypeError(f"expected a finite number >= 0, got {text!r}")
    return value


def _seed(text: str) -> int:
    """A seed: an integer from 0 to 2**32 - 1 (numpy's legacy seeding accepts no other)."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value < 2 ** 32:
        raise argparse.ArgumentTypeError(f"expected an integer from 0 to 4294967295, got {text!r}")
    return value


def _add_world_options(parser: argparse.ArgumentParser, world: World, command: str) -> None:
    for option in world.options:
        if command not in option.commands:
            continue
        if option.kind is bool:
            parser.add_argument(option.flag, dest=option.name, action="store_true", help=option.help)
        else:
            default = f" (default: {option.default})" if option.default is not None else ""
            parser.add_argument(option.flag, dest=option.name, type=_finite if option.kind is float else option.kind,
                                choices=option.choices, default=option.default, help=option.help + default)


def _add_common(parser: argparse.ArgumentParser, command: str, world: World) -> None:
    parser.add_argument("--data", type=Path, default=None,
                        help="folder of published data (default: $PLANCHECK_DATA or ../shared/data)")
    if command in ("instances", "prompt", "check", "evaluate", "solve", "stats"):
        parser.add_argument("--json", action="store_true", help="machine-readable JSON output")
    if command in ("check", "evaluate"):
        parser.add_argument("--semantics", choices=[s.value for s in Semantics], default="strict",
                            help="which validity decides pass/fail: strict (VAL-like) or the benchmark's "
                                 "rules (default: strict)")
    if command == "instances":
        parser.add_argument("selectors", nargs="*", help="instance ids or selectors")
        parser.add_argument("--limit", type=int, default=None, help="list at most this many")
    elif command == "prompt":
        parser.add_argument("selectors", nargs="+", help="instance ids or selectors")
        parser.add_argument("-o", "--output", type=Path, help="write JSONL here instead of stdout")
    elif command == "check":
        episodic, answers = episodes_of(world) is not None, takes_answers(world)
        if episodic and not answers:
            parser.add_argument("log", metavar="EPISODE_LOG", help="an episode log (JSONL), or - for standard input")
        elif episodic:
            parser.add_argument("files", nargs="+", metavar="INSTANCE ANSWER | EPISODE",
                                help="an instance id and a file holding the model's answer, or an episode log")
        else:
            parser.add_argument("instance", help="the instance id")
            parser.add_argument("answer", help="a file holding the model's answer, or - for standard input")
        if episodic:
            parser.add_argument("--episode", type=int, metavar="K", default=None,
                                help="which episode of a log holding several (1-based)")
        parser.add_argument("--steps", action="store_true", help="print every step of the trace")
        if hasattr(world, "pddl_plan"):
            parser.add_argument("--pddl-plan", type=Path, metavar="FILE",
                                help="also write the answer as a plan of the world's PDDL validation model, to "
                                     "check with `plancheck validate` or VAL against the files `export` writes")
    elif command == "evaluate":
        parser.add_argument("responses", nargs="+", type=Path,
                            help="answer files (JSONL) or folders of them; - reads JSONL from stdin")
        parser.add_argument("-o", "--output", type=Path, help="write one JSON verdict per record here")
        parser.add_argument("--summary", action="store_true", help="print the benchmark's summary table")
        parser.add_argument("--no-progress", action="store_true", help="do not show progress on stderr")
    elif command == "solve":
        parser.add_argument("selectors", nargs="+", help="instance ids or selectors")
        parser.add_argument("-o", "--output", type=Path, help="write one JSON result per instance here")
        parser.add_argument("--no-progress", action="store_true", help="do not show progress on stderr")
    elif command == "export":
        parser.add_argument("selectors", nargs="+", help="instance ids or selectors")
        parser.add_argument("--out", type=Path, required=True, help="folder to write PDDL files into")
    elif command == "stats":
        parser.add_argument("selectors", nargs="*", help="instance ids or selectors")
    elif command == "play":
        episodes = episodes_of(world)
        parser.add_argument("instance", help="the instance id")
        parser.add_argument("--policy", required=True,
                            help=f"who plays: a reference policy ({', '.join(episodes.policies)}), replay:FILE (the "
                                 "replies of an episode log, or a JSON list of replies) or cmd:'COMMAND' (an agent "
                                 "process speaking JSON lines; see docs/episodes.md)")
        parser.add_argument("--seed", type=_seed, default=0,
                            help="the seed of the benchmark's random draws (default: 0)")
        parser.add_argument("--episodes", type=int, default=1, metavar="N",
                            help="play N episodes, with seeds SEED, SEED+1, ... (default: 1)")
        parser.add_argument("--model", default=None, help="the player's name in summary tables")
        parser.add_argument("--reply-timeout", type=_finite, default=600.0, metavar="SECONDS",
                            help="how long a cmd: agent may take for one reply (default: 600)")
        parser.add_argument("-o", "--output", type=Path, help="write the episode log here instead of stdout")
    elif command == "convert":
        parser.add_argument("runs", nargs="+", type=Path, help="the benchmark's run logs")
        parser.add_argument("-o", "--output", type=Path, help="write the episode logs here instead of stdout")
        parser.add_argument("--seed", type=_seed, default=None,
                            help="the seed the runs were played with, when they were seeded (then check replays it)")
        parser.add_argument("--model", default=None, help="the player's name in summary tables")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="plancheck",
        description="Formal plans, certified optimal references and exact verdicts for LLM-planning benchmarks.")
    parser.add_argument("--version", action="version", version=f"plancheck {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    worlds = commands.add_parser("worlds", help="list the worlds plancheck knows",
                                 description="List the worlds plancheck knows (benchmarks), with their titles.")
    worlds.add_argument("--json", action="store_true", help="machine-readable JSON output")
    demo = commands.add_parser("demo", help="score a shipped sample of published answers (works offline)",
                               description="Score a sample of published GRASP answers shipped with plancheck and "
                                           "compare them with certified optimal plans (needs no data folder).")
    demo.add_argument("--json", action="store_true", help="machine-readable JSON output")
    validate = commands.add_parser("validate", help="validate a plan against any PDDL domain and problem",
                                   description="Validate a plan against any PDDL domain and problem (typed STRIPS "
                                               "with ADL conditions, conditional effects and :action-costs; see "
                                               "docs/validate.md). Exit 0: valid, 1: invalid, 2: bad input")
    validate.add_argument("domain", type=Path, help="the PDDL domain file")
    validate.add_argument("problem", type=Path, help="the PDDL problem file")
    validate.add_argument("plan", type=Path, help="plan file, one (action arg ...) per line; - for stdin")
    validate.add_argument("--json", action="store_true", help="machine-readable JSON output")
    for command in _COMMAND_HELP:
        sub = commands.add_parser(command, help=_COMMAND_HELP[command], description=_COMMAND_HELP[command])
        worlds = sub.add_subparsers(dest="world", metavar="WORLD", required=True)
        for name in world_names():
            world = get_world(name)
            if command not in commands_of(world):
                continue
            world_parser = worlds.add_parser(name, help=world.title,
                                             description=f"{_COMMAND_HELP[command]}: {world.title}")
            _add_common(world_parser, command, world)
            _add_world_options(world_parser, world, command)
    return parser


# -- helpers -------------------------------------------------------------------------------------

def _options(args: argparse.Namespace, world: World, command: str) -> dict[str, Any]:
    return {o.name: getattr(args, o.name) for o in world.options if command in o.commands}


def _data(args: argparse.Namespace) -> Path | None:
    return args.data if args.data is not None else default_data_dir()


def _read_answer(path: str) -> str:
    """The answer's text; bytes that are not UTF-8 become U+FFFD, said on stderr with the first one's place."""
    if path == "-":
        raw = sys.stdin.buffer.read()
    else:
        file = Path(path)
        if not file.is_file():
            raise BadInputError(f"answer file {path} {'is a folder' if file.is_dir() else 'does not exist'}")
        raw = file.read_bytes()
    text, undecodable = decode_answer(raw)
    if undecodable is not None:
        line, column = undecodable
        print(f"plancheck: note: {'<stdin>' if path == '-' else path}, line {line}, column {column}: bytes that are "
              "not UTF-8 were read as U+FFFD", file=sys.stderr)
    return text


class _Progress:
    """A one-line counter on stderr, shown only on a terminal."""

    def __init__(self, label: str, enabled: bool, stream: TextIO = sys.stderr):
        self.label, self.stream = label, stream
        self.enabled = enabled and stream.isatty()
        self.count = 0
        self.searching = False  # a search's line is showing

    def tick(self) -> None:
        self.count += 1
        if self.searching:  # clear it before anything else is printed
            self.stream.write("\r\x1b[K")
            self.searching = False
        if self.enabled and self.count % 200 == 0:
            self.stream.write(f"\r{self.label}: {self.count}\x1b[K")
            self.stream.flush()

    def done(self) -> None:
        if self.enabled:
            self.stream.write(f"\r{self.label}: {self.count} done\x1b[K\n")

    def search(self, name: str) -> Callable[[int, int | None], None]:
        """A callback for a long search on one instance: states expanded and the bound proven so far."""

        def report(expanded: int, bound: int | None) -> None:
            if self.enabled:
                proven = "" if bound is None else f", optimum at least {bound}"
                self.stream.write(f"\r{name}: {expanded:,} states expanded{proven}\x1b[K")
                self.stream.flush()
                self.searching = True
        return report


def _json_out(path: Path | None) -> TextIO:
    return open(path, "w", encoding="utf-8") if path else sys.stdout


def _emit(obj: Any, stream: TextIO) -> None:
    try:
        stream.write(json.dumps(obj, ensure_ascii=False) + "\n")
    except UnicodeEncodeError:  # a lone surrogate (a JSON escape such as \ud800 in the input) is not UTF-8
        stream.write(json.dumps(obj) + "\n")


# -- commands --------------------------------------------------------------------------------------

def cmd_worlds(args: argparse.Namespace) -> int:
    titles = {name: get_world(name).title for name in world_names()}
    if args.json:
        print(json.dumps([{"name": name, "title": title} for name, title in titles.items()] +
                         [{"name": name, "title": why, "supported": False} for name, why in UNSUPPORTED.items()],
                         indent=2))
    else:
        for name, title in {**titles, **UNSUPPORTED}.items():
            print(f"{name:8s} {title}")
    return OK


def _instances(world: World, selectors: Sequence[str], data: Path | None, options: dict) -> Iterator[Any]:
    """The selected instances; none at all is bad input (a filter such as --indices left nothing)."""
    count = 0
    for count, instance in enumerate(world.instances(selectors, data, **options), start=1):
        yield instance
    if not count:
        used = [f"--{name.replace('_', '-')}" + ("" if value is True else f" {value}")
                for name, value in options.items()
                if name in ("indices", "setting", "answerable") and value not in (None, False)]
        raise BadInputError(f"no instance matches {' '.join(selectors)}"
                            + (f" with {', '.join(used)}" if used else ""))


def cmd_instances(args, world: World, options: dict) -> int:
    count = 0
    for instance in _instances(world, args.selectors or ["all"], _data(args), options):
        if args.limit is not None and count >= args.limit:
            break
        print(json.dumps(world.instance_json(instance)) if args.json else world.instance_id(instance))
        count += 1
    return OK


def cmd_prompt(args, world: World, options: dict) -> int:
    stream = _json_out(args.output)
    try:
        for instance in _instances(world, args.selectors, _data(args), options):
            prompt = world.prompt(instance, **options)
            if args.json or args.output:
                _emit(prompt.to_json(), stream)
            else:
                if prompt.system is not None:
                    print(f"=== {prompt.instance}: system ===\n{prompt.system}")
                for role, content in prompt.context:
                    print(f"=== {prompt.instance}: {role} ===\n{content}")
                print(f"=== {prompt.instance}: user ===\n{prompt.user}")
    finally:
        if args.output:
            stream.close()
    return OK


def cmd_check(args, world: World, options: dict) -> int:
    if episodes_of(world) is not None:
        if not takes_answers(world):
            return _check_episode(args, world, args.log)
        if len(args.files) == 1:
            return _check_episode(args, world, args.files[0])
        if len(args.files) != 2:
            raise BadInputError(f"check {world.name} takes an instance and an answer file, or an episode log")
        args.instance, args.answer = args.files
    # a selector may name thousands of instances, each one built when it is read: two are enough to refuse it
    instances = list(islice(world.instances([args.instance], _data(args), **options), 2))
    if len(instances) != 1:
        raise BadInputError(f"{args.instance!r} names {'no instance' if not instances else 'several instances'}; "
                            f"check needs exactly one")
    source = "<stdin>" if args.answer == "-" else args.answer
    answer = _read_answer(args.answer)
    verdict = world.check(instances[0], answer, source=source, **options)
    if getattr(args, "pddl_plan", None) is not None:
        _write_pddl_plan(world, instances[0], answer, verdict, args.pddl_plan, source, options)
    semantics = Semantics(args.semantics)
    if args.json:
        print(json.dumps(verdict.to_json(), ensure_ascii=False, indent=2))
    else:
        print(verdict_text(verdict, semantics, show_steps=args.steps))
    return OK if verdict.passed(semantics) else FAILED


def _check_episode(args, world: World, path: str) -> int:
    from plancheck.episodes.check import check_episode
    from plancheck.episodes.log import BrokenEpisode, read_episodes

    source = "<stdin>" if path == "-" else path
    if path != "-" and not Path(path).is_file():
        raise BadInputError(f"episode log {path} {'is a folder' if Path(path).is_dir() else 'does not exist'}")
    episodes = list(read_episodes(Path(source), _read_answer(path) if path == "-" else None))
    if args.episode is not None:
        if not 1 <= args.episode <= len(episodes):
            raise BadInputError(f"{source} holds {len(episodes)} episode(s); there is no episode {args.episode}")
        episode = episodes[args.episode - 1]
    elif len(episodes) != 1:
        raise BadInputError(f"{source} holds {len(episodes)} episodes; choose one with --episode K, or use "
                            f"`plancheck evaluate {world.name}`" if episodes else f"{source} holds no episode")
    else:
        episode = episodes[0]
    if isinstance(episode, BrokenEpisode):
        raise BadInputError(episode.reason, Location(episode.source, episode.line))
    verdict = check_episode(episodes_of(world), episode)
    semantics = Semantics(args.semantics)
    if args.json:
        print(json.dumps(verdict.to_json(), ensure_ascii=False, indent=2))
    else:
        print(verdict_text(verdict, semantics, show_steps=args.steps))
    return OK if verdict.passed(semantics) else FAILED


def _write_pddl_plan(world: World, instance: Any, answer: str, verdict: Verdict, path: Path, source: str,
                     options: dict) -> None:
    if not verdict.parsed:
        print(f"no PDDL plan written to {path}: the answer could not be read", file=sys.stderr)
        return
    problem, text = world.pddl_plan(instance, answer, source=source, **options)
    path.write_text(text, encoding="utf-8")
    print(f"wrote the answer as a PDDL plan to {path}; problem file {problem} (plancheck export "
          f"{world.name} {world.instance_id(instance)} --out DIR)", file=sys.stderr)


def _answer_files(paths: Sequence[Path]) -> Iterator[Path]:
    """The answer files named or found in the named folders, each once (a repeat is said on stderr)."""
    seen: set[Path] = set()
    for path in paths:
        if path.is_dir():
            found = sorted(p for p in path.rglob("*") if p.is_file() and p.suffix in (".jsonl", ".json"))
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
    data = _data(args)
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
    episodes = episodes_of(world)
    if episodes is None:
        yield from evaluate_records(world, _records(world, files, data, stdin, options), data, **options)
        return
    from plancheck.episodes.batch import evaluate_episodes
    from plancheck.episodes.log import is_episode_log

    for path in files:
        if not takes_answers(world) or is_episode_log(path):
            for item in evaluate_episodes(episodes, [path]):
                yield replace(item, record=replace(item.record, source="<stdin>")) if path == stdin else item
        else:
            yield from evaluate_records(world, _records(world, [path], data, stdin, options), data, **options)


def _evaluate(args, world: World, options: dict, items: Iterator[Any]) -> int:
    progress = _Progress("records", not args.no_progress)
    stream = _json_out(args.output) if (args.output or not args.summary) else None
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
                _emit(item.to_json(), stream)
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
                print(table_text(summary.header, summary.rows, summary.title))
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


def cmd_solve(args, world: World, options: dict) -> int:
    stream = _json_out(args.output)
    progress = _Progress("instances", not args.no_progress)
    statuses: Counter[str] = Counter()
    proven = 0
    try:
        for instance in _instances(world, args.selectors, _data(args), options):
            result = world.solve(instance, **options, report=progress.search(getattr(instance, "id", "")))
            progress.tick()
            statuses[result.status.value] += 1
            proven += result.proven_optimal
            _emit(result.to_json(), stream)
    finally:
        progress.done()
        if args.output:
            stream.close()
    if args.output:
        counts = ", ".join(f"{count} {status}" for status, count in statuses.most_common())
        print(f"{sum(statuses.values())} instance(s): {counts or 'none'}; {proven} proven optimal; "
              f"written to {args.output}", file=sys.stderr)
    return FAILED if set(statuses) - {"solved"} else OK


def cmd_export(args, world: World, options: dict) -> int:
    written: set[str] = set()
    without = 0
    for instance in _instances(world, args.selectors, _data(args), options):
        files = world.export(instance, **options)
        without += not files
        args.out.mkdir(parents=True, exist_ok=True)  # only once an instance is known: a typo leaves no folder
        for name, text in files.items():
            (args.out / name).write_text(text, encoding="utf-8")
            written.add(name)
    skipped = f"; {without} instance(s) have no PDDL form (e.g. MANGO destination-finding questions)" if without else ""
    print(f"wrote {len(written)} file(s) to {args.out}{skipped}")
    return OK


def cmd_stats(args, world: World, options: dict) -> int:
    summary = world.stats(args.selectors or ["all"], _data(args), **options)
    if not summary.rows:
        raise BadInputError(f"no instance matches {' '.join(args.selectors or ['all'])} with the options given")
    if args.json:
        print(json.dumps(summary.to_json(), indent=2))
    else:
        print(table_text(summary.header, summary.rows, summary.title))
    return OK


def cmd_play(args, world: World, options: dict) -> int:
    from plancheck.episodes.check import check_episode
    from plancheck.episodes.log import dump_episodes
    from plancheck.episodes.play import play
    from plancheck.episodes.policies import Players

    episodes = episodes_of(world)
    instance = episodes.instance(args.instance)
    settings, _ = episodes.settings(options)
    if args.episodes < 1:
        raise BadInputError("--episodes must be at least 1")
    if args.seed + args.episodes > 2 ** 32:
        raise BadInputError("the seeds SEED .. SEED+N-1 must stay below 2**32")
    players = Players(args.policy, episodes, args.episodes, args.reply_timeout)
    stream = _json_out(args.output)
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
                print(f"{world.name} {episode.header.instance} seed {seed}: {len(episode.steps)} step(s), "
                      + ", ".join(f"{rule} {_number_text(value)}" for rule, value in scores.items()), file=sys.stderr)
    finally:
        if args.output:
            stream.close()
    return OK


def _number_text(value: Any) -> str:
    return f"{value:.4g}" if isinstance(value, float) else str(value)


def cmd_convert(args, world: World, options: dict) -> int:
    from plancheck.episodes.log import dump_episodes

    stream = _json_out(args.output)
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


def cmd_validate(args: argparse.Namespace) -> int:
    from plancheck.verifier.pddl_validate import validate_files

    report = validate_files(args.domain, args.problem, args.plan)
    print(json.dumps(report.to_json(), indent=2) if args.json else report.text())
    return OK if report.valid else FAILED


def cmd_demo(args: argparse.Namespace) -> int:
    from plancheck.demo import run_demo

    report = run_demo()
    print(json.dumps(report.to_json(), indent=2) if args.json else report.text())
    return OK if report.ok else FAILED


_WORLD_COMMANDS = {"instances": cmd_instances, "prompt": cmd_prompt, "play": cmd_play, "check": cmd_check,
                   "evaluate": cmd_evaluate, "solve": cmd_solve, "export": cmd_export, "stats": cmd_stats,
                   "convert": cmd_convert}


class _NoteHandler(logging.Handler):
    """Shows the library's log notes (what was skipped and why) on stderr, as "plancheck: note: ..."."""

    def emit(self, record: logging.LogRecord) -> None:
        print(f"plancheck: note: {record.getMessage()}", file=sys.stderr)  # the current stderr, not a stale one


def _show_notes() -> None:
    logger = logging.getLogger("plancheck")
    if not any(isinstance(handler, _NoteHandler) for handler in logger.handlers):
        logger.addHandler(_NoteHandler(logging.INFO))
        logger.setLevel(logging.INFO)
        logger.propagate = False  # said once, not again by a handler of the embedding program


def _os_message(error: OSError) -> str:
    """``path: reason``, as Unix tools say it (``[Errno 2] ...`` tells a user less)."""
    if error.filename is None or not error.strerror:
        return str(error)
    return f"{error.filename}: {error.strerror}"


def main(argv: Iterable[str] | None = None) -> int:
    _show_notes()
    parser = build_parser()
    args = parser.parse_args(None if argv is None else list(argv))
    try:
        if args.command == "worlds":
            return cmd_worlds(args)
        if args.command == "demo":
            return cmd_demo(args)
        if args.command == "validate":
            return cmd_validate(args)
        world = get_world(args.world)
        return _WORLD_COMMANDS[args.command](args, world, _options(args, world, args.command))
    except BadInputError as error:
        print(f"plancheck: error: {error}", file=sys.stderr)
        return BAD_INPUT
    except PlancheckError as error:
        print(f"plancheck: {type(error).__name__}: {error}", file=sys.stderr)
        return FAILED
    except BrokenPipeError:  # the reader went away (e.g. `| head`): exit as a process killed by SIGPIPE would
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error when Python flushes
        return 128 + 13
    except OSError as error:  # a file that cannot be read or written (missing folder, permissions)
        print(f"plancheck: error: {_os_message(error)}", file=sys.stderr)
        return BAD_INPUT
    except KeyboardInterrupt:
        print("plancheck: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
