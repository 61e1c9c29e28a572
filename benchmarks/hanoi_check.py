"""How fast plancheck checks Tower of Hanoi answers, against a naive SmartPlay-style replay.

The alternative is the shape of SmartPlay's own evaluation: one action per line matched with its
``match_act`` (earliest exact action text, else action 0) and a mutable environment stepped in place
(written here from SmartPlay's published rules). Answers are seeded random plans written as
SmartPlay's action sentences, one per line, so both read the same moves; both must agree on every
score and reward.

    python benchmarks/hanoi_check.py [--answers 2000] [--seed 0]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from plancheck.domains.smartplay.hanoi.instance import HanoiInstance  # noqa: E402
from plancheck.domains.smartplay.hanoi.rules import Move  # noqa: E402
from plancheck.domains.smartplay.hanoi.solve import recursive_plan  # noqa: E402
from plancheck.domains.smartplay.hanoi.world import WORLD  # noqa: E402

ACTIONS = [move.sentence for move in Move]
PAIRS = [(0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1)]


class NaiveHanoi:
    """SmartPlay's environment shape: a disk -> rod list, mutated in place."""

    def __init__(self, disks: int):
        self.disks, self.where, self.done = disks, [0] * disks, False

    def on(self, rod: int) -> list[int]:
        return [d for d in range(self.disks) if self.where[d] == rod]

    def step(self, action: int) -> int:
        source, target = PAIRS[action]
        moving, below = self.on(source), self.on(target)
        valid = bool(moving) and (not below or min(below) > min(moving))
        if valid:
            self.where[min(moving)] = target
        if self.where == [2] * self.disks:
            self.done = True
            return 100
        return 0 if valid else -1


def match_act(text: str) -> int:
    found = [(text.lower().index(a.lower()), i) for i, a in enumerate(ACTIONS) if a.lower() in text.lower()]
    return min(found)[1] if found else 0


def naive_score(disks: int, answer: str) -> tuple[int, int]:
    env, rewards = NaiveHanoi(disks), []
    for line in answer.splitlines()[:30]:
        rewards.append(env.step(match_act(line)))
        if env.done:
            break
    return len(env.on(2)), sum(rewards)


def answers(count: int, seed: int) -> list[tuple[HanoiInstance, str]]:
    rng = random.Random(seed)
    made = []
    for _ in range(count):
        instance = HanoiInstance(rng.choice((3, 4)))
        plan = [m.sentence for m in recursive_plan(instance.disks)]
        for _ in range(rng.randrange(4)):  # a few random edits: wrong moves, dropped moves
            position = rng.randrange(len(plan))
            if rng.random() < 0.5:
                plan[position] = rng.choice(ACTIONS)
            else:
                del plan[position]
        made.append((instance, "\n".join(plan)))
    return made


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--answers", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    batch = answers(args.answers, args.seed)

    start = time.perf_counter()
    verdicts = [WORLD.check(instance, text) for instance, text in batch]
    ours = time.perf_counter() - start
    start = time.perf_counter()
    naive = [naive_score(instance.disks, text) for instance, text in batch]
    theirs = time.perf_counter() - start

    disagree = sum((v.scores["score"], v.scores["reward"]) != n for v, n in zip(verdicts, naive, strict=True))
    print(f"{len(batch)} answers: plancheck {ours:.2f} s ({len(batch) / ours:,.0f}/s, full verdicts with spans, "
          f"traces and strict validity); naive replay {theirs:.3f} s ({len(batch) / theirs:,.0f}/s, score and "
          f"reward only); ratio {ours / theirs:.1f}x; disagreements: {disagree}")


if __name__ == "__main__":
    main()
