"""Check one answer under its task's published rules; every outcome is a :class:`Verdict` (scores: :mod:`.scoring`).

* Predict: success = the predicted ``((x, y), dir)`` equals the true final state of the given
  action sequence (run until minigrid ends the episode, as the harness does); Manhattan distance
  between the cells otherwise.
* Plan: success = replaying the actions ends the episode with success (CR); efficiency = reference
  length / answer length for successes (0 otherwise), against the true optimum and, separately,
  against the bot (the published reference). The answer's length counts the actions read, as the
  harness's ``len(llm_actions)``. Also: minigrid's reward and the harness's "ball distance".
* Decompose: CR = the helper completes the mission, PR = with no help, ACI = max(0, (E - help) / E)
  when completed (the published formula: the area under success-vs-help-allowed, normalised by the
  expert's help count E; the record's ``help_count`` when known, else the expert list's length).

The optimum an answer is compared with is searched for at most ``optimal_timeout`` seconds (once
per instance, cached); unproven, Plan efficiency against it is left out (with a note giving the
lower bound proven) and Decompose's expert list is cut from the bot's plan instead.
* LangSuitE IG: success as LangSuitE reports it, and the number of steps taken, within LangSuitE's step
  limit (``limit``: ``released``, 100, or ``dev``, 50). An answer may be an episode (:mod:`.episodes`):
  then the world it was played on is checked against what the episode recorded. ``world``: ``seeded``
  (the task's seeded world), ``played`` (the world LangSuitE's code plays: the seeded one reset once
  more without the seed) or ``auto`` (the first of the two the episode's record agrees with); a layout
  given with the episode is the world. An episode that contradicts the world is bad input, never
  scored on it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from plancheck.domains.babyai.committed import read_plan, read_subgoals
from plancheck.domains.babyai.describe import pose_text
from plancheck.domains.babyai.episodes import Episode, contradiction, read_episode
from plancheck.domains.babyai.extract import load_instance
from plancheck.domains.babyai.instance import Instance
from plancheck.domains.babyai.langsuite import STEP_LIMITS, LangSuitERules
from plancheck.domains.babyai.levels import split_resets, with_resets
from plancheck.domains.babyai.parse import (
    parse_action_list,
    parse_langsuite,
    parse_plan,
    parse_state,
    parse_subgoals,
)
from plancheck.domains.babyai.references import certified_optimum, expert, some_bot_plan
from plancheck.domains.babyai.rules import Action, BabyAIRules
from plancheck.domains.babyai.scoring import ball_distance, decompose_scores, plan_scores, predict_scores, reward
from plancheck.domains.babyai.subgoals import Helper, decompose
from plancheck.domains.babyai.tasks import Subgoal, Task
from plancheck.errors import AnswerParseError, BadInputError, InstanceNotFoundError
from plancheck.limits import DEFAULT, Limits
from plancheck.solvers.result import Status
from plancheck.translators.answer import (
    ParsedAnswer,
    SpanKind,
    UnknownPolicy,
    read_within_limits,
    within_limits,
    within_words,
)
from plancheck.verifier.execute import execute
from plancheck.verifier.verdict import StepView, Verdict, from_trace, unparseable

WORLD = "babyai"
OPTIMAL_TIMEOUT = 60.0  # seconds to prove the optimum an answer is compared with


@dataclass(frozen=True)
class TaskInstance:
    """An instance as one task asks about it, with what the task's record provides.

    ``actions``: Predict's action sequence; ``reference``: Plan's published expert sequence;
    ``expert_help``: Decompose's published expert help count.
    """

    instance: Instance
    task: Task
    actions: tuple[Action, ...] | None = None
    reference: tuple[Action, ...] | None = None
    expert_help: int | None = None

    @property
    def id(self) -> str:
        return self.instance.id

    def predict_actions(self) -> tuple[Action, ...]:
        """The given action sequence: the record's, else the one LLM-BabyBench's bot generates (as its data does)."""
        if self.actions is not None:
            return self.actions
        run = expert(self.instance.env_id, self.instance.seed)
        if run.gave_up:
            raise InstanceNotFoundError(f"{self.id}: LLM-BabyBench has no Predict record for it: its bot gives up "
                                        f"({run.error}), and its generator skips such instances")
        return run.actions


WORLDS = ("seeded", "played", "auto")


@dataclass(frozen=True, slots=True)
class Reading:
    """How Plan and Decompose answers are read: ``read`` committed (default) or harness; ``marker`` required
    (the harness's rule) or optional; ``unclosed`` accept or reject (committed only)."""

    read: str = "committed"
    marker: str = "required"
    unclosed: str = "accept"


def check(task: TaskInstance, answer: str | Sequence[str], *, unknown: str | None = None,
          reading: Reading = Reading(), optimal: bool = True, source: str | None = None,
          optimal_timeout: float = OPTIMAL_TIMEOUT, opening: str = "auto", world: str = "seeded",
          limit: str = "released", limits: Limits = DEFAULT) -> Verdict:
    """Parse, execute and score one answer to ``task`` (``reading``: how Plan and Decompose answers are read;
    ``opening``: see :func:`parse_langsuite`; ``world`` and ``limit``: LangSuitE's, see the module docstring); an
    answer beyond ``limits`` is refused (:class:`~plancheck.errors.LimitError`)."""
    within_limits(answer, limits, source)
    if isinstance(answer, str) and task.task in (Task.PLAN, Task.DECOMPOSE):
        within_words(answer, limits, source)  # read word by word: refused beyond --max-answer-words
    try:
        if task.task is Task.PREDICT:
            return _predict(task, _text(answer), source)
        if task.task is Task.PLAN:
            return _plan(task, answer, UnknownPolicy(unknown or "skip"), reading,
                         optimal_timeout if optimal else None, source, limits)
        if task.task is Task.DECOMPOSE:
            return _decompose(task, _text(answer), reading, source, optimal_timeout, limits)
        return _ig(task, answer, UnknownPolicy(unknown or "noop"), opening, source, world, limit, limits)
    except AnswerParseError as error:
        return unparseable(WORLD, task.id, error, has_goal=True)


def _text(answer: str | Sequence[str]) -> str:
    return answer if isinstance(answer, str) else "\n".join(answer)


def _predict(task: TaskInstance, text: str, source: str | None) -> Verdict:
    rules = BabyAIRules(task.instance)
    actions = task.predict_actions()
    trace = execute(rules, list(actions))
    final = trace.final
    guess = parse_state(text, source=source)
    scores = predict_scores((guess.x, guess.y, guess.dir), (final.pos[0], final.pos[1], final.dir))
    steps = tuple(StepView(s.index, str(s.action), s.ok, s.reason, pose_text(s.state)) for s in trace.steps)
    truth = f"(({final.pos[0]}, {final.pos[1]}), {final.dir})"
    return Verdict(
        world=WORLD, instance=task.id, actions=tuple(str(a) for a in actions), spans=guess.spans,
        form=guess.form, notes=guess.notes + (f"the true final state is {truth} ({pose_text(final)})",),
        steps=steps, valid=True, has_goal=True, goal_reached=scores["exact"] == 1.0, scores=scores,
        metrics={"predicted": f"(({guess.x}, {guess.y}), {guess.dir})", "actual": truth,
                 "sequence_length": len(actions), "executed": len(trace.steps)})


def _plan_answer(answer: str | Sequence[str], reading: Reading, source: str | None) -> ParsedAnswer[Action]:
    if not isinstance(answer, str):
        return parse_action_list(answer)
    if reading.read == "harness":
        return parse_plan(answer, marker=reading.marker, source=source)
    return read_plan(answer, marker=reading.marker, unclosed=reading.unclosed, source=source)


def _plan(task: TaskInstance, answer: str | Sequence[str], policy: UnknownPolicy, reading: Reading,
          optimal_timeout: float | None, source: str | None, limits: Limits) -> Verdict:
    """``optimal_timeout`` None: no comparison with the optimum."""
    instance = task.instance
    rules = BabyAIRules(instance)
    parsed = read_within_limits(_plan_answer(answer, reading, source), limits, source)
    actions = parsed.actions(policy)
    trace = execute(rules, actions)
    success = trace.goal_step is not None
    length = len(actions)
    notes: tuple[str, ...] = ()
    if task.reference is not None:
        bot, bot_source = task.reference, "record"
    else:
        run = expert(instance.env_id, instance.seed)
        bot, bot_source = (None, None) if run.gave_up else (run.actions, "LLM-BabyBench's bot")
        if run.gave_up:
            notes = (f"LLM-BabyBench's bot gives up here ({run.error}): the benchmark has no reference, so no "
                     f"efficiency against the bot",)
    found = None if optimal_timeout is None else certified_optimum(instance.env_id, instance.seed, optimal_timeout)
    best = found.cost if found is not None and found.status is Status.SOLVED else None
    scores = plan_scores(success, length, None if bot is None else len(bot), best)
    metrics = {"answer_length": length, "executed": len(trace.steps), "bot_length": None if bot is None else len(bot),
               "bot": bot_source,
               "optimal_length": best,
               "reward": reward(trace.goal_step, instance.max_steps),
               "ball_distance": ball_distance(instance, trace.final.pos, trace.final.objects)}
    if found is not None and best is None:
        metrics["optimal_at_least"] = found.bound
    verdict = from_trace(WORLD, task.id, parsed, trace, scores=scores, metrics=metrics, has_goal=True,
                         describe_state=lambda s: rules.describe(s), executed=actions,
                         optimal=None if best is None else {"length": float(best)})
    if found is not None and best is None:
        notes += (f"the optimum was not proven within {optimal_timeout:g} s (it is at least {found.bound:g} actions): "
                  f"no efficiency against it",)
    return replace(verdict, notes=verdict.notes + notes) if notes else verdict


def _decompose(task: TaskInstance, text: str, reading: Reading, source: str | None,
               optimal_timeout: float, limits: Limits) -> Verdict:
    instance = task.instance
    rules = BabyAIRules(instance)
    if reading.read == "harness":
        parsed = parse_subgoals(text, source=source)
    else:
        parsed = read_subgoals(text, marker=reading.marker, unclosed=reading.unclosed, source=source)
    parsed = read_within_limits(parsed, limits, source)
    subgoals = [a for a in parsed.actions(UnknownPolicy.SKIP) if isinstance(a, Subgoal)]
    run = Helper(rules).run(subgoals)
    if task.expert_help is not None:
        baseline, origin = task.expert_help, "record"
    else:
        found = certified_optimum(instance.env_id, instance.seed, optimal_timeout)
        if found.status is Status.SOLVED:
            plan, origin = found.plan, "expert list"
        else:
            plan, origin = some_bot_plan(instance.env_id, instance.seed), "bot's list (optimum not proven)"
        baseline = len(decompose(rules, instance.start, plan))
    steps = tuple(StepView(i, str(s.subgoal), not s.note.startswith("cannot"),
                           "; ".join(p for p in (s.note, f"help: {', '.join(map(str, s.help))}" if s.help else "")
                                     if p) or None,
                           f"{len(s.actions)} action(s)")
                  for i, s in enumerate(run.steps, start=1))
    return Verdict(
        world=WORLD, instance=task.id, actions=tuple(str(s) for s in subgoals), spans=parsed.spans, form=parsed.form,
        notes=parsed.notes + (f"the helper stopped: {run.stopped}",), steps=steps, valid=True, has_goal=True,
        read=parsed.reading,
        goal_reached=run.success, goal_step=len(run.actions) if run.success else None,
        scores=decompose_scores(run.success, run.help, baseline),
        metrics={"help": run.help, "expert_help": baseline, "expert_help_from": origin,
                 "subgoals": len(subgoals), "executed_actions": len(run.actions)})


def _ig(task: TaskInstance, answer: str | Sequence[str], policy: UnknownPolicy, opening: str,
        source: str | None, world: str, limit: str, limits: Limits) -> Verdict:
    episode = read_episode(answer, limits) if isinstance(answer, str) else None
    replies = list(episode.replies) if episode is not None else answer if isinstance(answer, str) else list(answer)
    parsed = read_within_limits(parse_langsuite(replies, opening=opening, source=source), limits, source)
    opened = sum(1 for span in parsed.spans if span.kind is SpanKind.OUTSIDE)  # the opening replies
    actions = parsed.actions(policy)
    checked: list[str] = []
    for label, instance in _worlds(task.instance, episode, world):
        rules = LangSuitERules(instance, opening_replies=max(1, opened), limit=STEP_LIMITS[limit])
        trace = execute(rules, actions)
        states = [trace.initial.world] + [step.state.world for step in trace.steps]
        problem = contradiction(episode, instance, states, opened) if episode is not None else None
        if problem is None:
            break
        checked.append(f"{label} ({instance.id}): {problem}")
    else:
        hint = _agreeing_world(task.instance, episode, actions, opened, limit) if world != "auto" else ""
        raise BadInputError(f"the episode contradicts the world it is checked on, {'; '.join(checked)}{hint}")
    final = trace.final
    notes = (f"read from {episode.form}",) if episode is not None else ()
    if instance is not task.instance:
        notes += (f"checked on {label}: {instance.id}",)
    if episode is not None and episode.recorded:
        notes += (f"the episode's record (mission, views) agrees with {label}",)
    verdict = from_trace(
        WORLD, instance.id, parsed, trace, has_goal=True, describe_state=lambda s: rules.world.describe(s.world),
        executed=actions,
        scores={"success": float(final.reported)},
        metrics={"steps": len(trace.steps), "stopped": final.stopped,
                 "mission_done": final.completed,
                 "refused": trace.rejected_count, "step_limit": STEP_LIMITS[limit]})
    return replace(_with_goal(verdict, final.reported, len(trace.steps) if final.reported else None),
                   notes=verdict.notes + notes)


def _worlds(instance: Instance, episode: Episode | None, world: str) -> list[tuple[str, Instance]]:
    """The worlds an IG answer is checked on, in order: the first its episode agrees with is used."""
    if episode is not None and episode.layout is not None:
        try:
            return [("the layout given with the episode", Instance.from_json(dict(episode.layout)))]
        except (KeyError, TypeError, ValueError) as error:
            raise BadInputError(f"the episode's layout is not an instance as plancheck prints it ({error!r})") \
                from None
    if split_resets(instance.env_id)[1]:
        return [("the world named", instance)]
    played = ("the world LangSuitE plays (the seeded one reset once more without the seed)",
              load_instance(with_resets(instance.env_id, 1), instance.seed))
    seeded = ("the seeded world", instance)
    return {"seeded": [seeded], "played": [played], "auto": [seeded, played]}[world]


def _agreeing_world(instance: Instance, episode: Episode | None, actions: list, opened: int, limit: str) -> str:
    """A hint: the other candidate world the episode agrees with, if one does."""
    for name in ("seeded", "played"):
        for label, other in _worlds(instance, episode, name):
            rules = LangSuitERules(other, opening_replies=max(1, opened), limit=STEP_LIMITS[limit])
            trace = execute(rules, actions)
            states = [trace.initial.world] + [step.state.world for step in trace.steps]
            if episode is not None and contradiction(episode, other, states, opened) is None:
                return f"; it agrees with {label}: pass --langsuite-world {name}"
    return ""


def _with_goal(verdict: Verdict, reached: bool, step: int | None) -> Verdict:
    return replace(verdict, goal_reached=reached, goal_step=step)
