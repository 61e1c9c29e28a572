"""Never trust a solver: replay a claimed GRASP plan on the full rules and compare the value.

Every plan a GRASP solver reports (the native optimum, a planner's plan) goes through
:func:`certify_plan` first. A disagreement is a :class:`~plancheck.errors.CertificationError`,
never a silently reported number.

>>> from plancheck.domains.grasp.grid import Grid
>>> from plancheck.domains.grasp.instance import Environment, GridInfo, Setting
>>> from plancheck.domains.grasp.rules import Action
>>> from plancheck.domains.grasp.exact import solve_exact
>>> env = Environment(Grid(1, 4, " EE ", (0, 0)), Setting(4, None, 0.3), GridInfo("doc", 0, "random", "free", "inner"))
>>> certify(env, solve_exact(env, "paper"))
{'paper': 0.8, 'delivered': -1.2}
>>> certify_plan(env, "paper", [Action.RIGHT, Action.TAKE], 1)
Traceback (most recent call last):
...
plancheck.errors.CertificationError: doc.jsonl-0-0-0-1: a plan claimed to score paper = 1 scores -0.6
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from plancheck.domains.grasp.exact import Optimum
from plancheck.domains.grasp.instance import Environment
from plancheck.domains.grasp.rules import Action, GraspRules
from plancheck.domains.grasp.scoring import scores
from plancheck.errors import CertificationError
from plancheck.rules import Unknown
from plancheck.verifier.execute import execute


def certify_plan(env: Environment, rule: str, plan: Sequence[Action | Unknown],
                 claimed: Fraction | float) -> dict[str, float]:
    """The plan's score under every rule, after checking it is strictly valid and scores ``claimed``.

    A reference plan never needs a no-op or more steps than the limit, so either is an error too.
    """
    trace = execute(GraspRules(env), list(plan))
    failure = trace.strict_failure()
    if failure is not None:
        step, reason = failure
        raise CertificationError(f"{env.id}: a plan claimed to score {rule} = {float(claimed):g} is not "
                                 f"strictly valid: step {step}: {reason}")
    values = scores(env, trace)
    if abs(values[rule] - float(claimed)) > 1e-9:
        raise CertificationError(f"{env.id}: a plan claimed to score {rule} = {float(claimed):g} "
                                 f"scores {values[rule]:g}")
    return values


def certify(env: Environment, optimum: Optimum) -> dict[str, float]:
    """:func:`certify_plan` for the native solver's result."""
    return certify_plan(env, optimum.rule, optimum.plan, optimum.fraction)
