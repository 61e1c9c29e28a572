"""Reading files of GRASP answers into records, one per line, in any of three formats.

* Published baseline files (``baselines/{greedy,random}/<grid set>.jsonl``): ``{"baseline", "index",
  "answer": [tokens], "movement_prompt", "energy_limit_prompt", "cost_of_step_prompt"}``; the grid
  set comes from the file name.
* OpenAI batch output: ``{"custom_id", "response": {"body": {"choices": [{"message": {"content"}}]}},
  "error"}``, matched to instances by ``custom_id``.
* Plain JSONL, the keys every world accepts: ``{"instance" (or "id" / "custom_id"), "response" (or
  "text" / "answer" / "output": text or a list of tokens), optionally "model"}``.
Each line is recognised on its own; a line that fits none becomes a BrokenRecord with the reason. A
record's other fields (e.g. ``temperature``) are kept for the output rows.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

from plancheck.domains.grasp.instance import Setting
from plancheck.domains.grasp.published import SET_NAMES
from plancheck.files import answer_lines, list_refused, no_answer
from plancheck.limits import DEFAULT, Limits
from plancheck.verifier.records import ANSWER_KEYS, INSTANCE_KEYS, first_key, unconsumed
from plancheck.world import BrokenRecord, Record

_ID_KEYS = (*INSTANCE_KEYS, "custom_id")
_TEXT_KEYS = ANSWER_KEYS
_BASELINE_KEYS = ("index", "answer", "movement_prompt", "energy_limit_prompt", "cost_of_step_prompt")


def _whole(value: Any) -> bool:
    return type(value) is int


def _number(value: Any) -> bool:
    return type(value) in (int, float)


_BASELINE_FIELDS = (("index", _whole, "a whole number"), ("movement_prompt", _whole, "a whole number"),
                    ("energy_limit_prompt", _whole, "a whole number"), ("cost_of_step_prompt", _number, "a number"))


def _baseline(data: dict[str, Any], path: Path, line: int, limits: Limits, source: str) -> Record | BrokenRecord:
    set_name = _set_name(source)
    if set_name not in _PUBLISHED:
        return BrokenRecord(line, f"a baseline record needs its grid set in the file name; {path.name!r} is not one "
                                  f"of the published sets", source)
    index, movement, limit, cost = (data.get("index"), data.get("movement_prompt"), data.get("energy_limit_prompt"),
                                    data.get("cost_of_step_prompt"))
    if not (type(index) is int and type(movement) is int and type(limit) is int and type(cost) in (int, float)):
        return _bad_field(data, line, source)  # the usual record passes with four type checks, not a loop
    try:
        setting = Setting.from_baseline(movement, limit, cost)
    except ValueError as error:
        return BrokenRecord(line, f"baseline record with a bad setting: {error}", source)
    answer = data["answer"]
    if not isinstance(answer, list) or not set(map(type, answer)) <= {str}:  # JSON gives no subclass of str
        return BrokenRecord(line, "baseline 'answer' must be a list of strings", source)
    if len(answer) > limits.list_length and (refused := list_refused(answer, "answer", limits)):
        return BrokenRecord(line, refused, source)
    baseline = data.get("baseline")
    meta = {"baseline": baseline, "model": baseline} if isinstance(baseline, str) else {"baseline": baseline}
    return Record(line, f"{set_name}.jsonl-{index}-{setting.flags}", actions=tuple(answer), source=source, meta=meta,
                  fields={key: value for key, value in data.items() if key not in _CONSUMED})


_CONSUMED = frozenset(_BASELINE_KEYS)
_PUBLISHED = frozenset(SET_NAMES)


def _bad_field(data: dict[str, Any], line: int, source: str) -> BrokenRecord:
    """The first baseline field that is missing or of the wrong kind."""
    for field, fits, kind in _BASELINE_FIELDS:
        if field not in data or not fits(data[field]):
            found = f"is {json.dumps(data[field])[:40]}" if field in data else "is missing"
            return BrokenRecord(line, f"baseline field {field!r} {found}: expected {kind}", source)
    raise AssertionError("_bad_field called on a record whose fields fit")  # pragma: no cover


@lru_cache(maxsize=256)
def _set_name(source: str) -> str:
    """The grid set a baseline file is named after (asked for every line of the file)."""
    return Path(source).name.removesuffix(".jsonl")


def _openai(data: dict[str, Any], path: Path, line: int) -> Record | BrokenRecord:
    source, instance = str(path), str(data["custom_id"])
    if data.get("error"):
        return BrokenRecord(line, f"the request failed: {data['error']}", source, instance)
    try:
        body = data["response"]["body"]
        content = body["choices"][0]["message"]["content"]
    except (KeyError, IndexError, TypeError):
        response = data.get("response") if isinstance(data.get("response"), dict) else {}
        status, body = response.get("status_code"), response.get("body")
        error = body.get("error") if isinstance(body, dict) else None
        if status not in (None, 200) or error:
            detail = error.get("message", error) if isinstance(error, dict) else error
            return BrokenRecord(line, f"the request failed (HTTP status {status})" + (f": {detail}" if detail else ""),
                                source, instance)
        return BrokenRecord(line, "OpenAI batch record without response.body.choices[0].message.content",
                            source, instance)
    if not isinstance(content, str):
        return BrokenRecord(line, "the response content is not text (refusal or tool call?)", source, instance)
    finish = body["choices"][0].get("finish_reason")
    meta = {"finish_reason": finish, "model": body.get("model")}
    return Record(line, instance, text=content, source=source, meta=meta,
                  fields={**unconsumed(data, "custom_id", "response"), **meta})


def _plain(data: dict[str, Any], path: Path, line: int, limits: Limits) -> Record | BrokenRecord:
    source = str(path)
    id_key, text_key = first_key(data, _ID_KEYS), first_key(data, _TEXT_KEYS)
    instance = None if id_key is None else data[id_key]
    answer = None if text_key is None else data[text_key]
    if answer is None and isinstance(data.get("body"), dict) and "messages" in data["body"]:
        return BrokenRecord(line, "this is a request (it has body.messages), not a response; evaluate the batch "
                                  "output file", source, instance if isinstance(instance, str) else None)
    if not isinstance(instance, str):
        return BrokenRecord(line, f"no instance id: expected one of the keys {', '.join(_ID_KEYS)}", source)
    meta = {"model": data["model"]} if isinstance(data.get("model"), str) else {}
    fields = unconsumed(data, id_key, text_key)
    if isinstance(answer, str):
        return Record(line, instance, text=answer, source=source, meta=meta, fields=fields)
    if isinstance(answer, list) and all(isinstance(token, str) for token in answer):
        if refused := list_refused(answer, text_key, limits):
            return BrokenRecord(line, refused, source, instance)
        return Record(line, instance, actions=tuple(answer), source=source, meta=meta, fields=fields)
    return BrokenRecord(line, no_answer(data, _TEXT_KEYS, "text or a list of action names"), source, instance)


def record_from_json(data: Any, path: Path, line: int, limits: Limits = DEFAULT, source: str | None = None
                     ) -> Record | BrokenRecord:
    """Recognise one decoded line (``source``: ``str(path)``, when the caller has it)."""
    source = str(path) if source is None else source
    if not isinstance(data, dict):
        return BrokenRecord(line, f"expected a JSON object, got {type(data).__name__}", source)
    if "movement_prompt" in data and "answer" in data:
        return _baseline(data, path, line, limits, source)
    if "custom_id" in data and (isinstance(data.get("response"), dict) or data.get("error")):
        return _openai(data, path, line)
    return _plain(data, path, line, limits)


def read_answers(path: Path, limits: Limits = DEFAULT) -> Iterator[Record | BrokenRecord]:
    """Every line of ``path`` as a record; blank lines are skipped, bad lines (and lines beyond ``limits``)
    reported."""
    source = str(path)
    for item in answer_lines(path, limits):
        yield item if isinstance(item, BrokenRecord) else record_from_json(item[1], path, item[0], limits, source)
