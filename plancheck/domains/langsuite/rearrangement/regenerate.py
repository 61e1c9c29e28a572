"""Start and goal scenes of a Rearrangement episode, rebuilt from the default floor plan.

LangSuitE loads start and end scenes that AI2-THOR recorded (not public). Here each is rebuilt
from the floor plan's default metadata and the episode's poses:

1. every object named in the poses is moved by the difference between its pose position and its
   default position; its AABB is translated by the same amount (rotations are not re-applied: the
   box keeps its default extent);
2. each object in ``openable_data`` gets the episode's openness (start or target), open when > 0;
3. the parent receptacle of every moved object (and of any object whose default parent moved) is
   recomputed: among the receptacles whose (x, z) box holds the object's centre and whose height
   range holds the object's bottom (2 cm tolerance), the one with the highest top at or below the
   object's bottom, else the highest bottom; nothing on the floor. On the default scenes this rule
   gives exactly AI2-THOR's parents for 90.5% of the pickupable objects (1,715 of 1,895);
4. every ``receptacleObjectIds`` is recomputed from the parents, in scene order.

Physics settling, rotated boxes and AI2-THOR's own contact-based parents cannot be reproduced.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from plancheck.domains.langsuite.scenes import world_data
from plancheck.errors import BadInputError

SUPPORT_TOLERANCE = 0.02


def _box(obj: Mapping[str, Any]) -> tuple[float, float, float, float, float, float]:
    box = obj["axisAlignedBoundingBox"]
    c, s = box["center"], box["size"]
    return (c["x"] - s["x"] / 2, c["x"] + s["x"] / 2, c["y"] - s["y"] / 2, c["y"] + s["y"] / 2,
            c["z"] - s["z"] / 2, c["z"] + s["z"] / 2)


def _parents(obj: Mapping[str, Any]) -> list[str]:
    return [p for p in obj.get("parentReceptacles") or () if "Floor|" not in p]


def support(obj: Mapping[str, Any], objects: Sequence[Mapping[str, Any]], parent_of: Mapping[str, str | None],
            eps: float = SUPPORT_TOLERANCE) -> str | None:
    """The receptacle an object rests on or in by the rule above, or None (the floor)."""
    x0, x1, bottom, _, z0, z1 = _box(obj)
    cx, cz = (x0 + x1) / 2, (z0 + z1) / 2
    best, best_key = None, None
    for rec in objects:
        if rec is obj or not rec.get("receptacle") or rec.get("objectType") == "Floor":
            continue
        rx0, rx1, ry0, ry1, rz0, rz1 = _box(rec)
        if not (rx0 <= cx <= rx1 and rz0 <= cz <= rz1 and ry0 - eps <= bottom <= ry1 + eps):
            continue
        walk, seen = rec["objectId"], set()  # no cycles: the receptacle must not sit in the object
        while walk is not None and walk not in seen and walk != obj["objectId"]:
            seen.add(walk)
            walk = parent_of.get(walk)
        if walk == obj["objectId"]:
            continue
        key = ry1 if ry1 <= bottom + eps else ry0
        if best_key is None or key > best_key:
            best, best_key = rec["objectId"], key
    return best


def rebuild(floor_plan: str, poses: Sequence[Sequence[Any]], openness: Sequence[Sequence[Any]],
            where: str) -> dict[str, Any]:
    """The metadata dict of one side of an episode (poses: name, x, y, z, yaw; openness: name, id, value)."""
    data = world_data(floor_plan)
    objects = data["objects"]
    by_name = {o["name"]: o for o in objects}
    moved: set[str] = set()
    for name, x, y, z, yaw in poses:
        obj = by_name.get(name)
        if obj is None:
            raise BadInputError(f"{where}: {floor_plan} has no object named {name!r}")
        old, center = obj["position"], obj["axisAlignedBoundingBox"]["center"]
        obj["axisAlignedBoundingBox"]["center"] = {"x": center["x"] + (x - old["x"]),
                                                   "y": center["y"] + (y - old["y"]),
                                                   "z": center["z"] + (z - old["z"])}
        obj["position"] = {"x": x, "y": y, "z": z}
        obj["rotation"] = {**obj["rotation"], "y": yaw}
        moved.add(obj["objectId"])
    for name, _, value in openness:
        obj = by_name.get(name)
        if obj is None:
            raise BadInputError(f"{where}: {floor_plan} has no object named {name!r}")
        obj["openness"], obj["isOpen"] = value, value > 0
    parent_of: dict[str, str | None] = {o["objectId"]: (_parents(o) or [None])[0] for o in objects}
    for obj in objects:
        oid = obj["objectId"]
        if oid in moved or any(p in moved for p in _parents(obj)):
            parent = support(obj, objects, parent_of)
            parent_of[oid] = parent
            obj["parentReceptacles"] = [parent] if parent else []
    children: dict[str, list[str]] = {}
    for obj in objects:
        for p in _parents(obj):
            children.setdefault(p, []).append(obj["objectId"])
    for obj in objects:
        obj["receptacleObjectIds"] = children.get(obj["objectId"], [])
    return data
