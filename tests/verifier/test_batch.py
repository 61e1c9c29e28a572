"""The batch layer's own rules (plancheck/verifier/batch.py); whole batches are tested through the CLI."""

from __future__ import annotations

from typing import Any

from plancheck.verifier.batch import DuplicateCheck, options_read_by
from plancheck.world import Record

OPTIONS = {"seed": 3, "task": "plan", "limits": None}


class World:
    def __init__(self) -> None:
        self.seen: list[dict[str, Any]] = []

    def answer_key(self, record: Record, instance: Any) -> str:
        return record.instance


class Ignores(World):
    def resolve(self, record: Record, data: Any, **_: Any) -> str:
        self.seen.append(_)
        return record.instance


class Names(World):
    def resolve(self, record: Record, data: Any, *, task: str = "x", **_: Any) -> str:
        self.seen.append({"task": task, **_})
        return record.instance


class Reads(World):
    def resolve(self, record: Record, data: Any, **options: Any) -> str:
        self.seen.append(options)
        return record.instance


def test_a_world_method_gets_the_options_it_reads_once_per_batch_not_those_it_ignores():
    assert options_read_by(Ignores().resolve, OPTIONS) == {}
    assert options_read_by(Names().resolve, OPTIONS) == {"task": "plan"}
    assert options_read_by(Reads().resolve, OPTIONS) == OPTIONS
    assert options_read_by(max, OPTIONS) == OPTIONS  # no signature to read: it gets them all
    for world, expected in ((Ignores(), {}), (Names(), {"task": "plan"}), (Reads(), OPTIONS)):
        check = DuplicateCheck(world, None, **OPTIONS)
        check.mark(Record(1, "a", actions=()))
        assert world.seen == [expected]
