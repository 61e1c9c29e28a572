"""The compact data files shipped in ``plancheck/data/langsuite/``, derived from the published files.

* ``scenes.json.gz``: the default-state object metadata of the 120 iTHOR floor plans (procthor's
  ``ai2thor-object-metadata.json``, Apache-2.0) without the fields the engine never reads
  (corner points, oriented boxes, distances, visibility), plus LangSuitE's
  ``floor_plan2polygons.json`` rectangles (MIT), keyed ``FloorPlanN``, and per floor plan the
  rectangle over all its objects' AABB corner points (``object_bounds``: min x, min z, max x, max z;
  LangSuitE's IQA room is the rectangle over the scene bounds and these corners).
* ``rearrangement_2022.json.gz``: the ai2thor-rearrangement 2022 val and test episodes
  (Apache-2.0) with the fields a LangSuitE episode is built from;
* ``alfworld.json.gz``: ALFRED's tables, goal wordings, PDDL goal templates, its PDDL domain
  (``alfred.pddl``, verbatim) and reachable points from the ``alfworld`` 0.4.2 wheel (MIT,
  ``LICENSE-alfworld``), see :mod:`.alfworld_data`.

:func:`build` writes them from the published files (``shared/data/langsuite``) and, for the last
one, the wheel (``pip download --no-deps alfworld==0.4.2``) byte-identically on every run; a test
checks that the shipped files are exactly what it writes.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from plancheck.domains.langsuite import alfworld_data

SCENE_GROUPS = (("kitchens", 1), ("living_rooms", 201), ("bedrooms", 301), ("bathrooms", 401))
_UNREAD = {"objectOrientedBoundingBox", "distance", "visible", "isInteractable", "isMoving", "isPickedUp", "assetId"}


def _gzip(obj: Any) -> bytes:
    raw = json.dumps(obj, separators=(",", ":"), sort_keys=True).encode("utf-8")
    return gzip.compress(raw, compresslevel=9, mtime=0)


def scenes(metadata: Mapping[str, Any], polygons: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for group, first in SCENE_GROUPS:
        for i, objects in enumerate(metadata[group]):
            plan = f"FloorPlan{first + i}"
            trimmed = []
            corners = [p for obj in objects for p in obj["axisAlignedBoundingBox"]["cornerPoints"]]
            bounds = [min(p[0] for p in corners), min(p[2] for p in corners), max(p[0] for p in corners),
                      max(p[2] for p in corners)]
            for obj in objects:
                obj = {k: v for k, v in obj.items() if k not in _UNREAD}
                box = obj["axisAlignedBoundingBox"]
                obj["axisAlignedBoundingBox"] = {"center": box["center"], "size": box["size"]}
                trimmed.append(obj)
            out[plan] = {"room": polygons[plan], "objects": trimmed, "object_bounds": bounds}
    return out


def _pose(p: Mapping[str, Any]) -> list[Any]:
    return [p["name"], p["position"]["x"], p["position"]["y"], p["position"]["z"], p["rotation"]["y"]]


def episodes(val: Mapping[str, Any], test: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for split, data in (("val", val), ("test", test)):
        for plan in sorted(data, key=lambda p: int(p[len("FloorPlan"):])):
            for index, ep in enumerate(data[plan]):
                a = ep["agent_position"]
                out[f"{plan}_{index}"] = {
                    "split": split, "scene": plan, "index": index,
                    "agent": [a["x"], a["y"], a["z"], ep["agent_rotation"]],
                    "counts": [ep["object_rearrangement_count"], ep["position_diff_count"], ep["open_diff_count"]],
                    "open": [[o["name"], o["objectId"], o["start_openness"], o["target_openness"]]
                             for o in ep["openable_data"]],
                    "start": [_pose(p) for p in ep["starting_poses"]],
                    "target": [_pose(p) for p in ep["target_poses"]],
                }
    return out


def build(shared: Path, out: Path, alfworld_wheel: Path | None = None) -> None:
    """Write the shipped files from ``shared`` (the ``langsuite`` folder of the published data) and,
    when given, the alfworld wheel."""
    with gzip.open(shared / "scenes" / "ai2thor-object-metadata.json.gz", "rt", encoding="utf-8") as f:
        metadata = json.load(f)
    polygons = json.loads((shared / "scenes" / "floor_plan2polygons.json").read_text(encoding="utf-8"))
    (out / "scenes.json.gz").write_bytes(_gzip(scenes(metadata, polygons)))
    with gzip.open(shared / "rearrangement" / "2022_val.json.gz", "rt", encoding="utf-8") as f:
        val = json.load(f)
    with gzip.open(shared / "rearrangement" / "2022_test.json.gz", "rt", encoding="utf-8") as f:
        test = json.load(f)
    (out / "rearrangement_2022.json.gz").write_bytes(_gzip(episodes(val, test)))
    if alfworld_wheel is not None:
        (out / "alfworld.json.gz").write_bytes(_gzip(alfworld_data.extract(alfworld_wheel)))
        (out / "LICENSE-alfworld").write_text(alfworld_data.license_text(alfworld_wheel), encoding="utf-8")


if __name__ == "__main__":  # python -m plancheck.domains.langsuite.shipdata SHARED_LANGSUITE_DIR [ALFWORLD_WHEEL]
    import sys

    build(Path(sys.argv[1]), Path(__file__).resolve().parents[2] / "data" / "langsuite",
          Path(sys.argv[2]) if len(sys.argv) > 2 else None)
