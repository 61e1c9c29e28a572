"""Reading files of MANGO answers into records, and finding the question a record answers.

Two formats, recognised object by object:

* The release's result files (``<model>_<task>_<tag>/<game>/result_sample_id_<id>.json``, one JSON
  object each; also accepted as JSONL lines): ``{"sample_id", "game_name", "task"
  ("route_finding" | "desti_finding"), "src_node", "dst_node", ["action_list"], "model_cutoff_num",
  "response" (or "answer"), ...}``. The model is the folder name before ``_route_finding`` /
  ``_desti_finding``; the record's cutoff is its ``model_cutoff_num``.
* Plain JSONL, with the keys every world accepts: ``{"instance" (or "id"): "905/rf/<id>",
  "response" (or "text", "answer", "output"): text or a list of dicts, ["model"], ["cutoff"]}``.
A record's fields other than its question's and its answer's are kept for the output rows.

A response given as a JSON list is scored as its JSON text. The inference code's ``exp_config.json``
is not an answer and is skipped (logged). Anything else unreadable becomes a BrokenRecord with its line.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from plancheck.domains.mango.game import DEFAULT_CUTOFF, check_cutoff
from plancheck.domains.mango.instance import TASK_NAMES, MangoInstance, find_game, find_question, split_selector
from plancheck.domains.mango.questions import DFQuestion
from plancheck.errors import BadInputError, InstanceNotFoundError, Location
from plancheck.files import answer_entries, answer_lines, list_refused, no_answer
from plancheck.limits import DEFAULT, Limits
from plancheck.verifier.records import INSTANCE_KEYS, first_key, unconsumed
from plancheck.world import BrokenRecord, Record

logger = logging.getLogger(__name__)

_TEXT_KEYS = ("response", "answer", "text", "output")  # ANSWER_KEYS, the release's "answer" before "text"
_RELEASE_KEYS = ("sample_id", "game_name", "task")  # what names the question in a release result
_FOLDER_TASKS = ("_route_finding", "_desti_finding")


def _model_from_path(path: Path) -> str | None:
    """``claude-instant-1`` from ``.../claude-instant-1_route_finding_debug/905/result_....json``."""
    for folder in path.parents[:3]:
        for marker in _FOLDER_TASKS:
            if marker in folder.name:
                return folder.name.split(marker)[0]
    return None


def record_from_json(data: Any, path: Path, line: int, limits: Limits = DEFAULT) -> Record | BrokenRecord:
    """Recognise one decoded object."""
    source = str(path)
    if not isinstance(data, dict):
        return BrokenRecord(line, f"expected a JSON object, got {type(data).__name__}", source)
    meta: dict[str, Any] = {}
    if "sample_id" in data and "game_name" in data:
        task = TASK_NAMES.get(str(data.get("task")))
        if task is None:
            return BrokenRecord(line, f"unknown task {data.get('task')!r}: expected route_finding or desti_finding",
                                source)
        instance = f"{data['game_name']}/{task.value}/{data['sample_id']}"
        meta = {key: data[key] for key in ("src_node", "dst_node", "action_list", "min_step_total_answerable")
                if key in data}
        if "model_cutoff_num" in data:
            meta["cutoff"] = data["model_cutoff_num"]
        model = data.get("model") or _model_from_path(path)
        named: tuple[str | None, ...] = _RELEASE_KEYS
    else:
        id_key = first_key(data, INSTANCE_KEYS)
        instance = None if id_key is None else data[id_key]
        if not isinstance(instance, str):
            return BrokenRecord(line, "no question: expected 'instance' (or 'id', e.g. 905/rf/<id>) or a release "
                                      "result record with 'sample_id' and 'game_name'", source)
        if "cutoff" in data:
            meta["cutoff"] = data["cutoff"]
        model = data.get("model")
        named = (id_key,)
    if model:
        meta["model"] = str(model)
    text_key = first_key(data, _TEXT_KEYS)
    response = None if text_key is None else data[text_key]
    if isinstance(response, list):
        if refused := list_refused(response, text_key, limits):
            return BrokenRecord(line, refused, source, instance)
        response = json.dumps(response, ensure_ascii=False)
    if not isinstance(response, str):
        return BrokenRecord(line, no_answer(data, _TEXT_KEYS, "text or a list of dicts"), source, instance)
    fields = unconsumed(data, *named, text_key)
    if model and "model" not in fields:  # the model a release result's folder names
        fields["model"] = str(model)
    return Record(line, instance, text=response, source=source, meta=meta, fields=fields)


def read_answers(path: Path, limits: Limits = DEFAULT) -> Iterator[Record | BrokenRecord]:
    """Every record of a ``.json`` file (one object or a list of them) or a JSONL file, within ``limits``."""
    if path.name == "exp_config.json":
        logger.info("skipping %s: an inference configuration, not an answer", path)
        return
    entries = answer_entries(path, limits=limits) if path.suffix == ".json" else answer_lines(path, limits)
    for item in entries:
        yield item if isinstance(item, BrokenRecord) else record_from_json(item[1], path, item[0], limits)


def resolve(record: Record, data: Path | None, cutoff: int = DEFAULT_CUTOFF, rule: str = "release") -> MangoInstance:
    """The question a record answers, at the record's own cutoff when it has one; what the record
    states about it (places, DF actions, the answerability label) must be the question's."""
    where = Location(record.source, record.line)
    name, task, key = split_selector(record.instance)
    if task is None or key is None:
        raise InstanceNotFoundError(f"{record.instance!r} is not a question id (<game>/<df|rf>/<id>)", where)
    game = find_game(name, data)
    question = find_question(game, task, key)
    meta = record.meta
    stated: dict[str, Any] = {"src_node": question.src, "dst_node": question.dst,
                              "min_step_total_answerable": question.labels.min_step_total_answerable}
    if isinstance(question, DFQuestion):
        stated["action_list"] = list(question.actions)
    for field, truth in stated.items():
        if field in meta and meta[field] != truth:
            raise BadInputError(f"the record's {field} {meta[field]!r} is not the question's {truth!r}", where)
    try:
        own = check_cutoff(meta.get("cutoff", cutoff))
    except BadInputError as error:
        raise BadInputError(error.message, where) from None
    return MangoInstance(game, question, own, rule)
