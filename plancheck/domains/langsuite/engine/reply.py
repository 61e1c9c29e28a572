"""Reading a model's reply as LangSuitE's Rearrangement agent does (``RearrangeAgentReact.parse_response``).

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

This module does not use the regular expression for anything but this faithful reading; it never
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
