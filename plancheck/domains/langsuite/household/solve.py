"""The reference plan of a Household task, replayed through LangSuitE's conversation before it is reported.

``optimal``: the shortest low-level episode LangSuitE scores a success (:mod:`problem`), from the
native A* (:mod:`search`) or Fast Downward on the PDDL compilation (:mod:`pddl`). It is certified when
the conversation (:mod:`rules`), replaying ``YES``, one ``Act:`` reply per action and ``Act: stop``,
accepts every action and LangSuitE's goal check gives ``s == ts`` at the ``stop``.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, replace

from plancheck.domains.langsuite.engine.actions import Act
from plancheck.domains.langsuite.household import search
from plancheck.domains.langsuite.household.problem import MAX_ACTIONS, MAX_NODES, Problem
from plancheck.domains.langsuite.household.rules import Task, Turn, step
from plancheck.errors import BadInputError, CertificationError, PDDLError
from plancheck.solvers.external import PlannerRun
from plancheck.solvers.pipeline import Certified, solve_pddl
from plancheck.solvers.result import SolveResult, Status

PLANNERS = ("native", "fast-downward", "symk")
WORDS = {"MoveAhead": "move_ahead", "TurnLeft": "turn_left", "TurnRight": "turn_right", "PickUp": "pick_up",
         "Put": "put", "Open": "open", "ToggleOn": "toggle_on", "Slice": "slice", "Stop": "stop"}


def plan_replies(task: Task, acts: Sequence[Act]) -> list[str]:
    """A plan as the replies LangSuitE reads (``YES``, ``Act: ...`` lines, ``Act: stop``)."""
    names = task.scene.names
    out = ["YES"]
    for act in acts:
        word = WORDS[act.name]
        if act.receptacle_id is not None:
            out.append(f"Act: {word} [{names[act.object_id]}, {names[act.receptacle_id]}]")
        elif act.object_id is not None:
            out.append(f"Act: {word} [{names[act.object_id]}]")
        else:
            out.append(f"Act: {word}")
    return out + ["Act: stop"]


@dataclass(frozen=True)
class Replay:
    turn: Turn
    problem: str | None


def replay(task: Task, replies: Sequence[str]) -> Replay:
    turn = task.initial()
    for i, reply in enumerate(replies, start=1):
        out = step(task, turn, reply)
        turn = out.turn
        if i > 1 and not out.success:
            why = out.feedback.splitlines()[0] if out.feedback else turn.crashed or "no feedback"
            return Replay(turn, f"LangSuitE refuses reply {i} ({reply!r}): {why}")
        if out.done and i < len(replies):
            return Replay(turn, f"the episode ends at reply {i}" + (f" ({turn.crashed})" if turn.crashed else ""))
    if not turn.stopped or turn.crashed:
        return Replay(turn, "the replies do not end with stop")
    if turn.goal is None or not turn.goal.success:
        return Replay(turn, f"LangSuitE's goal check gives {turn.goal.satisfied if turn.goal else 0} of "
                            f"{turn.goal.total if turn.goal else '?'} conditions at the stop")
    return Replay(turn, None)


@dataclass(frozen=True)
class Reference:
    """The optimal reference of one task and what is known about it."""

    acts: tuple[Act, ...] | None
    replies: tuple[str, ...] | None
    certified: bool
    reason: str
    expanded: int = 0
    seconds: float = 0.0
    bound: int | None = None
    states: int = 0
    complete: bool = True  # the scene-state graph was built whole, so the plan is proven shortest

    @property
    def proven(self) -> bool:
        """Certified by the replay and shortest over the whole reference class."""
        return self.certified and self.complete

    @property
    def actions(self) -> int | None:
        return None if self.acts is None else len(self.acts)

    @property
    def timesteps(self) -> int | None:
        """The opening reply, the actions and the ``stop``."""
        return None if self.acts is None else len(self.acts) + 2


def certify(task: Task, acts: Sequence[Act], expanded: int = 0, seconds: float = 0.0, bound: int | None = None,
            states: int = 0) -> Reference:
    replies = plan_replies(task, acts)
    run = replay(task, replies)
    if run.problem is not None:
        return Reference(tuple(acts), tuple(replies), False, run.problem, expanded, seconds, bound, states)
    return Reference(tuple(acts), tuple(replies), True, "replayed by LangSuitE's conversation: every action succeeds "
                     "and its goal check scores a success at the stop", expanded, seconds, bound, states)


def optimal(task: Task, limit: int = MAX_ACTIONS) -> Reference:
    """The native optimum, replayed."""
    began = time.perf_counter()
    problem = Problem(task)
    whole = True
    if problem.truncated:  # A* expanding the scene states beyond the cut as it reaches them
        found = search.solve_cut(problem, limit)
        if not found.complete:
            whole = False
            found = search.solve(problem, limit)  # a valid plan in the states known, not proven shortest
    else:
        found = search.solve(problem, limit)
    seconds = time.perf_counter() - began
    if not whole:
        cut = (f"the reference problem has more than {MAX_NODES} scene states, and the search beyond them ran out "
               f"of its budget ({search.MAX_OPEN_NODES} more scene states or {search.MAX_OPEN_EXPANDED} expansions)")
        if found.plan is None:
            return Reference(None, None, False, f"{cut} and holds no plan", found.expanded, seconds, None,
                             len(problem.nodes), complete=False)
        ref = certify(task, found.plan, found.expanded, seconds, None, len(problem.nodes))
        return replace(ref, complete=False, reason=f"{ref.reason}; not proven shortest: {cut}")
    if found.plan is None:
        if found.bound >= search.INF:
            why = "no plan of the reference class reaches a state LangSuitE scores a success"
            if problem.kind == "pick_clean_then_place_in_recep" and \
                    not any(problem.things[o].dirtyable for o in problem.objects):
                why += " (the object is not dirtyable, so LangSuitE never registers it as cleaned)"
        else:
            why = f"no plan of at most {limit} actions reaches LangSuitE's success"
        return Reference(None, None, True, why, found.expanded, seconds,
                         None if found.bound >= search.INF else found.bound, len(problem.nodes))
    return certify(task, found.plan, found.expanded, seconds, found.bound, len(problem.nodes))


def _values(ref: Reference) -> dict[str, float]:
    return {"actions": float(ref.actions), "steps": float(ref.timesteps), "success": 1.0}


def solve_task(task: Task, instance_id: str, planner: str = "native", timeout: float = 300.0) -> SolveResult:
    """The optimal plan as LangSuitE replies, from ``planner``, certified by the replay."""
    from plancheck.domains.langsuite.household import pddl

    if planner not in PLANNERS:
        raise BadInputError(f"unknown planner {planner!r}; household offers {', '.join(PLANNERS)}")
    if planner != "native":
        problem = Problem(task)
        if problem.truncated:
            return SolveResult(instance_id, planner, Status.FAILED, message=f"the reference problem has more than "
                               f"{MAX_NODES} scene states; it is not handed to a planner cut")
        files = pddl.export(problem, instance_id)

        def read(steps: tuple[str, ...]) -> list[Act]:
            try:
                return pddl.from_pddl_plan(problem, steps)
            except (KeyError, IndexError, ValueError) as error:
                raise PDDLError(f"a step names what the problem does not have: {error}") from None

        def certified(acts: Sequence[Act], run: PlannerRun) -> Certified:
            ref = certify(task, acts, seconds=run.seconds)
            if not ref.certified:
                raise CertificationError(ref.reason)
            return Certified(ref.replies, _values(ref), run.optimal, message=ref.reason)

        return solve_pddl(instance_id, planner, files[pddl.DOMAIN_FILE], files[f"{instance_id}.pddl"], read=read,
                          certify=certified, timeout=timeout, search="astar(hmax())")
    ref = optimal(task)
    if ref.acts is None:
        return SolveResult(instance_id, planner, Status.UNSOLVABLE if ref.complete else Status.FAILED,
                           seconds=ref.seconds, message=ref.reason,
                           extra={"lower_bound": ref.bound, "scene_states": ref.states})
    return SolveResult(instance_id, planner, Status.SOLVED if ref.certified else Status.FAILED, ref.replies,
                       _values(ref), proven_optimal=ref.proven, seconds=ref.seconds, message=ref.reason,
                       extra={"lower_bound": ref.bound, "expanded": ref.expanded, "scene_states": ref.states})
