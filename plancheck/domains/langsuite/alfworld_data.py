"""The ALFRED tables plancheck ships, read from the ``alfworld`` 0.4.2 wheel (MIT) without running its code.

``pip download --no-deps alfworld==0.4.2`` gives ``alfworld-0.4.2-py3-none-any.whl``; :func:`extract`
reads from it, as data:

* ``alfworld/gen/constants.py``: ``OBJECTS``, ``MOVABLE_RECEPTACLES``, ``RECEPTACLES``, ``GOALS``,
  ``GOALS_VALID``, ``VAL_RECEPTACLE_OBJECTS`` (with the aliases the file adds after the table:
  DiningTable, CoffeeTable and SideTable take TableTop's set, which is then deleted) and
  ``VAL_ACTION_OBJECTS`` and ``OPENABLE_CLASS_LIST``; every value is a literal, read with :func:`ast.literal_eval`;
* ``alfworld/gen/goal_library.py``: each goal's ``templates`` (the instruction wordings) and its ``pddl``
  (the PDDL goal template: a ``(:goal ...)`` string with ``{obj}``, ``{recep}``, ``{toggle}``, ``{mrecep}``
  slots, ``#`` where PDDL has ``-``, and the ``)`` that closes alfworld's problem), kept verbatim as data;
* ``alfworld/data/alfred.pddl``: ALFRED's PDDL domain, verbatim (``alfred_pddl``);
* ``alfworld/gen/layouts/FloorPlan<N>-layout.npy``: the reachable 0.25 m grid points (x, z) of each
  floor plan (AI2-THOR 2.1), read from the ``.npy`` format (little-endian float64, C order).

Sets become sorted lists. The wheel's SHA-256 is recorded beside the tables.
"""

from __future__ import annotations

import ast
import hashlib
import re
import struct
import zipfile
from pathlib import Path
from typing import Any

from plancheck.errors import BadInputError

WHEEL = "alfworld-0.4.2-py3-none-any.whl"
_CONSTANTS = ("OBJECTS", "MOVABLE_RECEPTACLES", "RECEPTACLES", "GOALS", "GOALS_VALID", "VAL_RECEPTACLE_OBJECTS",
              "VAL_ACTION_OBJECTS", "OPENABLE_CLASS_LIST")


def _jsonable(value: Any) -> Any:
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return value


def _literals(source: str, names: tuple[str, ...]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            if node.targets[0].id in names:
                found[node.targets[0].id] = ast.literal_eval(node.value)
    missing = [n for n in names if n not in found]
    if missing:
        raise BadInputError(f"constants.py lacks {', '.join(missing)}")
    return found


def _goal_entries(source: str, field: str) -> dict[str, Any]:
    """``gdict["<goal>"] = {'pddl': ..., 'templates': [...]}`` entries: one field of each."""
    out: dict[str, Any] = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Subscript):
            key = ast.literal_eval(node.targets[0].slice)
            out[key] = ast.literal_eval(node.value)[field]
    return out


def _npy_points(raw: bytes, where: str) -> list[list[float]]:
    """A 2-D little-endian float64 ``.npy`` array (format version 1) as rows."""
    if raw[:6] != b"\x93NUMPY" or raw[6] != 1:
        raise BadInputError(f"{where}: not a version-1 .npy file")
    header_len = struct.unpack("<H", raw[8:10])[0]
    header = raw[10:10 + header_len].decode("latin-1")
    shape = re.search(r"'shape': \((\d+), (\d+)\)", header)
    if "'<f8'" not in header or "'fortran_order': False" not in header or shape is None:
        raise BadInputError(f"{where}: expected a C-order float64 2-D array, got {header.strip()}")
    rows, cols = int(shape.group(1)), int(shape.group(2))
    data = struct.unpack(f"<{rows * cols}d", raw[10 + header_len:10 + header_len + 8 * rows * cols])
    return [list(data[i * cols:(i + 1) * cols]) for i in range(rows)]


def extract(wheel: Path) -> dict[str, Any]:
    """The shipped ``alfworld.json`` content from the wheel at ``wheel``."""
    digest = hashlib.sha256(wheel.read_bytes()).hexdigest()
    with zipfile.ZipFile(wheel) as zf:
        constants = _literals(zf.read("alfworld/gen/constants.py").decode("utf-8"), _CONSTANTS)
        library = zf.read("alfworld/gen/goal_library.py").decode("utf-8")
        templates, goals = _goal_entries(library, "templates"), _goal_entries(library, "pddl")
        domain = zf.read("alfworld/data/alfred.pddl").decode("utf-8")
        layouts = {}
        for name in sorted(zf.namelist()):
            found = re.fullmatch(r"alfworld/gen/layouts/(FloorPlan\d+)-layout\.npy", name)
            if found:
                layouts[found.group(1)] = _npy_points(zf.read(name), name)
    table = constants["VAL_RECEPTACLE_OBJECTS"]
    for alias in ("DiningTable", "CoffeeTable", "SideTable"):
        table[alias] = table["TableTop"]
    del table["TableTop"]
    return {"source": {"wheel": WHEEL, "sha256": digest, "license": "MIT (LICENSE-alfworld)"},
            **_jsonable(constants), "templates": templates, "goal_pddl": goals, "alfred_pddl": domain,
            "layouts": layouts}


def license_text(wheel: Path) -> str:
    with zipfile.ZipFile(wheel) as zf:
        return zf.read("alfworld-0.4.2.dist-info/LICENSE").decode("utf-8")
