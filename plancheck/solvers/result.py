"""Named outcomes of searches and planners (never a bare None for 'no plan')."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any


class Status(str, Enum):
    """How a solve ended: solved (a certified plan), unsolvable (proven), or why there is no plan."""

    SOLVED = "solved"
    UNSOLVABLE = "unsolvable"
    TIMEOUT = "timed out"
    UNSUPPORTED = "unsupported"
    NOT_INSTALLED = "not installed"
    FAILED = "failed"


@dataclass(frozen=True, slots=True)
class SearchResult:
    """What a search over a world's rules returns. ``plan`` is None unless ``status`` is SOLVED.

    ``bound`` is, for a search stopped early, a lower bound on the optimal cost it had proven (A*:
    the least f-value still open), or None.
    """

    status: Status
    plan: tuple[Any, ...] | None
    cost: float | None
    expanded: int
    seconds: float
    bound: float | None = None


@dataclass(frozen=True)
class SolveResult:
    """A reference plan for one instance, as reported by ``plancheck solve``.

    ``values`` holds the plan's value under each scoring rule, recomputed by the verifier;
    ``proven_optimal`` is true only when the solver proves optimality and the verifier confirmed
    the plan achieves the claimed value.
    """

    instance: str
    planner: str
    status: Status
    plan: tuple[str, ...] | None = None
    values: Mapping[str, float] = field(default_factory=dict)
    proven_optimal: bool = False
    seconds: float = 0.0
    message: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The result as ``solve`` prints it (one JSON line)."""
        return {"instance": self.instance, "planner": self.planner, "status": self.status.value,
                "plan": None if self.plan is None else list(self.plan), "values": dict(self.values),
                "proven_optimal": self.proven_optimal, "seconds": round(self.seconds, 4),
                "message": self.message, **dict(self.extra)}
