"""Files of Rearrangement answers: JSONL records ``{"instance": "FloorPlan21_0", "replies": [...]}``.

The keys every world accepts work too: the instance under ``instance`` or ``id``, the replies under
``replies`` or ``response`` / ``text`` / ``answer`` / ``output`` (a list of reply texts, the first
answering the opening question). The record's other fields are kept for the output rows.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from plancheck.domains.langsuite.replies import read_reply_records
from plancheck.limits import DEFAULT, Limits
from plancheck.verifier.records import BrokenRecord, Record

SHAPE = 'not a record {"instance": ..., "replies": [...]}'


def read_answers(path: Path, limits: Limits = DEFAULT) -> Iterator[Record | BrokenRecord]:
    """One record per line; a line that is not such a record (or beyond ``limits``) is reported with its number,
    the rest read."""
    return read_reply_records(path, limits, SHAPE)
