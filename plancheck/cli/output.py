"""Writing output rows as JSON lines, CSV or Parquet (``evaluate -o FILE --format ...``).

JSON lines stream one row at a time. CSV and Parquet need every column before the first row, so
they keep the rows (flattened: :func:`plancheck.verifier.rows.flat`) until the end; columns come in
the order they are first seen. Parquet needs pyarrow (``pip install 'plancheck[parquet]'``); a column
holding values of several kinds (numbers in one row, text in another) is written as text.
"""

from __future__ import annotations

import csv
import importlib.util
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TextIO

from plancheck.cli.common import emit
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


class RowWriter:
    """Writes rows to ``path`` (standard output when None) in ``fmt``; use as a context manager."""

    def __init__(self, path: Path | None, fmt: str):
        self.path, self.format = path, fmt
        self.rows: list[dict[str, Any]] = []
        self.stream: TextIO | None = None
        if fmt == "jsonl":
            self.stream = open(path, "w", encoding="utf-8") if path is not None else sys.stdout

    def __enter__(self) -> RowWriter:
        return self

    def write(self, row: Mapping[str, Any]) -> None:
        if self.stream is not None:
            emit(row, self.stream)
        else:
            self.rows.append(flat(row))

    def __exit__(self, *exc: object) -> None:
        if self.format == "jsonl":
            if self.path is not None and self.stream is not None:
                self.stream.close()
            return
        if exc[0] is not None:
            return
        if self.format == "csv":
            self._csv()
        else:
            self._parquet()

    def _columns(self) -> list[str]:
        """Every column in the order first seen, less one that is always empty where other rows have its parts
        (``verdict.failure`` beside ``verdict.failure.step``)."""
        names = list(dict.fromkeys(name for row in self.rows for name in row))
        parents = {name.rsplit(".", 1)[0] for name in names if "." in name}
        return [name for name in names
                if name not in parents or any(row.get(name) is not None for row in self.rows)]

    def _csv(self) -> None:
        stream = open(self.path, "w", encoding="utf-8", newline="") if self.path is not None else sys.stdout
        try:
            writer = csv.DictWriter(stream, fieldnames=self._columns(), lineterminator="\n", extrasaction="ignore")
            writer.writeheader()
            writer.writerows(self.rows)
        finally:
            if self.path is not None:
                stream.close()

    def _parquet(self) -> None:
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
        pyarrow.parquet.write_table(pyarrow.table(columns), str(self.path))
