"""The uniformly random policy on SmartPlay's Crafter: SmartPlay's score and Crafter's score, measured.

Plays ``--episodes`` episodes (crafter seeds 0, 1, ...; episode 1 of each; plancheck's ``random``
reference policy) through plancheck's game on the real crafter, and prints the mean, median and
standard deviation of SmartPlay's cumulative score (and normalised by 2680), the mean length, the
success rate of each achievement, and Crafter's geometric-mean score of those rates. The crafter
world's ``random`` reference row (report.py) is this script's mean over 300 episodes.

    python benchmarks/crafter_random.py --episodes 300
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from plancheck.domains.smartplay.crafter import scoring  # noqa: E402
from plancheck.domains.smartplay.crafter.game import CrafterGame  # noqa: E402
from plancheck.domains.smartplay.crafter.solve import RandomPolicy  # noqa: E402


def episode(seed: int) -> tuple[float, int, set[str]]:
    game, policy = CrafterGame(seed), RandomPolicy(seed)
    game.reset()
    unlocked: set[str] = set()
    steps = 0
    while not game.done and steps < game.horizon:
        steps += 1
        transition = game.step(policy.replies(steps, game).reply)
        unlocked.update(transition.info["unlocked"])
    return game.score, steps, unlocked


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=300)
    parser.add_argument("--first", type=int, default=0, help="the first crafter seed")
    args = parser.parse_args()
    start = time.perf_counter()
    results = [episode(seed) for seed in range(args.first, args.first + args.episodes)]
    scores = [score for score, _, _ in results]
    rates = scoring.success_rates([unlocked for _, _, unlocked in results])
    print(f"random policy, {len(results)} episodes (crafter seeds {args.first}..{args.first + args.episodes - 1})")
    mean = statistics.fmean(scores)
    print(f"SmartPlay score: mean {mean:.2f}, median {statistics.median(scores):g}, "
          f"sd {statistics.pstdev(scores):.2f}, normalised {scoring.smartplay_normalized(mean):.4f}")
    print(f"mean length {statistics.fmean(n for _, n, _ in results):.1f} actions")
    print("success rates (%): " + ", ".join(f"{name} {rate:.1f}" for name, rate in rates.items() if rate))
    print(f"Crafter score {scoring.crafter_score(rates):.2f} % (Crafter's published random: "
          f"{scoring.reference('random').mean:.1f} %)")
    print(f"{time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
