"""How fast plancheck scores the 32,000 recorded GRASP baseline answers, against a naive replay.

The alternative is what evaluation scripts in this field typically do: a mutable grid object,
deep-copied per answer and stepped one action at a time (written here from the published rules;
the authors' released evaluator is not in this repository). Both must agree on every score.

    python benchmarks/grasp_scoring.py [--data ../shared/data] [--files N] [--repeat N]

``--files N`` scores only the first N of each baseline's 20 files (a quick run; the ratios are of the full set
only without it). Wall and CPU time (this process's, or the command's as a child process) are both printed:
on a machine other jobs share, compare CPU time. ``--repeat N`` times every route N times and keeps the fastest.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))  # this checkout's plancheck, not an installed one

from plancheck.domains.grasp.world import WORLD  # noqa: E402
from plancheck.verifier.batch import evaluate_records  # noqa: E402

MOVES = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1), "upleft": (-1, -1),
         "upright": (-1, 1), "downleft": (1, -1), "downright": (1, 1)}


class NaiveGrid:
    """A mutable grid stepped in place, the usual shape of benchmark evaluation code."""

    def __init__(self, rows: list[list[str]], start: tuple[int, int]):
        self.energy = [[1 if ch == "E" else 0 for ch in row] for row in rows]
        self.blocked = [[ch == "O" for ch in row] for row in rows]
        self.pos, self.carried = list(start), 0

    def step(self, action: str, directions: int, limit: int) -> None:
        if action in MOVES and (directions == 8 or len(action) <= 5):
            r, c = self.pos[0] + MOVES[action][0], self.pos[1] + MOVES[action][1]
            if 0 <= r < 11 and 0 <= c < 11 and not self.blocked[r][c]:
                self.pos = [r, c]
        elif action == "take" and self.energy[self.pos[0]][self.pos[1]] > 0 and self.carried < limit:
            self.energy[self.pos[0]][self.pos[1]] -= 1
            self.carried += 1
        elif action == "drop":
            self.energy[self.pos[0]][self.pos[1]] += self.carried
            self.carried = 0


def answer_files(data: Path, files: int | None = None) -> list[Path]:
    """The baseline answer files, the first ``files`` of each baseline (None: all)."""
    return [path for baseline in ("greedy", "random")
            for path in sorted((data / "grasp" / "baselines" / baseline).glob("*.jsonl"))[:files]]


def naive_scores(data: Path, files: int | None = None) -> list[float]:
    scores = []
    for path in answer_files(data, files):
        grids = {}
        for line in open(data / "grasp" / "grids" / path.name):
            record = json.loads(line)
            rows = [[cell.strip() or " " for cell in row.split("|")[1:-1]]
                    for row in record["grid"].split("\n") if "|" in row]
            grids[record["index"]] = (rows, tuple(record["start"]))
        for line in open(path):
            record = json.loads(line)
            rows, start = grids[record["index"]]
            env = NaiveGrid(copy.deepcopy(rows), start)
            actions = record["answer"][:20]
            for action in actions:
                env.step(action, record["movement_prompt"], record["energy_limit_prompt"])
            cost = record["cost_of_step_prompt"] * len(actions)
            scores.append(round(env.energy[env.pos[0]][env.pos[1]] - cost, 9))
    return scores


def plancheck_scores(data: Path, files: int | None = None) -> list[float]:
    records = (r for path in answer_files(data, files) for r in WORLD.read_answers(path, data))
    return [item.verdict.scores["paper"] for item in evaluate_records(WORLD, records, data)]


def timed(function, *args, repeat: int = 1):
    """(result, wall seconds, CPU seconds) of a call on this process, the fastest of ``repeat`` calls."""
    best_wall = best_cpu = float("inf")
    for _ in range(repeat):
        start, cpu = time.perf_counter(), time.process_time()
        result = function(*args)
        best_wall, best_cpu = min(best_wall, time.perf_counter() - start), min(best_cpu, time.process_time() - cpu)
    return result, best_wall, best_cpu


def command_line(data: Path, files: int | None, repeat: int = 1) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of ``plancheck evaluate grasp`` on the answers, the fastest of ``repeat`` runs."""
    best_wall = best_cpu = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([sys.executable, "-m", "plancheck", "evaluate", "grasp", *map(str, answer_files(data, files)),
                        "--data", str(data), "-o", "/dev/null", "--no-progress"], check=True, cwd=REPO)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        best_wall = min(best_wall, wall)
        best_cpu = min(best_cpu, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return best_wall, best_cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data")
    parser.add_argument("--files", type=int, default=None, help="score the first N files of each baseline only")
    parser.add_argument("--repeat", type=int, default=1, help="time every route N times, keep the fastest")
    args = parser.parse_args()
    args.data = args.data.resolve()  # the CLI below runs in the checkout
    load = os.getloadavg()[0]
    plancheck_scores(args.data, args.files)  # warm the grid cache once, as a long-running process would
    ours, t_ours, c_ours = timed(plancheck_scores, args.data, args.files, repeat=args.repeat)
    naive, t_naive, c_naive = timed(naive_scores, args.data, args.files, repeat=args.repeat)
    if ours != naive:
        sys.exit("the two replays disagree")
    t_cli, c_cli = command_line(args.data, args.files, args.repeat)
    n = len(ours)
    best = f", the fastest of {args.repeat} runs each" if args.repeat > 1 else ""
    print(f"{n} recorded baseline answers, identical scores from both replays; load average "
          f"{load:.2f} before, {os.getloadavg()[0]:.2f} after, on {os.cpu_count()} CPUs{best}")
    for label, wall, cpu in (("plancheck library (full verdicts)", t_ours, c_ours),
                             ("naive mutable-grid replay (score)", t_naive, c_naive),
                             ("plancheck CLI end to end (+JSONL)", t_cli, c_cli)):
        print(f"{label} : {wall:6.2f} s  {1e6 * wall / n:7.1f} us/answer  CPU {cpu:6.2f} s")
    print(f"ratio library / naive             : {t_ours / t_naive:6.2f}x wall  {c_ours / c_naive:6.2f}x CPU")
    print(f"ratio CLI / naive                 : {t_cli / t_naive:6.2f}x wall  {c_cli / c_naive:6.2f}x CPU "
          "(the CLI also starts Python and writes every verdict as a JSON line)")


if __name__ == "__main__":
    main()
