"""Crafter's references: the shortest tech-tree sequence to each achievement (three routes, certified),
and the reference policies ``random`` and ``unlock:<achievement>``.

A tech-tree sequence is found by breadth-first search on the native rules (relevant actions only,
see :func:`~plancheck.domains.smartplay.crafter.rules.relevant_actions`), by Fast Downward (A* with
LM-cut on the PDDL) or by pyperplan (breadth-first; only where the goal's relevant actions ground in
reasonable time: the iron recipes' eight level parameters do not). Every plan is replayed on the full
native rules and must unlock the goal at its last action; it is reported optimal only when its length
equals the native search's (exhaustive) and the planner claims optimality.
"""

from __future__ import annotations

import random
import time

from plancheck.domains.smartplay.crafter import pddl, prompts, rules, timing
from plancheck.domains.smartplay.crafter.mapsearch import MAP_GOALS
from plancheck.episodes.game import Replies
from plancheck.errors import BadInputError
from plancheck.solvers.external import PlannerRun, run_fast_downward, run_pyperplan
from plancheck.solvers.result import SolveResult, Status
from plancheck.solvers.search import breadth_first_search

PLANNERS = ("native", "fast-downward", "pyperplan")
POLICIES = ("random", "survivor", *(f"unlock:{goal}" for goal in MAP_GOALS))
PYPERPLAN_PARAMETERS = 6  # the most level parameters of an action pyperplan is asked to ground


def native_tree_plan(achievement: str) -> tuple[str, ...]:
    """The shortest tech-tree sequence by breadth-first search (timed achievements: their exact count)."""
    if achievement == "wake_up":
        return timing.wake_up_plan()
    if achievement == "eat_plant":
        return timing.eat_plant_plan()
    result = breadth_first_search(rules.TechTree(achievement, prune=True))
    if result.plan is None:
        raise AssertionError(f"every Crafter achievement can be unlocked; {achievement} was not")
    return tuple(result.plan)


def replays(achievement: str, plan: tuple[str, ...]) -> tuple[bool, str]:
    """Whether ``plan`` unlocks ``achievement`` on the full tech-tree rules exactly at its last action."""
    state = rules.TreeState()
    for index, action in enumerate(plan, start=1):
        if achievement in state.unlocked:
            return False, f"the goal is unlocked before action {index}"
        outcome = rules.step(state, action)
        if not outcome.ok:
            return False, f"action {index} ({action}): {outcome.reason}"
        state = outcome.state
    return (True, "") if achievement in state.unlocked else (False, "the goal is not unlocked")


def _planner(achievement: str, planner: str, timeout: float) -> PlannerRun:
    if planner == "fast-downward":
        domain, problem = pddl.export(achievement).values()
        return run_fast_downward(domain, problem, search="astar(lmcut())", timeout=timeout)
    domain_model = pddl.tree_domain(rules.relevant_actions(achievement))
    widest = max(len(a.params) for a in domain_model.actions.values())
    if widest > PYPERPLAN_PARAMETERS:
        return PlannerRun("pyperplan", Status.UNSUPPORTED, None, None, 0.0, False,
                          f"pyperplan grounds every combination of {widest} level parameters (10^{widest}); "
                          "not offered for this goal")
    domain, problem = pddl.export(achievement, prune=True).values()
    return run_pyperplan(domain, problem, timeout=timeout)


def solve_tree(achievement: str, planner: str = "native", timeout: float = 300.0) -> SolveResult:
    """The shortest tech-tree sequence to ``achievement`` by ``planner``, replayed and certified."""
    if planner not in PLANNERS:
        raise BadInputError(f"unknown planner {planner!r}; the crafter tree offers {', '.join(PLANNERS)}")
    start = time.perf_counter()
    optimum = native_tree_plan(achievement)
    if planner == "native" or achievement in rules.TIMED:
        if planner != "native":
            return SolveResult(achievement, planner, Status.UNSUPPORTED, message=f"{achievement} depends on time, "
                               "not items: it has no PDDL model (the native count is exact)")
        ok, why = (True, "") if achievement in rules.TIMED else replays(achievement, optimum)
        return SolveResult(achievement, planner, Status.SOLVED if ok else Status.FAILED, optimum,
                           {"actions": len(optimum)}, ok, time.perf_counter() - start, why)
    run = _planner(achievement, planner, timeout)
    if run.status is not Status.SOLVED or run.plan is None:
        return SolveResult(achievement, planner, run.status, message=run.message, seconds=run.seconds)
    plan = tuple(pddl.from_pddl_steps([step.strip("()").split() for step in run.plan]))
    ok, why = replays(achievement, plan)
    proven = ok and run.optimal and len(plan) == len(optimum)
    message = why or ("" if proven else f"not proven optimal: {len(plan)} actions, the native optimum is "
                      f"{len(optimum)}")
    return SolveResult(achievement, planner, Status.SOLVED if ok else Status.FAILED, plan, {"actions": len(plan)},
                       proven, run.seconds, message, {"native_optimum": len(optimum)})


class RandomPolicy:
    """A uniformly random SmartPlay action each step, from its own seeded generator."""

    def __init__(self, seed: int):
        self.random = random.Random(f"plancheck crafter random policy {seed}")

    def replies(self, step: int, game) -> Replies:
        return Replies(self.random.choice(prompts.ACTIONS))


class UnlockPolicy:
    """The certified shortest unlock of ``goal`` on this seed's map (it reads the game), then Noop.

    The map search is capped (300,000 states); a goal it cannot reach in that is played as Noop only.
    """

    def __init__(self, goal: str, game):
        from plancheck.domains.smartplay.crafter.realmap import certify_unlock

        self.goal, self.game, self._plan = goal, game, None
        self._certify = certify_unlock

    def replies(self, step: int, game) -> Replies:
        if self._plan is None:
            unlock = self._certify(game.seed, self.goal, game.episode, game=game, max_expansions=300_000)
            self._plan = unlock.smartplay_actions or ()
        return Replies(self._plan[step - 1] if step <= len(self._plan) else "Noop")


def policy(name: str, game, seed: int):
    """The reference policy ``name`` for ``game``."""
    if name == "random":
        return RandomPolicy(seed)
    if name == "survivor":
        from plancheck.domains.smartplay.crafter.survivor import SurvivorPolicy

        return SurvivorPolicy(game)
    if name.startswith("unlock:") and name[7:] in MAP_GOALS:
        return UnlockPolicy(name[7:], game)
    raise BadInputError(f"unknown reference policy {name!r}; Crafter has {', '.join(POLICIES)}")
