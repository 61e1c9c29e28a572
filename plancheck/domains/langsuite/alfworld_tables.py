"""ALFRED's tables shipped as ``plancheck/data/langsuite/alfworld.json.gz`` (built by :mod:`.alfworld_data`)."""

from __future__ import annotations

import gzip
import json
from functools import cache
from importlib import resources
from typing import Any


@cache
def tables() -> dict[str, Any]:
    with (resources.files("plancheck") / "data" / "langsuite" / "alfworld.json.gz").open("rb") as f:
        return json.loads(gzip.decompress(f.read()).decode("utf-8"))


@cache
def receptacle_objects(receptacle_type: str) -> frozenset[str]:
    """The object types ALFRED lets a receptacle type hold (``VAL_RECEPTACLE_OBJECTS``; empty for other types)."""
    return frozenset(tables()["VAL_RECEPTACLE_OBJECTS"].get(receptacle_type, ()))
