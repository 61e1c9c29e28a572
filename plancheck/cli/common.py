"""What every command shares: where the data is, the options a world declares, reading an answer, JSON out."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Sequence
from json.encoder import c_make_encoder, encode_basestring  # type: ignore[attr-defined]
from pathlib import Path
from typing import Any, TextIO

from plancheck.cli.outputs import stdin_blocks
from plancheck.errors import BadInputError, Location
from plancheck.files import data_folder, decode_answer
from plancheck.limits import LIMIT_HELP, Limits
from plancheck.world import READING, World

OK, FAILED, BAD_INPUT, INTERNAL = 0, 1, 2, 3


def limits_of(args: argparse.Namespace) -> Limits:
    """The limits the command's ``--max-...`` flags set (the defaults where it has no such flag)."""
    return Limits(**{name: getattr(args, f"max_{name}") for name in LIMIT_HELP if hasattr(args, f"max_{name}")})


def world_options(args: argparse.Namespace, world: World, command: str) -> dict[str, Any]:
    options = {o.name: getattr(args, o.name) for o in world.options if command in o.commands}
    if command in READING:
        options["limits"] = limits_of(args)
    return options


def data_dir(args: argparse.Namespace) -> Path | None:
    """``--data``, else $PLANCHECK_DATA, else a ``shared/data`` folder found nearby."""
    return data_folder(args.data)


def read_answer(path: str, limits: Limits | None) -> str:
    """The answer's text; bytes that are not UTF-8 become U+FFFD, said on stderr with the first one's place.
    An answer above ``limits.answer_bytes`` is refused without reading more than that (None: no limit, for an
    episode log, whose lines are limited one by one)."""
    most = None if limits is None else limits.answer_bytes
    if path == "-":
        chunks, size = [], 0
        for block in stdin_blocks():  # beyond the limit only counted
            if most is None or size <= most:
                chunks.append(block)
            size += len(block)
        raw = b"".join(chunks)
    else:
        file = Path(path)
        if not file.is_file():
            raise BadInputError(f"answer file {path} {'is a folder' if file.is_dir() else 'does not exist'}")
        size = file.stat().st_size
        raw = b"" if most is not None and size > most else file.read_bytes()
    if limits is not None:
        limits.bytes_of(size, "the answer", Location("<stdin>" if path == "-" else path))
    text, undecodable = decode_answer(raw)
    if undecodable is not None:
        line, column = undecodable
        print(f"plancheck: note: {'<stdin>' if path == '-' else path}, line {line}, column {column}: bytes that are "
              "not UTF-8 were read as U+FFFD", file=sys.stderr)
    return text


def json_line(obj: Any) -> str:
    """``obj`` as one line of JSON that UTF-8 can hold: a lone surrogate (a JSON escape such as \\ud800 in the
    input) is not UTF-8, so a line holding one is written with ASCII escapes."""
    text = _unicode_json(obj) + "\n"
    if text.isascii():  # most lines: nothing to check
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(obj) + "\n"
    return text


# json.dumps(obj, ensure_ascii=False), built once; without the check for circular references, which costs time on
# every line (output lines are trees, built afresh for each record)
_UNICODE_JSON = json.JSONEncoder(ensure_ascii=False, check_circular=False)


class _LineEncoder:
    """``_UNICODE_JSON.encode``, 10 % faster on a batch's lines: json's C encoder is made once per 10,000 lines, not
    per line (it remembers the keys it has written; made anew, that memory stays bounded whatever a batch's keys)."""

    RENEW = 10_000

    def __init__(self) -> None:
        self.encoder: Any = None
        self.left = 0

    def __call__(self, obj: Any) -> str:
        if c_make_encoder is None:  # pragma: no cover - a Python without json's C accelerator
            return _UNICODE_JSON.encode(obj)
        if not self.left:
            self.encoder = c_make_encoder(None, _UNICODE_JSON.default, encode_basestring, None, ": ", ", ", False,
                                          False, True)
            self.left = self.RENEW
        self.left -= 1
        return "".join(self.encoder(obj, 0))


_unicode_json = _LineEncoder()


def emit(obj: Any, stream: TextIO | None = None, indent: int | None = None, ascii_only: bool = False) -> None:
    """``obj`` as one JSON text (``indent``: pretty) on ``stream`` (standard output): never NaN or Infinity
    (not JSON), and ASCII with escapes where asked or where the stream cannot take the characters (a lone
    surrogate from a ``\\ud800`` escape in the input is not UTF-8; a terminal may be ASCII-only)."""
    stream = stream or sys.stdout
    text = json.dumps(obj, ensure_ascii=ascii_only, allow_nan=False, indent=indent)
    try:
        text.encode(getattr(stream, "encoding", None) or "utf-8")
    except UnicodeEncodeError:
        text = json.dumps(obj, allow_nan=False, indent=indent)
    stream.write(text + "\n")


def select(world: World, selectors: Sequence[str], data: Path | None, options: dict,
           ids: bool = False) -> Iterator[Any]:
    """The selected instances (``ids``: only their ids, which some worlds list without building the
    instances); none at all is bad input (a filter such as --indices left nothing)."""
    count = 0
    chosen = world.instance_ids(selectors, data, **options) if ids else world.instances(selectors, data, **options)
    for count, instance in enumerate(chosen, start=1):
        yield instance
    if not count:
        used = [f"--{name.replace('_', '-')}" + ("" if value is True else f" {value}")
                for name, value in options.items()
                if name in ("indices", "setting", "answerable") and value not in (None, False)]
        raise BadInputError(f"no instance matches {' '.join(selectors)}"
                            + (f" with {', '.join(used)}" if used else ""))


def count_selected(world: World, selectors: Sequence[str], data: Path | None, options: dict) -> int | None:
    """How many instances the selectors name (their ids only, which some worlds list without building the
    instances); None when it cannot be told."""
    try:
        return sum(1 for _ in world.instance_ids(selectors, data, **options))
    except BadInputError:
        return None  # said again, in full, when the instances are read
