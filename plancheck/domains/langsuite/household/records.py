"""Files of Household answers: JSONL records ``{"instance": "FloorPlan1-pick_and_place_simple", "replies": [...]}``.

The keys every world accepts work too: the instance under ``instance`` or ``id``, the replies under
``replies`` or ``response`` / ``text`` / ``answer`` / ``output`` (a list of reply texts, the first
answering the opening question). The record's other fields are kept for the output rows.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from plancheck.files import answer_lines, list_refused
from plancheck.limits import DEFAULT, Limits
from plancheck.verifier.records import ANSWER_KEYS, INSTANCE_KEYS, BrokenRecord, Record, first_key, unconsumed

SHAPE = 'not a record {"instance": ..., "replies": [...]}'
_REPLY_KEYS = ("replies", *ANSWER_KEYS)


def read_answers(path: Path, limits: Limits = DEFAULT) -> Iterator[Record | BrokenRecord]:
    """One record per line; a line that is not such a record (or beyond ``limits``) is reported with its number,
    the rest read."""
    for item in answer_lines(path, limits):
        if isinstance(item, BrokenRecord):
            yield item
            continue
        number, obj = item
        id_key = first_key(obj, INSTANCE_KEYS) if isinstance(obj, dict) else None
        if id_key is None or not isinstance(obj[id_key], str):
            yield BrokenRecord(number, f"{SHAPE}: no instance id", str(path))
            continue
        instance = obj[id_key]
        reply_key = first_key(obj, _REPLY_KEYS)
        replies = None if reply_key is None else obj[reply_key]
        if not isinstance(replies, list) or not all(isinstance(r, str) for r in replies):
            yield BrokenRecord(number, f"{SHAPE}: replies must be a list of texts", str(path), instance)
            continue
        if refused := list_refused(replies, reply_key, limits):
            yield BrokenRecord(number, refused, str(path), instance)
            continue
        yield Record(number, instance, json.dumps(replies), source=str(path), meta=obj,
                     fields=unconsumed(obj, id_key, reply_key))
