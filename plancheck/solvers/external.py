"""Adapters to external classical planners, run as subprocesses on PDDL text with a time limit.

Fast Downward and SymK come as wheels (``up-fast-downward``, ``up-symk``); their drivers are called
directly, which is 10-40x faster than going through unified-planning. pyperplan is pure Python and
ignores action costs, so it is only offered for unit-cost tasks. A planner that is missing, fails
or times out gives a named :class:`~plancheck.solvers.result.Status`, never an exception or a hang.
A planner's "optimal" is a claim: callers validate every plan with the verifier.
"""

from __future__ import annotations

import importlib.util
import math
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from plancheck.solvers.result import Status

# Fast Downward's exit codes (driver/returncodes.py)
_FD_STATUS = {0: Status.SOLVED, 10: Status.UNSOLVABLE, 11: Status.UNSOLVABLE, 12: Status.FAILED,
              22: Status.FAILED, 23: Status.TIMEOUT, 24: Status.FAILED, 31: Status.FAILED,
              32: Status.FAILED, 33: Status.FAILED, 34: Status.UNSUPPORTED, 35: Status.FAILED,
              36: Status.FAILED, 37: Status.FAILED}
_COST = re.compile(r";\s*cost\s*=\s*(\d+)")


@dataclass(frozen=True, slots=True)
class PlannerRun:
    """What an external planner did: its status, plan (one ``(action args)`` string per step), cost."""

    planner: str
    status: Status
    plan: tuple[str, ...] | None
    cost: int | None
    seconds: float
    optimal: bool
    message: str = ""


def _driver(package: str, *parts: str) -> Path | None:
    spec = importlib.util.find_spec(package)
    if spec is None or spec.origin is None:
        return None
    path = Path(spec.origin).parent.joinpath(*parts)
    return path if path.is_file() else None


def fast_downward_driver() -> Path | None:
    return _driver("up_fast_downward", "downward", "fast-downward.py")


def symk_driver() -> Path | None:
    return _driver("up_symk", "symk", "fast-downward.py")


def read_plan_text(text: str) -> tuple[tuple[str, ...], int | None]:
    """Steps and the ``; cost = N`` line of a Fast Downward style plan file."""
    steps, cost = [], None
    for line in text.splitlines():
        line = line.strip()
        if line.startswith(";"):
            if match := _COST.match(line):
                cost = int(match.group(1))
        elif line:
            steps.append(line.lower())
    return tuple(steps), cost


def _run(planner: str, command: list[str], workdir: Path, timeout: float, optimal: bool,
         status_of: dict[int, Status]) -> PlannerRun:
    start = time.perf_counter()
    # The drivers start the search binary as a child of their own: run them in a session of
    # their own, so that a timeout ends the whole group and leaves no search running.
    process = subprocess.Popen(command, cwd=workdir, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "PYTHONHASHSEED": "0"}, start_new_session=True)
    try:
        stdout, stderr = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        _end_group(process)
        return PlannerRun(planner, Status.TIMEOUT, None, None, time.perf_counter() - start, False,
                          f"no answer within {timeout:g} s")
    finally:
        if process.poll() is None:  # interrupted (e.g. KeyboardInterrupt): never leave a search behind
            _end_group(process)
    seconds = time.perf_counter() - start
    status = status_of.get(process.returncode, Status.FAILED)
    if status is not Status.SOLVED:
        tail = (stdout + stderr).strip().splitlines()[-3:]
        return PlannerRun(planner, status, None, None, seconds, False,
                          f"exit code {process.returncode}: " + " | ".join(tail))
    plan_file = workdir / "plan.txt"
    if not plan_file.is_file():
        return PlannerRun(planner, Status.FAILED, None, None, seconds, False, "reported success but wrote no plan")
    steps, cost = read_plan_text(plan_file.read_text())
    return PlannerRun(planner, Status.SOLVED, steps, cost if cost is not None else len(steps), seconds, optimal)


def _end_group(process: subprocess.Popen) -> None:
    """Kill the planner's process group (the driver and the search it started) and reap the driver."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.communicate()


def _write_task(workdir: Path, domain: str, problem: str) -> None:
    (workdir / "domain.pddl").write_text(domain)
    (workdir / "problem.pddl").write_text(problem)


def _limits(timeout: float, memory_limit: str | None) -> list[str]:
    """Driver options that make the planner stop by itself too (if this process is killed first)."""
    limits = ["--overall-time-limit", str(math.ceil(timeout) + 5)]
    return limits + (["--overall-memory-limit", memory_limit] if memory_limit else [])


def run_fast_downward(domain: str, problem: str, *, search: str = "astar(blind())",
                      timeout: float = 300.0, memory_limit: str | None = None) -> PlannerRun:
    """Solve with Fast Downward. ``astar`` with an admissible heuristic (blind, lmcut) is optimal.

    ``memory_limit`` (e.g. ``"4G"``) caps the planner's memory; running out is a failure.
    """
    driver = fast_downward_driver()
    if driver is None:
        return PlannerRun("fast-downward", Status.NOT_INSTALLED, None, None, 0.0, False,
                          "install the planners extra: pip install 'plancheck[planners]'")
    with tempfile.TemporaryDirectory(prefix="plancheck-fd-") as tmp:
        workdir = Path(tmp)
        _write_task(workdir, domain, problem)
        command = [sys.executable, str(driver), *_limits(timeout, memory_limit), "--plan-file", "plan.txt",
                   "domain.pddl", "problem.pddl", "--search", search]
        optimal = search.startswith("astar(") and any(h in search for h in ("blind", "lmcut", "ipdb", "hmax"))
        return _run("fast-downward", command, workdir, timeout, optimal, _FD_STATUS)


def run_symk(domain: str, problem: str, *, timeout: float = 300.0, memory_limit: str | None = None) -> PlannerRun:
    """Solve with SymK's optimal bidirectional symbolic search (supports conditional effects)."""
    driver = symk_driver()
    if driver is None:
        return PlannerRun("symk", Status.NOT_INSTALLED, None, None, 0.0, False,
                          "install the symk extra: pip install 'plancheck[symk]'")
    with tempfile.TemporaryDirectory(prefix="plancheck-symk-") as tmp:
        workdir = Path(tmp)
        _write_task(workdir, domain, problem)
        command = [sys.executable, str(driver), *_limits(timeout, memory_limit), "--plan-file", "plan.txt",
                   "domain.pddl", "problem.pddl", "--search", "sym_bd()"]
        return _run("symk", command, workdir, timeout, True, _FD_STATUS)


def run_pyperplan(domain: str, problem: str, *, timeout: float = 300.0) -> PlannerRun:
    """Solve with pyperplan (breadth-first search: optimal in the number of actions; costs are ignored)."""
    if importlib.util.find_spec("pyperplan") is None:
        return PlannerRun("pyperplan", Status.NOT_INSTALLED, None, None, 0.0, False,
                          "install the planners extra: pip install 'plancheck[planners]'")
    with tempfile.TemporaryDirectory(prefix="plancheck-pyperplan-") as tmp:
        workdir = Path(tmp)
        _write_task(workdir, domain, problem)
        script = ("import sys, pyperplan.planner as p\n"
                  "plan = p.search_plan('domain.pddl', 'problem.pddl', p.SEARCHES['bfs'], None)\n"
                  "if plan is None: sys.exit(10)\n"
                  "open('plan.txt', 'w').write(''.join(op.name + '\\n' for op in plan))\n")
        command = [sys.executable, "-c", script]
        return _run("pyperplan", command, workdir, timeout, True, {0: Status.SOLVED, 10: Status.UNSOLVABLE})
