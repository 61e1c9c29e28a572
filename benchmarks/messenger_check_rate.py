"""How fast Messenger episode logs are re-verified, in steps per second on one core (target: 20,000).

Plays episodes of each level (uniform random replies, so they run long; L1 also with the optimal
player), then checks every log with ``check_episode`` (the generic layer: reading each reply again,
the world's replay or observational checker, scores) in four ways: L1 with its seed (exact replay),
L1 without (exact, from the first observation), L2 and L3 without a seed (the observational checker)
and with one (exact replay of plancheck's seeded engine). Prints steps, the CPU seconds of this process
(``time.process_time``: one core; other work on the machine still slows it through shared caches, so
the load average is printed too) and steps per CPU second: of the first pass over the logs (it
includes what a process does once, e.g. reading the 24 or 720 shipped start layouts of L2/L3) and
the best of ``--passes`` passes.

    python benchmarks/messenger_check_rate.py                 # 300 episodes per level
    python benchmarks/messenger_check_rate.py --episodes 20
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from plancheck.domains.smartplay.messenger.world import WORLD_L1, WORLD_L2, WORLD_L3  # noqa: E402
from plancheck.episodes.check import check_episode  # noqa: E402
from plancheck.episodes.play import play  # noqa: E402


def logs(world, count: int, policy: str) -> list:
    episodes = world.episodes
    settings, _ = episodes.settings({})
    instance = episodes.instance(episodes.env)
    made = []
    for seed in range(count):
        game = episodes.game(instance, seed, settings)
        made.append(play(episodes, instance, seed, settings, episodes.policy(policy, game, seed),
                         policy_name=f"reference:{policy}", game=game))
    return made


def unseeded(log):
    return dataclasses.replace(log, header=dataclasses.replace(log.header, seed=None))


def rate(label: str, world, batch: list, passes: int) -> float:
    steps = sum(len(log.steps) for log in batch)
    times = []
    for _ in range(passes):
        begin = time.process_time()
        bad = sum(not check_episode(world.episodes, log).consistent for log in batch)
        times.append(time.process_time() - begin)
    best = min(times)
    print(f"{label:38} {len(batch):8} {steps:7} {steps / times[0]:10.0f} {best:8.3f} {steps / best:10.0f} {bad:12}",
          flush=True)
    return steps / best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--episodes", type=int, default=300, help="episodes per level")
    parser.add_argument("--passes", type=int, default=3, help="passes over the logs (the best is reported)")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"{'logs':38} {'episodes':>8} {'steps':>7} {'1st pass':>10} {'CPU s':>8} {'steps/s':>10} "
          f"{'inconsistent':>12}")
    l1 = logs(WORLD_L1, args.episodes, "random") + logs(WORLD_L1, args.episodes, "optimal")
    l2 = logs(WORLD_L2, args.episodes, "random")
    l3 = logs(WORLD_L3, args.episodes, "random")
    n = args.passes
    rates = [rate("MessengerL1, seeded (replay)", WORLD_L1, l1, n),
             rate("MessengerL1, unseeded (exact)", WORLD_L1, [unseeded(log) for log in l1], n),
             rate("MessengerL2, unseeded (observational)", WORLD_L2, [unseeded(log) for log in l2], n),
             rate("MessengerL2, seeded (replay)", WORLD_L2, l2, n),
             rate("MessengerL3, unseeded (observational)", WORLD_L3, [unseeded(log) for log in l3], n),
             rate("MessengerL3, seeded (replay)", WORLD_L3, l3, n)]
    print(f"slowest (best of {n} passes): {min(rates):.0f} steps/s (target 20,000); "
          f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
