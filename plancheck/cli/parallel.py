"""A command's work units run on this process, on ``--jobs N`` processes, or as Ray tasks (``--ray``), with
the results in input order whichever runs them.

Memory stays bounded whatever the number of units: units are drawn lazily, in chunks, and at most
``2 * N`` chunks (Ray: twice the cluster's CPUs) are in flight at once. ``work`` must be picklable: a
module-level function, or a ``functools.partial`` of one over plain data (each process builds its world
itself, once, through the registry). Pool processes ignore Ctrl-C (the main process stops them) and die
with the main process, even when it is killed with SIGKILL.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import signal
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from itertools import islice
from pathlib import Path
from typing import Any, TypeVar

from plancheck.errors import BadInputError, MissingExtraError
from plancheck.registry import get_world
from plancheck.world import World

T = TypeVar("T")
R = TypeVar("R")

CHUNK = 64  # units per task on a local pool
RAY_CHUNK = 1024  # units per Ray task (one shard)


def world_of(world: World | str) -> World:
    """The world itself (work run in this process), or by name (in another process, which builds it)."""
    return get_world(world) if isinstance(world, str) else world


def portable(world: World, jobs: int, ray: str | None) -> World | str:
    """What work functions get to name the world: the world here, its name for other processes."""
    return world if jobs <= 1 and ray is None else world.name


def chunks(units: Iterable[T], size: int) -> Iterator[list[T]]:
    iterator = iter(units)
    while chunk := list(islice(iterator, size)):
        yield chunk


def run_chunk(work: Callable[[T], R], chunk: list[T]) -> list[R]:
    return [work(unit) for unit in chunk]


def ordered_map(work: Callable[[T], R], units: Iterable[T], jobs: int = 1, ray: str | None = None,
                chunk: int | None = None) -> Iterator[R]:
    """``work(unit)`` for every unit, in the units' order: here (``jobs`` 1), on a pool of ``jobs`` processes,
    or on Ray (``ray``: a cluster address, or ``"local"`` for a Ray instance started on this machine)."""
    if ray is not None:
        return _ray_map(work, units, ray, chunk or RAY_CHUNK)
    if jobs <= 1:
        return map(work, units)
    return _pool_map(work, units, jobs, chunk or CHUNK)


def _worker_start() -> None:
    """A pool process: Ctrl-C is the main process's business; SIGTERM ends it; it dies with its parent."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):  # pragma: no cover - a libc without prctl
            pass


def _pool_map(work: Callable[[T], R], units: Iterable[T], jobs: int, size: int) -> Iterator[R]:
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    pool = multiprocessing.get_context(method).Pool(jobs, initializer=_worker_start)
    try:
        pending: deque[Any] = deque()
        for chunk in chunks(units, size):
            pending.append(pool.apply_async(run_chunk, (work, chunk)))
            if len(pending) >= 2 * jobs:
                yield from pending.popleft().get()
        while pending:
            yield from pending.popleft().get()
        pool.close()
    finally:
        pool.terminate()
        pool.join()


def ray_start(address: str) -> Any:
    """The ``ray`` module, connected to ``address`` (``local``: a Ray instance of this machine, started if
    none runs); the workers import this checkout's plancheck."""
    try:
        import ray
    except ImportError:
        raise MissingExtraError("--ray needs Ray, which is not installed: pip install 'plancheck[distributed]'") \
            from None
    if not ray.is_initialized():
        package = Path(__file__).resolve().parents[1]
        try:
            ray.init(address=None if address == "local" else address, include_dashboard=False,
                     log_to_driver=False, configure_logging=False,
                     runtime_env={"py_modules": [str(package)]})
        except ConnectionError as error:
            raise BadInputError(f"--ray {address}: no Ray cluster there ({error})") from None
    return ray


def _ray_map(work: Callable[[T], R], units: Iterable[T], address: str, size: int) -> Iterator[R]:
    ray = ray_start(address)
    remote = ray.remote(run_chunk)
    window = 2 * max(1, int(ray.cluster_resources().get("CPU", 1)))
    work_ref = ray.put(work)
    pending: deque[Any] = deque()
    try:
        for chunk in chunks(units, size):
            pending.append(remote.remote(work_ref, chunk))
            if len(pending) >= window:
                yield from ray.get(pending.popleft())
        while pending:
            yield from ray.get(pending.popleft())
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)
