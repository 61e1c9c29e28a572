"""Certified optima for freshly generated GRASP environments in bulk, with ``plancheck solve --jobs``, against
the target of issue 22: 100,000 environments in under 10 minutes on this machine's two cores.

The environments are every combination of start region, energy distribution and obstacles (20 generator sets
``gen<seed>_<start>_<energy>_<obstacle>``) times the 8 settings, as many grids per set as make
``--environments`` (rounded up to a multiple of 160). Each run is
``python -m plancheck solve grasp SETS --count K --jobs N -o FILE`` (the native exact solver; every optimum
is replayed on the full rules before it is written); the script checks that every line is solved and proven
optimal, and prints the rate, the projection to ``--target`` environments and its ratio to the 10-minute
target; from the CPU time (the run and its workers) also the projection for two idle cores (the machine may
be shared), with the load average. ``--profile K`` then profiles the optimum search of the first K
environments on one core (cProfile) and prints where the time goes.

    python benchmarks/grasp_bulk_optima.py [--environments 2000] [--jobs 1,2] [--ray] [--seed 1]
        [--rule paper] [--profile 400]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import math
import os
import pstats
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from plancheck.domains.grasp.generate import generate_grid  # noqa: E402
from plancheck.domains.grasp.instance import DISTRIBUTIONS, OBSTACLES, SETTINGS, STARTS, Environment  # noqa: E402
from plancheck.domains.grasp.solve import solve  # noqa: E402

TARGET_SECONDS = 600.0  # 10 minutes (issue 22, item 8)


def sets(seed: int) -> list[str]:
    """The 20 generator sets: every start region, energy distribution and obstacle setting."""
    return [f"gen{seed}_{start}_{energy}_{obstacle}" for start in STARTS for energy in DISTRIBUTIONS
            for obstacle in OBSTACLES]


def run(seed: int, count: int, rule: str, parallel: list[str]) -> tuple[int, float, float]:
    """(environments, wall seconds, CPU seconds of the run and its workers) of one ``solve`` run, after checking
    that every environment is solved and proven optimal."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "optima.jsonl"
        command = [sys.executable, "-m", "plancheck", "solve", "grasp", *sets(seed), "--count", str(count),
                   "--rule", rule, "--no-progress", "-o", str(out), *parallel]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        done = subprocess.run(command, cwd=REPO, capture_output=True, text=True)
        wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode != 0:
            sys.exit(f"solve failed ({done.returncode}):\n{done.stderr[-2000:]}")
        lines = [json.loads(line) for line in out.read_text().splitlines()]
    bad = [line["instance"] for line in lines if line["status"] != "solved" or not line["proven_optimal"]]
    expected = len(sets(seed)) * count * len(SETTINGS)
    if bad or len(lines) != expected:
        sys.exit(f"{len(lines)} results for {expected} environments; not proven optimal: {bad[:5]}")
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return len(lines), wall, cpu


def profile(seed: int, count: int, rule: str, top: int = 14) -> None:
    """cProfile of the optimum search (and its certification) of ``count`` environments, on this process."""
    per_set = math.ceil(count / (len(sets(seed)) * len(SETTINGS)))
    envs = [Environment(grid, setting, info) for index in range(per_set) for start in STARTS
            for energy in DISTRIBUTIONS for obstacle in OBSTACLES
            for info, grid in [generate_grid(seed, start, energy, obstacle, index)] for setting in SETTINGS][:count]
    spent: dict[str, float] = {}
    for env in envs:  # without the profiler: the CPU time of each setting
        started = time.process_time()
        solve(env, "native", rule=rule)
        spent[env.setting.flags] = spent.get(env.setting.flags, 0.0) + time.process_time() - started
    total = sum(spent.values())
    print(f"\nCPU time by setting (mv-lim-cost) over {len(envs)} environments, {1000 * total / len(envs):.1f} ms "
          "each: " + ", ".join(f"{flags} {100 * seconds / total:.0f} %" for flags, seconds in sorted(spent.items())))
    profiler = cProfile.Profile()
    started = time.process_time()
    profiler.enable()
    for env in envs:
        solve(env, "native", rule=rule)
    profiler.disable()
    cpu = time.process_time() - started
    text = io.StringIO()
    pstats.Stats(profiler, stream=text).sort_stats("tottime").print_stats(top)
    print(f"profile of {len(envs)} environments on one core: {cpu:.1f} s CPU under cProfile "
          f"({1000 * cpu / len(envs):.1f} ms each); the functions that take the time (tottime):")
    for line in text.getvalue().splitlines():
        if line.strip() and ("ncalls" in line or line.lstrip()[0].isdigit()):
            print("  " + line.strip().replace(str(REPO) + "/", ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--environments", type=int, default=2000, help="about how many (rounded up to 160s)")
    parser.add_argument("--jobs", default="1,2", help="comma-separated --jobs values to run (default: 1,2)")
    parser.add_argument("--ray", action="store_true", help="also run with --ray on a local Ray instance")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rule", default="paper", choices=("paper", "delivered"))
    parser.add_argument("--target", type=int, default=100_000)
    parser.add_argument("--profile", type=int, default=0, metavar="K", help="then profile K environments")
    args = parser.parse_args()
    count = max(1, math.ceil(args.environments / (len(sets(args.seed)) * len(SETTINGS))))
    runs = [(f"--jobs {jobs}", ["--jobs", jobs]) for jobs in args.jobs.split(",")]
    if args.ray:
        runs.append(("--ray (local)", ["--ray"]))
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs; rule {args.rule}; "
          f"{count} grids x {len(SETTINGS)} settings x {len(sets(args.seed))} generator sets")
    for label, parallel in runs:
        environments, wall, cpu = run(args.seed, count, args.rule, parallel)
        rate = environments / wall
        line = (f"{label:<13} {environments} environments, all certified optimal, in {wall:.1f} s: "
                f"{rate:.1f} environments/s, {args.target:,} in {args.target / rate / 60:.1f} min "
                f"({args.target / rate / TARGET_SECONDS:.2f}x the target)")
        if label.startswith("--ray"):
            line += "; CPU of Ray's workers not measured"
        else:  # what two idle cores would do, from the CPU time (the machine may be shared)
            idle = args.target * cpu / environments / 2
            line += (f"; {cpu:.1f} s CPU: {environments / cpu:.1f} per CPU second, {args.target:,} on two idle "
                     f"cores in {idle / 60:.1f} min ({idle / TARGET_SECONDS:.2f}x the target)")
        print(f"{line}; load average {os.getloadavg()[0]:.2f}", flush=True)
    if args.profile:
        profile(args.seed, args.profile, args.rule)


if __name__ == "__main__":
    main()
