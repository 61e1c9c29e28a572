"""The ``plancheck`` command: parses arguments, calls the library, formats output.

Exit codes: 0 = ok / valid, 1 = plan invalid or check failed, 2 = bad input or usage, 3 = internal error
(any unexpected exception: one line naming it, and ``--debug`` for the traceback).
This package is the only place that prints, reads environment variables or exits. One module per
group of commands (``browse``, ``check``, ``evaluate``, ``play``, ``render``, ``solve``, ``tools``); the parser is built
from what each world declares (``parser``).
"""

from __future__ import annotations

import logging
import os
import sys
import traceback
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from plancheck.cli.browse import cmd_instances, cmd_prompt, cmd_stats, cmd_worlds
from plancheck.cli.check import cmd_check
from plancheck.cli.common import BAD_INPUT, INTERNAL, world_options
from plancheck.cli.evaluate import cmd_evaluate
from plancheck.cli.parser import build_parser
from plancheck.cli.play import cmd_convert, cmd_play
from plancheck.cli.render import cmd_render
from plancheck.cli.solve import cmd_export, cmd_solve
from plancheck.cli.tools import cmd_demo, cmd_validate
from plancheck.errors import BadInputError, DataNotFoundError
from plancheck.registry import get_world

_WORLD_COMMANDS = {"instances": cmd_instances, "prompt": cmd_prompt, "play": cmd_play, "check": cmd_check,
                   "evaluate": cmd_evaluate, "solve": cmd_solve, "export": cmd_export, "stats": cmd_stats,
                   "convert": cmd_convert, "render": cmd_render}


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


def _run(args) -> int:
    if args.command == "worlds":
        return cmd_worlds(args)
    if args.command == "demo":
        return cmd_demo(args)
    if args.command == "validate":
        return cmd_validate(args)
    world = get_world(args.world)
    if not world.supports(args.command):
        raise world.unsupported(args.command)
    world.require()
    return _WORLD_COMMANDS[args.command](args, world, world_options(args, world, args.command))


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
    parser = build_parser()
    args = parser.parse_args(None if argv is None else list(argv))
    with _printable():
        return _main(args)


def _main(args) -> int:
    try:
        return _run(args)
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
    except Exception as error:  # a bug, or a disagreement plancheck found in itself (CertificationError)
        return internal_error(error, args.debug)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
