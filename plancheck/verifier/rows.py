"""Output rows ready for analysis: one flat-headed JSON object per answer (the JSON Schema ``row``).

A row starts with what identifies the answer (world, instance, model, source file and line) and its
outcome (passed, the headline score and its rule, the read status), keeps every field of the input
record that reading did not consume (temperature, ...; a field whose name plancheck uses is kept as
``input_<name>`` unless it holds the same value, as ``model`` usually does), says what the result
depends on (``versions``: plancheck, the data release, the world's runtime modules), and ends with
the verdict, or with the error that kept the record from being scored (a row has one of
``verdict`` and ``error``, as the rows of earlier versions did, or ``skipped`` for a duplicate left out by
``--duplicates first``; ``duplicate_of`` names the first record a duplicate repeats).
:func:`flat` turns a row into columns for CSV and Parquet.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from plancheck.verifier.batch import BatchItem
from plancheck.verifier.records import Record
from plancheck.verifier.verdict import Semantics, Verdict, semantics_of

ROW_KEYS = frozenset(("world", "instance", "model", "source", "line", "passed", "semantics", "score", "rule", "read",
            "versions", "duplicate_of", "skipped", "verdict", "error"))


_SEMANTICS_NAMES = {semantics: semantics.value for semantics in Semantics}  # a dict lookup: .value is a Python call


def headline(verdict: Verdict, rule: str | None = None) -> tuple[str | None, float | None]:
    """The rule and value of the verdict's headline score: ``rule`` when the verdict has it, else its first score.

    >>> headline(Verdict("w", "i", scores={"paper": 1.2, "delivered": -1.8}), "delivered")
    ('delivered', -1.8)
    >>> headline(Verdict("w", "i", scores={"paper": 1.2}), None), headline(Verdict("w", "i"))
    (('paper', 1.2), (None, None))
    """
    if rule is not None and rule in verdict.scores:
        return rule, verdict.scores[rule]
    for name, value in verdict.scores.items():
        return name, value
    return None, None


def read_status(verdict_json: Mapping[str, Any]) -> str | None:
    """The verdict's read status (clear, ambiguous, none) when the world's reader reports one."""
    read = verdict_json.get("read")
    return read.get("status") if type(read) is dict or isinstance(read, Mapping) else None  # dict: no ABC check


def answer_row(world: str, item: BatchItem, *, semantics: Semantics | str = Semantics.STRICT, rule: str | None = None,
               versions: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The output row of one batch item (see the module docstring); ``rule`` picks the headline score."""
    record, verdict, semantics = item.record, item.verdict, semantics_of(semantics)
    verdict_json = passed = name = value = read = None
    if verdict is not None:
        verdict_json = verdict.to_json(with_steps=False)
        passed, (name, value), read = verdict.passed(semantics), headline(verdict, rule), read_status(verdict_json)
    row: dict[str, Any] = {"world": world, "instance": record.instance,
                           "model": record.model if isinstance(record, Record) else None,
                           "source": record.source, "line": record.line, "passed": passed,
                           "semantics": _SEMANTICS_NAMES[semantics], "score": value, "rule": name, "read": read}
    if isinstance(record, Record):
        for key, field in record.fields.items():
            if key not in ROW_KEYS:
                row[key] = field
            elif row.get(key) != field:  # the same name, another value: both kept
                row[f"input_{key}"] = field
    row["versions"] = dict(versions or {})
    if item.duplicate_of is not None:
        row["duplicate_of"] = item.duplicate_of
    if item.skipped:
        row["skipped"] = "a duplicate: only the first is scored (--duplicates first)"
    elif verdict_json is None:
        row["error"] = item.error
    else:
        row["verdict"] = verdict_json
    return row


def flat(row: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """The row as columns: nested objects become dotted names, lists and other containers JSON text.

    >>> flat({"a": 1, "versions": {"plancheck": "0.1"}, "verdict": {"scores": {"paper": 1.2}, "actions": ["UP"]}})
    {'a': 1, 'versions.plancheck': '0.1', 'verdict.scores.paper': 1.2, 'verdict.actions': '["UP"]'}
    """
    columns: dict[str, Any] = {}
    for key, value in row.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping) and value:
            columns.update(flat(value, name + "."))
        elif isinstance(value, (list, tuple, Mapping)):
            columns[name] = json.dumps(value, ensure_ascii=False)
        else:
            columns[name] = value
    return columns
