"""Short plans for the two BabyAI instances the exact search found hardest (BossLevel 70 and 81).

Both missions need an object carried through a locked door whose key lies elsewhere. Both plans
turned out optimal: the abstraction proved 115 for 81, ``benchmarks/babyai_boss70_bound.py`` 146 for
70 (docs/babyai.md). Each plan is built in two parts, both found by A*: the shortest way to unlock
the door (a key fetched and carried to it, with the transport bound's ``unlock`` estimate), then the
exact A* from that state to the end of the mission (optimal from there). By construction the whole
plan is only an upper bound on the optimum (a plan that unlocks later, or moves another object
first, could be shorter). Every plan is replayed in minigrid and must succeed exactly on its last
action; the script prints it.

    python benchmarks/babyai_best_known.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from plancheck.domains.babyai.extract import load_instance  # noqa: E402
from plancheck.domains.babyai.instance import LOCKED, OPEN  # noqa: E402
from plancheck.domains.babyai.references import replay_in_minigrid  # noqa: E402
from plancheck.domains.babyai.rules import BabyAIRules  # noqa: E402
from plancheck.domains.babyai.search.astar import Model, astar, mission_goal  # noqa: E402
from plancheck.domains.babyai.search.heuristic import MissionHeuristic  # noqa: E402
from plancheck.domains.babyai.search.transport import TransportBound  # noqa: E402
from plancheck.solvers.result import Status  # noqa: E402

SEEDS = (70, 81)


def main() -> None:
    print(f"{'instance':16} {'unlock (shortest)':>17} {'rest (optimal)':>14} {'plan':>5} {'minigrid':>8} {'s':>5}")
    for seed in SEEDS:
        began = time.perf_counter()
        instance = load_instance("BabyAI-BossLevel-v0", seed)
        rules = BabyAIRules(instance)
        door = instance.start.doors.index(LOCKED)
        model = Model(rules)
        bound = TransportBound(model)
        unlock = astar(model, instance.start, lambda cid, pose: bound.unlock(cid, pose, door),
                       lambda cid, pose: model.configs[cid].doors[door] == OPEN, horizon=instance.max_steps)
        if unlock.status is not Status.SOLVED:
            raise SystemExit(f"BossLevel {seed}: the door cannot be unlocked ({unlock.status.value})")
        state = instance.start
        for action in unlock.plan:
            state = rules.step(state, action).state
        model = Model(rules)
        rest = astar(model, state, MissionHeuristic(model), mission_goal(model),
                     horizon=instance.max_steps - unlock.cost)
        if rest.status is not Status.SOLVED:
            raise SystemExit(f"BossLevel {seed}: no plan after the unlock ({rest.status.value})")
        plan = tuple(unlock.plan) + tuple(rest.plan)
        replay = replay_in_minigrid(instance, plan)
        print(f"BossLevel {seed:<6} {unlock.cost:>17} {rest.cost:>14} {len(plan):>5} "
              f"{replay.success_step if replay.exact else 'FAILS':>8} {time.perf_counter() - began:>5.1f}")
        print("  " + " ".join(action.name for action in plan))


if __name__ == "__main__":
    main()
