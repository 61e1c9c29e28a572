"""Reading replies as LangSuitE's IQA agent does (its substring dispatch, in :mod:`rules`) into the
action texts of :class:`~.game.IqaGame`, and answers (a JSON list of replies) into replies."""

from __future__ import annotations

import json
from collections.abc import Sequence

from plancheck.domains.langsuite.engine.reply import accepts_opening
from plancheck.domains.langsuite.iqa.check import named_actions
from plancheck.domains.langsuite.iqa.rules import dispatch, extract_answer
from plancheck.episodes.game import AMBIGUOUS, CLEAR, NONE, Read
from plancheck.errors import BadInputError, Location
from plancheck.limits import DEFAULT, Limits, load_json
from plancheck.translators.answer import within_limits

OPENING = ("(opening: accepted)", "(opening: refused)")
SPECIAL = ("(pass)", "(no action)", "(stop)")


class LangSuitEReading:
    """LangSuitE's reading of an IQA reply (the order of its substring tests, its name lookup)."""

    name = "langsuite"

    def read(self, reply: str, actions: Sequence[str]) -> Read:
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
