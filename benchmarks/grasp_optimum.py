"""The certified optimum of every published GRASP environment, and what it costs, native vs Fast Downward.

For all 2,000 grids x 8 settings x 2 scoring rules the native exact solver computes the optimum
and a plan, and every plan is replayed on the full rules before it counts. The recorded greedy
and random-walk answers are replayed under the same rules, giving the table the paper lacks:
per setting, the mean optimum next to the mean greedy and random-walk scores.

Fast Downward (A* with the blind heuristic, the optimal configuration that is fastest here)
runs on the exported planning model of a seeded random sample of environments; solving all of
them is out of reach (minutes to hours each on dense 8-direction grids), so the sample shows its
time per instance next to the native time for the same instances, timeouts included.

    python benchmarks/grasp_optimum.py [--data ../shared/data] [--workers 2] [--fd-sample 24]
        [--fd-timeout 120] [--table optimum.jsonl]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import defaultdict
from multiprocessing import Pool
from pathlib import Path

from plancheck.domains.grasp.certify import certify
from plancheck.domains.grasp.exact import solve_exact
from plancheck.domains.grasp.instance import SETTINGS, Environment, Setting
from plancheck.domains.grasp.optima import content_key, table_line
from plancheck.domains.grasp.published import SET_NAMES, published_set
from plancheck.domains.grasp.rules import Action, GraspRules
from plancheck.domains.grasp.scoring import RULES, scores
from plancheck.domains.grasp.solve import solve
from plancheck.verifier.execute import execute


def solve_grid(job: tuple[Path, str, int]) -> list[dict]:
    """Every setting and rule of one published grid: optimum, time, nodes (certified)."""
    data, set_name, position = job
    info, grid = published_set(data, set_name)[position]
    rows = []
    for setting in SETTINGS:
        env = Environment(grid, setting, info)
        for rule in RULES:
            started = time.perf_counter()
            optimum = solve_exact(env, rule)
            certify(env, optimum)
            rows.append({"env": env.id, "grid": info.grid_id, "key": content_key(grid, env.step_limit),
                         "flags": setting.flags, "rule": rule, "value": optimum.value,
                         "seconds": time.perf_counter() - started, "nodes": optimum.nodes})
    return rows


def replayed_baselines(data: Path) -> dict[tuple[str, str, str], float]:
    """(baseline, environment id, rule) -> the recorded answer's score under that rule."""
    grids = {name: {info.index: (info, grid) for info, grid in published_set(data, name)} for name in SET_NAMES}
    result = {}
    for baseline in ("greedy", "random"):
        for name in SET_NAMES:
            lines = (data / "grasp" / "baselines" / baseline / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()
            for line in lines:
                record = json.loads(line)
                info, grid = grids[name][record["index"]]
                setting = Setting.from_baseline(record["movement_prompt"], record["energy_limit_prompt"],
                                                record["cost_of_step_prompt"])
                env = Environment(grid, setting, info)
                trace = execute(GraspRules(env), [Action(a.upper()) for a in record["answer"]])
                for rule, value in scores(env, trace).items():
                    result[baseline, env.id, rule] = value
    return result


def markdown(header: list[str], rows: list[list]) -> str:
    def cell(value) -> str:
        return f"{value:.2f}" if isinstance(value, float) else str(value)
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return "\n".join(lines + ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows])


def optimum_table(rows: list[dict], baselines: dict) -> str:
    by_setting = defaultdict(lambda: defaultdict(list))
    for row in rows:
        key = row["flags"], row["rule"]
        by_setting[key]["optimum"].append(row["value"])
        by_setting[key]["greedy"].append(baselines["greedy", row["env"], row["rule"]])
        by_setting[key]["random"].append(baselines["random", row["env"], row["rule"]])
        by_setting[key]["zero"].append(row["value"] == 0)
    table = []
    for setting in SETTINGS:
        line = [f"{setting.flags} ({setting.describe()})"]
        for rule in RULES:
            values = by_setting[setting.flags, rule]
            line += [statistics.mean(values["optimum"]), statistics.mean(values["greedy"]),
                     statistics.mean(values["random"])]
        table.append(line)
    overall = ["all settings"]
    for rule in RULES:
        for what in ("optimum", "greedy", "random"):
            overall.append(statistics.mean(v for (f, r), d in by_setting.items() if r == rule for v in d[what]))
    table.append(overall)
    header = ["setting (mv-lim-cost)"] + [f"{rule}: {what}" for rule in RULES
                                         for what in ("optimum", "greedy", "random walk")]
    return markdown(header, table)


def timing_table(rows: list[dict]) -> str:
    table = []
    for rule in RULES:
        for directions in (4, 8):
            chosen = [r for r in rows if r["rule"] == rule and r["flags"][0] == str(int(directions == 8))]
            seconds = sorted(r["seconds"] for r in chosen)
            table.append([rule, directions, len(seconds), 1000 * statistics.mean(seconds),
                          1000 * seconds[len(seconds) // 2], 1000 * seconds[int(len(seconds) * 0.99)],
                          1000 * seconds[-1], statistics.mean(r["nodes"] for r in chosen)])
    return markdown(["rule", "directions", "instances", "mean ms", "median ms", "p99 ms", "max ms", "mean nodes"],
                    table)


def fast_downward_sample(data: Path, rows: list[dict], size: int, timeout: float, seed: int = 0) -> str:
    native = {(r["env"], r["rule"]): r for r in rows}
    envs = sorted({r["env"] for r in rows})
    sample = random.Random(seed).sample(envs, min(size, len(envs)))
    by_id = {info.grid_id: (info, grid) for name in SET_NAMES for info, grid in published_set(data, name)}
    table, agree, solved = [], 0, 0
    for env_id in sorted(sample, key=lambda e: (e[-5:], e)):
        grid_id, flags = env_id[:-6], env_id[-5:]
        info, grid = by_id[grid_id]
        env = Environment(grid, next(s for s in SETTINGS if s.flags == flags), info)
        for rule in RULES:
            result = solve(env, "fast-downward", rule=rule, timeout=timeout, memory_limit="8G")
            mine = native[env_id, rule]
            value = result.extra.get("value")
            solved += result.status.value == "solved"
            agree += value == mine["value"]
            table.append([env_id, rule, mine["value"], 1000 * mine["seconds"],
                          "-" if value is None else value, result.status.value, f"{result.seconds:.1f}",
                          f"{result.seconds / mine['seconds']:.0f}x" if value is not None else "-"])
        print(f"  fast-downward: {env_id} done", file=sys.stderr)
    summary = (f"\nFast Downward solved {solved} of {len(table)} (environment, rule) pairs within {timeout:g} s; "
               f"{agree} agree with the native optimum, none disagrees.\n" if agree == solved else
               f"\nDISAGREEMENT: Fast Downward solved {solved}, agreed on {agree}\n")
    return markdown(["environment", "rule", "native optimum", "native ms", "FD optimum", "FD status", "FD s",
                     "FD / native"], table) + summary


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=Path(__file__).resolve().parents[2] / "shared" / "data")
    parser.add_argument("--workers", type=int, default=2, help="processes for the native solver (default 2)")
    parser.add_argument("--fd-sample", type=int, default=24, help="environments for Fast Downward (0: none)")
    parser.add_argument("--fd-timeout", type=float, default=120.0, help="seconds per Fast Downward run")
    parser.add_argument("--table", type=Path, help="write the per-environment optimum table (JSON lines) here")
    args = parser.parse_args()

    jobs = [(args.data, name, position) for name in SET_NAMES
            for position in range(len(published_set(args.data, name)))]
    started = time.perf_counter()
    with Pool(args.workers) as pool:
        rows = [row for grid_rows in pool.imap(solve_grid, jobs, chunksize=4) for row in grid_rows]
    wall = time.perf_counter() - started
    print(f"native: {len(rows)} (environment, rule) optima, every plan certified, in {wall:.1f} s wall "
          f"on {args.workers} worker(s); {1000 * sum(r['seconds'] for r in rows) / len(rows):.1f} ms per instance "
          f"of solver time\n")
    print(timing_table(rows) + "\n")

    baselines = replayed_baselines(args.data)
    below = [r for r in rows if r["value"] < baselines["greedy", r["env"], r["rule"]] - 1e-9]
    print(f"optimum below the recorded greedy answer: {len(below)} of {len(rows)}\n")
    print(optimum_table(rows, baselines) + "\n")
    subset = [r for r in rows if r["rule"] == "paper" and int(r["grid"].rsplit("-", 1)[1]) < 10]
    for name in ("greedy", "random"):
        mean = statistics.mean(baselines[name, r["env"], "paper"] for r in subset)
        print(f"check: recorded {name} on grid indices 0-9 under rule paper: {mean:.2f} (paper's Table 1)")
    print(f"optimum on the same 1600 environments under rule paper: "
          f"{statistics.mean(r['value'] for r in subset):.2f}\n")

    if args.table:
        value = {(r["grid"], r["flags"], r["rule"]): r["value"] for r in rows}
        keys = {r["grid"]: r["key"] for r in rows}
        lines = [table_line(grid_id, keys[grid_id],
                            {rule: [value[grid_id, s.flags, rule] for s in SETTINGS] for rule in RULES})
                 for grid_id in sorted(keys)]
        args.table.write_text("".join(lines), encoding="utf-8")
        print(f"wrote {args.table} ({args.table.stat().st_size / 1024:.0f} KiB)\n")

    if args.fd_sample:
        print(fast_downward_sample(args.data, rows, args.fd_sample, args.fd_timeout))
    return 1 if below else 0


if __name__ == "__main__":
    sys.exit(main())
