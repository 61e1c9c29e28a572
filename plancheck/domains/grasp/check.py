"""One GRASP answer -> one Verdict: read the actions, execute them under the benchmark's rules, score them.

The answer runs through :meth:`GraspRules.run` (no object per step: a batch scores tens of thousands); the
verdict is the one :func:`plancheck.verifier.verdict.from_trace` makes of the generic executor's trace, field
for field, and its per-step view is that trace's, built only when someone looks (``check --steps``, the HTML
report; the feedback needs only the state before the first failure, which the run keeps).
An unknown token follows ``unknown``: ``noop`` executes it as a no-op that uses a step (the
benchmark's rule), ``skip`` drops it (it stays reported). The optimum is the certified optimum
shipped for the published environments, found by the grid's content (a grid edited under a published id has none).
"""

from __future__ import annotations

from collections.abc import Sequence

from plancheck.domains.grasp import pddl, scoring
from plancheck.domains.grasp.instance import Environment
from plancheck.domains.grasp.optima import optimum_of
from plancheck.domains.grasp.parse import TOKEN_LIST, ParsePolicy, read_answer, token_actions, token_spans
from plancheck.domains.grasp.pddl_plan import validation_plan
from plancheck.domains.grasp.rules import Action, GraspRules, Run, State
from plancheck.errors import AnswerParseError
from plancheck.limits import DEFAULT, Limits
from plancheck.rules import Unknown
from plancheck.translators.answer import (
    CLEAR,
    ParsedAnswer,
    Reading,
    Span,
    UnknownPolicy,
    read_within_limits,
    unknown_policy,
    within_limits,
)
from plancheck.verifier.execute import execute
from plancheck.verifier.verdict import Failure, LazySteps, StepView, Verdict, unparseable

WORLD = "grasp"


def describe(state: State) -> str:
    """The state as a trace and the verifier's feedback show it: where the agent is and the energy it has."""
    return f"at {state.position}, carrying {state.carried}, collected {state.collected}"


class _Names(dict):
    """``str(action)``, looked up for GRASP's ten actions (a batch names every action it checks)."""

    def __missing__(self, action: Action | Unknown) -> str:
        return str(action)


_name = _Names({action: str(action) for action in Action}).__getitem__


def _read(answer: str | Sequence[str], policy: ParsePolicy, source: str | None, limits: Limits) -> ParsedAnswer:
    within_limits(answer, limits, source)
    return read_within_limits(read_answer(answer, policy, source, limits), limits, source)


def check_answer(env: Environment, answer: str | Sequence[str], policy: ParsePolicy = ParsePolicy(),
                 unknown: str = "noop", source: str | None = None, limits: Limits = DEFAULT) -> Verdict:
    """The verdict on one answer; ``source`` (e.g. a file name) names it in parse errors. An answer beyond
    ``limits`` is refused (:class:`~plancheck.errors.LimitError`)."""
    skip = unknown_policy(unknown) is UnknownPolicy.SKIP
    if isinstance(answer, str):
        try:
            parsed = _read(answer, policy, source, limits)
        except AnswerParseError as error:
            return unparseable(WORLD, env.id, error)
        return _verdict(env, parsed.actions(unknown), parsed.spans, parsed.form, parsed.notes, parsed.reading)
    # a ready list of names (the baseline files): read as parse_tokens reads it, without an item per name
    within_limits(answer, limits, source)
    actions = token_actions(answer)
    spans = token_spans(answer, actions)
    if skip:
        actions = [action for action in actions if not isinstance(action, Unknown)]
    return _verdict(env, actions, spans, TOKEN_LIST, (), CLEAR)


def _verdict(env: Environment, actions: Sequence[Action | Unknown], spans: tuple[Span, ...], form: str,
             notes: tuple[str, ...], reading: Reading) -> Verdict:
    rules = GraspRules(env)
    run = rules.run(actions)
    failure, known = _failure(run, actions, rules.horizon)
    optimal = optimum_of(env)
    return Verdict(WORLD, env.id, actions=tuple(map(_name, actions)), spans=spans, form=form, notes=notes,
                   steps=_steps(rules, actions, run.executed, known), valid=failure is None, failure=failure,
                   has_goal=False, goal_reached=None, goal_step=None, ignored=len(actions) - run.executed,
                   scores=scoring.value_of_plan(env, run.final, run.executed),
                   metrics=scoring.run_metrics(env, run.final, run.executed, run.rejected, len(actions)),
                   optimal=None if optimal is None else dict(optimal), read=reading)


def _failure(run: Run, actions: Sequence[Action | Unknown], horizon: int) -> tuple[Failure | None, StepView | None]:
    """The first strict failure (:meth:`plancheck.verifier.execute.Trace.strict_failure`: the first rejected step,
    else the first action past the step limit) and the view of the step before it, when there is one."""
    if run.first_rejected is not None and run.rejection is not None and run.before_rejection is not None:
        step = run.first_rejected
        failure = Failure(step, str(actions[step - 1]), run.rejection.reason or "the action is not applicable",
                          run.rejection.unmet)
        before = run.before_rejection
    elif run.executed < len(actions):
        step = run.executed + 1
        failure = Failure(step, str(actions[step - 1]), f"the plan has {len(actions)} actions but the step limit is "
                                                       f"{horizon}")
        before = run.final
    else:
        return None, None
    return failure, StepView(step - 1, str(actions[step - 2]), True, None, describe(before)) if step > 1 else None


def _steps(rules: GraspRules, actions: Sequence[Action | Unknown], count: int, known: StepView | None) -> LazySteps:
    """The verdict's per-step view: the generic executor's trace of the answer, run when it is first needed;
    ``known``, the step before the first failure, is answered without it."""
    built: list[tuple[StepView, ...]] = []

    def every() -> tuple[StepView, ...]:
        if not built:
            built.append(tuple(StepView(s.index, str(s.action), s.ok, s.reason, describe(s.state))
                               for s in execute(rules, actions).steps))
        return built[0]

    return LazySteps(every, count=count, one=lambda index: known if known is not None and index == known.index - 1
                     else every()[index])


def pddl_plan(env: Environment, answer: str | Sequence[str], rule: str = "paper", policy: ParsePolicy = ParsePolicy(),
              unknown: str = "noop", source: str | None = None, limits: Limits = DEFAULT) -> tuple[str, str]:
    """The answer as a plan of the validation model (benchmark semantics) for ``rule``: (problem file, plan).

    Raises :class:`AnswerParseError` when the answer cannot be read.
    """
    actions = _read(answer, policy, source, limits).actions(UnknownPolicy(unknown))
    steps = validation_plan(env, actions, rule)
    header = f"; {env.id}: the answer under the benchmark's rules, scored by rule {rule!r}\n"
    return pddl.validation_problem_file(env, rule), header + "\n".join(steps) + "\n"
