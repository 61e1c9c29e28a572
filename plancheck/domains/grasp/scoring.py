"""GRASP's named scoring rules and metrics, computed from an execution trace.

``paper``: energy lying on the agent's final cell minus the step cost times the number of
executed actions (at most 20). This rule reproduces the paper's Table 1 baselines.
``delivered``: energy lying on the start cell at the end minus the same cost; this is what the
paper's text asks for ("put the collected energy back in the cell where you started").
"""

from __future__ import annotations

from collections.abc import Callable

from plancheck.domains.grasp.instance import Environment
from plancheck.domains.grasp.rules import State
from plancheck.verifier.execute import Trace

RULES = ("paper", "delivered")


def _cost(env: Environment, steps: int) -> float:
    return env.setting.step_cost * steps


def score_paper(env: Environment, final: State, steps: int) -> float:
    r, c = final.position
    return round(final.energy[r * env.grid.cols + c] - _cost(env, steps), 9)


def score_delivered(env: Environment, final: State, steps: int) -> float:
    r, c = env.grid.start
    return round(final.energy[r * env.grid.cols + c] - _cost(env, steps), 9)


SCORERS: dict[str, Callable[[Environment, State, int], float]] = {
    "paper": score_paper,
    "delivered": score_delivered,
}


def scores(env: Environment, trace: Trace) -> dict[str, float]:
    """The value of the trace under every named rule."""
    return value_of_plan(env, trace.final, len(trace.steps))


def metrics(env: Environment, trace: Trace, answer_length: int) -> dict[str, int | bool]:
    return run_metrics(env, trace.final, len(trace.steps), trace.rejected_count, answer_length)


def run_metrics(env: Environment, final: State, executed: int, noops: int, answer_length: int
                ) -> dict[str, int | bool]:
    """The metrics of a run that ended in ``final`` after ``executed`` actions, ``noops`` of them rejected."""
    return {
        "length": answer_length,
        "executed": executed,
        "noops": noops,
        "energy_collected": final.collected,
        "carried_at_end": final.carried,
        "returned_to_start": final.position == env.grid.start,
    }


def value_of_plan(env: Environment, final: State, steps: int) -> dict[str, float]:
    """Scores for a final state reached in ``steps`` actions, under every scoring rule."""
    return {name: scorer(env, final, steps) for name, scorer in SCORERS.items()}
