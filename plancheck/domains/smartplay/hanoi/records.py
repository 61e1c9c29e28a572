"""Read files of Hanoi answers into records.

* JSONL, one answer per line, with the keys every world accepts: ``{"instance" (or "id", "env",
  "env_id"): "hanoi-3" / "Hanoi3Disk-v0", "response" (or "text", "answer", "output"): free text,
  or a list of action texts or SmartPlay action indices 0-5}``, optionally with ``"model"`` (tables
  have a row per model and instance; without it the file's name stands for the model); other
  fields are kept for the output rows.
* A SmartPlay rollout saved as JSON: ``{"env": "Hanoi3Disk-v0", "steps": [{"action": 2, ...}, ...]}``,
  or an object of such rollouts keyed by name (``{"Hanoi3Disk": {"env_id": ..., "steps": [...]}}``);
  the steps' action indices are the answer.
A line or rollout that fits none of these becomes a BrokenRecord with the reason.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from plancheck.domains.smartplay.hanoi.rules import Move
from plancheck.files import answer_entries, answer_lines, list_refused, no_answer
from plancheck.limits import DEFAULT, Limits
from plancheck.verifier.records import ANSWER_KEYS, INSTANCE_KEYS, first_key, unconsumed
from plancheck.world import BrokenRecord, Record

_ID_KEYS = (*INSTANCE_KEYS, "env", "env_id")
_TEXT_KEYS = ANSWER_KEYS


def _token(value: Any) -> str | None:
    """An action text, or the text of a SmartPlay action index."""
    if isinstance(value, str):
        return value
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(Move):
        return Move(value).sentence
    return None


def _record(data: Any, source: str, line: int, limits: Limits) -> Record | BrokenRecord:
    if not isinstance(data, dict):
        return BrokenRecord(line, f"expected a JSON object, got {type(data).__name__}", source)
    id_key = first_key(data, _ID_KEYS)
    instance = None if id_key is None else data[id_key]
    if not isinstance(instance, str):
        return BrokenRecord(line, f"no instance id: expected one of the keys {', '.join(_ID_KEYS)}", source)
    if "steps" in data and isinstance(data["steps"], list):
        text_key: str | None = "steps"
        answer: Any = [step.get("action") if isinstance(step, dict) else None for step in data["steps"]]
    else:
        text_key = first_key(data, _TEXT_KEYS)
        answer = None if text_key is None else data[text_key]
    meta = {"model": data["model"]} if isinstance(data.get("model"), str) else {}
    fields = unconsumed(data, id_key, text_key)
    if isinstance(answer, str):
        return Record(line, instance, text=answer, source=source, meta=meta, fields=fields)
    if isinstance(answer, list):
        if refused := list_refused(answer, text_key or "answer", limits):
            return BrokenRecord(line, refused, source, instance)
        tokens = [_token(value) for value in answer]
        bad = next((number for number, token in enumerate(tokens, start=1) if token is None), None)
        if bad is None:
            return Record(line, instance, actions=tuple(tokens), source=source, meta=meta,  # type: ignore[arg-type]
                          fields=fields)
        return BrokenRecord(line, f"action {bad} of the list is {json.dumps(answer[bad - 1])}: expected an action "
                                  "text or a SmartPlay action index 0-5", source, instance)
    expected = "text or a list of action texts or indices 0-5, or SmartPlay rollout steps"
    return BrokenRecord(line, no_answer(data, _TEXT_KEYS, expected), source, instance)


def _rollouts_by_name(data: dict) -> bool:
    return not any(key in data for key in _ID_KEYS)


def read_answers(path: Path, limits: Limits = DEFAULT) -> Iterator[Record | BrokenRecord]:
    """Every answer in ``path`` (JSONL, or a JSON SmartPlay rollout / object of rollouts), within ``limits``."""
    source = str(path)
    entries = (answer_entries(path, _rollouts_by_name, limits) if path.suffix == ".json"
               else answer_lines(path, limits))
    for item in entries:
        yield item if isinstance(item, BrokenRecord) else _record(item[1], source, item[0], limits)
