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
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from plancheck.errors import BadInputError, Location
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


def answer_lines(path: Path) -> Iterator[tuple[int, Any] | BrokenRecord]:
    """(line number, value) for every non-blank line, or a :class:`BrokenRecord` for a line that is not JSON.
    The file is read line by line (a batch of any size is never held in memory)."""
    with open(path, "rb") as file:
        for number, raw in enumerate(file, start=1):
            line = raw.decode("utf-8-sig" if number == 1 else "utf-8", errors="replace").removesuffix("\n")
            if line.strip():
                try:
                    yield number, json.loads(line)
                except json.JSONDecodeError as error:
                    yield BrokenRecord(number, _not_json(error), str(path))


def answer_entries(path: Path,
                   by_name: Callable[[dict], bool] | None = None) -> Iterator[tuple[int, Any] | BrokenRecord]:
    r"""(line, value) for each entry of a whole ``.json`` answer file: a list's elements, an object's
    values where ``by_name(object)`` says it holds entries by name, else the document itself; each
    with the line it starts on. A file that is not JSON gives one :class:`BrokenRecord`, at the line
    where it stops being JSON.

    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "a.json"
    >>> _ = path.write_text('[\n  {"a": 1},\n\n  "x", [2,\n 3]]')
    >>> list(answer_entries(path))
    [(2, {'a': 1}), (4, 'x'), (4, [2, 3])]
    >>> _ = path.write_text('{"one": 1,\n "two": {"b": [2]}}')
    >>> list(answer_entries(path, by_name=lambda data: "b" not in data))
    [(1, 1), (2, {'b': [2]})]
    """
    text = read_text(path)
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        yield BrokenRecord(error.lineno, _not_json(error), str(path))
        return
    newlines = [offset for offset, char in enumerate(text) if char == "\n"]
    if isinstance(document, list) or isinstance(document, dict) and by_name is not None and by_name(document):
        for offset, value in _members(text):
            yield bisect.bisect(newlines, offset) + 1, value
    else:
        yield bisect.bisect(newlines, _BLANK.match(text).end()) + 1, document


_DECODER = json.JSONDecoder()
_BLANK = re.compile(r"[ \t\n\r]*")  # JSON's whitespace


def _members(text: str) -> Iterator[tuple[int, Any]]:
    """(offset, value) of each element of the JSON array, or each value of the JSON object, that
    ``text`` holds (known to be JSON); the offset is where the element, or the value's key, starts."""
    is_object = text[_BLANK.match(text).end()] == "{"
    at = _BLANK.match(text, _BLANK.match(text).end() + 1).end()
    while text[at] not in "]}":
        start = at
        if is_object:
            _, at = _DECODER.raw_decode(text, at)  # the key
            at = _BLANK.match(text, _BLANK.match(text, at).end() + 1).end()  # past the colon
        value, at = _DECODER.raw_decode(text, at)
        yield start, value
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


def data_lines(path: Path) -> Iterator[tuple[int, Any]]:
    """(line number, value) for every non-blank line of a data file; a line that is not JSON is bad input."""
    for number, line in enumerate(data_text(path).split("\n"), start=1):
        if line.strip():
            try:
                yield number, json.loads(line)
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
