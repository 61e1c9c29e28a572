"""GRASP instances: a grid with its provenance, one of the 8 settings, and stable ids.

An environment id has the published ``custom_id`` form ``<set>[.jsonl]-<index>-<mv>-<lim>-<cost>``
where the flags are 0/1: ``mv`` 1 = eight directions, ``lim`` 1 = carry limit 2, ``cost`` 1 = 0.3
per step. ``<set>`` is a published grid file stem (``inner_leftRight_free``) or a generator spec
``gen<seed>_<start>_<energy>_<obstacle>`` (see :mod:`plancheck.domains.grasp.generate`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from plancheck.domains.grasp.grid import Grid, render_grid
from plancheck.errors import InstanceNotFoundError, clip
from plancheck.limits import id_number

STEP_LIMIT = 20
UNLIMITED_CARRY = 100  # the released code's value for "no limit"; unreachable within 20 steps
DISTRIBUTIONS = ("random", "upDown", "leftRight", "cluster", "spiral")
OBSTACLES = ("free", "block")
STARTS = ("inner", "outer")


@dataclass(frozen=True, slots=True)
class Setting:
    """One of the 8 settings: action set (4 or 8 directions), carry limit, cost per step."""

    directions: int = 4
    carry_limit: int | None = None
    step_cost: float = 0.0
    flags: str = field(init=False, repr=False, compare=False)  # see __post_init__

    def __post_init__(self) -> None:
        # only the published values: an id's 0/1 flags must name the setting exactly
        if self.directions not in (4, 8):
            raise ValueError(f"directions must be 4 or 8, not {self.directions}")
        if self.carry_limit not in (None, 2):
            raise ValueError(f"the carry limit must be 2 or None (no limit), not {self.carry_limit}")
        if self.step_cost not in (0, 0.3):
            raise ValueError(f"the step cost must be 0 or 0.3, not {self.step_cost}")
        # the ``mv-lim-cost`` part of a custom_id, e.g. ``1-0-1``: kept, as every record's id asks for it
        object.__setattr__(self, "flags", f"{int(self.directions == 8)}-{int(self.carry_limit is not None)}-"
                                          f"{int(self.step_cost > 0)}")

    @property
    def capacity(self) -> int:
        return UNLIMITED_CARRY if self.carry_limit is None else self.carry_limit

    @classmethod
    @lru_cache(maxsize=64)  # settings are immutable: a batch builds one per record otherwise
    def from_flags(cls, mv: int, lim: int, cost: int) -> Setting:
        return cls(8 if mv else 4, 2 if lim else None, 0.3 if cost else 0.0)

    @classmethod
    @lru_cache(maxsize=64)
    def from_baseline(cls, movement: int, energy_limit: int, step_cost: float) -> Setting:
        """From the baseline files' ``movement_prompt``, ``energy_limit_prompt``, ``cost_of_step_prompt``."""
        return cls(int(movement), None if int(energy_limit) >= UNLIMITED_CARRY else int(energy_limit),
                   float(step_cost))

    def describe(self) -> str:
        carry = "no carry limit" if self.carry_limit is None else f"carry limit {self.carry_limit}"
        return f"{self.directions} directions, {carry}, step cost {self.step_cost:g}"


SETTINGS: tuple[Setting, ...] = tuple(
    Setting.from_flags(mv, lim, cost) for mv in (0, 1) for lim in (0, 1) for cost in (0, 1))


@dataclass(frozen=True, slots=True)
class GridInfo:
    """Where a grid comes from: its set, index, and the parameters it was drawn with.

    ``energy_probability`` keeps the published field as released: the cell probability for
    ``random``/``upDown``/``leftRight`` grids, the number of clusters for ``cluster`` grids, -1 for
    ``spiral`` grids.
    """

    set_name: str
    index: int
    energy: str
    obstacle: str
    start_position: str
    energy_probability: float = -1
    published: bool = True

    @property
    def grid_id(self) -> str:
        return f"{self.set_name}{'.jsonl' if self.published else ''}-{self.index}"


@dataclass(frozen=True, slots=True)
class Environment:
    """A GRASP environment: one grid under one setting, with the 20-step limit."""

    grid: Grid
    setting: Setting
    info: GridInfo
    step_limit: int = STEP_LIMIT
    id: str = field(init=False, repr=False, compare=False)  # ``<grid id>-<flags>``, kept: a batch asks per record

    def __post_init__(self) -> None:
        object.__setattr__(self, "id", f"{self.info.grid_id}-{self.setting.flags}")

    def to_json(self) -> dict:
        return {"id": self.id, "set": self.info.set_name, "index": self.info.index,
                "energy": self.info.energy, "obstacle": self.info.obstacle,
                "start_position": self.info.start_position,
                "energy_probability": self.info.energy_probability,
                "directions": self.setting.directions, "carry_limit": self.setting.carry_limit,
                "step_cost": self.setting.step_cost, "start": list(self.grid.start),
                "grid": render_grid(self.grid)}


# greedy: a set name stops at the first character it cannot hold, so the lazy form matched the same, 6x slower
_ID = re.compile(r"^(?P<set>[A-Za-z0-9_]+)(?P<ext>\.jsonl)?(?:-(?P<index>\d+)"
                 r"(?:-(?P<mv>[01])-(?P<lim>[01])-(?P<cost>[01]))?)?$")
_FILE_ID = re.compile(r"^(?P<set>.*[/\\].+)(?P<ext>\.jsonl)(?:-(?P<index>\d+)"
                      r"(?:-(?P<mv>[01])-(?P<lim>[01])-(?P<cost>[01]))?)?$")  # a user's grid file, by path


@dataclass(frozen=True, slots=True)
class IdParts:
    """A parsed id or selector: the set, and optionally a grid index and a setting."""

    set_name: str
    index: int | None
    setting: Setting | None


def set_factors(set_name: str) -> dict[str, str]:
    """Start region, energy distribution and obstacle setting named by a published or generator set.

    >>> set_factors("gen7_outer_spiral_block")
    {'start': 'outer', 'energy': 'spiral', 'obstacle': 'block'}
    """
    parts = set_name.split("_")
    if parts[0].startswith("gen"):
        parts = parts[1:]
    if len(parts) != 3:
        raise InstanceNotFoundError(f"{set_name!r} names no grid set (<start>_<energy>_<obstacle>)")
    return {"start": parts[0], "energy": parts[1], "obstacle": parts[2]}


def parse_id(text: str) -> IdParts:
    """Split an environment id, grid id or set name.

    >>> parse_id("inner_leftRight_free.jsonl-0-1-0-1")
    IdParts(set_name='inner_leftRight_free', index=0, setting=Setting(directions=8, carry_limit=None, step_cost=0.3))
    >>> parse_id("outer_spiral_block-7").index
    7
    >>> parts = parse_id("grids/my-grids.jsonl-3-0-1-1")  # a user's grid file, named by its path
    >>> parts.set_name, parts.index
    ('grids/my-grids', 3)
    """
    bare = text.strip()
    match = _ID.match(bare) or _FILE_ID.match(bare)
    if not match:
        raise InstanceNotFoundError(
            f"{text!r} is not a GRASP id; expected e.g. 'inner_leftRight_free.jsonl-0-0-0-0' "
            "(set-index-mv-lim-cost), 'inner_leftRight_free-0' (all 8 settings) or a set name")
    digits = match["index"]
    index = None if digits is None else int(digits) if len(digits) <= 9 else \
        id_number(digits, f"the grid index in {clip(text)!r}")  # the message is written only for long numbers
    setting = None
    if match["mv"] is not None:
        setting = Setting.from_flags(int(match["mv"]), int(match["lim"]), int(match["cost"]))
    return IdParts(match["set"], index, setting)
