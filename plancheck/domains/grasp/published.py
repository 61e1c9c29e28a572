"""Loading the 2000 published GRASP grids (``grasp/grids/*.jsonl`` under the data folder), and grid
files of the same form written by users.

A user's grid file is named by its path (``grids/mine.jsonl``): its grids' ids start with that path
(``grids/mine.jsonl-3-0-1-1``), so they never collide with a published set's and resolve to the
file again."""

from __future__ import annotations

from functools import cache
from importlib.resources import files
from pathlib import Path

from plancheck.domains.grasp.grid import Grid, parse_grid_text
from plancheck.domains.grasp.instance import DISTRIBUTIONS, OBSTACLES, STARTS, GridInfo
from plancheck.errors import BadInputError, DataNotFoundError, InstanceNotFoundError, Location
from plancheck.files import data_lines

SET_NAMES: tuple[str, ...] = tuple(
    f"{start}_{energy}_{obstacle}" for start in STARTS for energy in DISTRIBUTIONS for obstacle in OBSTACLES)

PublishedGrid = tuple[GridInfo, Grid]


SHIPPED = Path(str(files("plancheck") / "data" / "grasp" / "grids"))  # the release's files, gzipped


def grids_folder(data: Path | None) -> Path:
    """The data folder's ``grasp/grids`` when it has one, else the copy shipped inside the package."""
    folder = None if data is None else Path(data) / "grasp" / "grids"
    return folder if folder is not None and folder.is_dir() else SHIPPED


def read_grid_record(record: dict, source: str, line: int, set_name: str | None = None) -> PublishedGrid:
    """One line of a grid file, checked for consistency; ``set_name`` defaults to the file's name."""
    where = Location(source, line)
    if not isinstance(record, dict):
        raise BadInputError(f"a grid record is a JSON object, not {type(record).__name__}", where)
    try:
        if not isinstance(record["grid"], str):
            raise BadInputError("'grid' must be the grid's text")
        grid = parse_grid_text(record["grid"], source)
        start, index = record["start"], record["index"]
        if not (isinstance(start, list) and len(start) == 2 and all(type(v) is int for v in start)):
            raise BadInputError(f"'start' must be [row, column], not {start!r}")
        if type(index) is not int:
            raise BadInputError(f"'index' must be an integer, not {index!r}")
        probability = record.get("energy_probability", -1)
        if type(probability) not in (int, float):
            raise BadInputError(f"'energy_probability' must be a number, not {probability!r}")
        name = set_name or Path(source).name.removesuffix(".gz").removesuffix(".jsonl")
        info = GridInfo(name, index, str(record["energy"]), str(record["obstacle"]), str(record["start_position"]),
                        probability, published=True)
        start = tuple(start)
    except KeyError as missing:
        raise BadInputError(f"grid record lacks the key {missing}", where) from None
    except BadInputError as error:
        raise BadInputError(error.message, where) from None
    if start != grid.start:
        raise BadInputError(f"'start' {list(start)} disagrees with the 'A' in the grid at {list(grid.start)}", where)
    return info, grid


def read_grid_file(path: Path, set_name: str | None = None) -> tuple[PublishedGrid, ...]:
    grids = []
    for number, record in data_lines(path):
        grids.append(read_grid_record(record, str(path), number, set_name))
    return tuple(grids)


def is_user_set(set_name: str) -> bool:
    """Whether a set name is a user's grid file, named by its path."""
    return "/" in set_name or "\\" in set_name


def user_set_name(path: Path) -> str:
    """The set name of a user's grid file: its path without ``.jsonl`` (``./`` added to a bare name)."""
    name = str(path)[:-len(".jsonl")]
    return name if is_user_set(name) else "./" + name


def user_grid(set_name: str, index: int) -> PublishedGrid:
    """Grid ``index`` of the user's grid file named by ``set_name`` (its path without ``.jsonl``)."""
    path = Path(set_name + ".jsonl")
    if not path.is_file():
        raise DataNotFoundError(f"grid file {path} does not exist")
    grids = _user_grids(set_name, path.resolve(), path.stat().st_mtime_ns)  # the key: this file, this version
    if index not in grids:
        raise InstanceNotFoundError(f"{path} has no grid with index {index} (indices: {sorted(grids)})")
    return grids[index]


@cache
def _user_grids(set_name: str, _file: Path, _version: int) -> dict[int, PublishedGrid]:
    """A user's grid file by index, read once per version of the file (a batch resolves it per record)."""
    return {info.index: (info, grid) for info, grid in read_grid_file(Path(set_name + ".jsonl"), set_name)}


@cache
def _published_set(folder: Path, set_name: str) -> tuple[PublishedGrid, ...]:
    path = folder / f"{set_name}.jsonl"
    if not path.is_file():
        path = path.with_name(path.name + ".gz")
    if not path.is_file():
        raise DataNotFoundError(f"published grid file {path.with_suffix('')} is missing")
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
