"""Which GRASP environments a selector names: ids, published sets, a user's grid file, generator specs.

Selectors: an environment id (``inner_leftRight_free-3-0-1-0``), a grid (``inner_leftRight_free-3``:
its 8 settings), a published set (``inner_leftRight_free``), ``all``, a grid file path, or a
generator spec ``gen<seed>_<start>_<energy>_<obstacle>[-index[-mv-lim-cost]]``. ``--indices`` and
``--setting`` filter.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache
from pathlib import Path

from plancheck.domains.grasp.generate import generate_grid, parse_spec
from plancheck.domains.grasp.grid import Grid
from plancheck.domains.grasp.instance import SETTINGS, Environment, GridInfo, Setting, parse_id
from plancheck.domains.grasp.published import (
    SET_NAMES,
    is_user_set,
    published_grid,
    published_set,
    read_grid_file,
    user_grid,
    user_set_name,
)
from plancheck.errors import BadInputError, DataNotFoundError, InstanceNotFoundError


def parse_indices(text: str | None) -> set[int] | None:
    """'0-9' or '0,3,5-7' as a set of ints (None = all).

    >>> sorted(parse_indices("0-2,5"))
    [0, 1, 2, 5]
    """
    if not text:
        return None
    chosen: set[int] = set()
    try:
        for part in text.split(","):
            low, _, high = part.strip().partition("-")
            first, last = int(low), int(high or low)
            if first > last:
                raise ValueError
            chosen.update(range(first, last + 1))
    except ValueError:
        raise BadInputError(f"{text!r}: expected numbers and ranges like 0-9 or 0,3,5", option="indices") from None
    return chosen


def setting_filter(text: str | None) -> Setting | None:
    """``mv-lim-cost`` flags (``1-0-1``) as a setting (None = all)."""
    if not text:
        return None
    try:
        mv, lim, cost = (int(flag) for flag in text.split("-"))
        if {mv, lim, cost} - {0, 1}:
            raise ValueError
    except ValueError:
        raise BadInputError(f"{text!r}: expected three 0/1 flags mv-lim-cost, e.g. 1-0-1", option="setting") from None
    return Setting.from_flags(mv, lim, cost)


def grids(selector: str, data: Path | None, indices: set[int] | None, count: int
          ) -> Iterator[tuple[GridInfo, Grid, Setting | None]]:
    """The grids a selector names, each with the one setting the selector fixes (None: all 8)."""
    path = Path(selector)
    if selector.endswith(".jsonl") and path.is_file():
        for info, grid in read_grid_file(path, user_set_name(path)):
            if indices is None or info.index in indices:
                yield info, grid, None
        return
    if selector in ("all", "published"):
        for set_name in SET_NAMES:
            yield from grids(set_name, data, indices, count)
        return
    if is_user_set(selector) and not selector.endswith(".jsonl") and ".jsonl-" not in selector:
        raise DataNotFoundError(f"grid file {selector} does not exist")
    parts = parse_id(selector)
    spec = parse_spec(parts.set_name)
    wanted = [parts.index] if parts.index is not None else None
    if is_user_set(parts.set_name):
        if wanted is None:
            raise DataNotFoundError(f"grid file {selector} does not exist")
        yield (*user_grid(parts.set_name, wanted[0]), parts.setting)
    elif spec is not None:
        numbers = wanted if wanted is not None else range(count)
        for index in numbers:
            if indices is None or index in indices:
                yield (*generate_grid(*spec, index=index), parts.setting)
    elif wanted is not None:
        info, grid = published_grid(data, parts.set_name, wanted[0])
        yield info, grid, parts.setting
    else:
        for info, grid in published_set(data, parts.set_name):
            if indices is None or info.index in indices:
                yield info, grid, None


def select(selectors: Sequence[str], data: Path | None, *, indices: str | None = None, setting: str | None = None,
           count: int = 100) -> Iterator[Environment]:
    """The environments the selectors name, filtered by ``--indices`` and ``--setting``."""
    chosen_indices = parse_indices(indices)
    only = setting_filter(setting)
    for selector in selectors:
        for info, grid, fixed in grids(selector, data, chosen_indices, count):
            for candidate in (fixed,) if fixed is not None else SETTINGS:
                if only is None or candidate == only:
                    yield Environment(grid, candidate, info)


def grid_index(instance: str) -> int | None:
    """The grid index an environment id names (None when the text is not such an id)."""
    try:
        return parse_id(instance).index
    except InstanceNotFoundError:
        return None


@lru_cache(maxsize=65536)
def environment(instance: str, data: Path | None) -> Environment:
    """The environment of a full id (``set-index-mv-lim-cost``)."""
    parts = parse_id(instance)
    if parts.index is None or parts.setting is None:
        raise InstanceNotFoundError(f"{instance!r} is not a full environment id (set-index-mv-lim-cost)")
    if is_user_set(parts.set_name):
        info, grid = user_grid(parts.set_name, parts.index)
    else:
        info, grid = _grid(parts.set_name, parts.index, data)
    return Environment(grid, parts.setting, info)


@lru_cache(maxsize=8192)  # the 8 settings of a grid share it
def _grid(set_name: str, index: int, data: Path | None) -> tuple[GridInfo, Grid]:
    """A generated or published grid (a user's grid file is looked up by its version, not cached here)."""
    spec = parse_spec(set_name)
    return generate_grid(*spec, index=index) if spec is not None else published_grid(data, set_name, index)
