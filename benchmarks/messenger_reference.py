"""Messenger's reference players over seeded episodes, beside the paper's rows.

Plays MessengerL2 and L3 (seeds 0-99 by default) with plancheck's planner (expectimax over the
engine's rules, depth 2), uniform random play and always ``Move North`` (SmartPlay's fallback), and
prints each one's mean raw score, normalised score ((score + 1) / 2), wins and losses, beside the
paper's Table 4 rows for MessengerL2. MessengerL1's references are exact (``plancheck stats
messenger-l1``). With ``--write`` it records every seed's score in
``plancheck/data/smartplay/messenger/reference_runs.json`` (the tests replay some seeds and must get
the same scores; the summary tables read the means from there).

    python benchmarks/messenger_reference.py                   # L2 and L3, seeds 0-99 (about 4 minutes)
    python benchmarks/messenger_reference.py --levels 2 --seeds 0-9
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from plancheck.domains.smartplay._frame import TABLE4  # noqa: E402
from plancheck.domains.smartplay.messenger import data, report, solve  # noqa: E402
from plancheck.domains.smartplay.messenger.scoring import normalized  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--levels", default="2,3", help="levels, e.g. 2,3")
    parser.add_argument("--seeds", default="0-99", help="seed range, e.g. 0-99")
    parser.add_argument("--write", action="store_true", help=f"record the scores in data/.../{report.RUNS_FILE}")
    args = parser.parse_args()
    first, _, last = args.seeds.partition("-")
    seeds = range(int(first), int(last or first) + 1)
    runs: dict = {}
    print(f"{'level':6} {'player':26} {'episodes':>8} {'raw':>7} {'normalised':>10} {'won':>5} {'lost':>5} {'s':>6}")
    for level in (int(x) for x in args.levels.split(",")):
        for name in ("random", "north", "planner"):
            begin = time.perf_counter()
            scores = [solve.reference_score(level, seed, name) for seed in seeds]
            mean = sum(scores) / len(scores)
            runs.setdefault(str(level), {})[name] = {"seeds": [seeds[0], seeds[-1]], "scores": scores}
            print(f"L{level:<5} {report.LABELS[name]:26} {len(scores):8} {mean:7.3f} {normalized(mean):10.3f} "
                  f"{sum(s > 0 for s in scores):5} {sum(s < 0 for s in scores):5} {time.perf_counter() - begin:6.1f}",
                  flush=True)
        if level == 2:
            for model, row in TABLE4.items():
                raw = row[4]  # the MessengerL2 column of Table 4
                print(f"L2     {model + ' (paper)':26} {'':>8} {raw:7.3f} {normalized(raw):10.3f}")
    if args.write:
        path = data.folder() / report.RUNS_FILE
        path.write_text(json.dumps(runs, indent=1) + "\n", encoding="utf-8")
        print(f"written to {path}")


if __name__ == "__main__":
    main()
