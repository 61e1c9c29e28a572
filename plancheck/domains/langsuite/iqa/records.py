"""Files of IQA answers: JSONL records ``{"instance": "FloorPlan1-existence-apple", "seed": 0, "replies": [...]}``
(``seed`` draws the start; 0 when absent).

The keys every world accepts work too: the instance under ``instance`` or ``id``, the replies under
``replies`` or ``response`` / ``text`` / ``answer`` / ``output`` (a list of reply texts, the first
answering the opening question). The record's other fields (``seed`` included) are kept for the output rows.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from plancheck.domains.langsuite.replies import read_reply_records
from plancheck.limits import DEFAULT, Limits
from plancheck.verifier.records import BrokenRecord, Record

SHAPE = 'not a record {"instance": ..., "seed": ..., "replies": [...]}'


def read_answers(path: Path, limits: Limits = DEFAULT) -> Iterator[Record | BrokenRecord]:
    """One record per line; a line that is not such a record (or beyond ``limits``) is reported with its number,
    the rest read."""
    return read_reply_records(path, limits, SHAPE, _bad_seed)


def _bad_seed(obj: dict[str, Any]) -> str | None:
    seed = obj.get("seed", 0)
    return None if isinstance(seed, int) and not isinstance(seed, bool) else "seed must be an integer"
