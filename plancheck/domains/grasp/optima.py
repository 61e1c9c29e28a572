"""The table of certified GRASP optima: one line per published grid, looked up by the grid's content.

``benchmarks/grasp_optimum.py`` writes it after solving and certifying every environment; the
table of all 16,000 published environments ships as ``plancheck/data/grasp_optimum.jsonl``
(2,000 lines), so a verdict can show ``optimal`` and the ratio without solving again. Each line holds the
grid's id, its content key (:func:`content_key`: a hash of the cells, the start and the step limit) and, per
scoring rule, the optima of its 8 settings in the order of ``SETTINGS`` (flags
``0-0-0, 0-0-1, 0-1-0, 0-1-1, 1-0-0, 1-0-1, 1-1-0, 1-1-1``)::

    {"grid":"inner_random_free.jsonl-0","key":"9f2c...","paper":[9,3.3,6,0.9,10,3.8,7,1.4],"delivered":[...]}

A verdict finds its optimum by content and setting (:func:`optimum_of`), never by id alone: a grid edited
under a published id (a changed data folder) has no shipped optimum, and a copy of a published grid in a
user's grid file has the published one.

>>> import io
>>> line = table_line("g.jsonl-0", "k1", {"paper": [9.0, 3.3] + [0.0] * 6, "delivered": [7.0] + [0.0] * 7})
>>> line
'{"grid":"g.jsonl-0","key":"k1","paper":[9,3.3,0,0,0,0,0,0],"delivered":[7,0,0,0,0,0,0,0]}\\n'
>>> table = read_table(io.StringIO(line))
>>> table.by_content["k1", "0-0-1"], table.by_id["g.jsonl-0-0-0-1"]
({'paper': 3.3, 'delivered': 0.0}, {'paper': 3.3, 'delivered': 0.0})
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib.resources import files

from plancheck.domains.grasp.grid import Grid
from plancheck.domains.grasp.instance import SETTINGS, Environment
from plancheck.errors import BadInputError, Location

Optima = dict[str, float]  # scoring rule -> optimum


@lru_cache(maxsize=4096)  # a batch asks once per record; a grid's 8 settings and its answerers share it
def content_key(grid: Grid, step_limit: int) -> str:
    """What an environment's optimum depends on besides its setting: the cells, the start and the step limit,
    as a 128-bit hash (hex).

    >>> content_key(Grid(1, 2, " E", (0, 0)), 20) == content_key(Grid(1, 2, " E", (0, 0)), 20)
    True
    >>> content_key(Grid(1, 2, " E", (0, 0)), 20) == content_key(Grid(1, 2, "  ", (0, 0)), 20)
    False
    """
    text = f"{grid.rows}x{grid.cols}|{grid.cells}|{grid.start[0]},{grid.start[1]}|{step_limit}"
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).hexdigest()


def _compact(value: float) -> float | int:
    return int(value) if float(value).is_integer() else value


def table_line(grid_id: str, key: str, optima: Mapping[str, Sequence[float]]) -> str:
    """One grid: its id, its content key, and rule -> its optima under the 8 settings, in ``SETTINGS`` order."""
    record = {"grid": grid_id, "key": key, **{rule: [_compact(v) for v in values] for rule, values in optima.items()}}
    return json.dumps(record, separators=(",", ":")) + "\n"


@dataclass(frozen=True)
class OptimumTable:
    """The optima by (content key, setting flags) and, for reports on the published grids, by environment id."""

    by_content: Mapping[tuple[str, str], Optima]
    by_id: Mapping[str, Optima]


def read_table(lines: Iterable[str], source: str | None = None) -> OptimumTable:
    """Read the table; a line that is not one, or two lines giving one content different optima, is bad input."""
    by_content: dict[tuple[str, str], Optima] = {}
    by_id: dict[str, Optima] = {}
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            rules = {rule: values for rule, values in record.items() if rule not in ("grid", "key")}
            if any(len(values) != len(SETTINGS) for values in rules.values()):
                raise ValueError(f"every rule needs {len(SETTINGS)} values")
            for position, setting in enumerate(SETTINGS):
                optima = {rule: float(v[position]) for rule, v in rules.items()}
                if by_content.setdefault((record["key"], setting.flags), optima) != optima:
                    raise ValueError(f"another line gives the same grid other optima under setting {setting.flags}")
                by_id[f"{record['grid']}-{setting.flags}"] = optima
        except (json.JSONDecodeError, KeyError, TypeError, AttributeError, ValueError) as error:
            raise BadInputError(f"not a line of the optimum table: {error}", Location(source, number)) from None
    return OptimumTable(by_content, by_id)


@cache
def shipped_table() -> OptimumTable:
    """The shipped optima of the 16,000 published environments."""
    resource = files("plancheck") / "data" / "grasp_optimum.jsonl"
    with resource.open(encoding="utf-8") as lines:
        return read_table(lines, "plancheck/data/grasp_optimum.jsonl")


def published_optima() -> Mapping[str, Optima]:
    """The shipped optima by published environment id, for reports on the published grids (a verdict uses
    :func:`optimum_of`, which also checks the grid is the published one)."""
    return shipped_table().by_id


def optimum_of(env: Environment) -> Optima | None:
    """The certified optimum of an environment with this grid, start, step limit and setting, if one ships."""
    return shipped_table().by_content.get((content_key(env.grid, env.step_limit), env.setting.flags))
