"""Run a sequence of actions on a world's rules and record what happened at every step.

One run serves both semantics. Under the benchmark semantics a rejected action is a no-op that
uses a step, actions past the horizon are ignored and (for worlds that stop at the goal) actions
after the goal are ignored. The strict (VAL-like) verdict is read off the same run: the plan is
valid iff no executed step was rejected and no action was left unexecuted, neither cut off by the
horizon nor following the goal (a VAL run executes every action of a plan, and one that goes on
past the goal usually undoes it: in Hanoi any further move does).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from enum import Enum
from itertools import islice
from typing import Any, Generic, NamedTuple, TypeVar

from plancheck.rules import Rules

S = TypeVar("S", bound=Hashable)
A = TypeVar("A", bound=Hashable)


class StopReason(str, Enum):
    """Why execution ended."""

    ALL_EXECUTED = "all actions executed"
    HORIZON = "step limit reached"
    GOAL = "goal reached"


class StepRecord(NamedTuple):
    """Step ``index`` (1-based): the action, whether it applied, why not, and the state after it.

    A NamedTuple, not a frozen dataclass: just as immutable and a third of the cost to build, and
    one is built per executed step. (A generic NamedTuple needs Python 3.11, hence ``Any``.)
    """

    index: int
    action: Any
    ok: bool
    state: Any
    reason: str | None = None
    unmet: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Trace(Generic[S, A]):
    """The full record of one execution."""

    initial: S
    steps: tuple[StepRecord, ...]
    ignored: int
    stop: StopReason
    goal_step: int | None
    horizon: int | None
    tail_after_goal_ok: bool = False  # actions left after the goal do not break strict validity

    @property
    def final(self) -> S:
        return self.steps[-1].state if self.steps else self.initial

    @property
    def first_rejected(self) -> StepRecord | None:
        for s in self.steps:
            if not s.ok:
                return s
        return None

    @property
    def rejected_count(self) -> int:
        return sum(1 for s in self.steps if not s.ok)

    @property
    def strictly_valid(self) -> bool:
        """VAL semantics: every action of the plan was executed and applied."""
        return self.strict_failure() is None

    def strict_failure(self) -> tuple[int, str] | None:
        """The first strict failure as (step, plain-words reason), or None when strictly valid."""
        bad = self.first_rejected
        if bad is not None:
            return bad.index, bad.reason or "the action is not applicable"
        if not self.ignored or (self.stop is StopReason.GOAL and self.tail_after_goal_ok):
            return None
        step, total = len(self.steps) + 1, len(self.steps) + self.ignored
        if self.stop is StopReason.GOAL:
            return step, (f"the goal is reached at step {self.goal_step} but the plan goes on with {self.ignored} "
                          "more action(s), which the episode does not run")
        return step, f"the plan has {total} actions but the step limit is {self.horizon}"


def execute(rules: Rules[S, A], actions: Sequence[A]) -> Trace[S, A]:
    """Execute ``actions`` under the benchmark semantics, recording every step.

    >>> from plancheck.rules import Applied, Rejected
    >>> class Counter:
    ...     horizon, stops_at_goal = 3, True
    ...     def initial_state(self): return 0
    ...     def step(self, s, a): return Applied(s + a) if a > 0 else Rejected("not positive")
    ...     def goal_reached(self, s): return s >= 5
    >>> t = execute(Counter(), [2, -1, 4, 1])
    >>> (t.final, t.goal_step, t.ignored, t.stop.name, t.strictly_valid)
    (6, 3, 1, 'GOAL', False)
    """
    initial = state = rules.initial_state()
    horizon = rules.horizon
    limit = len(actions) if horizon is None else min(horizon, len(actions))
    stops_at_goal = rules.stops_at_goal
    records: list[StepRecord] = []
    goal_step: int | None = 0 if rules.goal_reached(state) else None
    stop = StopReason.ALL_EXECUTED
    tail_ok = getattr(rules, "tail_after_goal_ok", False)
    if goal_step == 0 and stops_at_goal:
        return Trace(state, (), len(actions), StopReason.GOAL, 0, horizon, tail_ok)
    step, goal_reached, record = rules.step, rules.goal_reached, records.append  # bound once: the hot loop
    for number, action in enumerate(islice(actions, limit), start=1):
        outcome = step(state, action)
        if outcome.ok:
            state = outcome.state
            record(StepRecord(number, action, True, state))
        else:
            if outcome.state is not None:
                state = outcome.state
            record(StepRecord(number, action, False, state, outcome.reason, outcome.unmet))
        if goal_step is None and goal_reached(state):
            goal_step = number
            if stops_at_goal:
                stop = StopReason.GOAL
                break
    executed = len(records)
    ignored = len(actions) - executed
    if stop is not StopReason.GOAL and ignored:
        stop = StopReason.HORIZON
    return Trace(initial, tuple(records), ignored, stop, goal_step, horizon, tail_ok)
