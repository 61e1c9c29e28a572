"""Answer files shared by LangSuitE's tasks: JSONL records of an instance id and a list of reply texts.

The keys every world accepts work: the instance under ``instance`` or ``id``, the replies under ``replies`` or
``response`` / ``text`` / ``answer`` / ``output``. The record's other fields are kept for the output rows.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from plancheck.files import answer_lines, list_refused
from plancheck.limits import Limits
from plancheck.verifier.records import ANSWER_KEYS, INSTANCE_KEYS, BrokenRecord, Record, first_key, unconsumed

_REPLY_KEYS = ("replies", *ANSWER_KEYS)


def read_reply_records(path: Path, limits: Limits, shape: str,
                       refuse: Callable[[dict[str, Any]], str | None] = lambda obj: None,
                       ) -> Iterator[Record | BrokenRecord]:
    """One record per line; a line that is not such a record (``shape`` says what one is), is beyond ``limits``
    or that ``refuse`` names a reason against is reported with its number, the rest read."""
    for item in answer_lines(path, limits):
        if isinstance(item, BrokenRecord):
            yield item
            continue
        number, obj = item
        id_key = first_key(obj, INSTANCE_KEYS) if isinstance(obj, dict) else None
        if id_key is None or not isinstance(obj[id_key], str):
            yield BrokenRecord(number, f"{shape}: no instance id", str(path))
            continue
        instance = obj[id_key]
        reply_key = first_key(obj, _REPLY_KEYS)
        replies = None if reply_key is None else obj[reply_key]
        if not isinstance(replies, list) or not all(isinstance(r, str) for r in replies):
            yield BrokenRecord(number, f"{shape}: replies must be a list of texts", str(path), instance)
            continue
        if refused := list_refused(replies, reply_key, limits):
            yield BrokenRecord(number, refused, str(path), instance)
            continue
        if reason := refuse(obj):
            yield BrokenRecord(number, f"{shape}: {reason}", str(path), instance)
            continue
        yield Record(number, instance, json.dumps(replies), source=str(path), meta=obj,
                     fields=unconsumed(obj, id_key, reply_key))
