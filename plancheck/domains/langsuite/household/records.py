"""Files of Household answers: JSONL records ``{"instance": "FloorPlan1-pick_and_place_simple", "replies": [...]}``."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from plancheck.files import answer_lines
from plancheck.verifier.records import BrokenRecord, Record

SHAPE = 'not a record {"instance": ..., "replies": [...]}'


def read_answers(path: Path) -> Iterator[Record | BrokenRecord]:
    """One record per line; a line that is not such a record is reported with its number, the rest read."""
    for item in answer_lines(path):
        if isinstance(item, BrokenRecord):
            yield item
            continue
        number, obj = item
        if not isinstance(obj, dict) or not isinstance(obj.get("instance"), str):
            yield BrokenRecord(number, f"{SHAPE}: no instance id", str(path))
            continue
        replies = obj.get("replies")
        if not isinstance(replies, list) or not all(isinstance(r, str) for r in replies):
            yield BrokenRecord(number, f"{SHAPE}: replies must be a list of texts", str(path), obj["instance"])
            continue
        yield Record(number, obj["instance"], json.dumps(replies), source=str(path), meta=obj)
