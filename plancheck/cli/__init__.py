"""The ``plancheck`` command: parses arguments, calls the library, formats output.

Exit codes: 0 = ok / valid, 1 = plan invalid or check failed, 2 = bad input or usage, 3 = internal error
(any unexpected exception: one line naming it, and ``--debug`` for the traceback).
This package is the only place that prints, reads environment variables or exits. One module per
group of commands (``browse``, ``check``, ``evaluate``, ``play``, ``render``, ``solve``, ``tools``); the parser is built
from what each world declares (``parser``).
"""

from __future__ import annotations

import argparse
import gc
import importlib
import logging
import os
import sys
import traceback
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from plancheck.cli.common import BAD_INPUT, INTERNAL, world_options
from plancheck.cli.outputs import Terminated, sigterm_raises
from plancheck.cli.parser import build_parser
from plancheck.errors import BadInputError, DataNotFoundError
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


@contextmanager
def _printable() -> Iterator[None]:
    """Characters the terminal's encoding cannot show are printed escaped (``\\xe9``), never a crash; JSON output
    escapes them as JSON does (:func:`plancheck.cli.common.emit`)."""
    changed = []
    for stream in (sys.stdout, sys.stderr):  # surrogateescape (a C locale's stdout) cannot write U+D800 either
        errors = getattr(stream, "errors", None)
        if errors in ("strict", "surrogateescape") and hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
            changed.append((stream, errors))
    try:
        yield
    finally:
        for stream, errors in changed:
            stream.reconfigure(errors=errors)


def internal_error(error: BaseException, debug: bool) -> int:
    """Exit 3 with one line naming the fault (after the traceback with ``--debug``)."""
    if debug:
        traceback.print_exception(error)
    hint = "" if debug else "; rerun with --debug for the traceback"
    detail = " ".join(str(error).split())[:500]
    print(f"plancheck: internal error (a bug in plancheck): {type(error).__name__}: {detail}{hint}", file=sys.stderr)
    return INTERNAL


def main(argv: Iterable[str] | None = None) -> int:
    _show_notes()
    program = argv is None  # run as the program (its process ends with the command), not called in another
    argv = sys.argv[1:] if argv is None else list(argv)
    args = build_parser(argv).parse_args(argv)
    if program:  # start-up's objects (modules, the parser) live as long as the process: the collector need not
        gc.freeze()  # walk them again and again in a long batch (32,000 GRASP answers: 0.086 s -> 0.035 s of GC)
    with _printable(), sigterm_raises():
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
    except Exception as error:  # a bug, or a disagreement plancheck found in itself (CertificationError)
        return internal_error(error, args.debug)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
