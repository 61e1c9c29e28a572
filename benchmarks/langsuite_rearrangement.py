"""LangSuitE Rearrangement: engine speed, certification time, and the reference numbers of the docs.

    python benchmarks/langsuite_rearrangement.py [--episodes N] [--steps N] [--fd N] [--all]

* engine: one step = act + LangSuitE's observation text, over random moves, turns, pick-ups,
  drops, opens and gotos on N episodes (the LangSuitE paper gives 1.89 ms a step for its engine;
  the target here is 0.5 ms);
* certify: the native optimum of each episode, replayed by the engine (target: median under 10 s);
  with ``--fd N`` also Fast Downward (A* + h^max) on the first N, and the ratio of their times;
* ``--all``: every one of the 2,000 episodes: optimum lengths, LangSuitE's success of the optimal
  plan under its own and the corrected rule, the expert's numbers, episodes LangSuitE cannot score.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from plancheck.domains.langsuite.engine.actions import Act, GridError  # noqa: E402
from plancheck.domains.langsuite.engine.observe import observed  # noqa: E402
from plancheck.domains.langsuite.rearrangement import pddl, search  # noqa: E402
from plancheck.domains.langsuite.rearrangement.expert import run_expert  # noqa: E402
from plancheck.domains.langsuite.rearrangement.instance import episode, episode_ids  # noqa: E402
from plancheck.domains.langsuite.rearrangement.problem import Problem  # noqa: E402
from plancheck.domains.langsuite.rearrangement.rules import Task  # noqa: E402
from plancheck.domains.langsuite.rearrangement.solve import certify, optimal, to_acts  # noqa: E402
from plancheck.solvers.external import fast_downward_driver, run_fast_downward  # noqa: E402


def engine_speed(ids: list[str], steps: int, rng: random.Random) -> float:
    total, count = 0.0, 0
    for eid in ids:
        task = Task(episode(eid))
        state, engine = task.initial().world, task.engine
        names = sorted(state.scene.names.ids.values())
        for _ in range(steps):
            x = rng.random()
            if x < 0.5:
                act = Act(rng.choice(["MoveAhead", "MoveAhead", "TurnLeft", "TurnRight"]))
            elif x < 0.8:
                seen = list(observed(state.scene, state.pose, engine.config)) or names
                act = Act(rng.choice(["PickUp", "Open", "Close", "Drop"]), rng.choice(seen))
            else:
                act = Act("Goto", rng.choice(names)) if x < 0.85 else Act("MoveAhead")
            began = time.perf_counter()
            try:
                state = engine.execute(state, act).state
            except GridError:  # LangSuitE's goto raises here too (a dropped object past the room's edge)
                pass
            total += time.perf_counter() - began
            count += 1
    return 1000 * total / count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=20)
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--fd", type=int, default=0, help="also run Fast Downward on this many episodes")
    parser.add_argument("--all", action="store_true", help="the reference numbers over all 2,000 episodes")
    args = parser.parse_args()
    rng = random.Random(0)
    ids = rng.sample(episode_ids(), args.episodes)
    ms = engine_speed(ids, args.steps, rng)
    print(f"engine: {ms:.3f} ms a step (act + observation text) over {args.episodes * args.steps} steps; "
          f"LangSuitE's engine (paper): 1.89 ms, ratio {1.89 / ms:.1f}x; target 0.5 ms: "
          f"{'met' if ms <= 0.5 else 'missed'}")
    times, certified = [], 0
    for eid in ids:
        began = time.perf_counter()
        ref = optimal(Task(episode(eid)))
        times.append(time.perf_counter() - began)
        certified += ref.certified
    print(f"certify: median {statistics.median(times):.2f} s, max {max(times):.2f} s over {len(ids)} episodes "
          f"({certified} certified); target median 10 s: {'met' if statistics.median(times) < 10 else 'missed'}")
    if args.fd and fast_downward_driver() is not None:
        agree, native_s, fd_s = 0, 0.0, 0.0
        for eid in ids[:args.fd]:
            task = Task(episode(eid))
            problem = Problem(task)
            began = time.perf_counter()
            found = search.solve(problem)
            native_s += time.perf_counter() - began
            files = pddl.export(problem)
            run = run_fast_downward(files[pddl.DOMAIN_FILE], files[f"{eid}.pddl"], search="astar(hmax())",
                                    timeout=900)
            fd_s += run.seconds
            ok = run.cost == found.length and certify(task, "fd", to_acts(pddl.from_pddl_plan(problem, run.plan)))\
                .certified
            agree += ok
        print(f"fast downward: {agree}/{args.fd} agree with the native optimum; {fd_s:.1f} s vs {native_s:.1f} s "
              f"(native {fd_s / max(native_s, 1e-9):.0f}x faster)")
    if args.all:
        everything(episode_ids())


def everything(ids: list[str]) -> None:
    lengths, lang, corr, zero, exp_success, exp_corr, exp_crash, exp_steps, bad = [], 0, 0, 0, 0, 0, 0, [], []
    none: list[tuple[str, int | None]] = []
    began = time.perf_counter()
    for eid in ids:
        task = Task(episode(eid))
        zero += task.diff_count == 0
        ref = optimal(task)
        if ref.acts is None:
            none.append((eid, ref.bound))
            continue
        if not ref.certified:
            bad.append(eid)
            continue
        lengths.append(ref.length)
        lang += ref.scores["langsuite"].success
        corr += ref.scores["corrected"].success
        run = run_expert(task)
        exp_crash += run.crashed is not None
        exp_steps.append(run.timesteps)
        exp_success += task.score(run.final.scene, "langsuite").success
        exp_corr += task.score(run.final.scene, "corrected").success
    n = len(ids)
    print(f"all {n} episodes in {time.perf_counter() - began:.0f} s: {len(lengths)} optima certified, "
          f"{len(bad)} not {bad[:5]}, {len(none)} without a plan of at most 98 actions {none[:5]}; "
          f"optimum actions mean {statistics.mean(lengths):.1f}, median {statistics.median(lengths)}, "
          f"max {max(lengths)}")
    print(f"the optimal (restoring) plan succeeds under LangSuitE's rule in {lang}/{n}, under the corrected rule in "
          f"{corr}/{n}; {zero} episodes have diff_count 0 (LangSuitE cannot score a success)")
    print(f"LangSuitE's expert: success {exp_success}/{n} (corrected {exp_corr}/{n}), crashes {exp_crash}, "
          f"mean timesteps {statistics.mean(exp_steps):.1f}")


if __name__ == "__main__":
    main()
