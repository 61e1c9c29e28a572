"""The argument parser, built from what each world declares (its capabilities and options)."""

from __future__ import annotations

import argparse
import math
from pathlib import Path

from plancheck import __version__
from plancheck.limits import DEFAULT, LIMIT_HELP
from plancheck.registry import get_world, world_names
from plancheck.verifier.batch import Duplicates
from plancheck.verifier.verdict import Semantics
from plancheck.world import COMMANDS, Capability, World

_COMMAND_HELP = {  # one per world command (plancheck.world.COMMANDS)
    "instances": "list the instances a selector names (ids, published sets, generated ones)",
    "prompt": "write the benchmark's prompts for instances",
    "check": "parse, verify and score one answer",
    "evaluate": "score a file of answers (JSONL in, one JSON verdict per line out)",
    "solve": "compute certified reference plans",
    "export": "write PDDL domain and problem files",
    "stats": "report counts and statistics of instances",
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
        _add_limits(parser)
    _add_debug(parser)
    if command == "instances":
        parser.add_argument("selectors", nargs="*", help="instance ids or selectors")
        parser.add_argument("--limit", type=int, default=None, help="list at most this many")
    elif command == "prompt":
        parser.add_argument("selectors", nargs="+", help="instance ids or selectors")
        parser.add_argument("-o", "--output", type=Path, help="write JSONL here instead of stdout")
    elif command == "check":
        parser.add_argument("instance", help="the instance id")
        parser.add_argument("answer", help="a file holding the model's answer, or - for standard input")
        parser.add_argument("--steps", action="store_true", help="print every step of the trace")
        if world.supports(Capability.PDDL_PLAN):
            parser.add_argument("--pddl-plan", type=Path, metavar="FILE",
                                help="also write the answer as a plan of the world's PDDL validation model, to "
                                     "check with `plancheck validate` or VAL against the files `export` writes")
    elif command == "evaluate":
        parser.add_argument("responses", nargs="+", type=Path,
                            help="answer files (JSONL) or folders of them; - reads JSONL from stdin")
        parser.add_argument("-o", "--output", type=Path, help="write one JSON verdict per record here")
        parser.add_argument("--summary", action="store_true", help="print the benchmark's summary table")
        parser.add_argument("--duplicates", choices=[d.value for d in Duplicates], default="each",
                            help="records repeating an earlier one (same answerer, same instance; always reported): "
                                 "score each, the first only, or make them errors (default: each)")
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


def build_parser() -> argparse.ArgumentParser:
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
    for command in COMMANDS:
        sub = commands.add_parser(command, help=_COMMAND_HELP[command], description=_COMMAND_HELP[command])
        worlds = sub.add_subparsers(dest="world", metavar="WORLD", required=True)
        for name in world_names():
            world = get_world(name)
            if not world.supports(command):  # accepted, to say so plainly, but not listed in --help
                worlds.add_parser(name, add_help=False).add_argument("rest", nargs=argparse.REMAINDER)
                continue
            world_parser = worlds.add_parser(name, help=world.title,
                                             description=f"{_COMMAND_HELP[command]}: {world.title}")
            _add_common(world_parser, command, world)
            _add_world_options(world_parser, world, command)
    return parser
