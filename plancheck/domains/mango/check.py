"""One MANGO answer -> one Verdict: read the trajectory, score it, explain the first failure.

The verdict's fields, for both tasks:

* ``steps``: the trajectory, step by step, checked against the evaluation graph (``ok`` and the
  reason when not); ``valid`` = every step holds; ``failure`` = the first one that does not.
* ``goal_reached``: strict success (DF: the right destination; RF: the actions lead to ``dst``).
* ``scores``: ``strict``, ``loose``, ``reasoning`` (and, for RF, the release's ``loose_similarity``).
* ``metrics``: game, task, question, cutoff, answerable, difficulty and what explains the scores.

An answer with no readable trajectory is a format failure: an unparseable verdict that still
carries the question's metrics, so reports can count it in the right row.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from plancheck.domains.mango.graph import shortest_route
from plancheck.domains.mango.instance import MangoInstance
from plancheck.domains.mango.parse import parse_answer
from plancheck.domains.mango.questions import DFQuestion
from plancheck.domains.mango.scoring import score_df, score_rf
from plancheck.errors import AnswerParseError, Location
from plancheck.limits import DEFAULT, Limits
from plancheck.translators.answer import Pick, read_within_limits, within_limits
from plancheck.translators.reading import Unclosed
from plancheck.verifier.verdict import Verdict, from_trace, unparseable

WORLD = "mango"


def question_metrics(instance: MangoInstance) -> dict[str, Any]:
    """What every verdict of this question reports, parsed or not."""
    question = instance.question
    metrics: dict[str, Any] = {
        "game": instance.game.name, "task": question.task.value, "question": question.id,
        "cutoff": instance.cutoff, "answerable": instance.answerable, "difficulty": instance.difficulty.value,
        "difficulty_rule": instance.rule, "src": question.src, "dst": question.dst,
    }
    if isinstance(question, DFQuestion):
        metrics["question_actions"] = list(question.actions)
    else:
        route = shortest_route(instance.game.known_moves(instance.cutoff), question.src, question.dst)
        metrics["shortest"] = None if route is None else len(route)
    return metrics


def check_answer(instance: MangoInstance, answer: str | Sequence[str], source: str | None = None, *,
                 pick: str = "committed", unclosed: str = "reject", limits: Limits = DEFAULT) -> Verdict:
    """Parse, score and explain one answer to ``instance`` (``pick``, ``unclosed``: see :func:`parse_answer`); an
    answer beyond ``limits`` is refused (:class:`~plancheck.errors.LimitError`)."""
    within_limits(answer, limits, source)
    metrics = question_metrics(instance)
    if not isinstance(answer, str):
        error = AnswerParseError("a MANGO answer is a trajectory list of dicts, not a list of bare action names",
                                 Location(source))
        return replace(unparseable(WORLD, instance.id, error, has_goal=True), metrics=metrics)
    try:
        parsed = parse_answer(answer, source, pick=Pick(pick), unclosed=Unclosed(unclosed), limits=limits)
        parsed = read_within_limits(parsed, limits, source)
    except AnswerParseError as error:
        return replace(unparseable(WORLD, instance.id, error, has_goal=True), metrics=metrics)
    trajectory = [item.action for item in parsed.items]
    question = instance.question
    moves = instance.game.moves
    score = (score_df(moves, question, trajectory) if isinstance(question, DFQuestion)
             else score_rf(moves, question, trajectory))
    success = score.scores["strict"] == 1.0
    metrics.update(score.details)
    metrics["length"] = len(trajectory)
    metrics["reasoning_failure"] = score.reasoning_failure
    verdict = from_trace(WORLD, instance.id, parsed, score.trace, scores=score.scores, metrics=metrics,
                         has_goal=True, name=lambda move: move.action, describe_state=str)
    return replace(verdict, goal_reached=success, goal_step=len(trajectory) if success else None)
