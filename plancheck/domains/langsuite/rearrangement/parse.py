"""Reading replies as LangSuitE does (its regular expression, name lookup and opening rule, in
:mod:`..engine.reply`) into the action texts of :class:`~.game.RearrangementGame`, and answers (a
JSON list of replies) into replies."""

from __future__ import annotations

import json
from collections.abc import Sequence

from plancheck.domains.langsuite.engine.reply import accepts_opening, read_reply
from plancheck.domains.langsuite.judge import judged as judge
from plancheck.episodes.game import AMBIGUOUS, CLEAR, NONE, Read
from plancheck.errors import BadInputError, Location
from plancheck.limits import DEFAULT, Limits, load_json
from plancheck.translators.answer import within_limits

WORDS = {"MoveAhead": "move_ahead", "TurnLeft": "turn_left", "TurnRight": "turn_right", "PickUp": "pick_up",
         "Drop": "drop", "Open": "open", "Close": "close", "Goto": "goto", "Stop": "stop"}
OPENING = ("(opening: accepted)", "(opening: refused)")
SPECIAL = ("(thought)", "(several actions)", "(no action)")
_OBJECT_WORDS = ("pick_up", "drop", "open", "close", "goto")


class LangSuitEReading:
    """LangSuitE's reading of a reply (its regular expression, its name lookup, its opening rule); the
    status also compares it with the reply's committed answer (:func:`judged`)."""

    name = "langsuite"

    def read(self, reply: str, actions: Sequence[str]) -> Read:
        rule = self.rule(reply, actions)
        return rule if tuple(actions) == OPENING else judged(rule, reply, actions)

    @staticmethod
    def rule(reply: str, actions: Sequence[str]) -> Read:
        """LangSuitE's reading alone."""
        if tuple(actions) == OPENING:
            return Read(CLEAR, OPENING[0] if accepts_opening(reply) else OPENING[1],
                        () if accepts_opening(reply) else ("the reply contains 'not' or \"don't\"",))
        names = {a.split(" [", 1)[1][:-1]: a for a in actions if " [" in a}
        reading = read_reply(reply, {n: n for n in names})
        if reading.status == "thought":
            return Read(CLEAR, "(thought)")
        if reading.status == "multiple":
            words = ", ".join(w for w, _ in reading.matches)
            return Read(AMBIGUOUS, "(several actions)", (f"several actions ({words}): LangSuitE takes none",))
        if reading.status == "none":
            return Read(NONE, "(no action)", ("no action of LangSuitE's list in the act",))
        word = WORDS[reading.action]
        if reading.object_id is not None:
            return Read(CLEAR, f"{word} [{reading.object_id}]")
        notes = ()
        if word in _OBJECT_WORDS:
            notes = (f"{reading.object_name!r} names no object here: LangSuitE passes {word} without one",) \
                if reading.object_name else (f"{word} without an object",)
        return Read(CLEAR, word, notes)


def judged(rule: Read, reply: str, actions: Sequence[str]) -> Read:
    """LangSuitE's reading with the reply's committed answer compared (:func:`..judge.judged`): clear only
    when LangSuitE takes the committed action, or takes none (a thought, several actions, none) where the
    reply commits to none. The action taken is LangSuitE's, always."""
    return judge(rule, reply, actions, SPECIAL)


def menu(names: Sequence[str]) -> tuple[str, ...]:
    """The action texts of a Rearrangement step, given the scene's display names."""
    return ("move_ahead", "turn_left", "turn_right", "stop") + _OBJECT_WORDS + \
        tuple(f"{w} [{n}]" for w in _OBJECT_WORDS for n in sorted(names)) + SPECIAL


READINGS = {"langsuite": LangSuitEReading()}


def reply_for(action: str) -> str:
    """A reply LangSuitE reads as ``action`` (for logs that hold actions without replies)."""
    if action == OPENING[0]:
        return "YES"
    if action == OPENING[1]:
        return "I do not know."
    if action == "(thought)":
        return "Thought: ..."
    if action == "(several actions)":
        return "Act: move_ahead, turn_left"
    if action == "(no action)":
        return "Act: nothing"
    return f"Act: {action}"


def answer_replies(answer: str | Sequence[str], source: str, limits: Limits = DEFAULT) -> list[str]:
    """The replies of an answer (a JSON list of texts, or a list), within ``limits``."""
    within_limits(answer, limits, source)
    if not isinstance(answer, str):
        return list(answer)
    try:
        replies = load_json(answer, limits, source=source)
    except json.JSONDecodeError as error:
        raise BadInputError(f"{source}: a Rearrangement answer is a JSON list of replies (the first answers the "
                            f"opening question): {error.msg} at line {error.lineno}") from None
    if not isinstance(replies, list) or not all(isinstance(r, str) for r in replies):
        raise BadInputError(f"{source}: a Rearrangement answer is a JSON list of reply texts")
    limits.length(len(replies), "the answer's list", Location(source))
    return replies
