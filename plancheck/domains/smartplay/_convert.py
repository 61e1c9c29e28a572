"""SmartPlay's own run logs as episode logs.

SmartPlay's harness (``examples/experiment.py``) writes one table per episode (a wandb Table)
with the columns ``Context`` (the manual), ``Step``, ``OBS``, ``History``, ``Score``, ``Reward``,
``Total Reward``, the two questions (the column names are the questions' texts) and ``Action``.
Row k is written *before* step k+1: it holds the observation, history and score the model saw,
the reward of the previous step, the two answers and the action taken. The outcome of the last
step is never written, so a converted episode logs no observation, reward or score for it.

Accepted files: a wandb Table as JSON (``{"columns": [...], "data": [[...], ...]}``; several
tables: a JSON list of them, or one per line), a JSON list or JSON lines of row objects keyed by
the column names, or a CSV export with those columns. Rows whose ``Step`` restarts at 0 start a
new episode.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from plancheck.domains.smartplay import _frame
from plancheck.episodes.log import Episode, Header, Step
from plancheck.errors import BadInputError, Location
from plancheck.files import data_text
from plancheck.limits import load_json

COLUMNS = ("Context", "Step", "OBS", "History", "Score", "Reward", "Total Reward", *_frame.QUESTIONS, "Action")
_NEEDED = ("Context", "Step", "OBS", "History", "Score", "Reward", *_frame.QUESTIONS, "Action")


def rows(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line, row) of every table row in the file, in order."""
    text = data_text(path)
    if path.suffix.lower() == ".csv":
        for number, row in enumerate(csv.DictReader(io.StringIO(text)), start=2):
            yield number, {key: _csv_value(key, value) for key, value in row.items()}
        return
    try:
        documents = [(1, load_json(text, source=str(path)))]
    except json.JSONDecodeError:
        documents = []
        for number, line in enumerate(text.split("\n"), start=1):
            if line.strip():
                try:
                    documents.append((number, load_json(line, source=str(path), line=number)))
                except json.JSONDecodeError as error:
                    raise BadInputError(f"not JSON: {error.msg}", Location(str(path), number, error.colno)) from None
    for number, document in documents:
        for item in document if isinstance(document, list) else [document]:
            if isinstance(item, dict) and "columns" in item and "data" in item:
                columns = item["columns"]
                for row in item["data"]:
                    if not isinstance(row, list) or len(row) != len(columns):
                        raise BadInputError(f"a table row has {len(row) if isinstance(row, list) else 'no'} "
                                            f"cells for {len(columns)} columns", Location(str(path), number))
                    yield number, dict(zip(columns, row))
            elif isinstance(item, dict):
                yield number, item
            else:
                raise BadInputError("expected a wandb table or a row object", Location(str(path), number))


def _csv_value(key: str, value: str | None) -> Any:
    if key in ("Step", "Score", "Reward", "Total Reward") and value not in (None, ""):
        try:
            number = float(value)
        except ValueError:
            return value
        return int(number) if number.is_integer() else number
    return value


def runs(path: Path) -> Iterator[list[tuple[int, dict[str, Any]]]]:
    """The episodes of a file: runs of rows whose ``Step`` counts 0, 1, 2, ..."""
    current: list[tuple[int, dict[str, Any]]] = []
    for number, row in rows(path):
        missing = [column for column in _NEEDED if column not in row]
        if missing:
            raise BadInputError(f"a SmartPlay row lacks the column(s) {', '.join(map(repr, missing))}",
                                Location(str(path), number))
        if row["Step"] == 0 and current:
            yield current
            current = []
        if row["Step"] != len(current):
            raise BadInputError(f"row of Step {row['Step']!r} where Step {len(current)} was expected",
                                Location(str(path), number))
        current.append((number, row))
    if current:
        yield current


def convert(path: Path, *, world: str, instance: str, settings: Mapping[str, Any], seed: int | None = None,
            model: str | None = None) -> Iterator[Episode]:
    """The episodes of a SmartPlay run log (see the module docstring)."""
    for run in runs(path):
        steps = []
        for k, (number, row) in enumerate(run, start=1):
            after = run[k][1] if k < len(run) else None
            first, second = _text(row, _frame.QUESTIONS[0], path, number), _text(row, _frame.QUESTIONS[1], path, number)
            prompt = None
            if first is not None and second is not None:
                prompt = tuple(_frame.messages(_text(row, "Context", path, number) or "",
                                               _text(row, "History", path, number) or "",
                                               _text(row, "OBS", path, number), _frame.QUESTIONS[1],
                                               [(_frame.QUESTIONS[0], first)]))
            steps.append(Step(k, second, _text(row, "Action", path, number), None, (),
                              None if after is None else _text(after, "OBS", path, number),
                              None if after is None else _number(after, "Reward", path, number),
                              None if after is None else _number(after, "Score", path, number),
                              None if after is None else False, (first,) if first is not None else (), prompt))
        header = Header(world, instance, seed, dict(settings), "external",
                        observation=_text(run[0][1], "OBS", path, run[0][0]), model=model or path.stem,
                        extra={"converted_from": f"{path}, line {run[0][0]}"})
        yield Episode(header, tuple(steps), str(path))


def _text(row: Mapping[str, Any], key: str, path: Path, line: int) -> str | None:
    value = row.get(key)
    if value is None or isinstance(value, str):
        return value
    raise BadInputError(f"column {key!r} holds {type(value).__name__}, not text", Location(str(path), line))


def _number(row: Mapping[str, Any], key: str, path: Path, line: int) -> float | None:
    value = row.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise BadInputError(f"column {key!r} holds {value!r}, not a number", Location(str(path), line))
    return int(value) if isinstance(value, float) and value.is_integer() else value

