"""The argument parser, built from what each world declares (its capabilities and options)."""

from __future__ import annotations

import argparse
import math
import os
from collections.abc import Sequence
from pathlib import Path

from plancheck.limits import DEFAULT, LIMIT_HELP
from plancheck.registry import get_world, world_names
from plancheck.version import __version__
from plancheck.world import COMMANDS, READING, Capability, World

_COMMAND_HELP = {  # one per world command (plancheck.world.COMMANDS)
    "instances": "list the instances a selector names (ids, published sets, generated ones)",
    "prompt": "write the benchmark's prompts for instances",
    "play": "play episodes of an interactive world with a policy and write their logs (JSONL)",
    "check": "parse, verify and score one answer (or re-verify one episode log step by step)",
    "evaluate": "score a file of answers or episode logs (JSONL in, one JSON verdict per line out)",
    "solve": "compute certified reference plans",
    "export": "write PDDL domain and problem files",
    "stats": "report counts and statistics of instances",
    "convert": "convert the benchmark's own run logs into episode logs",
    "render": "draw an instance and an answer (or an episode) as a picture: SVG, PNG or an animated GIF",
}

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


def _whole(text: str) -> int:
    """A limit: a whole number >= 1."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 1, got {text!r}")
    return value


def _add_limits(parser: argparse.ArgumentParser, names: tuple[str, ...] = tuple(LIMIT_HELP)) -> None:
    """``--max-answer-bytes`` ... (:mod:`plancheck.limits`), the same on every command that reads untrusted input."""
    for name in names:
        parser.add_argument(f"--max-{name.replace('_', '-')}", dest=f"max_{name}", type=_whole,
                            default=getattr(DEFAULT, name), metavar="N",
                            help=f"{LIMIT_HELP[name]} (default: {getattr(DEFAULT, name)})")


def _add_debug(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                        help="on an internal error, print the traceback")


def _seed(text: str) -> int:
    """A seed: an integer from 0 to 2**32 - 1 (numpy's legacy seeding accepts no other)."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value < 2 ** 32:
        raise argparse.ArgumentTypeError(f"expected an integer from 0 to 4294967295, got {text!r}")
    return value


def _jobs(text: str) -> int:
    """``--jobs``: a number of processes >= 1, or 0 for one per CPU."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a number of processes (0: one per CPU), got {text!r}")
    return value or os.cpu_count() or 1


def _add_scaling(parser: argparse.ArgumentParser, command: str) -> None:
    """--jobs and --ray (and --resume where the output is one line per unit)."""
    parser.add_argument("--jobs", type=_jobs, default=1, metavar="N",
                        help="run on N processes (0: one per CPU); the output is the same whatever N (default: 1)")
    parser.add_argument("--ray", nargs="?", const="local", default=None, metavar="ADDRESS",
                        help="run as Ray tasks over shards of the input, on the cluster at ADDRESS (e.g. auto, or "
                             "ray://HOST:10001) or on a Ray instance of this machine (no ADDRESS; write --ray last "
                             "or as --ray=ADDRESS); needs plancheck[distributed]")
    if command in ("evaluate", "solve"):
        parser.add_argument("--resume", action="store_true",
                            help="continue the run that was writing -o FILE and was killed: keep its complete lines, "
                                 "score the rest (refused if the inputs or settings changed)")


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
    if command in ("instances", "prompt", "check", "stats"):
        parser.add_argument("--json", action="store_true", help="machine-readable JSON output")
    elif command == "evaluate":
        parser.add_argument("--json", action="store_true",
                            help="the tables as JSON (with --summary or --stats; the rows are written as --format "
                                 "says in any case)")
    if command in ("check", "evaluate"):
        from plancheck.verifier.verdict import Semantics

        parser.add_argument("--semantics", choices=[s.value for s in Semantics], default="strict",
                            help="which validity decides pass/fail: strict (VAL-like) or the benchmark's "
                                 "rules (default: strict)")
    if command in READING:
        _add_limits(parser)
    _add_debug(parser)
    if command == "instances":
        parser.add_argument("selectors", nargs="*", help="instance ids or selectors")
        parser.add_argument("--limit", type=int, default=None, help="list at most this many")
    elif command == "prompt":
        parser.add_argument("selectors", nargs="+", help="instance ids or selectors")
        parser.add_argument("-o", "--output", type=Path, help="write JSONL here instead of stdout")
        parser.add_argument("--no-progress", action="store_true", help="do not show progress on stderr")
    elif command == "check":
        episodic, answers = world.supports(Capability.PLAY), world.supports(Capability.ANSWERS)
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
        parser.add_argument("--feedback", action="store_true",
                            help="print only the verifier's feedback: a short message on the first problem that a "
                                 "model can be given (it is also the JSON's 'feedback')")
        if world.supports(Capability.PDDL_PLAN):
            parser.add_argument("--pddl-plan", type=Path, metavar="FILE",
                                help="also write the answer as a plan of the world's PDDL validation model, to "
                                     "check with `plancheck validate` or VAL against the files `export` writes")
    elif command == "evaluate":
        from plancheck.cli.output import FORMATS
        from plancheck.verifier.stats import RESAMPLES

        parser.add_argument("responses", nargs="+", type=Path,
                            help="answer files (JSONL) or folders of them; - reads JSONL from stdin")
        parser.add_argument("-o", "--output", type=Path,
                            help="write one row per record here (the input record's own fields, passed, score, read "
                                 "status, versions and the verdict; see docs/output.md)")
        parser.add_argument("--format", choices=FORMATS, default=None,
                            help="the rows' format: jsonl, csv or parquet (needs pyarrow; default: from the -o "
                                 "file's suffix, else jsonl)")
        parser.add_argument("--summary", action="store_true", help="print the benchmark's summary table")
        parser.add_argument("--stats", action="store_true",
                            help="print the pass rate and mean score per model and in total: n, standard error and "
                                 "95%% bootstrap interval")
        parser.add_argument("--markdown", action="store_true",
                            help="print the tables as Markdown no wider than 100 columns")
        parser.add_argument("--resamples", type=int, default=RESAMPLES, metavar="N",
                            help=f"bootstrap resamples of --stats (default: {RESAMPLES})")
        parser.add_argument("--duplicates", choices=("each", "first", "error"), default="each",  # batch.Duplicates
                            help="records repeating an earlier one (same answerer, same instance; always reported): "
                                 "score each, the first only, or make them errors (default: each)")
        parser.add_argument("--plot", type=Path, metavar="FILE",
                            help="draw the summary: mean score per setting and model against the optimum and the "
                                 "references, as FILE.svg or FILE.png (PNG needs plancheck[render])")
        parser.add_argument("--html", type=Path, metavar="FILE",
                            help="write one self-contained HTML report: the summary table and plot, and every "
                                 "answer with its picture, actions read, unread text, first failure and score "
                                 "against the optimum, filterable by model and setting")
        parser.add_argument("--pictures", type=int, default=500, metavar="N",
                            help="draw the first N answers in the --html report (default: 500; 0: none)")
        parser.add_argument("--no-progress", action="store_true", help="do not show progress on stderr")
        _add_scaling(parser, command)
    elif command == "solve":
        parser.add_argument("selectors", nargs="+", help="instance ids or selectors")
        parser.add_argument("-o", "--output", type=Path, help="write one JSON result per instance here")
        parser.add_argument("--no-progress", action="store_true", help="do not show progress on stderr")
        _add_scaling(parser, command)
    elif command == "export":
        parser.add_argument("selectors", nargs="+", help="instance ids or selectors")
        parser.add_argument("-o", "--output", type=Path, required=True, metavar="DIR",
                            help="folder to write PDDL files into")
        parser.add_argument("--no-progress", action="store_true", help="do not show progress on stderr")
        _add_scaling(parser, command)
    elif command == "stats":
        parser.add_argument("selectors", nargs="*", help="instance ids or selectors")
        parser.add_argument("--no-progress", action="store_true", help="do not show progress on stderr")
    elif command == "play":
        policies = ", ".join(world.episodes.policies) if world.episodes is not None else ""
        parser.add_argument("instance", help="the instance id")
        parser.add_argument("--policy", required=True,
                            help=f"who plays: a reference policy ({policies}), replay:FILE (the "
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
        parser.add_argument("--no-progress", action="store_true", help="do not show progress on stderr")
        _add_scaling(parser, command)
    elif command == "render":
        episodic = world.supports(Capability.PLAY)
        parser.add_argument("instance", help="the instance id")
        what = ("an episode log" if not world.supports(Capability.ANSWERS) else "an answer file or an episode log") \
            if episodic else "a file holding the model's answer"
        parser.add_argument("--answer", metavar="FILE", help=f"{what} to draw (- for standard input); without it, "
                                                              "the instance alone")
        if episodic:
            parser.add_argument("--episode", type=int, metavar="K", default=None,
                                help="which episode of a log holding several (1-based)")
        parser.add_argument("-o", "--output", type=Path, required=True, metavar="FILE",
                            help="the picture: FILE.svg (needs nothing), FILE.png or FILE.gif (an animation of the "
                                 "answer; both need the extra render: pip install 'plancheck[render]'); - writes SVG "
                                 "to standard output")
    elif command == "convert":
        parser.add_argument("runs", nargs="+", type=Path, help="the benchmark's run logs")
        parser.add_argument("-o", "--output", type=Path, help="write the episode logs here instead of stdout")
        parser.add_argument("--seed", type=_seed, default=None,
                            help="the seed the runs were played with, when they were seeded (then check replays it)")
        parser.add_argument("--model", default=None, help="the player's name in summary tables")


def _named(argv: Sequence[str] | None) -> tuple[str | None, str | None]:
    """The command and the world the arguments name (None where they name none): only that world's parser is
    built, so that a command imports one world, and ``plancheck --help`` none."""
    words = [word for word in (argv or ()) if not word.startswith("-")]
    command = words[0] if words and words[0] in COMMANDS else None
    world = words[1] if command is not None and len(words) > 1 and words[1] in world_names() else None
    return command, world


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser of ``argv``: every command, and under the command it names the world it names (every world when
    it names none; no world at all when it names no command). Without ``argv``, the whole parser."""
    named_command, named_world = _named(argv) if argv is not None else (None, None)
    parser = argparse.ArgumentParser(
        prog="plancheck",
        description="Formal plans, certified optimal references and exact verdicts for LLM-planning benchmarks.")
    parser.add_argument("--version", action="version", version=f"plancheck {__version__}")
    parser.add_argument("--debug", action="store_true", help="on an internal error, print the traceback")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    worlds = commands.add_parser("worlds", help="list the worlds plancheck knows",
                                 description="List the worlds plancheck knows (benchmarks), with their titles.")
    worlds.add_argument("--json", action="store_true", help="machine-readable JSON output")
    _add_debug(worlds)
    demo = commands.add_parser("demo", help="score a shipped sample of published answers (works offline)",
                               description="Score a sample of published GRASP answers shipped with plancheck and "
                                           "compare them with certified optimal plans (needs no data folder).")
    demo.add_argument("--json", action="store_true", help="machine-readable JSON output")
    _add_debug(demo)
    validate = commands.add_parser("validate", help="validate a plan against any PDDL domain and problem",
                                   description="Validate a plan against any PDDL domain and problem (typed STRIPS "
                                               "with ADL conditions, conditional effects and :action-costs; see "
                                               "docs/validate.md). Exit 0: valid, 1: invalid, 2: bad input, "
                                               "3: internal error")
    validate.add_argument("domain", type=Path, help="the PDDL domain file")
    validate.add_argument("problem", type=Path, help="the PDDL problem file")
    validate.add_argument("plan", type=Path, help="plan file, one (action arg ...) per line; - for stdin")
    validate.add_argument("--json", action="store_true", help="machine-readable JSON output")
    _add_limits(validate, ("nesting", "digits"))
    _add_debug(validate)
    schema = commands.add_parser("schema", help="print the JSON Schema of answer records, verdicts or output rows",
                                 description="Print a JSON Schema (2020-12) of what plancheck reads and writes: "
                                             "answer-record (a plain answer line), verdict (check --json), row (a "
                                             "line of evaluate -o). See docs/output.md.")
    schema.add_argument("name", choices=("answer-record", "verdict", "row"),  # plancheck.verifier.schema.NAMES
                        help="which schema")
    _add_debug(schema)
    for command in COMMANDS:
        sub = commands.add_parser(command, help=_COMMAND_HELP[command], description=_COMMAND_HELP[command])
        worlds = sub.add_subparsers(dest="world", metavar="WORLD", required=True)
        if argv is not None and command != named_command:
            continue
        for name in [named_world] if named_world is not None else world_names():
            world = get_world(name)
            if not world.supports(command):  # accepted, to say so plainly, but not listed in --help
                worlds.add_parser(name, add_help=False).add_argument("rest", nargs=argparse.REMAINDER)
                continue
            world_parser = worlds.add_parser(name, help=world.title,
                                             description=f"{_COMMAND_HELP[command]}: {world.title}")
            _add_common(world_parser, command, world)
            _add_world_options(world_parser, world, command)
    return parser
