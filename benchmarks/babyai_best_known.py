"""The shortest known plans for the two BabyAI instances whose optimum is still open (BossLevel 70, 81).

Both missions need an object carried through a locked door whose key lies elsewhere, and the exact
searches' estimate lets the agent hold the key and that object at once, so their lower bounds rise
slowly (docs/babyai.md). Their plans are built in two parts: a route of Decompose subgoals run by the
subgoal helper up to the toggle that unlocks the door, then the exact A* from that state to the end
(its part is optimal from there: the suffix estimate has no such shortcut left). Every plan is
replayed in minigrid and must succeed exactly on its last action; it is an upper bound on the optimum.

    python benchmarks/babyai_best_known.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from plancheck.domains.babyai.extract import load_instance  # noqa: E402
from plancheck.domains.babyai.references import replay_in_minigrid  # noqa: E402
from plancheck.domains.babyai.rules import Action, BabyAIRules  # noqa: E402
from plancheck.domains.babyai.tasks import Subgoal  # noqa: E402
from plancheck.solvers.babyai_heuristic import MissionHeuristic  # noqa: E402
from plancheck.solvers.babyai_search import Model, astar, mission_goal  # noqa: E402
from plancheck.solvers.babyai_subgoals import Helper  # noqa: E402
from plancheck.solvers.result import Status  # noqa: E402

# seed: (route as subgoals, the locked door's cell); the route goes on past the door only to show its whole length
ROUTES = {
    70: ("(3, 2) Pickup (14, 2) Open (10, 5) Pickup (18, 1) Pickup (17, 16) Drop", (14, 2)),
    81: ("(11, 14) Open (12, 16) Pickup (14, 5) Open (19, 6) Pickup (8, 10) Drop (8, 9) Pickup (9, 10) Drop", (14, 5)),
}


def subgoals(route: str) -> list[Subgoal]:
    out, words = [], route.replace(",", " ").replace("(", " ").replace(")", " ").split()
    while words:
        word = words.pop(0)
        if word.isdigit():
            out.append(Subgoal("GoNextToSubgoal", (int(word), int(words.pop(0)))))
        else:
            out.append(Subgoal(word + "Subgoal"))
    return out


def main() -> None:
    print(f"{'instance':16} {'route':>5} {'unlock at':>9} {'rest (optimal)':>14} {'plan':>5} {'minigrid':>8} {'s':>5}")
    for seed, (route, door) in ROUTES.items():
        began = time.perf_counter()
        instance = load_instance("BabyAI-BossLevel-v0", seed)
        rules = BabyAIRules(instance)
        run = Helper(rules).run(subgoals(route))
        actions = [a for step in run.steps for a in step.actions]
        state, cut = instance.start, None
        for i, action in enumerate(actions):
            before = state
            state = rules.step(state, action).state
            if action is Action.toggle and before.front == door:
                cut = i + 1
                break
        model = Model(rules)
        rest = astar(model, state, MissionHeuristic(model), mission_goal(model), horizon=instance.max_steps - cut)
        if rest.status is not Status.SOLVED:
            raise SystemExit(f"BossLevel {seed}: no plan after the unlock ({rest.status.value})")
        plan = tuple(actions[:cut]) + tuple(rest.plan)
        replay = replay_in_minigrid(instance, plan)
        print(f"BossLevel {seed:<6} {len(actions):>5} {cut:>9} {rest.cost:>14} {len(plan):>5} "
              f"{replay.success_step if replay.exact else 'FAILS':>8} {time.perf_counter() - began:>5.1f}")
        print("  " + " ".join(a.name for a in plan))


if __name__ == "__main__":
    main()
