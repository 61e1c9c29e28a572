"""The ``plancheck`` command: parses arguments, calls the library, formats output.

Exit codes: 0 = ok / valid, 1 = plan invalid or check failed, 2 = bad input or usage.
This package is the only place that prints, reads environment variables or exits. One module per
group of commands (``browse``, ``check``, ``evaluate``, ``play``, ``render``, ``solve``, ``tools``); the parser is built
from what each world declares (``parser``).
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Iterable

from plancheck.cli.browse import cmd_instances, cmd_prompt, cmd_stats, cmd_worlds
from plancheck.cli.check import cmd_check
from plancheck.cli.common import BAD_INPUT, FAILED, world_options
from plancheck.cli.evaluate import cmd_evaluate
from plancheck.cli.parser import build_parser
from plancheck.cli.play import cmd_convert, cmd_play
from plancheck.cli.render import cmd_render
from plancheck.cli.solve import cmd_export, cmd_solve
from plancheck.cli.tools import cmd_demo, cmd_schema, cmd_validate
from plancheck.errors import BadInputError, DataNotFoundError, PlancheckError
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
        if args.command == "schema":
            return cmd_schema(args)
        world = get_world(args.world)
        if not world.supports(args.command):
            raise world.unsupported(args.command)
        world.require()
        return _WORLD_COMMANDS[args.command](args, world, world_options(args, world, args.command))
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


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
