"""Optimal BabyAI plans against minigrid's BabyAIBot: lengths, how often and by how much the optimum is
shorter, and the time each takes.

For every instance: the native A* optimum (replayed in minigrid, where it must succeed exactly on
its last action), minigrid's BabyAIBot (the published BabyAI expert, partial view) and its
omniscient variant (whole map; LLM-BabyBench's expert is an omniscient bot), each replayed too.

    python benchmarks/babyai_optimal.py                       # 16 LLM-BabyBench levels, seeds 1-100
    python benchmarks/babyai_optimal.py --plan-rooms          # the 16 Plan rooms, seeds 1-100
    python benchmarks/babyai_optimal.py --levels BabyAI-GoTo-v0 --seeds 1-20 --out results.jsonl
    python benchmarks/babyai_optimal.py --levels BabyAI-BossLevel-v0 --seeds 70 --planner abstraction --limit 3600

Prints one row per environment and writes one JSON line per instance with ``--out``;
``--table results.jsonl`` prints the table of saved results again (``--markdown`` for docs).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from multiprocessing import Pool
from pathlib import Path
from statistics import fmean, median

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from plancheck.domains.babyai.bot import run_bot  # noqa: E402
from plancheck.domains.babyai.extract import load_instance  # noqa: E402
from plancheck.domains.babyai.levels import BABYBENCH_LEVELS, PLAN_ROOMS  # noqa: E402
from plancheck.domains.babyai.references import optimal_plan, replay_in_minigrid  # noqa: E402
from plancheck.domains.babyai.search.abstract import abstract_optimum  # noqa: E402
from plancheck.solvers.result import Status  # noqa: E402


def one(job: tuple[str, int, float, str]) -> dict:
    env_id, seed, limit, planner = job
    instance = load_instance(env_id, seed)
    row: dict = {"env": env_id, "seed": seed, "mission": instance.mission.text, "planner": planner}
    if planner == "abstraction":
        result = abstract_optimum(instance, deadline=time.monotonic() + limit)
    else:
        result = optimal_plan(instance, timeout=limit)
    row.update(status=result.status.value, seconds=round(result.seconds, 4), expanded=result.expanded,
               lower_bound=result.bound)
    if result.status is Status.SOLVED:
        replay = replay_in_minigrid(instance, result.plan)
        row.update(optimal=len(result.plan), certified=replay.exact)
    for variant in ("minigrid", "omniscient"):
        bot = run_bot(instance, variant)
        exact = bot.success and replay_in_minigrid(instance, bot.actions).exact
        row[variant] = {"success": bot.success, "length": len(bot.actions), "seconds": round(bot.seconds, 4),
                        "replayed": exact, "error": bot.error}
    return row


def _versus(solved: list[dict], variant: str) -> tuple[str, str, str]:
    """Mean bot length, % of instances where the optimum is shorter, mean/max gap."""
    both = [r for r in solved if r[variant]["success"]]
    gaps = [r[variant]["length"] - r["optimal"] for r in both]
    if not both:
        return "-", "-", "-"
    return (f"{fmean(r[variant]['length'] for r in both):.1f}", f"{100 * sum(g > 0 for g in gaps) / len(both):.0f}%",
            f"{fmean(gaps):.1f}/{max(gaps)}")


def table(rows: list[dict]) -> list[str]:
    header = ("environment", "n", "solved", "cert", "opt", "bot", "opt<bot", "gap", "omni ok", "omni", "opt<omni",
              "gap", "A* s mean", "A* s max", "bot s")
    lines = [header]
    for env in list(dict.fromkeys(r["env"] for r in rows)) + ["ALL"]:
        group = [r for r in rows if env in ("ALL", r["env"])]
        solved = [r for r in group if r["status"] == "solved"]
        bot, omni = _versus(solved, "minigrid"), _versus(solved, "omniscient")
        lines.append((env, str(len(group)), str(len(solved)), str(sum(r.get("certified", False) for r in solved)),
                      f"{fmean(r['optimal'] for r in solved):.1f}" if solved else "-", *bot,
                      str(sum(r["omniscient"]["success"] for r in group)), *omni,
                      f"{fmean(r['seconds'] for r in group):.2f}", f"{max(r['seconds'] for r in group):.1f}",
                      f"{fmean(r['minigrid']['seconds'] for r in group):.3f}"))
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    return ["  ".join(cell.ljust(w) if i == 0 else cell.rjust(w) for i, (cell, w) in enumerate(zip(line, widths)))
            for line in lines]


def markdown(rows: list[dict]) -> list[str]:
    """The table for docs/babyai.md: the optimum against minigrid's BabyAIBot."""
    lines = ["| environment | n | solved (certified) | optimal mean | bot mean | optimum shorter | saved mean / max "
             "| A* s mean / median / max | bot s mean |", "|---" * 9 + "|"]
    for env in list(dict.fromkeys(r["env"] for r in rows)) + ["ALL"]:
        group = [r for r in rows if env in ("ALL", r["env"])]
        solved = [r for r in group if r["status"] == "solved"]
        bot, shorter, gap = _versus(solved, "minigrid")
        seconds = sorted(r["seconds"] for r in group)
        lines.append(f"| {env.removeprefix('BabyAI-').removeprefix('CustomBabyAI-')} | {len(group)} | {len(solved)} "
                     f"({sum(r.get('certified', False) for r in solved)}) | "
                     f"{fmean(r['optimal'] for r in solved):.1f} | {bot} | {shorter} | {gap.replace('/', ' / ')} | "
                     f"{fmean(seconds):.2f} / {median(seconds):.3f} / {seconds[-1]:.1f} | "
                     f"{fmean(r['minigrid']['seconds'] for r in group):.3f} |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--levels", nargs="*", help="environment ids (default: the 16 LLM-BabyBench levels)")
    parser.add_argument("--plan-rooms", action="store_true", help="the 16 Plan rooms instead")
    parser.add_argument("--seeds", default="1-100", help="seed range, e.g. 1-100")
    parser.add_argument("--limit", type=float, default=300.0, help="seconds per A* search")
    parser.add_argument("--planner", choices=("astar", "abstraction"), default="astar",
                        help="the concrete A* or the abstraction-refinement search (both optimal)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--out", type=Path, help="write one JSON line per instance here")
    parser.add_argument("--table", type=Path, help="print the table of results saved with --out, and stop")
    parser.add_argument("--markdown", action="store_true", help="with --table: a Markdown table")
    args = parser.parse_args()
    if args.table:
        saved = [json.loads(line) for line in args.table.read_text().splitlines() if line.strip()]
        print("\n".join(markdown(saved) if args.markdown else table(saved)))
        return
    first, _, last = args.seeds.partition("-")
    first, last = int(first), int(last or first)
    levels = args.levels or (PLAN_ROOMS if args.plan_rooms else BABYBENCH_LEVELS)
    jobs = [(env, seed, args.limit, args.planner) for env in levels for seed in range(first, last + 1)]
    began = time.perf_counter()
    rows = []
    with Pool(args.jobs) if args.jobs > 1 else _Serial() as pool:
        for row in pool.imap(one, jobs):
            rows.append(row)
            if args.out:
                with open(args.out, "a") as handle:
                    handle.write(json.dumps(row) + "\n")
            if len(rows) % len(range(first, last + 1)) == 0:
                print(f"... {row['env']} done ({time.perf_counter() - began:.0f} s)", file=sys.stderr, flush=True)
    print("\n".join(table(rows)))
    print(f"{len(rows)} instances in {time.perf_counter() - began:.0f} s")


class _Serial:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    @staticmethod
    def imap(function, items):
        return map(function, items)


if __name__ == "__main__":
    main()
