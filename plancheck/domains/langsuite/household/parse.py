"""Reading replies as LangSuitE's ALFRED agent does (:func:`~..engine.reply.read_alfred`) into the action
texts of :class:`~.game.HouseholdGame`, and answers (a JSON list of replies) into replies."""

from __future__ import annotations

import json
from collections.abc import Sequence

from plancheck.domains.langsuite.engine.reply import accepts_opening, read_alfred
from plancheck.domains.langsuite.judge import judged as judge
from plancheck.episodes.game import AMBIGUOUS, CLEAR, NONE, Read
from plancheck.errors import BadInputError, Location
from plancheck.limits import DEFAULT, Limits, load_json
from plancheck.translators.answer import within_limits

WORDS = {"MoveAhead": "move_ahead", "TurnLeft": "turn_left", "TurnRight": "turn_right", "PickUp": "pick_up",
         "Drop": "drop", "Open": "open", "Close": "close", "ToggleOn": "toggle_on", "ToggleOff": "toggle_off",
         "Slice": "slice", "Put": "put", "Goto": "goto", "Heat": "heat", "Cool": "cool", "Clean": "clean",
         "Inspect": "inspect", "Stop": "stop"}
OPENING = ("(opening: accepted)", "(opening: refused)")
SPECIAL = ("(thought)", "(self-feedback)", "(no action)")
ONE = ("pick_up", "drop", "open", "close", "toggle_on", "toggle_off", "slice", "goto", "inspect")
TWO = ("put", "heat", "cool", "clean")


class LangSuitEReading:
    """LangSuitE's reading of an ALFRED reply (its expression, the first action taken, its name lookup); the
    status also compares it with the reply's committed answer (:func:`judged`)."""

    name = "langsuite"

    def read(self, reply: str, actions: Sequence[str]) -> Read:
        rule = self.rule(reply, actions)
        return rule if tuple(actions) == OPENING else judged(rule, reply, actions)

    @staticmethod
    def rule(reply: str, actions: Sequence[str]) -> Read:
        """LangSuitE's reading alone."""
        if tuple(actions) == OPENING:
            accepted = accepts_opening(reply)
            return Read(CLEAR, OPENING[0] if accepted else OPENING[1],
                        () if accepted else ("the reply contains 'not' or \"don't\"",))
        names = {a.split(" [", 1)[1][:-1].split(", ")[-1] for a in actions if " [" in a}
        names |= {a.split(" [", 1)[1][:-1].split(", ")[0] for a in actions if " [" in a}
        reading = read_alfred(reply, {n: n for n in names})
        if reading.status == "thought":
            return Read(CLEAR, "(thought)")
        if reading.status == "self-feedback":
            return Read(NONE, "(self-feedback)", ("the act holds 'feedback:' or 'obs:': LangSuitE refuses it",))
        if reading.status == "none":
            return Read(NONE, "(no action)", ("no action of LangSuitE's list in the act",))
        word = WORDS[reading.action]
        found = [w for w, *_ in reading.matches if w != "look"]
        status, notes = (AMBIGUOUS, (f"several actions ({', '.join(found)}): LangSuitE takes the first",)) \
            if len(found) > 1 else (CLEAR, ())
        if reading.receptacle_id is not None:
            return Read(status, f"{word} [{reading.object_id}, {reading.receptacle_id}]", notes)
        if reading.object_id is not None:
            return Read(status, f"{word} [{reading.object_id}]", notes)
        unknown = [n for n in reading.names if n]
        if unknown:
            notes += (f"{', '.join(repr(n) for n in unknown)} names no object here: LangSuitE passes {word} without "
                      "one",)
        if word in TWO and len(reading.names) == 2 and all(reading.names):
            return Read(status, f"{word} [{reading.names[0]}, {reading.names[1]}]", notes)
        if word in ONE and reading.names and reading.names[0]:
            return Read(status, f"{word} [{reading.names[0]}]", notes)
        return Read(status, word, notes)


def judged(rule: Read, reply: str, actions: Sequence[str]) -> Read:
    """LangSuitE's reading with the reply's committed answer compared (:func:`..judge.judged`): clear only
    when LangSuitE takes the committed action (the first of several, a name that is no object dropped), or
    takes none (a thought, imagined feedback, no action) where the reply commits to none. The action taken
    is LangSuitE's, always."""
    return judge(rule, reply, actions, SPECIAL)


def menu(names: Sequence[str], held: Sequence[str]) -> tuple[str, ...]:
    """The action texts of a Household step, given the scene's display names and the ones held."""
    names = sorted(names)
    return (("move_ahead", "turn_left", "turn_right", "stop") + ONE + TWO
            + tuple(f"{w} [{n}]" for w in ONE for n in names)
            + tuple(f"{w} [{h}, {n}]" for w in TWO for h in held for n in names) + SPECIAL)


READINGS = {"langsuite": LangSuitEReading()}


def reply_for(action: str) -> str:
    """A reply LangSuitE reads as ``action`` (for logs that hold actions without replies)."""
    return {OPENING[0]: "YES", OPENING[1]: "I do not know.", "(thought)": "Thought: ...",
            "(self-feedback)": "Obs: ...", "(no action)": "Act: nothing"}.get(action, f"Act: {action}")


def answer_replies(answer: str | Sequence[str], source: str, limits: Limits = DEFAULT) -> list[str]:
    """The replies of an answer (a JSON list of texts, or a list), within ``limits``."""
    within_limits(answer, limits, source)
    if not isinstance(answer, str):
        return list(answer)
    try:
        replies = load_json(answer, limits, source=source)
    except json.JSONDecodeError as error:
        raise BadInputError(f"{source}: a Household answer is a JSON list of replies (the first answers the opening "
                            f"question): {error.msg} at line {error.lineno}") from None
    if not isinstance(replies, list) or not all(isinstance(r, str) for r in replies):
        raise BadInputError(f"{source}: a Household answer is a JSON list of reply texts")
    limits.length(len(replies), "the answer's list", Location(source))
    return replies
