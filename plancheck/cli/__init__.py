"""The ``plancheck`` command: parses arguments, calls the library, formats output.

Exit codes: 0 = ok / valid, 1 = plan invalid or check failed, 2 = bad input or usage.
This package is the only place that prints, reads environment variables or exits. One module per
group of commands (``browse``, ``check``, ``evaluate``, ``play``, ``render``, ``solve``, ``tools``); the parser is built
from what each world declares (``parser``).
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import sys
from collections.abc import Iterable

from plancheck.cli.common import BAD_INPUT, FAILED, world_options
from plancheck.cli.outputs import Terminated, sigterm_raises
from plancheck.cli.parser import build_parser
from plancheck.errors import BadInputError, DataNotFoundError, PlancheckError
from plancheck.registry import get_world

_COMMANDS = {  # command -> the module of this package that runs it (imported only for that command)
    "worlds": "browse", "instances": "browse", "prompt": "browse", "stats": "browse", "check": "check",
    "evaluate": "evaluate", "play": "play", "convert": "play", "solve": "solve", "export": "solve", "demo": "tools",
    "validate": "tools", "schema": "tools", "render": "render"}


def _command(name: str):
    return getattr(importlib.import_module(f"plancheck.cli.{_COMMANDS[name]}"), f"cmd_{name}")


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


def _as_flags(error: BadInputError) -> str:
    """The error as a command-line user reads it: options named by their flags, where the data folder goes."""
    text = str(error)
    if error.option:
        named = f"{error.option} {error.message}"
        text = text.replace(named, f"--{error.option.replace('_', '-')} {error.message}", 1)
    if isinstance(error, DataNotFoundError):
        text += " (--data DIR)"
    return text


def main(argv: Iterable[str] | None = None) -> int:
    _show_notes()
    argv = sys.argv[1:] if argv is None else list(argv)
    args = build_parser(argv).parse_args(argv)
    with sigterm_raises():
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    try:
        if args.command in ("worlds", "demo", "validate", "schema"):
            return _command(args.command)(args)
        world = get_world(args.world)
        if not world.supports(args.command):
            raise world.unsupported(args.command)
        world.require()
        return _command(args.command)(args, world, world_options(args, world, args.command))
    except BadInputError as error:
        print(f"plancheck: error: {_as_flags(error)}", file=sys.stderr)
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
    except Terminated:
        print("plancheck: terminated", file=sys.stderr)
        return 128 + 15


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
