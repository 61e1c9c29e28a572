"""The Plan rooms' published remark, reproduced: a breadth-first search over the agent's pose only
(objects never move) finds plans shorter than the expert's on 21-30% of Ultra instances; the true
optimum (minigrid's rules, where a distractor may be picked up and dropped out of the way) is
shorter still.

    python benchmarks/babyai_optimal.py --plan-rooms --out rooms.jsonl
    python benchmarks/babyai_pose_bfs.py rooms.jsonl

Prints, per room size, how often the pose-only BFS beats the omniscient bot (LLM-BabyBench's
expert) and minigrid's bot, and how often the full-state optimum beats the pose-only BFS.
"""

from __future__ import annotations

import json
import sys
from collections import deque
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from plancheck.domains.babyai.extract import load_instance  # noqa: E402
from plancheck.domains.babyai.instance import DIR_VEC, Instance  # noqa: E402


def pose_bfs(instance: Instance) -> int | None:
    """Fewest turns and moves to face the red ball, every object fixed (None: unreachable)."""
    start = instance.start
    blocked = set(instance.walls) | {c for c in start.objects if c is not None} | {d.pos for d in instance.doors}
    ball = next(c for t, c in zip(instance.things, start.objects) if t.kind == "ball" and t.color == "red")
    first = (start.pos, start.dir)
    depth = {first: 0}
    queue = deque([first])
    while queue:
        pos, heading = pose = queue.popleft()
        front = (pos[0] + DIR_VEC[heading][0], pos[1] + DIR_VEC[heading][1])
        if front == ball and depth[pose] > 0:  # minigrid verifies after a step
            return depth[pose]
        moves = [(pos, (heading + 1) % 4), (pos, (heading + 3) % 4)] + ([(front, heading)] if front not in blocked
                                                                        else [])
        for nxt in moves:
            if nxt not in depth:
                depth[nxt] = depth[pose] + 1
                queue.append(nxt)
    return None


def main() -> None:
    rows = [json.loads(line) for line in Path(sys.argv[1]).read_text().splitlines() if line.strip()]
    sizes: dict[str, list[tuple[int, dict]]] = {}
    for row in rows:
        if row["status"] == "solved" and row["env"].startswith("CustomBabyAI-GoToRedBall-"):
            length = pose_bfs(load_instance(row["env"], row["seed"]))
            sizes.setdefault(row["env"].split("-")[2], []).append((length, row))
    print("size    n  pose-BFS < omniscient bot  pose-BFS < minigrid bot  optimum < pose-BFS")
    for size, found in sizes.items():
        n = len(found)
        omni = sum(r["omniscient"]["success"] and b < r["omniscient"]["length"] for b, r in found)
        bot = sum(b < r["minigrid"]["length"] for b, r in found)
        better = sum(r["optimal"] < b for b, r in found)
        print(f"{size:<6} {n:>3}  {100 * omni / n:>24.0f}%  {100 * bot / n:>22.0f}%  {100 * better / n:>17.0f}%")


if __name__ == "__main__":
    main()
