"""One GRASP answer -> one Verdict: read the actions, execute them under the benchmark's rules, score them.

An unknown token follows ``unknown``: ``noop`` executes it as a no-op that uses a step (the
benchmark's rule), ``skip`` drops it (it stays reported). The optimum is the certified optimum
shipped for the published environments, found by the grid's content (a grid edited under a published id has none).
"""

from __future__ import annotations

from collections.abc import Sequence

from plancheck.domains.grasp import pddl, scoring
from plancheck.domains.grasp.instance import Environment
from plancheck.domains.grasp.optima import optimum_of
from plancheck.domains.grasp.parse import ParsePolicy, read_answer
from plancheck.domains.grasp.pddl_plan import validation_plan
from plancheck.domains.grasp.rules import GraspRules, State
from plancheck.errors import AnswerParseError
from plancheck.limits import DEFAULT, Limits
from plancheck.translators.answer import ParsedAnswer, UnknownPolicy, read_within_limits, within_limits
from plancheck.verifier.execute import execute
from plancheck.verifier.verdict import Verdict, from_trace, unparseable

WORLD = "grasp"


def describe(state: State) -> str:
    """The state as a trace and the verifier's feedback show it: where the agent is and the energy it has."""
    return f"at {state.position}, carrying {state.carried}, collected {state.collected}"


def _read(answer: str | Sequence[str], policy: ParsePolicy, source: str | None, limits: Limits) -> ParsedAnswer:
    within_limits(answer, limits, source)
    return read_within_limits(read_answer(answer, policy, source, limits), limits, source)


def check_answer(env: Environment, answer: str | Sequence[str], policy: ParsePolicy = ParsePolicy(),
                 unknown: str = "noop", source: str | None = None, limits: Limits = DEFAULT) -> Verdict:
    """The verdict on one answer; ``source`` (e.g. a file name) names it in parse errors. An answer beyond
    ``limits`` is refused (:class:`~plancheck.errors.LimitError`)."""
    try:
        parsed = _read(answer, policy, source, limits)
    except AnswerParseError as error:
        return unparseable(WORLD, env.id, error)
    actions = parsed.actions(UnknownPolicy(unknown))
    trace = execute(GraspRules(env), actions)
    return from_trace(WORLD, env.id, parsed, trace, scores=scoring.scores(env, trace),
                      metrics=scoring.metrics(env, trace, len(actions)), has_goal=False,
                      describe_state=describe, executed=actions, optimal=optimum_of(env))


def pddl_plan(env: Environment, answer: str | Sequence[str], rule: str = "paper", policy: ParsePolicy = ParsePolicy(),
              unknown: str = "noop", source: str | None = None, limits: Limits = DEFAULT) -> tuple[str, str]:
    """The answer as a plan of the validation model (benchmark semantics) for ``rule``: (problem file, plan).

    Raises :class:`AnswerParseError` when the answer cannot be read.
    """
    actions = _read(answer, policy, source, limits).actions(UnknownPolicy(unknown))
    steps = validation_plan(env, actions, rule)
    header = f"; {env.id}: the answer under the benchmark's rules, scored by rule {rule!r}\n"
    return pddl.validation_problem_file(env, rule), header + "\n".join(steps) + "\n"
