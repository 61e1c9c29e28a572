"""How fast ``plancheck validate`` checks plans, against unified-planning's SequentialPlanValidator
(and VAL's ``validate`` when it is on PATH). Both must agree on every verdict.

Tasks: the test corpus (tests/data/pddl), Hanoi exports with the optimal plan (n = 8, 10: 255 and
1023 steps), open grids of the keydoor domain with a long walk (20x20, 40x40), and a 4,095-step Hanoi
plan whose 101st step fails. Times are wall clock (``--clock cpu``: this process's CPU time, steadier when
other jobs load the machine), reading included, the best of --repeat runs; unified-planning's import
(~1.5 s) is reported once, apart. The last lines are the median and the worst ratio.

    python benchmarks/pddl_validate.py [--repeat 3] [--clock wall|cpu]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from plancheck.domains.smartplay.hanoi.instance import HanoiInstance  # noqa: E402
from plancheck.domains.smartplay.hanoi.pddl import DOMAIN_FILE, export, to_pddl_plan  # noqa: E402
from plancheck.domains.smartplay.hanoi.solve import recursive_plan  # noqa: E402
from plancheck.translators.pddl_plan import plan_text  # noqa: E402
from plancheck.verifier.pddl_validate import validate_text  # noqa: E402

CORPUS = REPO / "tests" / "data" / "pddl"


def grid_task(size: int) -> tuple[str, str, str]:
    """An open size x size grid in the keydoor domain and a walk along every row (a snake)."""
    cells = [f"c{r}_{c}" for r in range(size) for c in range(size)]
    adjacent = [f"(adj c{r}_{c} c{r + dr}_{c + dc})" for r in range(size) for c in range(size)
                for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)) if 0 <= r + dr < size and 0 <= c + dc < size]
    snake = [f"c{r}_{c if r % 2 == 0 else size - 1 - c}" for r in range(size) for c in range(size)]
    problem = (f"(define (problem grid-{size}) (:domain keydoor)\n  (:objects {' '.join(cells)} - cell k1 - key)\n"
               f"  (:init (at c0_0) {' '.join(adjacent)})\n  (:goal (at {snake[-1]})))\n")
    plan = "".join(f"(move {a} {b})\n" for a, b in zip(snake, snake[1:]))
    return (CORPUS / "keydoor" / "domain.pddl").read_text(), problem, plan


def tasks() -> list[tuple[str, str, str, str]]:
    found = []
    for domain in sorted(CORPUS.glob("*/domain.pddl")):
        for problem in sorted(domain.parent.glob("p*.pddl")):
            found.append((f"{domain.parent.name}/{problem.stem}", domain.read_text(), problem.read_text(),
                          problem.with_suffix(".plan").read_text()))
    for disks in (8, 10):
        instance = HanoiInstance(disks)
        files = export(instance)
        found.append((f"hanoi-{disks}", files[DOMAIN_FILE], files[f"{instance.id}.pddl"],
                      plan_text(to_pddl_plan(instance, recursive_plan(disks)))))
    for size in (20, 40):
        found.append((f"grid-{size}x{size}", *grid_task(size)))
    instance = HanoiInstance(12)  # 4,095 steps, the 101st one illegal: validation stops there
    files = export(instance)
    steps = plan_text(to_pddl_plan(instance, recursive_plan(12))).splitlines(keepends=True)
    steps[100] = steps[99]  # the same move again: its disk is no longer where the move takes it from
    found.append(("hanoi-12-fails-101", files[DOMAIN_FILE], files[f"{instance.id}.pddl"], "".join(steps)))
    return found


CLOCK = time.perf_counter


def best_of(repeat: int, run) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeat):
        start = CLOCK()
        result = run()
        times.append(CLOCK() - start)
    return min(times), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall")
    args = parser.parse_args()
    global CLOCK
    CLOCK = time.perf_counter if args.clock == "wall" else time.process_time

    start = time.perf_counter()
    import unified_planning.shortcuts as up
    from unified_planning.engines import SequentialPlanValidator
    from unified_planning.engines.results import ValidationResultStatus
    from unified_planning.io import PDDLReader
    up_import = time.perf_counter() - start
    up.get_environment().credits_stream = None
    val = shutil.which("validate") or shutil.which("Validate")

    print(f"unified-planning import: {up_import:.2f} s (not counted below); VAL: {val or 'not on PATH'}")
    print(f"{'task':18s} {'steps':>6s} {'plancheck':>10s} {'unified-planning':>17s} {'ratio':>7s}"
          + (f" {'VAL':>8s}" if val else ""))
    ratios = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, domain, problem, plan in tasks():
            ours_time, ours = best_of(args.repeat, lambda: validate_text(domain, problem, plan))
            paths = [Path(tmp) / f for f in ("domain.pddl", "problem.pddl", "plan")]
            for path, text in zip(paths, (domain, problem, plan)):
                path.write_text(text)

            def with_up():
                reader = PDDLReader()
                task = reader.parse_problem(str(paths[0]), str(paths[1]))
                return SequentialPlanValidator().validate(task, reader.parse_plan_string(task, plan))

            up_time, theirs = best_of(args.repeat, with_up)
            ratios.append(up_time / ours_time)
            agree = ours.valid == (theirs.status is ValidationResultStatus.VALID)
            line = (f"{name:18s} {ours.length:6d} {ours_time * 1000:8.1f}ms {up_time * 1000:15.1f}ms "
                    f"{up_time / ours_time:6.1f}x")
            if val:
                val_time, done = best_of(args.repeat, lambda: subprocess.run(
                    [val, *map(str, paths)], capture_output=True, text=True))
                agree &= ("Plan valid" in done.stdout) == ours.valid
                line += f" {val_time * 1000:6.1f}ms"
            print(line + ("" if agree else "   DISAGREE"))
    print(f"median ratio unified-planning / plancheck: {statistics.median(ratios):.1f}x (target: at least 100x); "
          f"worst {min(ratios):.1f}x; {args.clock} clock; load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
