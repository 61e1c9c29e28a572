"""Peak memory of ``plancheck evaluate grasp`` as the batch grows: it streams, so memory stays flat.

Writes GRASP answer batches of each size (plain JSONL records: ids cycling over the 16,000 published
environments, seeded random answers of 1-20 actions as action lists, as the published baselines are written,
every 100th as free text for the answer grammar, every 1000th broken), evaluates each in a
subprocess (verdicts written with -o, the Table 1 summary on), and prints the peak resident memory of
that process (its own, from wait4) with the time it took.

    python benchmarks/scale_memory.py [--sizes 10000,100000,1000000,10000000] [--jobs 1] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from plancheck.domains.grasp.published import SET_NAMES  # noqa: E402

ACTIONS = ("UP", "DOWN", "LEFT", "RIGHT", "TAKE", "DROP", "UPLEFT", "DOWNRIGHT")
SETTINGS = tuple(f"{mv}-{lim}-{cost}" for mv in (0, 1) for lim in (0, 1) for cost in (0, 1))


def write_batch(path: Path, size: int, seed: int = 0) -> None:
    rng = random.Random(seed)
    with open(path, "w", encoding="utf-8") as file:
        for number in range(size):
            if number % 1000 == 999:
                file.write("{broken\n")
                continue
            env = f"{SET_NAMES[number % len(SET_NAMES)]}.jsonl-{(number // 20) % 100}-{SETTINGS[number % 8]}"
            answer = [rng.choice(ACTIONS) for _ in range(rng.randint(1, 20))]
            if number % 100 == 0:
                answer = f"My plan: [{', '.join(answer)}]"
            file.write(json.dumps({"instance": env, "answer": answer, "model": "random"}) + "\n")


def measure(batch: Path, out: Path, jobs: int, data: str | None) -> tuple[float, float, float]:
    """(peak RSS in MiB, wall seconds, CPU seconds) of one evaluate process."""
    command = [sys.executable, "-m", "plancheck", "evaluate", "grasp", str(batch), "-o", str(out), "--summary",
               "--no-progress", "--jobs", str(jobs)] + (["--data", data] if data else [])
    start = time.perf_counter()
    process = subprocess.Popen(command, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"evaluate failed on {batch}")
    return usage.ru_maxrss / 1024, wall, usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000,1000000")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--data", default=None, help="data folder (default: the shipped grids suffice)")
    parser.add_argument("--keep", type=Path, default=None, help="write the batches here and keep them")
    args = parser.parse_args()
    folder = args.keep or Path(tempfile.mkdtemp(prefix="plancheck-scale-"))
    folder.mkdir(parents=True, exist_ok=True)
    print(f"load average at start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs; --jobs {args.jobs}")
    print(f"{'records':>12} {'input MiB':>10} {'peak RSS MiB':>13} {'wall s':>9} {'CPU s':>9} {'us/record':>10}")
    for size in (int(text) for text in args.sizes.split(",")):
        batch = folder / f"batch-{size}.jsonl"
        if not batch.exists():
            write_batch(batch, size)
        out = folder / f"verdicts-{size}.jsonl"
        rss, wall, cpu = measure(batch, out, args.jobs, args.data)
        print(f"{size:>12,} {batch.stat().st_size / 2 ** 20:>10.0f} {rss:>13.1f} {wall:>9.1f} {cpu:>9.1f} "
              f"{1e6 * wall / size:>10.1f}", flush=True)
        if args.keep is None:
            batch.unlink()
            out.unlink()
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
