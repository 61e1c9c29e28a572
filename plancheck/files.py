r"""Reading input files: answers (a bad line is reported and the rest read) and data (anything
malformed is an error naming the file, line and column).

Files are UTF-8 and a byte-order mark is dropped. In answer files undecodable bytes are replaced,
so a stray byte spoils one record, not the batch; in data files they are an error. Lines end at
``\n`` only: JSON text may hold a raw U+2028 LINE SEPARATOR, which ``str.splitlines`` would split.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "a.jsonl"
>>> _ = path.write_bytes(b'\xef\xbb\xbf{"a": 1}\n\n{oops\n[2]\n')
>>> [item if isinstance(item, tuple) else item.reason for item in answer_lines(path)]
[(1, {'a': 1}), 'not JSON (column 2: Expecting property name enclosed in double quotes)', (4, [2])]
>>> _ = path.write_text('{"text": "a\u2028b"}\r\n', encoding="utf-8")
>>> list(answer_lines(path))
[(1, {'text': 'a\u2028b'})]
"""

from __future__ import annotations

import bisect
import gzip
import json
import os
import re
from collections.abc import Callable, Iterator, Sized
from pathlib import Path
from typing import Any

from plancheck.errors import BadInputError, LimitError, Location
from plancheck.limits import DEFAULT, Limits, load_json
from plancheck.verifier.records import BrokenRecord


def read_text(path: Path) -> str:
    """The file's text (see the module docstring)."""
    return path.read_bytes().decode("utf-8-sig", errors="replace")


def decode_answer(raw: bytes) -> tuple[str, tuple[int, int] | None]:
    r"""An answer's text, bytes that are not UTF-8 read as U+FFFD, and the (line, character column)
    of the first such byte, or None.

    >>> decode_answer("[é \n é".encode() + b"\xff]")
    ('[é \n é\ufffd]', (2, 3))
    """
    try:
        return raw.decode("utf-8-sig"), None
    except UnicodeDecodeError as error:
        line, start = _line_at(raw, error.start)
        column = len(raw[start:error.start].decode("utf-8-sig", errors="replace")) + 1
        return raw.decode("utf-8-sig", errors="replace"), (line, column)


def _line_at(raw: bytes, offset: int) -> tuple[int, int]:
    """The 1-based line holding byte ``offset``, and the offset where that line starts."""
    return raw.count(b"\n", 0, offset) + 1, raw.rfind(b"\n", 0, offset) + 1


def _not_json(error: json.JSONDecodeError) -> str:
    return f"not JSON (column {error.colno}: {error.msg})"


_CHUNK = 1 << 20


def _raw_lines(path: Path, most: int) -> Iterator[tuple[int, bytes | int]]:
    """(line number, bytes without the line end) per line; a line longer than ``most`` bytes is given as its
    length instead, and never held in memory whole."""
    with open(path, "rb") as file:
        number = 0
        while chunk := file.readline(most + 1):
            number += 1
            if len(chunk) <= most or chunk.endswith(b"\n"):
                yield number, chunk.removesuffix(b"\n")
                continue
            size = len(chunk)
            while not chunk.endswith(b"\n") and (chunk := file.readline(_CHUNK)):
                size += len(chunk)
            yield number, size - chunk.endswith(b"\n")


def answer_lines(path: Path, limits: Limits = DEFAULT) -> Iterator[tuple[int, Any] | BrokenRecord]:
    """(line number, value) for every non-blank line, or a :class:`BrokenRecord` for a line that is not JSON
    or exceeds ``limits`` (it names the limit, and the field and column where it can). The file is read line by
    line, and a line longer than the limit never whole (a batch of any size is never held in memory)."""
    source = str(path)
    for number, raw in _raw_lines(path, limits.answer_bytes):
        if isinstance(raw, int):
            yield BrokenRecord(number, _limit_reason(limits, raw), source)
            continue
        line = raw.decode("utf-8-sig" if number == 1 else "utf-8", errors="replace")
        if line and not line.isspace():  # not blank (what strip() finds, without a copy of the line)
            try:
                yield number, load_json(line, limits, source=source, line=number)
            except json.JSONDecodeError as error:
                yield BrokenRecord(number, _not_json(error), source)
            except BadInputError as error:
                yield BrokenRecord(number, line_reason(error), source)


def list_refused(items: Sized, field: str, limits: Limits) -> str | None:
    """Why a record's list ``field`` is refused (more than ``limits.list_length`` elements), or None.

    >>> list_refused(["UP"] * 3, "answer", Limits(list_length=2))
    "max_list_length 2 exceeded: field 'answer' holds 3 elements"
    """
    try:
        limits.length(len(items), f"field {field!r}")
    except LimitError as error:
        return str(error)
    return None


def _limit_reason(limits: Limits, size: int) -> str:
    try:
        limits.bytes_of(size, "the record")
    except LimitError as error:
        return str(error)
    raise AssertionError("a line within the limit was refused")  # pragma: no cover


def line_reason(error: BadInputError) -> str:
    """The error without the file and line a BrokenRecord carries already (its column stays)."""
    where = error.location
    text = str(error)
    if where is None:
        return text
    head = str(Location(where.source, where.line, where.column))
    tail = text[len(head) + 2:]
    return f"column {where.column}: {tail}" if where.column is not None else tail


def answer_entries(path: Path, by_name: Callable[[dict], bool] | None = None,
                   limits: Limits = DEFAULT) -> Iterator[tuple[int, Any] | BrokenRecord]:
    r"""(line, value) for each entry of a whole ``.json`` answer file: a list's elements, an object's
    values where ``by_name(object)`` says it holds entries by name, else the document itself; each
    with the line it starts on. A file that is not JSON, or exceeds ``limits`` in nesting or digits, gives one
    :class:`BrokenRecord`, at the line where it does; an entry above ``limits.answer_bytes`` is a BrokenRecord.

    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "a.json"
    >>> _ = path.write_text('[\n  {"a": 1},\n\n  "x", [2,\n 3]]')
    >>> list(answer_entries(path))
    [(2, {'a': 1}), (4, 'x'), (4, [2, 3])]
    >>> _ = path.write_text('{"one": 1,\n "two": {"b": [2]}}')
    >>> list(answer_entries(path, by_name=lambda data: "b" not in data))
    [(1, 1), (2, {'b': [2]})]
    >>> [item.reason for item in answer_entries(path, limits=Limits(answer_bytes=10))]
    ['max_answer_bytes 10 exceeded: the record has 30 bytes']
    """
    text = read_text(path)
    try:
        document = load_json(text, limits, source=str(path))
    except json.JSONDecodeError as error:
        yield BrokenRecord(error.lineno, _not_json(error), str(path))
        return
    except BadInputError as error:
        yield BrokenRecord(error.location.line if error.location else 1, line_reason(error), str(path))
        return
    newlines = [offset for offset, char in enumerate(text) if char == "\n"]
    if isinstance(document, list) or isinstance(document, dict) and by_name is not None and by_name(document):
        members = _members(text)
    else:
        start = _BLANK.match(text).end()
        members = iter([(start, len(text.rstrip()), document)])
    for start, end, value in members:
        line = bisect.bisect(newlines, start) + 1
        if (end - start) * 4 > limits.answer_bytes and len(text[start:end].encode()) > limits.answer_bytes:
            yield BrokenRecord(line, _limit_reason(limits, len(text[start:end].encode())), str(path))
        else:
            yield line, value


_DECODER = json.JSONDecoder()
_BLANK = re.compile(r"[ \t\n\r]*")  # JSON's whitespace


def _members(text: str) -> Iterator[tuple[int, int, Any]]:
    """(start, end, value) of each element of the JSON array, or each value of the JSON object, that
    ``text`` holds (known to be JSON within limits); the start is where the element, or the value's key, is."""
    is_object = text[_BLANK.match(text).end()] == "{"
    at = _BLANK.match(text, _BLANK.match(text).end() + 1).end()
    while text[at] not in "]}":
        start = at
        if is_object:
            _, at = _DECODER.raw_decode(text, at)  # the key
            at = _BLANK.match(text, _BLANK.match(text, at).end() + 1).end()  # past the colon
        value, at = _DECODER.raw_decode(text, at)
        yield start, at, value
        at = _BLANK.match(text, at).end()
        if text[at] == ",":
            at = _BLANK.match(text, at + 1).end()


def data_text(path: Path) -> str:
    """A data file's text (``.gz`` files decompressed); bytes that are not UTF-8 are bad input, located by line
    and column."""
    raw = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line, start = _line_at(raw, error.start)
        column = error.start - start + 1
        raise BadInputError(f"not UTF-8 text (byte 0x{raw[error.start]:02x})", Location(str(path), line, column)) \
            from None


def data_lines(path: Path, limits: Limits = DEFAULT) -> Iterator[tuple[int, Any]]:
    """(line number, value) for every non-blank line of a data file; a line that is not JSON, or exceeds
    ``limits`` in nesting or digits, is bad input."""
    for number, line in enumerate(data_text(path).split("\n"), start=1):
        if line.strip():
            try:
                yield number, load_json(line, limits, source=str(path), line=number)
            except json.JSONDecodeError as error:
                raise BadInputError(f"not JSON: {error.msg}", Location(str(path), number, error.colno)) from None


def no_answer(data: dict, keys: tuple[str, ...], expected: str) -> str:
    """Why a record holds no usable answer: the first answer key it has holds the wrong kind of value,
    or it has none of them.

    >>> no_answer({"response": 42}, ("response", "text"), "text")
    "the answer ('response') is a number: expected text"
    >>> no_answer({}, ("response", "text"), "text")
    'no answer: expected one of the keys response, text holding text'
    """
    key = next((k for k in keys if k in data), None)
    if key is None:
        return f"no answer: expected one of the keys {', '.join(keys)} holding {expected}"
    kinds = {bool: "true/false", int: "a number", float: "a number", str: "text", list: "a list holding more than "
             "text", dict: "an object"}
    kind = "null" if data[key] is None else kinds.get(type(data[key]), type(data[key]).__name__)
    return f"the answer ({key!r}) is {kind}: expected {expected}"


def data_folder(given: Path | str | None = None) -> Path | None:
    """The folder of published data: ``given``, else $PLANCHECK_DATA, else a ``shared/data`` folder next to the
    working directory, above it, or beside this checkout (None when there is none)."""
    if given is not None:
        return Path(given)
    if env := os.environ.get("PLANCHECK_DATA"):
        return Path(env)
    here = Path.cwd()
    checkout = Path(__file__).resolve().parents[1]
    for candidate in (here / "shared" / "data", here.parent / "shared" / "data", checkout.parent / "shared" / "data"):
        if candidate.is_dir():
            return candidate
    return None
