"""The JSON Schemas of what plancheck reads and writes: answer records, verdicts and output rows.

The schemas are files beside this module (``schemas/<name>.schema.json``, JSON Schema 2020-12);
``plancheck schema NAME`` prints one, docs/output.md shows them, and the tests validate every
world's verdicts and rows against them. A schema refers to another by its ``$id``
(``urn:plancheck:schema:<name>``).

>>> sorted(schema("row")["properties"])[:4]
['error', 'instance', 'line', 'model']
>>> schema("verdict")["$id"]
'urn:plancheck:schema:verdict'
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from plancheck.errors import BadInputError

NAMES = ("answer-record", "verdict", "row")
_FOLDER = Path(__file__).resolve().parent / "schemas"


@cache
def schema_text(name: str) -> str:
    """The schema's file, as text."""
    if name not in NAMES:
        raise BadInputError(f"unknown schema {name!r}; known: {', '.join(NAMES)}")
    return (_FOLDER / f"{name}.schema.json").read_text(encoding="utf-8")


def schema(name: str) -> dict[str, Any]:
    """The schema ``name`` (answer-record, verdict, row) as a JSON object."""
    return json.loads(schema_text(name))
