"""Writing outputs safely: never over an input, whole or not at all, one run at a time.

A JSONL output ``OUT`` is written to ``OUT.partial`` beside it and renamed into place when the run ends
well. The partial file is locked (``flock``) while a run writes it, so a second run on the same output
is refused; the lock dies with its process, even under ``kill -9``. A run that is killed leaves the partial
file and its manifest (``OUT.manifest.json``: the command's settings and the sha256 of every input) behind
for ``--resume`` (:mod:`plancheck.cli.resume`). An output that is not a regular file (``/dev/null``, a pipe)
is written directly.

SIGTERM is turned into :class:`Terminated`, so that ``finally`` blocks and ``with`` blocks (temporary folders,
planner processes) run on it as they do on Ctrl-C.
"""

from __future__ import annotations

import fcntl
import io
import os
import select
import signal
import stat
import sys
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from plancheck.errors import BadInputError


class Terminated(BaseException):
    """The process received SIGTERM (a BaseException, like KeyboardInterrupt: no ``except Exception`` eats it)."""


def _raise_terminated(signum: int, frame: object) -> None:
    raise Terminated()


@contextmanager
def sigterm_raises() -> Iterator[None]:
    """While open, SIGTERM raises :class:`Terminated` in the main thread (elsewhere: nothing changes)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.signal(signal.SIGTERM, _raise_terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


def stdin_blocks(size: int = 1 << 20) -> Iterator[bytes]:
    """Standard input (not read before) in blocks of at most ``size`` bytes, waiting in short slices.

    A SIGTERM that lands between Python's last check for signals and a blocking ``read`` would leave the
    process asleep in that read (the handler runs only when Python code runs again): a run reading a pipe
    that stays open would never end. Waiting with ``select`` for at most 0.2 s at a time bounds that delay.
    """
    try:
        fd = sys.stdin.fileno()
    except (AttributeError, io.UnsupportedOperation):  # an in-memory stream (tests, embedding): nothing blocks
        while block := sys.stdin.buffer.read1(size):
            yield block
        return
    while True:
        try:
            while not select.select([fd], [], [], 0.2)[0]:
                pass
        except OSError:  # not a descriptor select can wait on: a plain read
            pass
        block = os.read(fd, size)
        if not block:
            return
        yield block


def input_paths(names: Iterable[str | Path]) -> list[Path]:
    """The names that are existing paths (selectors may be ids, or grid files named by their path)."""
    return [Path(name) for name in names if str(name) != "-" and Path(name).exists()]


def refuse_overlap(output: Path, inputs: Sequence[Path], flag: str = "-o") -> None:
    """Bad input when ``output`` is one of ``inputs``, or lies inside an input folder (it would be read back)."""
    target = output.resolve()
    for given in inputs:
        source = given.resolve()
        if target == source:
            raise BadInputError(f"{flag} {output} is also an input; write the output to another file")
        if source.is_dir() and source in target.parents:
            raise BadInputError(f"{flag} {output} lies inside the input folder {given}, where it would be read as "
                                "input; write the output elsewhere")


def _regular(path: Path) -> bool:
    """Whether ``path`` is (or would be created as) a regular file."""
    try:
        return stat.S_ISREG(path.stat().st_mode)
    except FileNotFoundError:
        return True


class OutputFile:
    """One run's JSONL output: ``open()`` locks and opens the partial file, ``commit()`` renames it into place.

    ``keep`` bytes of an earlier partial file are kept (``--resume``); anything after them is cut off.
    """

    def __init__(self, path: Path):
        self.path = path
        self.direct = not _regular(path)
        self.partial = path if self.direct else path.with_name(path.name + ".partial")
        self.manifest = path.with_name(path.name + ".manifest.json")
        self._fd: int | None = None
        self.stream: IO[str] | None = None

    def lock(self) -> None:
        """Take the partial file (created if missing, not truncated); bad input if another run holds it."""
        if self.direct or self._fd is not None:
            return
        while True:
            try:
                fd = os.open(self.partial, os.O_RDWR | os.O_CREAT, 0o644)
            except OSError as error:  # named as the user named it (a missing folder, no permission)
                raise OSError(error.errno, error.strerror, str(self.path)) from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                raise BadInputError(f"{self.path} is being written by another plancheck run (its partial file "
                                    f"{self.partial} is locked); wait for it or choose another output") from None
            try:
                same = os.fstat(fd).st_ino == os.stat(self.partial).st_ino
            except FileNotFoundError:
                same = False
            if same:  # else the other run renamed it into place between our open and our lock: take a new one
                self._fd = fd
                return
            os.close(fd)

    def existing(self) -> bytes:
        """What the locked partial file holds already."""
        if self.direct or self._fd is None:
            return b""
        with open(self.partial, "rb") as file:
            return file.read()

    def open(self, keep: int = 0) -> IO[str]:
        """The text stream to append to, after the first ``keep`` bytes of the partial file."""
        if self.direct:
            self.stream = open(self.path, "w", encoding="utf-8")
            return self.stream
        if self._fd is None:
            self.lock()
        assert self._fd is not None
        os.ftruncate(self._fd, keep)
        self.stream = open(self.partial, "a", encoding="utf-8")
        return self.stream

    def commit(self) -> None:
        """The run ended well: the partial file becomes the output, the manifest goes."""
        self.close()
        if not self.direct:
            os.replace(self.partial, self.path)
            self.manifest.unlink(missing_ok=True)
        self.release()

    def close(self) -> None:
        if self.stream is not None:
            self.stream.close()
            self.stream = None

    def release(self) -> None:
        """Let go of the lock (the partial file, if any, stays for --resume)."""
        self.close()
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> OutputFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


@contextmanager
def output_stream(path: Path | None, inputs: Sequence[Path] = (), flag: str = "-o") -> Iterator[IO[str]]:
    """Standard output, or ``path`` written safely (refused over an input, locked, renamed into place when the
    block ends without an exception; else the partial file stays and ``path`` is left as it was)."""
    if path is None:
        yield sys.stdout
        return
    refuse_overlap(path, inputs, flag)
    with OutputFile(path) as output:
        stream = output.open()
        yield stream
        output.commit()


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to a temporary file beside ``path`` and rename it into place (readers see all or nothing)."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)
