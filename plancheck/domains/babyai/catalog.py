"""Which instances a selector names: single ids, seed ranges, and the benchmarks' published sets.

Selectors:

* ``BabyAI-GoToLocal-v0/seed=5`` (or ``/5``), LangSuitE's ``GoToLocalS5N2-5``;
* ``<env id>/seeds=1-100``: a range of seeds;
* ``babybench``: LLM-BabyBench's 16 levels, seeds 1-100 (``babybench/seeds=1-500`` for its full range);
* ``plan-rooms``: the 16 custom Plan rooms, seeds 1-100;
* ``langsuite``: LangSuitE's 50 evaluated level-seed pairs (``langsuite/babyai_task_list.txt`` in the
  published data), those minigrid has (by name, or as LangSuitE's code builds them);
* ``samples``: the instances of the LLM-BabyBench sample records in the published data, with their
  task and record fields;
* ``all``: ``babybench`` and ``plan-rooms``.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from plancheck.domains.babyai.instance import parse_id
from plancheck.domains.babyai.levels import BABYBENCH_LEVELS, PLAN_ROOMS, known_env_id, langsuite_env_id
from plancheck.errors import BadInputError, DataNotFoundError, InstanceNotFoundError, Location, clip
from plancheck.files import data_lines, data_text
from plancheck.limits import id_number

log = logging.getLogger(__name__)

DEFAULT_SEEDS = range(1, 101)
_RANGE = re.compile(r"^(?P<name>[^/]+)/seeds=(?P<first>\d+)-(?P<last>\d+)$")


@dataclass(frozen=True)
class Selected:
    """One selected instance, with the task and fields of the record it came from (if any)."""

    env_id: str
    seed: int
    task: str | None = None
    record: dict[str, Any] = field(default_factory=dict)


def langsuite_tasks(data: Path | None, resolution: str = "by-name") -> tuple[list[tuple[str, int]], list[str]]:
    """LangSuitE's (env id, seed) pairs that minigrid has, and the task names it lacks."""
    path = _data_file(data, "langsuite/babyai_task_list.txt")
    found, missing = [], []
    for number, line in enumerate(data_text(path).split("\n"), start=1):
        for task in line.split():
            name, _, seed = task.rpartition("-")
            if not (name and seed.isascii() and seed.isdigit()):
                raise BadInputError(f"{task!r} is not a LangSuitE task (Level-seed)", Location(str(path), number))
            env_id = langsuite_env_id(name, resolution)
            if env_id is None:
                missing.append(task)
            else:
                found.append((env_id, id_number(seed, f"the seed in {clip(task)!r}")))
    return found, missing


def sample_records(data: Path | None) -> Iterator[tuple[Path, int, dict[str, Any]]]:
    """The LLM-BabyBench sample records; one without a level name and seed is bad input with its line."""
    folder = _data_file(data, "babybench")
    for path in sorted(folder.glob("*.jsonl")):
        for number, record in data_lines(path):
            if not (isinstance(record, dict) and isinstance(record.get("env_name"), str)
                    and type(record.get("seed")) is int):
                raise BadInputError("a sample record needs \"env_name\" (text) and \"seed\" (an integer)",
                                    Location(str(path), number))
            yield path, number, record


def task_of_record(record: dict[str, Any]) -> str | None:
    """The LLM-BabyBench task a dataset record belongs to, from its fields."""
    if "task" in record:
        return str(record["task"])
    if "target_state" in record or "action_sequence" in record:
        return "predict"
    if "expert_action_sequence" in record or "target_subgoal" in record:
        return "plan"
    if "help_count" in record:
        return "decompose"
    return None


def select(selectors: Sequence[str], data: Path | None, langsuite: str = "by-name") -> Iterator[Selected]:
    for selector in selectors:
        yield from _one(selector.strip(), data, langsuite)


def _one(selector: str, data: Path | None, langsuite: str) -> Iterator[Selected]:
    name, seeds = selector, DEFAULT_SEEDS
    match = _RANGE.match(selector)
    if match:
        name, seeds = match["name"], range(id_number(match["first"], f"the first seed in {clip(selector)!r}"),
                                            id_number(match["last"], f"the last seed in {clip(selector)!r}") + 1)
        if not seeds:
            raise InstanceNotFoundError(f"{selector!r}: the seed range is empty (first seed first: seeds=1-5)")
    if name == "all":
        yield from _levels(BABYBENCH_LEVELS + PLAN_ROOMS, seeds)
    elif name == "babybench":
        yield from _levels(BABYBENCH_LEVELS, seeds)
    elif name == "plan-rooms":
        yield from _levels(PLAN_ROOMS, seeds)
    elif name == "langsuite":
        found, missing = langsuite_tasks(data, langsuite)
        if missing:
            log.info("minigrid lacks %d LangSuitE task(s), left out: %s", len(missing), ", ".join(missing))
        for env_id, seed in found:
            yield Selected(env_id, seed, "ig")
    elif name == "samples":
        for _, _, record in sample_records(data):
            yield Selected(record["env_name"], record["seed"], task_of_record(record), record)
    elif match:
        if not known_env_id(name):
            raise InstanceNotFoundError(f"{name!r} is not a BabyAI environment id")
        yield from _levels((name,), seeds)
    else:
        env_id, seed = parse_id(selector, langsuite)
        if not known_env_id(env_id):
            raise InstanceNotFoundError(f"{env_id!r} is not a BabyAI environment id")
        yield Selected(env_id, seed)


def _levels(env_ids: Sequence[str], seeds: range) -> Iterator[Selected]:
    for env_id in env_ids:
        for seed in seeds:
            yield Selected(env_id, seed)


def _data_file(data: Path | None, relative: str) -> Path:
    if data is None or not (data / relative).exists():
        raise DataNotFoundError(f"the published data file {relative} was not found"
                                f"{'' if data is None else f' under {data}'} "
                                "(the shared/data folder: give it, or set $PLANCHECK_DATA)")
    return data / relative
