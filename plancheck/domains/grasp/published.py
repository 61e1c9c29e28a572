"""Loading the 2000 published GRASP grids (``grasp/grids/*.jsonl`` under the data folder)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from plancheck.domains.grasp.grid import Grid, parse_grid_text
from plancheck.domains.grasp.instance import DISTRIBUTIONS, OBSTACLES, STARTS, GridInfo
from plancheck.errors import BadInputError, DataNotFoundError, InstanceNotFoundError, Location

SET_NAMES: tuple[str, ...] = tuple(
    f"{start}_{energy}_{obstacle}" for start in STARTS for energy in DISTRIBUTIONS for obstacle in OBSTACLES)

PublishedGrid = tuple[GridInfo, Grid]


def grids_folder(data: Path | None) -> Path:
    if data is None:
        raise DataNotFoundError("the published GRASP grids are needed; pass --data DIR (the shared/data folder)")
    folder = Path(data) / "grasp" / "grids"
    if not folder.is_dir():
        raise DataNotFoundError(f"no published GRASP grids at {folder}")
    return folder


def read_grid_record(record: dict, source: str, line: int) -> PublishedGrid:
    """One line of a published grid file, checked for consistency."""
    where = Location(source, line)
    try:
        grid = parse_grid_text(record["grid"], source)
        start = tuple(record["start"])
        info = GridInfo(Path(source).name.removesuffix(".jsonl"), int(record["index"]), str(record["energy"]),
                        str(record["obstacle"]), str(record["start_position"]),
                        record.get("energy_probability", -1), published=True)
    except KeyError as missing:
        raise BadInputError(f"grid record lacks the key {missing}", where) from None
    except BadInputError as error:
        raise BadInputError(error.message, where) from None
    if start != grid.start:
        raise BadInputError(f"'start' {list(start)} disagrees with the 'A' in the grid at {list(grid.start)}", where)
    return info, grid


def read_grid_file(path: Path) -> tuple[PublishedGrid, ...]:
    grids = []
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as error:
                raise BadInputError(f"not JSON: {error.msg}", Location(str(path), number, error.colno)) from None
            grids.append(read_grid_record(record, str(path), number))
    return tuple(grids)


@cache
def _published_set(folder: Path, set_name: str) -> tuple[PublishedGrid, ...]:
    path = folder / f"{set_name}.jsonl"
    if not path.is_file():
        raise DataNotFoundError(f"published grid file {path} is missing")
    return read_grid_file(path)


@cache
def _by_index(folder: Path, set_name: str) -> dict[int, PublishedGrid]:
    return {info.index: (info, grid) for info, grid in _published_set(folder, set_name)}


@cache
def _resolved_folder(data: Path | None) -> Path:
    """The grids folder, checked and resolved once per process (batches look grids up thousands of times)."""
    return grids_folder(data).resolve()


def _known(set_name: str) -> str:
    if set_name not in SET_NAMES:
        raise InstanceNotFoundError(f"{set_name!r} is not a published GRASP grid set; known: {', '.join(SET_NAMES)}")
    return set_name


def published_set(data: Path | None, set_name: str) -> tuple[PublishedGrid, ...]:
    """The 100 grids of one published file, in index order."""
    return _published_set(_resolved_folder(data), _known(set_name))


def published_grid(data: Path | None, set_name: str, index: int) -> PublishedGrid:
    grids = _by_index(_resolved_folder(data), _known(set_name))
    if index not in grids:
        raise InstanceNotFoundError(f"{set_name} has no grid with index {index} (indices 0-{len(grids) - 1})")
    return grids[index]
