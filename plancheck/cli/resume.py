"""``--resume``: continue a killed run where its output stops, over the same inputs and settings only.

A run writes one JSON line per unit (record, episode, instance), in input order, to ``OUT.partial``; before
the first line it writes ``OUT.manifest.json``: the command's settings and each input's size and sha256.
Whatever killed the run (even ``kill -9`` in the middle of a line), the partial file is a prefix of the
output it was writing. Resuming keeps its complete lines, cuts off a torn last line, skips as many units
as there are lines, and appends the rest: every unit appears exactly once. It refuses to resume over
changed inputs or other settings (the output would mix two runs).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from plancheck.cli.outputs import OutputFile, write_atomically
from plancheck.errors import BadInputError
from plancheck.version import __version__

_CHUNK = 1 << 20


def digest(path: Path) -> dict[str, Any]:
    """An input's size and sha256."""
    sha = hashlib.sha256()
    size = 0
    with open(path, "rb") as file:
        while block := file.read(_CHUNK):
            sha.update(block)
            size += len(block)
    return {"bytes": size, "sha256": sha.hexdigest()}


def manifest(settings: dict[str, Any], inputs: Sequence[tuple[str, Path]]) -> dict[str, Any]:
    """What a run is: plancheck's version, the settings that shape its output, each input (name, digest)."""
    return {"plancheck": __version__, "settings": settings,
            "inputs": [{"name": name, **digest(path)} for name, path in inputs]}


@dataclass(frozen=True)
class Resumed:
    """Where a run starts: ``keep`` bytes of the partial file stay, holding ``lines`` complete lines."""

    keep: int = 0
    lines: int = 0
    partial: Path | None = None

    def prior(self) -> Iterator[dict[str, Any]]:
        """The kept lines, decoded, in order (read lazily: a long run's output is not held in memory)."""
        if self.partial is None or not self.lines:
            return
        with open(self.partial, "rb") as file:
            for _ in range(self.lines):
                yield json.loads(file.readline())


def start(output: OutputFile, run: dict[str, Any], resume: bool) -> Resumed:
    """Lock ``output`` and say where the run starts: from the beginning (the manifest written), or, with
    ``resume``, after the complete lines of an earlier partial output of the same run."""
    output.lock()
    if output.direct:
        if resume:
            raise BadInputError(f"--resume needs a regular output file; {output.path} is not one")
        return Resumed()
    held = output.partial.stat().st_size
    if resume and held:
        _same_run(output, run)
        keep = _complete(output.partial, held)
        return Resumed(keep, _count_lines(output.partial, keep), output.partial)
    write_atomically(output.manifest, json.dumps(run, indent=1) + "\n")
    return Resumed()


def _count_lines(path: Path, keep: int) -> int:
    count, left = 0, keep
    with open(path, "rb") as file:
        while left > 0 and (block := file.read(min(_CHUNK, left))):
            count += block.count(b"\n")
            left -= len(block)
    return count


def _complete(path: Path, size: int) -> int:
    """The bytes of ``path`` up to and including its last newline."""
    with open(path, "rb") as file:
        at = size
        while at > 0:
            start = max(0, at - _CHUNK)
            file.seek(start)
            block = file.read(at - start)
            if (cut := block.rfind(b"\n")) >= 0:
                return start + cut + 1
            at = start
    return 0


def _same_run(output: OutputFile, run: dict[str, Any]) -> None:
    """Bad input unless the manifest beside the partial output describes ``run``."""
    try:
        before = json.loads(output.manifest.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise BadInputError(f"cannot resume: {output.partial} has no manifest {output.manifest.name}; rerun "
                            "without --resume to start again") from None
    except (OSError, ValueError) as error:
        raise BadInputError(f"cannot resume: the manifest {output.manifest} cannot be read ({error})") from None
    if before.get("settings") != run["settings"] or before.get("plancheck") != run["plancheck"]:
        changed = sorted(key for key in set(before.get("settings", {})) | set(run["settings"])
                         if before.get("settings", {}).get(key) != run["settings"].get(key))
        what = f"other settings ({', '.join(changed)})" if changed else "another plancheck version"
        raise BadInputError(f"cannot resume {output.path}: the run began with {what}; rerun without --resume to "
                            "start again")
    old = {item["name"]: item for item in before.get("inputs", [])}
    new = {item["name"]: item for item in run["inputs"]}
    for name in list(old) + [n for n in new if n not in old]:
        if name not in new:
            raise BadInputError(f"cannot resume {output.path}: input {name} is gone since the run began")
        if name not in old:
            raise BadInputError(f"cannot resume {output.path}: input {name} was not there when the run began")
        if old[name] != new[name]:
            raise BadInputError(f"cannot resume {output.path}: input {name} changed since the run began "
                                f"(sha256 {old[name].get('sha256', '?')[:12]}... then, {new[name]['sha256'][:12]}... "
                                "now); rerun without --resume to start again")
