"""LangSuitE's console logs (the ``.jl`` files of its ``CMDClient``): reading them, and rebuilding replies.

LangSuitE's batch scripts give every run a console log; each message it shows becomes one line,
``json.dumps(message, sort_keys=True)``: ``{"content": ..., "role": "system"}`` for its own messages and
``{"action": "chat" | "thought" | "act", "content": ..., "name": ..., "role": "assistant"}`` for the
agent's (a ``"user"`` line only in its interactive mode, which no task run writes). The tasks' converters
(``rearrangement/convert.py``, ``iqa/convert.py``, ``household/convert.py``) read what each task logs.

The model's raw replies are not all in these logs. Rearrangement and Household log a started reply as
the thought and the act LangSuitE cut out of it (``parse_response``: marked and unmarked lines, see
:mod:`.engine.reply`); :func:`rebuild_reply` writes a reply LangSuitE cuts into exactly those pieces.
:func:`console_line` writes one line as LangSuitE does (tests build console logs with it).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from plancheck.domains.langsuite.engine.reply import split_reply
from plancheck.errors import BadInputError, Location
from plancheck.files import data_text
from plancheck.limits import load_json

KINDS = ("chat", "thought", "act")


@dataclass(frozen=True, slots=True)
class Message:
    """One line of a console log: its number, ``system`` or ``assistant``, the text, and for the agent's
    messages ``chat``, ``thought`` or ``act``."""

    line: int
    role: str
    content: str
    kind: str = ""

    @property
    def system(self) -> bool:
        return self.role == "system"


def read_console(path: Path) -> tuple[Message, ...]:
    """The messages of a console log (BadInputError naming the line of anything else)."""
    out = []
    for number, line in enumerate(data_text(path).splitlines(), start=1):
        if not line.strip():
            continue
        try:
            message = load_json(line, source=str(path), line=number)
        except json.JSONDecodeError as error:
            raise BadInputError(f"not a JSON line: {error.msg}", Location(str(path), number)) from None
        if not isinstance(message, dict) or message.get("role") not in ("system", "assistant"):
            raise BadInputError("not a LangSuitE console message (role system or assistant)",
                                Location(str(path), number))
        content = message.get("content")
        if not isinstance(content, str):
            raise BadInputError("a LangSuitE console message has a text 'content'", Location(str(path), number))
        kind = ""
        if message["role"] == "assistant":
            kind = message.get("action", "chat")
            if kind not in KINDS:
                raise BadInputError(f"an agent's message has action {kind!r}; LangSuitE logs chat, thought or act",
                                    Location(str(path), number))
        out.append(Message(number, message["role"], content, kind))
    return tuple(out)


def at(path: Path, message: Message | None) -> Location:
    """Where ``message`` is (the end of the file when None)."""
    return Location(str(path), message.line if message is not None else None)


def console_line(role: str, content: str, *, kind: str = "chat", name: str = "Robot") -> str:
    """One line as LangSuitE's ``CMDClient.step`` writes it."""
    message = {"role": role, "content": content}
    if role == "assistant":
        message.update(action=kind, name=name)
    return json.dumps(message, sort_keys=True)


def reply_pieces(reply: str) -> list[tuple[str, str]]:
    """The (kind, text) pieces LangSuitE logs for a started reply of Rearrangement or Household: the thought
    (its parts joined by spaces) and the act (joined and stripped), each when there is one."""
    split = split_reply(reply)
    pieces = [("thought", " ".join(split.thoughts))] if split.thoughts else []
    return pieces + ([("act", split.act_text)] if split.act_text is not None else [])


def rebuild_reply(pieces: Sequence[Message], path: Path) -> tuple[str, str | None]:
    """A reply LangSuitE cuts into the logged ``pieces`` (one chat piece: the reply itself; else a thought and
    an act, each optional), and a note when only the act could be rebuilt exactly (a thought holding colons
    in a way no reply's lines give)."""
    if not pieces:
        return "", None  # nothing logged: a reply with no line LangSuitE keeps
    if len(pieces) == 1 and pieces[0].kind == "chat":
        return pieces[0].content, None
    kinds = [p.kind for p in pieces]
    if kinds not in (["thought"], ["act"], ["thought", "act"]):
        raise BadInputError(f"the agent's messages are {', '.join(kinds)}; LangSuitE logs a reply as one chat "
                            "message, or a thought and then an act", at(path, pieces[0]))
    thought = pieces[0].content if kinds[0] == "thought" else None
    act = pieces[-1].content if kinds[-1] == "act" else None
    want = [p for p in ((("thought", thought) if thought is not None else None),
                        (("act", act) if act is not None else None)) if p is not None]
    for candidate in _candidates(thought, act):
        if reply_pieces(candidate) == want:
            return candidate, None
    fallback = "\n".join(([act] if act else ["Act:"] if act is not None else [])
                         + ([f"Thought:{thought.replace(':', '')}"] if thought is not None else []))
    return fallback, (f"line {pieces[0].line}: the logged thought cannot be cut from any reply as logged (its "
                      "colons); the reply keeps the act exactly and the thought without its colons")


def _candidates(thought: str | None, act: str | None) -> list[str]:
    """Replies to try, simplest first: marked lines; the act as an unmarked first line (an act holding
    colons); a thought split where its first colon-holding word starts (its tail as an unmarked line)."""
    acts = [f"Act:{act}"] if act is not None else [""]
    if act:
        acts.append(act)
    thoughts = [""] if thought is None else [f"Thought:{thought}"]
    if thought is not None and ":" in thought:
        cut = thought.rfind(" ", 0, thought.index(":"))
        if cut >= 0:
            thoughts.append(f"Thought:{thought[:cut]}\n{thought[cut + 1:]}")
    out = []
    for t in thoughts:
        for a in acts:
            if a and not a.startswith("Act:"):  # unmarked: it must come before any thought
                out.append("\n".join(x for x in (a, t) if x))
            else:
                out.append("\n".join(x for x in (t, a) if x))
    return out
