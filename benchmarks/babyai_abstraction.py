"""The two exact BabyAI searches side by side: the concrete A* and abstraction refinement.

For every instance both must find the same optimum and the abstraction's plan must succeed in
minigrid exactly on its last action; prints, per level, the instances compared, any disagreement
and the time each search took (ratio = A* time / abstraction time, above 1: the abstraction is
faster).

    python benchmarks/babyai_abstraction.py                      # 16 LLM-BabyBench levels + 4, seeds 1-40
    python benchmarks/babyai_abstraction.py --levels BabyAI-BossLevel-v0 --seeds 1-100 --limit 120
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from plancheck.domains.babyai.extract import load_instance  # noqa: E402
from plancheck.domains.babyai.levels import BABYBENCH_LEVELS  # noqa: E402
from plancheck.domains.babyai.references import optimal_plan, replay_in_minigrid  # noqa: E402
from plancheck.domains.babyai.search.abstract import abstract_optimum  # noqa: E402
from plancheck.solvers.result import Status  # noqa: E402

MORE_LEVELS = ("BabyAI-KeyInBox-v0", "BabyAI-UnlockPickup-v0", "BabyAI-BlockedUnlockPickup-v0", "BabyAI-PutNextS7N4-v0")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--levels", nargs="*", help="environment ids (default: the 16 LLM-BabyBench levels + 4)")
    parser.add_argument("--seeds", default="1-40", help="seed range, e.g. 1-40")
    parser.add_argument("--limit", type=float, default=60.0, help="seconds per search")
    args = parser.parse_args()
    first, _, last = args.seeds.partition("-")
    seeds = range(int(first), int(last or first) + 1)
    print(f"{'level':32} {'n':>4} {'differ':>6} {'A* s':>8} {'abstraction s':>13} {'ratio':>6}")
    totals = [0, 0, 0.0, 0.0]
    for level in args.levels or list(BABYBENCH_LEVELS) + list(MORE_LEVELS):
        n = differ = 0
        concrete_s = abstract_s = 0.0
        for seed in seeds:
            instance = load_instance(level, seed)
            concrete = optimal_plan(instance, timeout=args.limit)
            abstract = abstract_optimum(instance, deadline=time.monotonic() + args.limit)
            if concrete.status is not Status.SOLVED or abstract.status is not Status.SOLVED:
                print(f"  {instance.id}: not both solved within {args.limit:g} s", file=sys.stderr)
                continue
            n += 1
            concrete_s += concrete.seconds
            abstract_s += abstract.seconds
            if concrete.cost != abstract.cost or not replay_in_minigrid(instance, abstract.plan).exact:
                differ += 1
                print(f"  {instance.id}: A* {concrete.cost}, abstraction {abstract.cost}", file=sys.stderr)
        print(f"{level:32} {n:4} {differ:6} {concrete_s:8.1f} {abstract_s:13.1f} "
              f"{concrete_s / abstract_s if abstract_s else 0:6.2f}", flush=True)
        totals = [totals[0] + n, totals[1] + differ, totals[2] + concrete_s, totals[3] + abstract_s]
    n, differ, concrete_s, abstract_s = totals
    print(f"{'ALL':32} {n:4} {differ:6} {concrete_s:8.1f} {abstract_s:13.1f} "
          f"{concrete_s / abstract_s if abstract_s else 0:6.2f}")


if __name__ == "__main__":
    main()
