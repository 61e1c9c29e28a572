"""The Verdict: everything plancheck concluded about one answer, as data.

A verdict carries the parsed actions and the text it could not use, the per-step trace, strict
(VAL-like) validity with the first failure, whether and when the goal was reached, the scores
under the benchmark's named rules, world-specific metrics, and the optimum when known.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from functools import cache
from typing import Any

from plancheck.errors import AnswerParseError
from plancheck.translators.answer import CLEAR, NOT_READ, ParsedAnswer, Reading, ReadStatus, Span, SpanKind
from plancheck.verifier.execute import Trace
from plancheck.verifier.feedback import feedback_text


class Semantics(str, Enum):
    """Which notion of 'valid' decides a verdict's outcome (both are always computed)."""

    STRICT = "strict"  # every action applicable and executed: none past the step limit or the goal (VAL)
    BENCHMARK = "benchmark"  # the benchmark's own rules: invalid actions are no-ops


@cache
def semantics_of(name: Semantics | str) -> Semantics:
    """``Semantics(name)``, looked up once per name (a batch asks for every record)."""
    return Semantics(name)


@dataclass(frozen=True, slots=True)
class Failure:
    """The first step that breaks strict validity, in plain words and as PDDL atoms."""

    step: int
    action: str
    reason: str
    unmet: tuple[str, ...] = ()

    def __str__(self) -> str:
        return f"step {self.step}: {self.reason}"


@dataclass(frozen=True, slots=True)
class StepView:
    """One executed step as it appears in a report."""

    index: int
    action: str
    ok: bool
    reason: str | None = None
    state: str | None = None


class LazySteps(Sequence[StepView]):
    """The per-step view of a trace, built only when someone looks (batches usually do not).

    ``count`` and ``one`` (the view of step ``index``, 0-based), when given, answer ``len`` and a
    single index without building every step (feedback looks at one step only).
    """

    def __init__(self, build: Callable[[], tuple[StepView, ...]], *, count: int | None = None,
                 one: Callable[[int], StepView] | None = None):
        self._build: Callable[[], tuple[StepView, ...]] | None = build
        self._steps: tuple[StepView, ...] = ()
        self._count, self._one = count, one

    def _get(self) -> tuple[StepView, ...]:
        if self._build is not None:
            self._steps, self._build = self._build(), None
        return self._steps

    def __getitem__(self, index):  # type: ignore[override]
        if self._build is not None and self._one is not None and self._count is not None and isinstance(index, int):
            if not -self._count <= index < self._count:
                raise IndexError(index)
            return self._one(index % self._count)
        return self._get()[index]

    def __len__(self) -> int:
        if self._build is not None and self._count is not None:
            return self._count
        return len(self._get())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and tuple(self._get()) == tuple(other)

    def __repr__(self) -> str:
        return repr(self._get())


@dataclass(frozen=True)
class Verdict:
    """The outcome of checking one answer against one instance."""

    world: str
    instance: str
    actions: tuple[str, ...] = ()
    spans: tuple[Span, ...] = ()
    form: str = ""
    notes: tuple[str, ...] = ()
    parse_error: str | None = None
    steps: Sequence[StepView] = ()
    valid: bool = False
    failure: Failure | None = None
    has_goal: bool = False
    goal_reached: bool | None = None
    goal_step: int | None = None
    ignored: int = 0
    scores: Mapping[str, float] = field(default_factory=dict)
    metrics: Mapping[str, Any] = field(default_factory=dict)
    optimal: Mapping[str, float] | None = None
    consistent: bool = True  # False: the answer's own record contradicts the rules (an episode log's outcomes)
    read: Reading = CLEAR

    @property
    def parsed(self) -> bool:
        """Whether a plan could be read from the answer at all."""
        return self.parse_error is None

    def passed(self, semantics: Semantics | str = Semantics.STRICT) -> bool:
        """Strict: a valid plan (reaching the goal, where there is one). Benchmark: it was scored
        (and reached the goal, where there is one). A record inconsistent with the rules passes neither.
        ``semantics`` may be given by name.

        >>> invalid = Verdict("w", "i", valid=False)
        >>> invalid.passed("strict"), invalid.passed(Semantics.STRICT), invalid.passed("benchmark")
        (False, False, True)
        """
        if not self.parsed or not self.consistent:
            return False
        goal_ok = self.goal_reached is not False if self.has_goal else True
        return goal_ok and (self.valid if semantics_of(semantics) is Semantics.STRICT else True)

    def feedback(self) -> str:
        """A short message on this verdict that a model can be given: the first problem, in the world's words,
        and the progress made (see :mod:`plancheck.verifier.feedback`)."""
        return feedback_text(self)

    def ratio(self, rule: str) -> float | None:
        """Score / optimum under ``rule`` (None when the optimum is unknown or zero)."""
        if not self.optimal or rule not in self.optimal or rule not in self.scores:
            return None
        best = self.optimal[rule]
        return None if best == 0 else self.scores[rule] / best

    def to_json(self, *, with_steps: bool = True) -> dict[str, Any]:
        """The verdict as ``check --json`` prints it (the per-step trace only ``with_steps``)."""
        data: dict[str, Any] = {
            "world": self.world,
            "instance": self.instance,
            "parsed": self.parsed,
            "parse_error": self.parse_error,
            "form": self.form,
            "actions": list(self.actions),
            "valid": self.valid,
            "failure": None if self.failure is None else {
                "step": self.failure.step, "action": self.failure.action,
                "reason": self.failure.reason, "unmet": list(self.failure.unmet)},
            "goal_reached": self.goal_reached,
            "goal_step": self.goal_step,
            "ignored": self.ignored,
            "scores": dict(self.scores),
            "metrics": dict(self.metrics),
            "read": self.read.to_json(),
            "unread": [span.to_json() for span in self.spans],
            "notes": list(self.notes),
            "feedback": self.feedback(),
        }
        if not self.consistent:
            data["consistent"] = False
        if self.optimal is not None:
            data["optimal"] = dict(self.optimal)
            scores = self.scores  # ratio(rule) for every rule, without a call per rule
            data["ratio"] = {rule: None if best == 0 or rule not in scores else scores[rule] / best
                             for rule, best in self.optimal.items()}
        if with_steps:
            data["steps"] = [{"step": s.index, "action": s.action, "ok": s.ok, "reason": s.reason,
                              **({"state": s.state} if s.state is not None else {})} for s in self.steps]
        return data


    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Verdict:
        """The verdict :meth:`to_json` wrote, less its steps (what summaries need, e.g. of a resumed run).

        >>> v = Verdict("w", "i", actions=("A",), valid=True, has_goal=True, goal_reached=True, scores={"s": 1.5})
        >>> Verdict.from_json(v.to_json()) == v
        True
        """
        failure = data.get("failure")
        return cls(
            world=data["world"], instance=data["instance"], actions=tuple(data.get("actions", ())),
            spans=tuple(Span(s["start"], s["end"], s["text"], SpanKind(s["kind"]), s["line"], s["column"])
                        for s in data.get("unread", ())),
            form=data.get("form", ""), notes=tuple(data.get("notes", ())), parse_error=data.get("parse_error"),
            valid=data.get("valid", False),
            failure=None if failure is None else Failure(failure["step"], failure["action"], failure["reason"],
                                                         tuple(failure.get("unmet", ()))),
            has_goal=data.get("goal_reached") is not None, goal_reached=data.get("goal_reached"),
            goal_step=data.get("goal_step"), ignored=data.get("ignored", 0), scores=dict(data.get("scores", {})),
            metrics=dict(data.get("metrics", {})), optimal=data.get("optimal"),
            consistent=data.get("consistent", True),
            read=Reading.from_json(data["read"]) if "read" in data else CLEAR)


def unparseable(world: str, instance: str, error: AnswerParseError, has_goal: bool = False) -> Verdict:
    """The verdict for an answer in which no plan could be read."""
    return Verdict(world=world, instance=instance, parse_error=str(error), has_goal=has_goal,
                   goal_reached=False if has_goal else None, read=NOT_READ)


def strict_read(verdict: Verdict, strict: bool = True) -> Verdict:
    """Under ``--strict-read``, an ambiguous answer (candidate answers that differ) is scored as unreadable; its
    reading, the candidates it lists and what was read stay in the verdict."""
    if not strict or verdict.read.status is not ReadStatus.AMBIGUOUS or not verdict.parsed:
        return verdict
    differ = sum(1 for seen in verdict.read.candidates if seen.actions)
    return replace(verdict, parse_error=f"the answer is ambiguous: {differ} candidate answers differ (--strict-read "
                                        f"scores it as unreadable; without it: {verdict.read.why})",
                   actions=(), steps=(), valid=False, failure=None, goal_step=None, ignored=0, scores={},
                   goal_reached=False if verdict.has_goal else None)


def from_trace(
    world: str,
    instance: str,
    parsed: ParsedAnswer,
    trace: Trace,
    *,
    scores: Mapping[str, float],
    metrics: Mapping[str, Any],
    has_goal: bool,
    name: Callable[[Hashable], str] = str,
    describe_state: Callable[[Hashable], str] | None = None,
    optimal: Mapping[str, float] | None = None,
    executed: Sequence[Hashable] | None = None,
) -> Verdict:
    """Assemble a verdict from a parsed answer and its execution trace.

    ``executed`` is the action sequence that was run, when the parse policy left out some of the
    parsed items (their text stays listed as spans); by default every parsed item was run.
    """
    failure = None
    strict = trace.strict_failure()
    if strict is not None:
        step, reason = strict
        record = trace.steps[step - 1] if step <= len(trace.steps) else None
        ran = executed if executed is not None else [item.action for item in parsed.items]
        action = name(record.action) if record is not None else (
            name(ran[step - 1]) if step <= len(ran) else "(beyond the step limit)")
        failure = Failure(step, action, reason, record.unmet if record is not None else ())
    def view(s: Any) -> StepView:
        return StepView(s.index, name(s.action), s.ok, s.reason,
                        describe_state(s.state) if describe_state is not None else None)

    steps = LazySteps(lambda: tuple(view(s) for s in trace.steps), count=len(trace.steps),
                      one=lambda index: view(trace.steps[index]))
    return Verdict(
        world=world,
        instance=instance,
        actions=tuple(name(action) for action in (
            executed if executed is not None else [item.action for item in parsed.items])),
        spans=parsed.spans,
        form=parsed.form,
        notes=parsed.notes,
        steps=steps,
        valid=failure is None,
        failure=failure,
        has_goal=has_goal,
        goal_reached=(trace.goal_step is not None) if has_goal else None,
        goal_step=trace.goal_step,
        ignored=trace.ignored,
        scores=dict(scores),
        metrics=dict(metrics),
        optimal=None if optimal is None else dict(optimal),
        read=parsed.reading,
    )
