"""The reference plans of an IQA episode, each replayed through LangSuitE's conversation before it is reported.

``optimal``: the shortest evidence-gathering plan (:mod:`problem`), from the native A* (:mod:`search`)
or a classical planner on the PDDL compilation (:mod:`pddl`), then ``answer [<gold>]``. It is
certified when the conversation (:mod:`rules`), replaying the replies from the seed's start,
accepts every action, ends with LangSuitE's "Your are right!", and **its messages' text** shows the
evidence: every needed object's name appears, every needed container was opened (or listed), and
for a "yes" to a contains question, an object of the class is listed in a receptacle of the type
(after ``open``, or as ``a <receptacle>; <objects> in/on it``). That text check does not use the
symbolic model the search used.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from dataclasses import dataclass

from plancheck.domains.langsuite.engine.agent import Pose
from plancheck.domains.langsuite.iqa import search
from plancheck.domains.langsuite.iqa.problem import MAX_ACTIONS, Evidence
from plancheck.domains.langsuite.iqa.rules import Task, Turn, step
from plancheck.errors import BadInputError, CertificationError, PDDLError
from plancheck.solvers.external import PlannerRun
from plancheck.solvers.pipeline import Certified, solve_pddl
from plancheck.solvers.result import SolveResult, Status

PLANNERS = ("native", "fast-downward", "symk")
_LISTING = re.compile(r"a ([^\s;,]+); ([^;]*?) in/on it")


def plan_replies(task: Task, plan: Sequence[tuple[str, str | None]]) -> list[str]:
    """A plan as the replies LangSuitE reads: ``YES``, one ``Act: ...`` per action, the answer."""
    names = task.scene.names
    out = ["YES"]
    for word, oid in plan:
        out.append(f"Act: {word}" if oid is None else f"Act: {word} [{names[oid]}]")
    return out + [f"answer [{task.gold}]"]


def _named(name: str, text: str) -> bool:
    return re.search(r"(?<![A-Za-z0-9_|])" + re.escape(name) + r"(?![A-Za-z0-9_|])", text) is not None


@dataclass(frozen=True)
class Replay:
    """Replies run through the conversation: the end, the messages LangSuitE sent, the first problem."""

    turn: Turn
    messages: tuple[str, ...]
    problem: str | None


def replay(task: Task, seed: int | None, replies: Sequence[str], start: Pose | None = None) -> Replay:
    """``replies`` from ``seed``'s start (or ``start``)."""
    turn = task.start_at(start) if start is not None else task.initial(seed)
    messages: list[str] = []
    for i, reply in enumerate(replies, start=1):
        out = step(task, turn, reply)
        turn = out.turn
        if not out.done:
            messages.append(out.feedback)
        if i > 1 and not out.done and not out.success:
            return Replay(turn, tuple(messages), f"LangSuitE refuses reply {i} ({reply!r}): {out.feedback[:120]}")
        if out.done:
            if i < len(replies):
                return Replay(turn, tuple(messages), f"the episode ends at reply {i} ({turn.ended})")
            break
    if not turn.done or turn.ended != "answer":
        return Replay(turn, tuple(messages), "the replies do not end with the answer")
    if not turn.right:
        return Replay(turn, tuple(messages), "LangSuitE says the answer is wrong")
    return Replay(turn, tuple(messages), None)


def missing_evidence(problem: Evidence, run: Replay, plan: Sequence[tuple[str, str | None]]) -> list[str]:
    """What the messages do not show of the evidence the question needs (read from the text alone)."""
    task, names = problem.task, problem.scene.names
    text = "\n".join(run.messages)
    opened = {oid for word, oid in plan if word == "open"}
    need_all, need_any = problem.goal

    def holds(fact: str) -> bool:
        kind, _, oid = fact.partition(":")
        if kind == "seen":
            return _named(names[oid], text)
        if kind == "checked":
            return oid in opened or any(parent == names[oid] for parent, _ in _LISTING.findall(text))
        return _found(problem, run, plan)

    facts = [f for f in problem.facts if problem.fact_bit[f] & need_all]
    missing = [f for f in facts if not holds(f)]
    options = [f for f in problem.facts if problem.fact_bit[f] & need_any]
    if options and not any(holds(f) for f in options):
        missing.append("one of " + ", ".join(options))
    del task
    return missing


def _found(problem: Evidence, run: Replay, plan: Sequence[tuple[str, str | None]]) -> bool:
    q, names, scene = problem.task.question, problem.scene.names, problem.scene
    wanted = {names[o] for o in problem.instances}
    of_type = {names[t.id] for t in scene.nodes.values() if t.object_type == q.receptacle}
    for parent, listed in _LISTING.findall("\n".join(run.messages)):
        if parent in of_type and wanted & {n.strip() for n in listed.split(",")}:
            return True
    messages = iter(run.messages[1:])  # the message after each action (the first one is the start)
    for (word, oid), message in zip(plan, messages):
        if word == "open" and names[oid] in of_type and "In/on it you see" in message:
            listed = message.split("In/on it you see", 1)[1]
            if any(_named(w, listed) for w in wanted):
                return True
    return False


@dataclass(frozen=True)
class Reference:
    """The optimal reference of one episode and what is known about it."""

    plan: tuple[tuple[str, str | None], ...] | None
    replies: tuple[str, ...] | None
    certified: bool
    reason: str
    expanded: int = 0
    seconds: float = 0.0
    bound: int | None = None
    timed_out: bool = False

    @property
    def actions(self) -> int | None:
        return None if self.plan is None else len(self.plan)

    @property
    def timesteps(self) -> int | None:
        """The opening reply, the actions and the answer."""
        return None if self.plan is None else len(self.plan) + 2


def certify(problem: Evidence, plan: Sequence[tuple[str, str | None]], expanded: int = 0, seconds: float = 0.0,
            bound: int | None = None) -> Reference:
    replies = plan_replies(problem.task, plan)
    run = replay(problem.task, problem.seed, replies, problem.start)
    if run.problem is not None:
        return Reference(tuple(plan), tuple(replies), False, run.problem, expanded, seconds, bound)
    missing = missing_evidence(problem, run, plan)
    if missing:
        return Reference(tuple(plan), tuple(replies), False, "the messages do not show " + "; ".join(missing),
                         expanded, seconds, bound)
    return Reference(tuple(plan), tuple(replies), True, "replayed by LangSuitE's conversation: every action "
                     "succeeds, the answer is right and the messages show the evidence", expanded, seconds, bound)


def optimal(task: Task, seed: int | None, limit: int = MAX_ACTIONS, start: Pose | None = None,
            timeout: float | None = None) -> Reference:
    """The native optimum from ``seed``'s start (or from ``start``), replayed; the search stops after
    ``timeout`` seconds (then no plan, the bound it proved, and ``timed_out``)."""
    began = time.perf_counter()
    problem = Evidence(task, seed, at=start)
    found = search.solve(problem, limit, None if timeout is None else began + timeout)
    seconds = time.perf_counter() - began
    if found.timed_out:
        return Reference(None, None, False, f"the search ran out of its {timeout:g} s (--timeout) before finding a "
                         f"plan; none has fewer than {found.bound} actions", found.expanded, seconds, found.bound,
                         timed_out=True)
    if found.plan is None:
        if found.bound >= search.INF:
            why = "no evidence can be gathered: some needed fact is shown at no reachable pose"
        else:
            why = f"no plan of at most {limit} actions gathers the evidence (lower bound {found.bound} actions)"
        return Reference(None, None, True, why, found.expanded, seconds,
                         None if found.bound >= search.INF else found.bound)
    return certify(problem, found.plan, found.expanded, seconds, found.bound)


def _values(ref: Reference) -> dict[str, float]:
    return {"actions": float(ref.actions), "steps": float(ref.timesteps), "correct": 1.0}


def solve_episode(task: Task, instance_id: str, seed: int, planner: str = "native",
                  timeout: float = 300.0) -> SolveResult:
    """The optimal plan as LangSuitE replies, from ``planner``, certified by the replay."""
    from plancheck.domains.langsuite.iqa import pddl

    if planner not in PLANNERS:
        raise BadInputError(f"unknown planner {planner!r}; iqa offers {', '.join(PLANNERS)}")
    if planner != "native":
        problem = Evidence(task, seed)
        files = pddl.export(problem, instance_id)

        def read(steps: tuple[str, ...]) -> list[tuple[str, str | None]]:
            try:
                return pddl.from_pddl_plan(problem, steps)
            except (KeyError, IndexError, ValueError) as error:
                raise PDDLError(f"a step names what the problem does not have: {error}") from None

        def certified(plan: Sequence[tuple[str, str | None]], run: PlannerRun) -> Certified:
            ref = certify(problem, plan, seconds=run.seconds)
            if not ref.certified:
                raise CertificationError(ref.reason)
            return Certified(ref.replies, _values(ref), run.optimal, message=ref.reason)

        return solve_pddl(instance_id, planner, files[pddl.DOMAIN_FILE], files[f"{instance_id}-{seed}.pddl"],
                          read=read, certify=certified, timeout=timeout, search="astar(hmax())")
    ref = optimal(task, seed, timeout=timeout)
    if ref.plan is None:
        return SolveResult(instance_id, planner, Status.TIMEOUT if ref.timed_out else Status.UNSOLVABLE,
                           seconds=ref.seconds, message=ref.reason,
                           extra={"lower_bound": ref.bound, "seed": seed})
    return SolveResult(instance_id, planner, Status.SOLVED if ref.certified else Status.FAILED, ref.replies,
                       _values(ref), proven_optimal=ref.certified, seconds=ref.seconds, message=ref.reason,
                       extra={"lower_bound": ref.bound, "expanded": ref.expanded, "seed": seed})
