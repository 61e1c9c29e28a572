"""Reading replies as LangSuitE's IQA agent does (its substring dispatch, in :mod:`rules`) into the
action texts of :class:`~.game.IqaGame`, and answers (a JSON list of replies) into replies."""

from __future__ import annotations

import json
from collections.abc import Sequence

from plancheck.domains.langsuite.engine.reply import accepts_opening
from plancheck.domains.langsuite.iqa.rules import dispatch, extract_answer
from plancheck.domains.langsuite.judge import judged as judge
from plancheck.domains.langsuite.judge import same_action
from plancheck.episodes.game import AMBIGUOUS, CLEAR, NONE, Read
from plancheck.errors import BadInputError, Location
from plancheck.limits import DEFAULT, Limits, load_json
from plancheck.translators.answer import within_limits

OPENING = ("(opening: accepted)", "(opening: refused)")
SPECIAL = ("(pass)", "(no action)", "(stop)")
ANSWERS = ("answer [True]", "answer [False]", "answer [0]", "answer [1]", "answer [2]", "answer [3]")


WORDS = ("goto", "move_ahead", "turn_left", "turn_right", "open", "answer")
ANSWER_WORDS = ("True", "False", "yes", "no", *map(str, range(10)))


def named_actions(reply: str) -> list[str]:
    """The action words a reply holds (any case), in the prompt's order."""
    lowered = reply.lower()
    return [w for w in WORDS if w in lowered]


class LangSuitEReading:
    """LangSuitE's reading of an IQA reply (the order of its substring tests, its name lookup); the status
    also compares it with the reply's committed answer (:func:`judged`)."""

    name = "langsuite"

    def read(self, reply: str, actions: Sequence[str]) -> Read:
        rule = self.rule(reply, actions)
        return rule if tuple(actions) == OPENING else judged(rule, reply, actions)

    @staticmethod
    def rule(reply: str, actions: Sequence[str]) -> Read:
        """LangSuitE's reading alone."""
        if tuple(actions) == OPENING:
            accepted = accepts_opening(reply)
            notes = () if accepted else ("the reply contains 'not' or \"don't\"",)
            if "answer" in reply.lower():
                notes += ("the reply holds 'answer': LangSuitE ends the episode and judges it as the answer",)
            return Read(CLEAR, OPENING[0] if accepted else OPENING[1], notes)
        word, name = dispatch(reply)
        words = named_actions(reply)
        status = AMBIGUOUS if len(words) > 1 else CLEAR
        notes = (f"several action words ({', '.join(words)}): LangSuitE takes {word}",) if len(words) > 1 else ()
        if word == "answer":
            answer = extract_answer(reply)
            return Read(status, "answer" if answer is None else f"answer [{answer}]", notes)
        if word in ("pass", "Pass", "Stop"):
            text = {"pass": "(pass)", "Pass": "(no action)", "Stop": "(stop)"}[word]
            return Read(NONE if word != "pass" else status, text, notes + (f"LangSuitE: Action {word} not found in "
                                                                          "environment.",))
        if name is not None:
            known = f"{word} [{name}]" in actions
            extra = () if known else (f"{name!r} names no object: LangSuitE ends the episode without a word",)
            return Read(status, f"{word} [{name}]", notes + extra)
        return Read(status, word, notes)


def committed_menu(actions: Sequence[str], taken: str | None = None) -> list[str]:
    """The texts a reply is read the committed way against: the menu's actions, ``goto`` and ``open`` alone,
    and answers (true or false, yes or no, a number, and ``taken`` when it is an answer)."""
    extra = [f"answer [{w}]" for w in ANSWER_WORDS]
    if taken is not None and taken.startswith("answer ["):
        extra.append(taken)
    return [*dict.fromkeys(["goto", "open", *actions, *extra])]


def judged(rule: Read, reply: str, actions: Sequence[str]) -> Read:
    """LangSuitE's reading with the reply's committed answer compared (:func:`..judge.judged`, over the
    menu's actions, the words ``goto`` and ``open`` alone, and answers: true or false, yes or no, a number,
    and the one LangSuitE extracts): clear only when LangSuitE takes the committed action or answer (the
    same answer text in any case; ``(pass)`` where the reply commits to goto or open without a name), or
    takes none where the reply commits to none. A reply LangSuitE reads as an answer because it holds
    "answer" anywhere, or whose first bracketed answer is not its committed one, is not clear."""
    return judge(rule, reply, actions, SPECIAL, _same, committed_menu(actions, rule.action))


def _same(committed: str, taken: str) -> bool:
    if taken.startswith("answer"):  # the same answer text, any case ("answer" alone: LangSuitE found none)
        return taken != "answer" and committed.startswith("answer [") and \
            committed[8:-1].strip().lower() == taken[8:-1].strip().lower()
    if taken == "(pass)":
        return committed in ("goto", "open")
    return same_action(committed, taken)


def menu(names: Sequence[str]) -> tuple[str, ...]:
    """The action texts of an IQA step after the opening, given the scene's display names."""
    return ("move_ahead", "turn_left", "turn_right") + tuple(f"{w} [{n}]" for w in ("goto", "open")
                                                              for n in sorted(names)) + ANSWERS + SPECIAL


READINGS = {"langsuite": LangSuitEReading()}


def reply_for(action: str) -> str:
    """A reply LangSuitE reads as ``action`` (for logs that hold actions without replies)."""
    return {OPENING[0]: "YES", OPENING[1]: "I do not know.", "(pass)": "Act: open", "(no action)": "Thought: ...",
            "(stop)": "Stop"}.get(action, action if action.startswith("answer") else f"Act: {action}")


def answer_replies(answer: str | Sequence[str], source: str, limits: Limits = DEFAULT) -> list[str]:
    """The replies of an answer (a JSON list of texts, or a list), within ``limits``."""
    within_limits(answer, limits, source)
    if not isinstance(answer, str):
        return list(answer)
    try:
        replies = load_json(answer, limits, source=source)
    except json.JSONDecodeError as error:
        raise BadInputError(f"{source}: an IQA answer is a JSON list of replies (the first answers the opening "
                            f"question): {error.msg} at line {error.lineno}") from None
    if not isinstance(replies, list) or not all(isinstance(r, str) for r in replies):
        raise BadInputError(f"{source}: an IQA answer is a JSON list of reply texts")
    limits.length(len(replies), "the answer's list", Location(source))
    return replies
