"""Reference plans for a Rearrangement episode, each replayed by the engine before it is reported.

* ``optimal``: the shortest plan of the reference class (:mod:`problem`), from the native A*
  (:mod:`search`) or from a classical planner on the PDDL compilation (:mod:`pddl`); certified when
  the engine, replaying it from the exact start floats, accepts every action and ends in the
  ``restore`` goal.
* ``expert``: LangSuitE's own expert (:mod:`expert`), for comparison.

Each reference reports its length in actions, the episode's timesteps (the opening reply, the
actions and the ``stop``), and LangSuitE's numbers at its end under both metric rules.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from plancheck.domains.langsuite.engine.actions import Act, WorldState
from plancheck.domains.langsuite.rearrangement import search
from plancheck.domains.langsuite.rearrangement.problem import MAX_ACTIONS, Problem, restored
from plancheck.domains.langsuite.rearrangement.rules import Task
from plancheck.domains.langsuite.rearrangement.scoring import Score
from plancheck.errors import BadInputError, CertificationError, PDDLError
from plancheck.solvers.external import PlannerRun
from plancheck.solvers.pipeline import Certified, solve_pddl
from plancheck.solvers.result import SolveResult, Status

WORD_TO_ACTION = {"move_ahead": "MoveAhead", "turn_left": "TurnLeft", "turn_right": "TurnRight",
                  "pick_up": "PickUp", "drop": "Drop", "open": "Open", "close": "Close"}


@dataclass(frozen=True)
class Replay:
    """An action list run by the engine: the first refused action (if any) and the end state."""

    final: WorldState
    refused: tuple[int, str] | None  # (1-based action index, feedback)
    missing: tuple[str, ...]  # what keeps the end from the restore goal

    @property
    def valid(self) -> bool:
        return self.refused is None and not self.missing


def to_acts(plan) -> list[Act]:
    return [Act(WORD_TO_ACTION[w], o) for w, o in plan]


def replay(task: Task, acts: list[Act]) -> Replay:
    state = task.initial().world
    for i, act in enumerate(acts, start=1):
        result = task.engine.execute(state, act)
        if not result.success:
            return Replay(state, (i, result.feedback), ())
        state = result.state
    return Replay(state, None, tuple(restored(task, state.scene, bool(state.inventory))))


@dataclass(frozen=True)
class Reference:
    """One reference plan and what is known about it."""

    kind: str  # optimal | expert
    acts: tuple[Act, ...] | None
    length: int | None  # actions
    certified: bool
    reason: str
    scores: dict[str, Score] = field(default_factory=dict)
    expanded: int = 0
    seconds: float = 0.0
    bound: int | None = None

    @property
    def timesteps(self) -> int | None:
        return None if self.length is None else self.length + 2


def optimal(task: Task, limit: int = MAX_ACTIONS) -> Reference:
    """The native optimum, replayed by the engine."""
    began = time.perf_counter()
    problem = Problem(task)
    found = search.solve(problem, limit)
    seconds = time.perf_counter() - began
    if found.plan is None:
        if found.bound >= search.INF:
            why = (f"no plan reaches the goal: from the {len(problem.lattice)} poses the agent can reach, some mover "
                   "cannot be picked up or cannot be dropped in its goal region")
        else:
            why = f"no plan of at most {limit} actions reaches the goal (relaxed lower bound {found.bound})"
        return Reference("optimal", None, None, True, why, expanded=found.expanded, seconds=seconds,
                         bound=None if found.bound >= search.INF else found.bound)
    return certify(task, "optimal", to_acts(found.plan), found.expanded, seconds, found.bound)


def certify(task: Task, kind: str, acts: list[Act], expanded: int = 0, seconds: float = 0.0,
            bound: int | None = None) -> Reference:
    run = replay(task, acts)
    scores = {rule: task.score(run.final.scene, rule) for rule in ("langsuite", "corrected")}
    if run.refused is not None:
        i, feedback = run.refused
        reason = f"the engine refuses action {i} ({acts[i - 1]}): {feedback.splitlines()[0]}"
    elif run.missing:
        reason = "the plan ends short of the goal: " + "; ".join(run.missing)
    else:
        reason = "replayed by the engine: every action succeeds and the goal is reached"
    return Reference(kind, tuple(acts), len(acts), run.valid, reason, scores, expanded, seconds, bound)


PLANNERS = ("native", "fast-downward", "symk")


def _values(ref: Reference) -> dict[str, float]:
    return {"actions": float(ref.length), "steps": float(ref.timesteps),
            "success": float(ref.scores["langsuite"].success),
            "success_corrected": float(ref.scores["corrected"].success)}


def solve_episode(task: Task, instance_id: str, planner: str = "native", timeout: float = 300.0) -> SolveResult:
    """The optimal plan of an episode as LangSuitE replies (``Act: ...``), from ``planner``, certified by the engine.

    External planners go through the shared PDDL pipeline (A* with h^max for Fast Downward).
    """
    from plancheck.domains.langsuite.rearrangement import pddl
    from plancheck.domains.langsuite.rearrangement.check import plan_replies

    if planner not in PLANNERS:
        raise BadInputError(f"unknown planner {planner!r}; rearrangement offers {', '.join(PLANNERS)}")
    if planner != "native":
        problem = Problem(task)
        files = pddl.export(problem)

        def read(steps: tuple[str, ...]) -> list[Act]:
            try:
                return to_acts(pddl.from_pddl_plan(problem, steps))
            except (KeyError, IndexError) as error:
                raise PDDLError(f"a step names what the problem does not have: {error}") from None

        def certified(acts: Sequence[Act], run: PlannerRun) -> Certified:
            ref = certify(task, "optimal", list(acts), seconds=run.seconds)
            if not ref.certified:
                raise CertificationError(ref.reason)
            return Certified(tuple(plan_replies(task, ref.acts)), _values(ref), run.optimal, message=ref.reason)

        return solve_pddl(instance_id, planner, files[pddl.DOMAIN_FILE], files[f"{instance_id}.pddl"], read=read,
                          certify=certified, timeout=timeout, search="astar(hmax())")
    ref = optimal(task)
    if ref.acts is None:
        return SolveResult(instance_id, planner, Status.UNSOLVABLE, seconds=ref.seconds, message=ref.reason)
    return SolveResult(instance_id, planner, Status.SOLVED if ref.certified else Status.FAILED,
                       tuple(plan_replies(task, ref.acts)), _values(ref), proven_optimal=ref.certified,
                       seconds=ref.seconds, message=ref.reason, extra={"lower_bound": ref.bound,
                                                                     "expanded": ref.expanded})
