"""How fast plancheck scores the 32,000 recorded GRASP baseline answers, against a naive replay.

The alternative is what evaluation scripts in this field typically do: a mutable grid object,
deep-copied per answer and stepped one action at a time (written here from the published rules;
the authors' released evaluator is not in this repository). Both must agree on every score.

    python benchmarks/grasp_scoring.py [--data ../shared/data] [--files N] [--repeat N]

``--files N`` scores only the first N of each baseline's 20 files (a quick run; the ratios are of the full set
only without it). Wall and CPU time (this process's, or the command's as a child process) are both printed:
on a machine other jobs share, compare CPU time. ``--repeat N`` runs N rounds, each timing the three routes
back to back, and prints each route's fastest time and the median of the rounds' ratios (with their range).
The checkout's bytecode is compiled first, as an installed package's is (an environment that sets
PYTHONDONTWRITEBYTECODE would otherwise make every command line run compile plancheck again).
"""

from __future__ import annotations

import argparse
import compileall
import copy
import json
import os
import resource
import statistics
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


def timed(function, *args):
    """(result, wall seconds, CPU seconds) of one call on this process."""
    start, cpu = time.perf_counter(), time.process_time()
    result = function(*args)
    return result, time.perf_counter() - start, time.process_time() - cpu


def command_line(data: Path, files: int | None) -> tuple[None, float, float]:
    """(None, wall seconds, CPU seconds) of one run of ``plancheck evaluate grasp`` on the answers."""
    start = time.perf_counter()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-m", "plancheck", "evaluate", "grasp", *map(str, answer_files(data, files)),
                    "--data", str(data), "-o", "/dev/null", "--no-progress"], check=True, cwd=REPO)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return None, time.perf_counter() - start, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data")
    parser.add_argument("--files", type=int, default=None, help="score the first N files of each baseline only")
    parser.add_argument("--repeat", type=int, default=1, help="rounds: each times the three routes back to back")
    args = parser.parse_args()
    args.data = args.data.resolve()  # the CLI below runs in the checkout
    load = os.getloadavg()[0]
    compileall.compile_dir(REPO / "plancheck", quiet=1)
    plancheck_scores(args.data, args.files)  # warm the grid cache once, as a long-running process would
    rounds = []  # per round: (wall, CPU) of the library, the naive replay, the command line
    for _ in range(args.repeat):
        ours, *library = timed(plancheck_scores, args.data, args.files)
        naive, *bare = timed(naive_scores, args.data, args.files)
        if ours != naive:
            sys.exit("the two replays disagree")
        _, *cli = command_line(args.data, args.files)
        rounds.append((library, bare, cli))
    n = len(ours)
    several = f"; {args.repeat} rounds: the fastest time of each route, the median ratio of a round" \
        if args.repeat > 1 else ""
    print(f"{n} recorded baseline answers, identical scores from both replays; load average "
          f"{load:.2f} before, {os.getloadavg()[0]:.2f} after, on {os.cpu_count()} CPUs{several}")
    for position, label in enumerate(("plancheck library (full verdicts)", "naive mutable-grid replay (score)",
                                      "plancheck CLI end to end (+JSONL)")):
        wall, cpu = (min(times[position][k] for times in rounds) for k in (0, 1))
        print(f"{label} : {wall:6.2f} s  {1e6 * wall / n:7.1f} us/answer  CPU {cpu:6.2f} s")
    for position, label, note in ((0, "ratio library / naive            ", ""),
                                  (2, "ratio CLI / naive                ",
                                   " (the CLI also starts Python and writes every verdict as a JSON line)")):
        wall, cpu = (statistics.median(times[position][k] / times[1][k] for times in rounds) for k in (0, 1))
        spread = ""
        if args.repeat > 1:
            ratios = sorted(times[position][1] / times[1][1] for times in rounds)
            spread = f" (rounds {ratios[0]:.2f}-{ratios[-1]:.2f})"
        print(f"{label} : {wall:6.2f}x wall  {cpu:6.2f}x CPU{spread}{note}")


if __name__ == "__main__":
    main()
