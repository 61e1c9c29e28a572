"""Check one answer to a Hanoi instance: read the moves, replay them under SmartPlay's rules, score.

Unreadable slots follow ``unknown``: ``noop`` executes them as an invalid move (a step used,
reward -1), ``skip`` drops them (they stay reported), ``action0`` executes SmartPlay's fallback,
action 0 ("Move the top disk of rod A to the top of rod B"), and says so in a note.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from plancheck.domains.smartplay.hanoi import scoring
from plancheck.domains.smartplay.hanoi.instance import HanoiInstance
from plancheck.domains.smartplay.hanoi.parse import ParsePolicy, parse_answer, parse_token
from plancheck.domains.smartplay.hanoi.prompts import compact
from plancheck.domains.smartplay.hanoi.rules import HanoiRules, Move
from plancheck.errors import AnswerParseError
from plancheck.limits import DEFAULT, Limits
from plancheck.rules import Unknown
from plancheck.translators.answer import ParsedAction, ParsedAnswer, UnknownPolicy, read_within_limits, within_limits
from plancheck.verifier.execute import execute
from plancheck.verifier.verdict import Verdict, from_trace, unparseable

WORLD = "hanoi"
UNKNOWN_POLICIES = ("noop", "skip", "action0")


def read(answer: str | Sequence[str], policy: ParsePolicy, source: str | None = None,
         limits: Limits = DEFAULT) -> ParsedAnswer[Move]:
    """The moves of free text (refused beyond ``limits.answer_words``), or of a list of action texts (one move
    each); ``source`` names the text in errors."""
    if isinstance(answer, str):
        return parse_answer(answer, policy, source, limits)
    items = tuple(ParsedAction(parse_token(token), 0, 0) for token in answer)
    return ParsedAnswer(items, (), "action list")


def _actions(parsed: ParsedAnswer[Move], unknown: str) -> tuple[list[Move | Unknown], ParsedAnswer[Move]]:
    if unknown != "action0":
        return parsed.actions(UnknownPolicy(unknown)), parsed
    actions = parsed.actions()
    unread = sum(isinstance(action, Unknown) for action in actions)
    if not unread:
        return actions, parsed
    note = f"{unread} unreadable slot(s) executed as action 0 ({Move.AB.sentence}), as SmartPlay's harness does"
    executed = [Move.AB if isinstance(a, Unknown) else a for a in actions]
    return executed, replace(parsed, notes=parsed.notes + (note,))


def check_answer(instance: HanoiInstance, answer: str | Sequence[str], *, read_mode: str = "plan",
                 pick: str = "committed", unclosed: str = "accept", unknown: str = "noop",
                 source: str | None = None, limits: Limits = DEFAULT) -> Verdict:
    """The verdict on one answer (``source``, e.g. a file name, names it in parse errors); an answer beyond
    ``limits`` is refused (:class:`~plancheck.errors.LimitError`)."""
    within_limits(answer, limits, source)
    try:
        parsed = read_within_limits(read(answer, ParsePolicy.of(read_mode, pick, unclosed), source, limits), limits,
                                    source)
    except AnswerParseError as error:
        return unparseable(WORLD, instance.id, error, has_goal=True)
    actions, parsed = _actions(parsed, unknown)
    trace = execute(HanoiRules(instance), actions)
    return from_trace(WORLD, instance.id, parsed, trace,
                      scores=scoring.scores(instance, trace),
                      metrics=scoring.metrics(instance, trace, len(parsed.items)),
                      has_goal=True, describe_state=compact, optimal=scoring.optimum(instance), executed=actions)
