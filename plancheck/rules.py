"""The contract every world's rules follow, so one executor and one search serve all worlds.

A world's rules are a small object with a start state, a pure ``step`` function and a goal test.
``step`` never raises for an inapplicable action: it returns :class:`Rejected` with the reason in
the world's own words (and, where the world has a PDDL model, the unmet atoms). Under the
benchmark semantics a rejected action is a no-op that still uses a step (and may still update
the benchmark's bookkeeping, see :attr:`Rejected.state`); under the strict
semantics it makes the plan invalid. Both are read off the same run (see ``verifier.execute``).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

S = TypeVar("S", bound=Hashable)
A = TypeVar("A", bound=Hashable)


@dataclass(frozen=True, slots=True)
class Applied(Generic[S]):
    """The action had its effect; ``state`` is the state after it."""

    state: S
    ok = True


@dataclass(frozen=True, slots=True)
class Rejected:
    """The action could not be applied. The state is unchanged.

    ``reason`` is a plain sentence ("UP from (3, 5) is blocked by an obstacle at (2, 5)");
    ``unmet`` lists the violated conditions as PDDL atoms where the world has a PDDL model.
    ``state`` is None (the state is unchanged) unless the benchmark still updates bookkeeping on a
    no-op: minigrid, for one, verifies the mission after every step, blocked or not.
    """

    reason: str
    unmet: tuple[str, ...] = ()
    state: Any = None
    ok = False


Outcome = Applied[S] | Rejected


class Rules(Protocol[S, A]):
    """What the executor and the searches need from a world.

    ``horizon`` is the number of actions the benchmark executes (``None`` = unbounded); the rest
    are ignored. When ``stops_at_goal`` is true the episode ends at the first state where
    ``goal_reached`` holds (minigrid, Hanoi); otherwise the whole plan runs (GRASP). Actions
    after the goal then make a plan strictly invalid (a VAL run would execute them), unless
    ``tail_after_goal_ok`` (LangSuitE: the conversation ends there; later replies are never sent).
    """

    horizon: int | None
    stops_at_goal: bool
    tail_after_goal_ok: bool = False

    def initial_state(self) -> S: ...

    def step(self, state: S, action: A) -> Outcome: ...

    def goal_reached(self, state: S) -> bool: ...


class SearchRules(Rules[S, A], Protocol):
    """Rules that can also enumerate their actions, for the generic searches."""

    def actions(self, state: S) -> Iterable[A]: ...

    def cost(self, state: S, action: A) -> float: ...


@dataclass(frozen=True, slots=True)
class Unknown:
    """A slot in an answer that the benchmark counts as an action but that names no action.

    Benchmarks differ: GRASP executes such a token as a no-op that uses a step; the BabyBench
    harness drops it. The answer parser keeps it, and the parse policy decides.
    """

    text: str

    def __str__(self) -> str:
        return self.text
