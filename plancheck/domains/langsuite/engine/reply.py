"""Reading a model's reply as LangSuitE's Rearrangement and ALFRED agents do (``parse_response``).

* Opening question: the first reply is accepted unless it contains the substring ``not`` or
  ``don't`` (case-sensitive; "cannot", "nothing" and "note" count too).
* Afterwards the reply is split into lines: a line containing ``thought:``, ``think:`` or ``i think:``
  (any case) is a thought, one containing ``act:`` or ``action:`` an act (the text after its first
  colon, later colons dropped); an unmarked line continues the thought while no act has been seen,
  else it is an act. No act at all: the reply is a thought, answered ``OK.``, and uses a step.
* The acts, joined by spaces and lower-cased, are scanned with LangSuitE's regular expression
  ``(move_ahead|turn_left|turn_right|stop|pick_up|pickup|drop|open|close|goto)[\\s\\[]*([a-zA-Z\\|_]*_[0-9]*)?``
  (``re.findall``, so "opened" or "dropped" match as well). ``pickup`` matches but is then dropped.
  More than one action: ``failure.multipleActions``; none: ``failure.actionNotFound``.
* An object name resolves when it is a display name of the scene (held or not, seen or not);
  otherwise the action goes on without an object. (LangSuitE's other branch, a bare type word
  resolved to the nearest visible object of that type, cannot fire: the captured name always
  holds an underscore and no type word does.)

ALFRED (:func:`read_alfred`) cuts the reply the same way, then refuses an act holding "feedback:"
or "obs:", scans with its own expression and, when several actions match, **takes the first**.

This module does not use the regular expressions for anything but this faithful reading; it never
evaluates the text.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

REARRANGE_ACTION_REGEX = (r"(move_ahead|turn_left|turn_right|stop|pick_up|pickup|drop|open|close|goto)"
                          r"[\s\[]*([a-zA-Z\|_]*_[0-9]*)?")
_ACTION = re.compile(REARRANGE_ACTION_REGEX)
_NAME = re.compile(r"[a-zA-Z_]+_[0-9]+")
_PLAIN = {"move_ahead": "MoveAhead", "turn_left": "TurnLeft", "turn_right": "TurnRight", "stop": "Stop"}
_WITH_OBJECT = {"pick_up": "PickUp", "drop": "Drop", "open": "Open", "close": "Close", "goto": "Goto"}
REFUSAL_TOKENS = ("not", "don't")


def accepts_opening(reply: str) -> bool:
    """Whether LangSuitE takes the reply to its opening question as a yes."""
    return not any(token in reply for token in REFUSAL_TOKENS)


@dataclass(frozen=True, slots=True)
class Split:
    """A reply cut into thought and act lines as LangSuitE cuts it."""

    thoughts: tuple[str, ...]
    acts: tuple[str, ...]

    @property
    def act_text(self) -> str | None:
        return " ".join(self.acts).strip() if self.acts else None


def split_reply(reply: str) -> Split:
    thoughts: list[str] = []
    acts: list[str] = []
    for line in reply.split("\n"):
        line = line.strip()
        if not line:
            continue
        lowered = line.lower()
        if any(tok in lowered for tok in ("thought:", "think:", "i think:")):
            thoughts.append("".join(line.split(":")[1:]))
        elif any(tok in lowered for tok in ("act:", "action:")):
            acts.append("".join(line.split(":")[1:]))
        elif not acts and thoughts:
            thoughts.append(line)
        else:
            acts.append(line)
    return Split(tuple(thoughts), tuple(acts))


@dataclass(frozen=True, slots=True)
class Reading:
    """What LangSuitE makes of one reply after the opening.

    ``status``: ``thought`` (no act: ``OK.``), ``action`` (exactly one action; ``action`` is the
    action class, ``object_id`` the resolved object or None), ``multiple`` or ``none`` (no action
    found). ``matches`` are the regular expression's (word, name) pairs.
    """

    status: str
    split: Split
    matches: tuple[tuple[str, str], ...] = ()
    action: str | None = None
    object_name: str | None = None
    object_id: str | None = None


def read_reply(reply: str, names: Mapping[str, str]) -> Reading:
    """Read a reply given the scene's display names (name -> object id)."""
    split = split_reply(reply)
    act = split.act_text
    if act is None:
        return Reading("thought", split)
    matches = tuple(_ACTION.findall(act.lower()))
    kept: list[tuple[str, str | None, str | None]] = []
    for word, arg in matches:
        if word in _PLAIN:
            kept.append((_PLAIN[word], None, None))
        elif word in _WITH_OBJECT:
            name = arg.strip("'").strip('"')
            oid = names.get(name) if _NAME.match(name) else None
            kept.append((_WITH_OBJECT[word], name, oid))
    if len(kept) > 1:
        return Reading("multiple", split, matches)
    if not kept:
        return Reading("none", split, matches)
    action, name, oid = kept[0]
    return Reading("action", split, matches, action, name, oid)


ALFRED_ACTION_REGEX = (r"(move_ahead|turn_left|turn_right|stop|pick_up|drop|toggle_on|toggle_off|put|slice|open|close|"
                       r"goto|heat|cool|clean|inspect|look)[\s\[]*(?:([a-zA-Z\|_]*_[0-9])*[\s,]*([a-zA-Z\|_]*_[0-9]*))?")
_ALFRED = re.compile(ALFRED_ACTION_REGEX)
_ALFRED_PLAIN = ("move_ahead", "turn_left", "turn_right", "stop")
_ALFRED_ONE = ("pick_up", "drop", "open", "close", "toggle_on", "toggle_off", "slice", "goto", "inspect")
_ALFRED_TWO = ("put", "heat", "clean", "cool")
SELF_FEEDBACK = ("feedback:", "obs:")


def action_class(word: str) -> str:
    """``_justify_action_name``: ``pick_up`` -> ``PickUp``, ``goto`` -> ``Goto``."""
    return "".join(part[0].upper() + part[1:] for part in word.lower().split("_"))


@dataclass(frozen=True, slots=True)
class AlfredReading:
    """What LangSuitE's ALFRED agent (``AlfredAgentReact``) makes of one reply after the opening.

    ``status``: ``thought`` (no act: ``OK.``), ``self-feedback`` (the act holds "feedback:" or
    "obs:"), ``none`` (no action found), or ``action`` (the first match; ``matches`` > 1 means
    several actions were named and LangSuitE took the first). ``names`` are the bracket names the
    regular expression captured for the action taken (object, receptacle).
    """

    status: str
    split: Split
    matches: tuple[tuple[str, str, str], ...] = ()
    action: str | None = None
    names: tuple[str, ...] = ()
    object_id: str | None = None
    receptacle_id: str | None = None


def resolve_alfred(name: str, names: Mapping[str, str]) -> str | None:
    """``_get_obj_id_by_name``: a display name resolves when it matches ``[a-zA-Z_]+_[0-9]+`` at its start
    and is a name of the scene. (Its other branch, a bare type word resolved to the nearest visible
    object, cannot fire: the captured name always holds an underscore and no type word does; sliced
    pieces' names, ``apple|sliced_0``, fail the pattern and never resolve.)"""
    if _NAME.match(name) and name in names:
        return names[name]
    return None


def read_alfred(reply: str, names: Mapping[str, str]) -> AlfredReading:
    """Read a reply given the scene's display names (name -> object id)."""
    split = split_reply(reply)
    act = split.act_text
    if act is None:
        return AlfredReading("thought", split)
    if any(token in act.lower() for token in SELF_FEEDBACK):
        return AlfredReading("self-feedback", split)
    matches = tuple(_ALFRED.findall(act.lower()))
    for word, first, second in matches:
        if word in _ALFRED_PLAIN:
            return AlfredReading("action", split, matches, action_class(word))
        if word in _ALFRED_ONE:
            name = second.strip("'").strip('"')
            return AlfredReading("action", split, matches, action_class(word), (name,), resolve_alfred(name, names))
        if word in _ALFRED_TWO:
            obj, rec = first.strip("'").strip('"'), second.strip("'").strip('"')
            oid, rid = resolve_alfred(obj, names), resolve_alfred(rec, names)
            if oid is None or rid is None:
                return AlfredReading("action", split, matches, action_class(word), (obj, rec))
            return AlfredReading("action", split, matches, action_class(word), (obj, rec), oid, rid)
    return AlfredReading("none", split, matches)
