"""Writing output rows as JSON lines, CSV or Parquet (``evaluate -o FILE --format ...``).

JSON lines stream one row at a time. CSV and Parquet need every column before the first row, so
they keep the rows (flattened: :func:`plancheck.verifier.rows.flat`) until the end; columns come in
the order they are first seen. Parquet needs pyarrow (``pip install 'plancheck[parquet]'``); a column
holding values of several kinds (numbers in one row, text in another) is written as text.
"""

from __future__ import annotations

import csv
import importlib.util
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TextIO

from plancheck.errors import BadInputError, MissingExtraError
from plancheck.verifier.rows import flat

FORMATS = ("jsonl", "csv", "parquet")


def output_format(given: str | None, path: Path | None) -> str:
    """The format asked for, else the one the output file's suffix names, else JSON lines."""
    if given is not None:
        chosen = given
    elif path is not None and path.suffix.lower() in (".csv", ".parquet"):
        chosen = path.suffix.lower()[1:]
    else:
        chosen = "jsonl"
    if chosen == "parquet":
        if path is None:
            raise BadInputError("Parquet output needs a file: -o FILE.parquet")
        if importlib.util.find_spec("pyarrow") is None:
            raise MissingExtraError("Parquet output needs pyarrow, which is not installed: "
                                    "pip install 'plancheck[parquet]'")
    return chosen


class TableRows:
    """Rows kept for CSV or Parquet (flattened), written when the run ends: ``write_csv`` to a text stream,
    ``write_parquet`` to a file. (JSON lines need no keeping: ``evaluate`` writes each as it is scored.)"""

    def __init__(self, fmt: str):
        self.format = fmt
        self.rows: list[dict[str, Any]] = []

    def add(self, row: Mapping[str, Any]) -> None:
        self.rows.append(flat(row))

    def _columns(self) -> list[str]:
        """Every column in the order first seen, less one that is always empty where other rows have its parts
        (``verdict.failure`` beside ``verdict.failure.step``)."""
        names = list(dict.fromkeys(name for row in self.rows for name in row))
        parents = {name.rsplit(".", 1)[0] for name in names if "." in name}
        return [name for name in names
                if name not in parents or any(row.get(name) is not None for row in self.rows)]

    def write_csv(self, stream: TextIO) -> None:
        writer = csv.DictWriter(stream, fieldnames=self._columns(), lineterminator="\n", extrasaction="ignore")
        writer.writeheader()
        writer.writerows(self.rows)

    def write_parquet(self, path: Path) -> None:
        import pyarrow
        import pyarrow.parquet

        columns = {}
        for name in self._columns():
            values = [row.get(name) for row in self.rows]
            kinds = {type(v) for v in values if v is not None}
            if kinds == {int, float}:
                values = [None if v is None else float(v) for v in values]
            elif len(kinds) > 1:
                values = [None if v is None else str(v) for v in values]
            columns[name] = values
        pyarrow.parquet.write_table(pyarrow.table(columns), str(path))
