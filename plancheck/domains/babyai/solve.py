"""Plans for BabyAI instances from the named planners, each replayed in minigrid before it is reported.

* ``astar`` (default): the native optimal search; certified when minigrid succeeds exactly on the
  plan's last action.
* ``abstraction``: A* on a coarser model that forgets the objects which can no longer matter,
  refined with the obstacles its plan runs into until that plan is concrete (optimal; far faster
  where the concrete search drowns in moved distractors and dropped keys).
* ``bfs``: the same search without its heuristic (a slower, independent check of the optimum).
* ``wastar``: weighted A* (``weight`` w, default 2): far faster on large missions; the plan is at
  most w times the optimum, so length / w is a proven lower bound on the optimum.
* ``fast-downward``: Fast Downward (``astar(blind())``, optimal) on the exported PDDL; its plan is
  mapped to minigrid actions and replayed like the others.
* ``babybench-bot``: LLM-BabyBench's own modified, omniscient bot (the benchmark's references);
  ``bot`` / ``omniscient-bot``: minigrid's ``BabyAIBot`` (partial view) / with the whole map.

``decompose`` adds the plan's subgoal list (the Decompose expert list).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from functools import partial

from plancheck.domains.babyai.bot import run_bot
from plancheck.domains.babyai.instance import Instance
from plancheck.domains.babyai.pddl import domain_text, plan_actions, problem_text
from plancheck.domains.babyai.references import optimal_plan, replay_in_minigrid
from plancheck.domains.babyai.rules import Action, BabyAIRules
from plancheck.domains.babyai.search.abstract import abstract_optimum
from plancheck.domains.babyai.search.astar import Model, astar, mission_goal
from plancheck.domains.babyai.subgoals import decompose
from plancheck.errors import BadInputError, CertificationError
from plancheck.solvers.pipeline import Certified, solve_pddl
from plancheck.solvers.result import SolveResult, Status

PLANNERS = ("astar", "abstraction", "wastar", "bfs", "fast-downward", "babybench-bot", "bot", "omniscient-bot")
_BOTS = {"babybench-bot": "babybench", "bot": "minigrid", "omniscient-bot": "omniscient"}


def solve(instance: Instance, planner: str = "astar", *, timeout: float = 300.0, weight: float = 2.0,
          report: Callable[[int, int | None], None] | None = None) -> SolveResult:
    """Solve with ``planner``; the searches tell ``report(expanded, bound)`` how far they got now and
    then (bound: a proven lower bound on the optimum; None for weighted A*, whose f is none)."""
    if planner not in PLANNERS:
        raise BadInputError(f"unknown BabyAI planner {planner!r}; known: {', '.join(PLANNERS)}")
    if planner == "wastar" and not 1.0 <= weight < math.inf:
        raise BadInputError(f"must be a finite number >= 1 (got {weight:g})", option="weight")
    began = time.perf_counter()
    optimal_claim, message, bound = False, "", {}
    if planner in ("astar", "abstraction", "wastar", "bfs"):
        if planner in ("astar", "wastar"):
            if planner == "wastar" and report is not None:
                report = partial(_without_bound, report)
            result = optimal_plan(instance, timeout=timeout, weight=weight if planner == "wastar" else 1.0,
                                  report=report)
        elif planner == "abstraction":
            result = abstract_optimum(instance, deadline=time.monotonic() + timeout, report=report)
        else:
            model = Model(BabyAIRules(instance))
            result = astar(model, instance.start, lambda cid, pose: 0, mission_goal(model),
                           horizon=instance.max_steps, deadline=time.monotonic() + timeout, report=report)
        status, plan = result.status, result.plan
        optimal_claim = status is Status.SOLVED and (planner != "wastar" or weight == 1.0)
        message = f"{result.expanded} states expanded"
        if status is Status.SOLVED and not optimal_claim:
            bound = {"weight": weight, "optimum_at_least": math.ceil(len(plan) / weight)}
            message += (f"; weighted A* (w = {weight:g}): at most {weight:g} times the optimum, so the optimum "
                        f"is at least {bound['optimum_at_least']} actions")
        if status is Status.TIMEOUT:
            message += (f"; no plan {'found' if planner == 'wastar' else 'proven optimal'} within the {timeout:g} s "
                        f"limit (the timeout option)")
            if planner != "wastar":
                message += (f"; the optimum is at least {result.bound:g} actions (the wastar planner finds a plan "
                            f"within a proven factor of it)")
    elif planner == "fast-downward":
        return solve_pddl(instance.id, planner, domain_text(), problem_text(instance), read=plan_actions,
                          certify=lambda plan, run: _certified(instance, plan, run.optimal), timeout=timeout)
    else:
        bot = run_bot(instance, _BOTS[planner])
        status = Status.SOLVED if bot.success else Status.FAILED
        plan, message = (bot.actions if bot.success else None), bot.error or ""
    seconds = time.perf_counter() - began
    if plan is None:
        return SolveResult(instance.id, planner, status, None, seconds=seconds, message=message)
    try:
        certified = _certified(instance, tuple(plan), optimal_claim)
    except CertificationError as error:
        return SolveResult(instance.id, planner, Status.FAILED, tuple(str(a) for a in plan), {"length": len(plan)},
                           seconds=seconds, message=str(error))
    return SolveResult(instance.id, planner, Status.SOLVED, certified.plan, certified.values, certified.optimal,
                       seconds, message, {**bound, **certified.extra})


def _certified(instance: Instance, plan: tuple[Action, ...], claims_optimal: bool) -> Certified:
    """A plan that succeeds in minigrid exactly on its last action, with its subgoals (else CertificationError)."""
    replay = replay_in_minigrid(instance, tuple(plan))
    if not replay.exact:
        raise CertificationError(f"replayed in minigrid, the plan does not succeed exactly on its last action "
                                 f"(success at step {replay.success_step})")
    extra = {"minigrid_success_step": replay.success_step,
             "subgoals": [str(s) for s in decompose(BabyAIRules(instance), instance.start, plan)]}
    return Certified(tuple(str(a) for a in plan), {"length": len(plan)}, claims_optimal, extra)


def _without_bound(report: Callable[[int, int | None], None], expanded: int, f: int) -> None:
    report(expanded, None)
