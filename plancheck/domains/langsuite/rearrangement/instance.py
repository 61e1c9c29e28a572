"""Rearrangement episodes: the 2,000 ai2thor-rearrangement 2022 episodes (val and test) as LangSuitE tasks.

An episode id is ``FloorPlanN_i`` (LangSuitE's own ``scene + "_" + index``; val and test use
disjoint floor plans). Selectors: an id, ``val``, ``test``, ``all``, a floor plan (``FloorPlan21``),
or ``langsuite-batch`` (LangSuitE's batch run: the val episodes shuffled by ``random.seed(0)``,
first 50).

:meth:`Episode.line` gives the episode as LangSuitE's loader expects one line of
``data/rearrange/<stage>.json`` (``scene``, ``index``, ``start_scene``, ``end_scene``, ``task``), with
the start and end scenes rebuilt by :mod:`regenerate` (AI2-THOR's recordings are not public).
"""

from __future__ import annotations

import gzip
import json
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from importlib import resources
from typing import Any

from plancheck.domains.langsuite.rearrangement.regenerate import rebuild
from plancheck.errors import BadInputError

SPLITS = ("val", "test")


@cache
def _episodes() -> dict[str, Any]:
    with (resources.files("plancheck") / "data" / "langsuite" / "rearrangement_2022.json.gz").open("rb") as f:
        return json.loads(gzip.decompress(f.read()).decode("utf-8"))


@dataclass(frozen=True)
class Episode:
    """One ai2thor-rearrangement episode: the agent's start, the objects' start and target poses."""

    id: str
    split: str
    scene: str
    index: int
    agent: tuple[float, float, float, float]  # x, y, z, yaw
    counts: tuple[int, int, int]  # object_rearrangement_count, position_diff_count, open_diff_count
    openable: tuple[tuple[str, str, float, float], ...]  # name, objectId, start, target openness
    start: tuple[tuple[str, float, float, float, float], ...]  # name, x, y, z, yaw
    target: tuple[tuple[str, float, float, float, float], ...]

    @classmethod
    def from_json(cls, eid: str, raw: dict[str, Any]) -> Episode:
        return cls(eid, raw["split"], raw["scene"], raw["index"], tuple(raw["agent"]), tuple(raw["counts"]),
                   tuple(tuple(o) for o in raw["open"]), tuple(tuple(p) for p in raw["start"]),
                   tuple(tuple(p) for p in raw["target"]))

    def scene_data(self, side: str) -> dict[str, Any]:
        """The rebuilt metadata of the start (``start``) or goal (``end``) scene, with the agent."""
        poses = self.start if side == "start" else self.target
        openness = [(name, oid, s if side == "start" else t) for name, oid, s, t in self.openable]
        data = rebuild(self.scene, poses, openness, self.id)
        x, y, z, yaw = self.agent
        data["agent"] = {"position": {"x": x, "y": y, "z": z}, "rotation": {"x": 0.0, "y": yaw, "z": 0.0}}
        return data

    @cached_property
    def start_scene(self) -> dict[str, Any]:
        return self.scene_data("start")

    @cached_property
    def end_scene(self) -> dict[str, Any]:
        return self.scene_data("end")

    def task_block(self) -> dict[str, Any]:
        """The ``task`` entry in ai2thor-rearrangement's schema (what LangSuitE's loader reads)."""
        def poses(entries):
            return [{"name": n, "objectName": n, "position": {"x": x, "y": y, "z": z}, "rotation": {"y": yaw}}
                    for n, x, y, z, yaw in entries]
        return {"starting_poses": poses(self.start), "target_poses": poses(self.target),
                "openable_data": [{"name": n, "objectName": n, "objectId": oid, "start_openness": s,
                                   "target_openness": t} for n, oid, s, t in self.openable],
                "object_rearrangement_count": self.counts[0], "position_diff_count": self.counts[1],
                "open_diff_count": self.counts[2]}

    def line(self) -> dict[str, Any]:
        """The episode as one line of LangSuitE's ``data/rearrange/<stage>.json``."""
        return {"scene": self.scene, "index": self.index, "start_scene": self.start_scene,
                "end_scene": self.end_scene, "task": self.task_block()}


def episode(eid: str) -> Episode:
    raw = _episodes().get(eid)
    if raw is None:
        raise BadInputError(f"unknown Rearrangement episode {eid!r} (ids look like FloorPlan21_0: a floor plan of "
                            "the 2022 val or test set and an index 0-49)")
    return Episode.from_json(eid, raw)


def episode_ids(split: str | None = None) -> list[str]:
    return [eid for eid, raw in _episodes().items() if split is None or raw["split"] == split]


def langsuite_batch() -> list[str]:
    """LangSuitE's ``scripts/rearrange_batch_run.py`` selection: val, ``random.seed(0)``, shuffle, first 50."""
    ids = episode_ids("val")
    rng = random.Random(0)
    rng.shuffle(ids)
    return ids[:50]


def select(selectors: Sequence[str]) -> Iterator[Episode]:
    for sel in selectors:
        if sel == "all":
            ids = episode_ids()
        elif sel in SPLITS:
            ids = episode_ids(sel)
        elif sel == "langsuite-batch":
            ids = langsuite_batch()
        elif sel.startswith("FloorPlan") and "_" not in sel:
            ids = [e for e in episode_ids() if e.split("_")[0] == sel]
            if not ids:
                raise BadInputError(f"no Rearrangement episodes on {sel!r} (2022 val: FloorPlan21-25, 221-225, "
                                    "321-325, 421-425; test: 26-30, 226-230, 326-330, 426-430)")
        else:
            ids = [sel]
        for eid in ids:
            yield episode(eid)
