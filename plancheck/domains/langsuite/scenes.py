"""The shipped default floor plans (``plancheck/data/langsuite/scenes.json.gz``) as metadata dicts.

Each floor plan is AI2-THOR's default-state object metadata (procthor's
``ai2thor-object-metadata.json``, which is the file LangSuitE loads) with LangSuitE's room
rectangle (``floor_plan2polygons.json``). :func:`world_data` gives the dict LangSuitE's worlds are
built from: ``objects`` and ``sceneBounds.cornerPoints`` (the rectangle's corners at y = 0).
"""

from __future__ import annotations

import copy
import gzip
import json
from functools import cache
from importlib import resources
from typing import Any

from plancheck.errors import BadInputError


@cache
def _scenes() -> dict[str, Any]:
    with (resources.files("plancheck") / "data" / "langsuite" / "scenes.json.gz").open("rb") as f:
        return json.loads(gzip.decompress(f.read()).decode("utf-8"))


def floor_plans() -> tuple[str, ...]:
    return tuple(_scenes())


def object_bounds(floor_plan: str) -> tuple[float, float, float, float]:
    """The rectangle (min x, min z, max x, max z) over every object's AABB corner points."""
    try:
        return tuple(_scenes()[floor_plan]["object_bounds"])  # type: ignore[return-value]
    except KeyError:
        raise BadInputError(f"unknown floor plan {floor_plan!r} (FloorPlan1-30, 201-230, 301-330, 401-430)") \
            from None


def room_polygon(floor_plan: str) -> list[list[float]]:
    """LangSuitE's ``floor_plan2polygons.json`` rectangle of the floor plan (four [x, z] corners)."""
    try:
        return [list(c) for c in _scenes()[floor_plan]["room"]]
    except KeyError:
        raise BadInputError(f"unknown floor plan {floor_plan!r} (FloorPlan1-30, 201-230, 301-330, 401-430)") \
            from None


def world_data(floor_plan: str) -> dict[str, Any]:
    """A fresh copy of one floor plan's metadata dict (callers may change it)."""
    try:
        entry = _scenes()[floor_plan]
    except KeyError:
        raise BadInputError(f"unknown floor plan {floor_plan!r} (FloorPlan1-30, 201-230, 301-330, 401-430)") \
            from None
    corners = [[x, 0.0, z] for x, z in entry["room"]]
    return {"sceneName": floor_plan, "objects": copy.deepcopy(entry["objects"]),
            "sceneBounds": {"cornerPoints": corners}}
