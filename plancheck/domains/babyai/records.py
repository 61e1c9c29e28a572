"""Reading files of BabyAI answers into records, in every format the benchmarks produce.

* LLM-BabyBench dataset records (JSONL): ``{"env_name", "seed", ...}`` with the task's fields
  (Predict: ``action_sequence``, ``target_state``; Plan: ``expert_action_sequence``; Decompose:
  ``help_count``), optionally ``model`` (tables have rows per model; else the file's name). An
  answer is read from ``response`` (or ``llm_output`` / ``all_llm_output``, ...; a null answer is a
  broken record); a record with none of those keys has its own reference answer checked (the target
  state, the expert sequence), with a note in its verdict: that makes the published samples a golden
  test. A Decompose record without an answer cannot be checked and is reported as broken.
* LLM-BabyBench harness results (a ``.json`` array): ``{"env_name", "env_seed", "task",
  "all_llm_output", ...}`` per entry; entry ``i`` is reported as line ``i``.
* Plain JSONL, with the keys every world accepts: ``{"instance" (or "id"), "task", "response" (or
  "text", "answer", "output": text, or a list of actions / LangSuitE responses)}``, the instance id
  in any form :func:`~plancheck.domains.babyai.instance.parse_id` reads (``GoToLocalS5N2-5`` included).
* LangSuitE's console logs, ``<Level>-<seed>-<trial>.jl`` (one JSON message per line): one IG record per
  file, the whole log its answer (an episode, :mod:`.episodes`), the task named by the file name.
A JSON record's fields other than its instance's and its answer's are kept for the output rows.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from plancheck.domains.babyai.catalog import task_of_record
from plancheck.domains.babyai.tasks import Task
from plancheck.errors import LimitError
from plancheck.files import answer_entries, answer_lines, list_refused, read_text
from plancheck.limits import DEFAULT, Limits
from plancheck.verifier.records import INSTANCE_KEYS, first_key, unconsumed
from plancheck.world import BrokenRecord, Record

_ANSWER_KEYS = ("response", "responses", "llm_output", "all_llm_output", "output", "answer", "text")  # ANSWER_KEYS +
_FIELDS = ("action_sequence", "expert_action_sequence", "help_count", "target_state", "initial_state",
           "env_description", "mission", "target_subgoal")  # the world texts are compared with the regenerated ones
_TASKS = tuple(t.value for t in Task)


def read_answers(path: Path, limits: Limits = DEFAULT) -> Iterator[Record | BrokenRecord]:
    """Every record in ``path`` (JSONL, a JSON array of harness results, or a LangSuitE log), read as
    :mod:`plancheck.files` reads answer files, within ``limits``."""
    if path.suffix == ".jl":
        yield _langsuite_log(path, limits)
        return
    entries = answer_entries(path, limits=limits) if path.suffix == ".json" else answer_lines(path, limits)
    for item in entries:
        yield item if isinstance(item, BrokenRecord) else record_from_json(item[1], path, item[0], limits)


def record_from_json(data: Any, path: Path, line: int, limits: Limits = DEFAULT) -> Record | BrokenRecord:
    source = str(path)
    if not isinstance(data, dict):
        return BrokenRecord(line, f"expected a JSON object, got {type(data).__name__}", source)
    instance = _instance(data)
    if instance is None:
        return BrokenRecord(line, "no instance: expected 'instance' (or 'id'), or 'env_name' with 'seed'", source)
    task = task_of_record(data)
    if task is not None and task not in _TASKS:
        return BrokenRecord(line, f"unknown task {data['task']!r} (expected one of {', '.join(_TASKS)})", source,
                            instance)
    meta: dict[str, Any] = {k: data[k] for k in _FIELDS if k in data}
    if task is not None:
        meta["task"] = task
    if isinstance(data.get("model"), str):
        meta["model"] = data["model"]
    key = first_key(data, _ANSWER_KEYS)
    if key is None:
        return _reference(data, task, instance, meta, line, source)
    answer = data[key]
    if answer is None:
        return BrokenRecord(line, f"the answer ({key!r}) is null", source, instance)
    fields = unconsumed(data, *_instance_keys(data), key)
    if isinstance(answer, str):
        return Record(line, instance, text=answer, source=source, meta=meta, fields=fields)
    if isinstance(answer, list) and all(isinstance(item, str) for item in answer):
        if refused := list_refused(answer, key, limits):
            return BrokenRecord(line, refused, source, instance)
        return Record(line, instance, actions=tuple(answer), source=source, meta=meta, fields=fields)
    return BrokenRecord(line, "the answer must be text or a list of strings", source, instance)


def _langsuite_log(path: Path, limits: Limits) -> Record | BrokenRecord:
    """A LangSuitE log as one IG record: ``<Level>-<seed>-<trial>.jl`` names the task ``<Level>-<seed>``; the
    whole log is the answer (refused above ``limits.answer_bytes``)."""
    level, _, rest = path.stem.partition("-")
    seed, _, trial = rest.partition("-")
    if not (level and seed.isascii() and seed.isdigit() and trial.isascii() and trial.isdigit()):
        return BrokenRecord(1, f"a LangSuitE log is named <Level>-<seed>-<trial>.jl, not {path.name!r}", str(path))
    try:
        limits.bytes_of(path.stat().st_size, "the log")
    except LimitError as error:
        return BrokenRecord(1, str(error), str(path))
    return Record(1, f"{level}-{seed}", text=read_text(path), source=str(path), meta={"task": "ig"})


def _instance(data: dict[str, Any]) -> str | None:
    for key in INSTANCE_KEYS:
        if isinstance(data.get(key), str):
            return data[key]
    env = data.get("env_name")
    seed = data.get("seed", data.get("env_seed"))
    if isinstance(env, str) and isinstance(seed, int) and not isinstance(seed, bool):
        return f"{env}/seed={seed}"
    return None


def _instance_keys(data: dict[str, Any]) -> tuple[str, ...]:
    """The keys that named the record's instance."""
    key = next((k for k in INSTANCE_KEYS if isinstance(data.get(k), str)), None)
    return (key,) if key is not None else ("env_name", "seed", "env_seed")


def _reference(data: dict[str, Any], task: str | None, instance: str, meta: dict[str, Any], line: int,
               source: str) -> Record | BrokenRecord:
    """A dataset record without an answer: its own reference answer, where it has one (said in a note)."""
    def note(field: str) -> tuple[str]:
        return (f"no answer in the record (none of the keys {', '.join(_ANSWER_KEYS)}): its own reference answer "
                f"({field}) was checked",)

    fields = unconsumed(data, *_instance_keys(data))
    if task == "predict" and isinstance(data.get("target_state"), str):
        return Record(line, instance, text="The agent's final state is: " + data["target_state"], source=source,
                      meta=meta, notes=note("target_state"), fields=fields)
    if task == "plan" and isinstance(data.get("expert_action_sequence"), str):
        return Record(line, instance, actions=tuple(a.strip() for a in data["expert_action_sequence"].split(",")),
                      source=source, meta=meta, notes=note("expert_action_sequence"), fields=fields)
    return BrokenRecord(line, f"no answer to check (expected one of {', '.join(_ANSWER_KEYS[:3])}) and no reference "
                              f"answer in a {task or 'task-less'} record", source, instance)
