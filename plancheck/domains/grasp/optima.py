"""The table of certified GRASP optima: one line per published grid, read back by environment id.

``benchmarks/grasp_optimum.py`` writes it after solving and certifying every environment; the
table of all 16,000 published environments ships as ``plancheck/data/grasp_optimum.jsonl``
(2,000 lines, 204 KiB), so a verdict can show ``optimal`` and the ratio without solving again. Each line holds, per
scoring rule, the optima of the grid's 8 settings in the order of ``SETTINGS`` (flags
``0-0-0, 0-0-1, 0-1-0, 0-1-1, 1-0-0, 1-0-1, 1-1-0, 1-1-1``)::

    {"grid":"inner_random_free.jsonl-0","paper":[9,3.3,6,0.9,10,3.8,7,1.4],"delivered":[...]}

>>> import io
>>> line = table_line("g.jsonl-0", {"paper": [9.0, 3.3] + [0.0] * 6, "delivered": [7.0] + [0.0] * 7})
>>> line
'{"grid":"g.jsonl-0","paper":[9,3.3,0,0,0,0,0,0],"delivered":[7,0,0,0,0,0,0,0]}\\n'
>>> read_table(io.StringIO(line))["g.jsonl-0-0-0-1"]
{'paper': 3.3, 'delivered': 0.0}
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from importlib.resources import files

from plancheck.domains.grasp.instance import SETTINGS
from plancheck.errors import BadInputError, Location


def _compact(value: float) -> float | int:
    return int(value) if float(value).is_integer() else value


def table_line(grid_id: str, optima: Mapping[str, Sequence[float]]) -> str:
    """One grid: rule -> its optima under the 8 settings, in ``SETTINGS`` order."""
    record = {"grid": grid_id, **{rule: [_compact(v) for v in values] for rule, values in optima.items()}}
    return json.dumps(record, separators=(",", ":")) + "\n"


def read_table(lines: Iterable[str], source: str | None = None) -> dict[str, dict[str, float]]:
    """Environment id (``<grid id>-<mv>-<lim>-<cost>``) -> rule -> optimum."""
    table: dict[str, dict[str, float]] = {}
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            rules = {rule: values for rule, values in record.items() if rule != "grid"}
            if any(len(values) != len(SETTINGS) for values in rules.values()):
                raise ValueError(f"every rule needs {len(SETTINGS)} values")
            for position, setting in enumerate(SETTINGS):
                table[f"{record['grid']}-{setting.flags}"] = {rule: float(v[position]) for rule, v in rules.items()}
        except (json.JSONDecodeError, KeyError, TypeError, AttributeError, ValueError) as error:
            raise BadInputError(f"not a line of the optimum table: {error}", Location(source, number)) from None
    return table


@cache
def published_optima() -> dict[str, dict[str, float]]:
    """The shipped optima of the 16,000 published environments: environment id -> rule -> optimum."""
    resource = files("plancheck") / "data" / "grasp_optimum.jsonl"
    with resource.open(encoding="utf-8") as lines:
        return read_table(lines, "plancheck/data/grasp_optimum.jsonl")
