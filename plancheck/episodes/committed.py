"""The committed answer of one reply in an episode: which of the game's actions the model commits to.

An episode world asks for one action a step, from a menu of action texts ("Move North",
"Pull slot machine 2.", "Rock"). A reply often names several: in its reasoning, in options it
rejects, in a recap. :func:`read_committed` reads it as a careful person does:

* an action is *named* where its text stands as words (any case; spaces, ``_`` or ``-`` between
  its words; the menu's final full stop optional; a plural ``s`` allowed): "Scissors" names
  ``Scissor``, "move_north" ``Move North``. An everyday one-word action ("Do", "Sleep") counts only
  written as the menu writes it, or where the reply marks its answer;
* an action named inside ``<think>``, in a reasoning, explanation, recap or thought section
  ("Thought:", "Reasoning:", ``"reasoning": ...``), or rejected ("not Move North", "instead of
  Rock", "avoid ...") is *not* an answer;
* an explicitly marked answer wins: "Final answer: Move North", "Action: ...", "Act: ..." (at a line's
  start or after a sentence on it: "Thought: ... . Act: ..."),
  "**Answer:** ...", "I choose ...", "the best action is ...", a JSON ``"action"``, and the last
  line of the reply when it names one action in a few words;
* a correction ("wait, instead ...", "actually, ...") after an earlier answer is chosen, and the
  reply is ambiguous when it differs from what came before (as in the free-text worlds);
* a reply naming several different actions with no marked answer is ambiguous (the last one named
  is the guess); a reply naming none reads ``none``.

Nothing here knows a world: the menu is the world's, the words those of replies in general.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from plancheck.episodes.game import AMBIGUOUS, CLEAR, NONE
from plancheck.limits import Limits
from plancheck.translators.markers import Label, Role, find_labels, think_regions

EVERYDAY = frozenset({"do", "sleep", "stop", "wait", "open", "close", "drop", "noop", "go", "play", "take"})

_EXTRA = (
    (re.compile(r"(?im)^[ \t>*_#-]*(?:act|action|move|choice|decision|selection|command|next[ \t]+(?:action|move))"
                r"[ \t*_]*[:：]"), Role.ANSWER),
    (re.compile(r"(?i)(?<=[.!?;])[ \t]+(?:act|action)[ \t*_]*[:：]"), Role.ANSWER),  # "Thought: ... . Act: ..."
    (re.compile(r"(?i)\b(?:i(?:'ll|’ll|[ \t]+will|[ \t]+would|[ \t]+shall)?[ \t]+(?:choose|chose|pick|select|go[ \t]+"
                r"with|take|play|opt[ \t]+for|do)|i(?:'m|’m|[ \t]+am)[ \t]+(?:choosing|going[ \t]+with|picking|"
                r"selecting|taking|playing)|let(?:'s|’s|[ \t]+us)[ \t]+(?:choose|pick|go[ \t]+with|play|take)|"
                r"my[ \t]+(?:choice|move|action|pick|answer|decision)[ \t]+(?:is|will[ \t]+be)|i[ \t]+decided?[ \t]+"
                r"to|(?:best|chosen|selected|next)[ \t]+(?:action|move|choice)[ \t]+(?:is|would[ \t]+be|will[ \t]+be)|"
                r"(?:therefore|so|thus|hence),?[ \t]+(?:i[ \t]+)?(?:should|will|must))\b[ \t:]*"), Role.ANSWER),
    (re.compile(r"(?i)(?:\b(?:je[ \t]+choisis|j'ai[ \t]+choisi|je[ \t]+joue|elijo|escojo|juego|"
                r"ich[ \t]+(?:wähle|nehme|spiele)|scelgo|gioco|eu[ \t]+escolho)\b|我选择|我选|选择)[ \t:：]*"),
     Role.ANSWER),
    (re.compile(r"(?im)(?:\b(?:respuesta(?:[ \t]+final)?|réponse(?:[ \t]+finale)?|antwort|risposta(?:[ \t]+finale)?|"
                r"resposta(?:[ \t]+final)?|acción|aktion|azione)\b|最终答案|答案|行动|动作)[ \t*_]*[:：]"),
     Role.ANSWER),
    (re.compile(r"(?i)\"(?:action|answer|final_answer|move|choice|next_action)\"[ \t]*:"), Role.ANSWER),
    (re.compile(r"(?i)\"(?:reasoning|reason|thoughts?|explanation|analysis|rationale)\"[ \t]*:"), Role.ASIDE),
    (re.compile(r"(?im)^[ \t>*_#-]*(?:thought|think|i[ \t]+think|observation|plan[ \t]+ahead)[ \t*_]*[:：]"),
     Role.ASIDE),
)
_NEGATION = re.compile(r"(?i)(?:\b(?:not|never|avoid(?:ing)?|instead[ \t]+of|rather[ \t]+than|no[ \t]+need[ \t]+to|"
                       r"than|nor|without)|n't|n’t)\b[^.;:!?,\n]{0,24}$")
_CLAUSE_END = re.compile(r"\n|[.!?。！？](?=\s|$)|[;；]|\"[ \t]*[,}]|\b(?:because|since|as[ \t]+it|which|so[ \t]+that|"
                         r"but|while|whereas|car|porque|pues|weil|denn|perché|porque)\b|因为", re.IGNORECASE)
_ITEM = re.compile(r"[ \t]*(?:[-*•]|\d+[.)]|option\b)", re.IGNORECASE)
_QUESTION_START = re.compile(r"[ \t]+(?:you|i|we|they|not|it)\b", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Committed:
    """The committed reading of a reply: its status, the action read (None: none), why, and the
    distinct actions the reply names outside its asides (in text order)."""

    status: str
    action: str | None
    why: str
    named: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class _Named:
    start: int
    end: int
    index: int
    role: Role = Role.PLAIN
    label: str = ""


def read_committed(reply: str, actions: Sequence[str]) -> Committed:
    """The action ``reply`` commits to among ``actions`` (see the module docstring).

    >>> read = read_committed("Rock beats scissors, so paper beats rock.\\nFinal answer: Paper", ["Rock", "Paper"])
    >>> read.status, read.action, read.why
    ('clear', 'Paper', "introduced as the answer: 'Final answer:'")
    >>> read_committed("Move North or Move South?", ["Move North", "Move South"]).status
    'ambiguous'
    """
    words = len(reply.split())
    if words > _MOST_WORDS:
        return Committed(AMBIGUOUS, None, f"the reply has {words} words, more than the {_MOST_WORDS} plancheck "
                                          "reads for a commitment (--max-answer-words' default); not judged")
    if len(reply) > _CACHED_CHARS:  # long replies are not remembered (4,096 of them could fill gigabytes)
        return _read.__wrapped__(reply, tuple(actions))
    return _read(reply, tuple(actions))


_MOST_WORDS = Limits().answer_words
_MOST_NAMED = 1000
_CACHED_CHARS = 4096


@lru_cache(maxsize=4096)
def _read(reply: str, actions: tuple[str, ...]) -> Committed:
    """:func:`read_committed`, remembered (replies such as "Move North" recur at most steps of a log)."""
    bare = reply.strip().rstrip(".").lower()
    exact = [a for a in actions if a.rstrip(".").lower() == bare]
    if len(exact) == 1:  # the reply is an action's text and nothing else
        return Committed(CLEAR, exact[0], "the only action named", (exact[0],))
    found = _find(reply, actions)
    if not found:
        return Committed(NONE, None, "the reply names no action")
    if len(found) > _MOST_NAMED:  # each name is weighed against the others: the cost grows with its square
        return Committed(AMBIGUOUS, None, f"the reply names actions {len(found)} times, more than the {_MOST_NAMED} "
                                          "plancheck weighs for a commitment; not judged")
    labels = find_labels(reply, _EXTRA)
    thinking = think_regions(reply)
    roled: list[_Named] = []
    previous: _Named | None = None
    for item in found:
        role, label = _role(reply, item, labels, thinking, previous)
        item = _Named(item.start, item.end, item.index, role, label)
        if role is not Role.ASIDE:
            previous = item
        roled.append(item)
    roled = [n for n in roled if not _everyday_loose(reply, actions, n)]
    answers = [n for n in roled if n.role is not Role.ASIDE]
    named = tuple(dict.fromkeys(actions[n.index] for n in answers))
    if not answers:
        said = "in explanation, reasoning or as rejected options" if roled else "as everyday words"
        return Committed(NONE, None, f"the reply names actions only {said}")
    last = _last_line(reply, answers, thinking)
    if last is not None and all(n.role is Role.PLAIN for n in answers) and len(named) > 1:
        answers = [*(n for n in answers if n is not last), _Named(last.start, last.end, last.index, Role.ANSWER,
                                                                  "the reply's last line")]
        answers.sort(key=lambda n: n.start)
    top = max(_RANK[n.role] for n in answers)
    pool = [n for n in answers if _RANK[n.role] == top]
    chosen = pool[-1]
    action = actions[chosen.index]
    distinct = {n.index for n in pool}
    if chosen.role is Role.CORRECTION:
        earlier = {n.index for n in answers if n.start < chosen.start and n.role is not Role.CORRECTION}
        status = CLEAR if earlier <= {chosen.index} else AMBIGUOUS
        return Committed(status, action, f"a correction of the earlier answer{_said(chosen)}", named)
    if chosen.role is Role.ANSWER:
        if len(distinct) > 1:
            return Committed(AMBIGUOUS, action, f"{len(pool)} answers marked as such name different actions; "
                                                f"the last was read{_said(chosen)}", named)
        return Committed(CLEAR, action, f"introduced as the answer{_said(chosen)}", named)
    if len(distinct) > 1:
        return Committed(AMBIGUOUS, action, "several actions named and none marked as the answer; the last named "
                                            "was read", named)
    return Committed(CLEAR, action, "the only action named", named)


_RANK = {Role.CORRECTION: 3, Role.ANSWER: 2, Role.PLAIN: 1, Role.ASIDE: 0}


def _said(item: _Named) -> str:
    return f": {item.label!r}" if item.label else ""


@lru_cache(maxsize=256)
def _patterns(actions: tuple[str, ...]) -> tuple[re.Pattern, ...]:
    patterns = []
    for action in actions:
        words = re.findall(r"[A-Za-z0-9]+", action)
        body = r"[ \t_\-\[\]'\",:]+".join(re.escape(word) for word in words)
        patterns.append(re.compile(rf"(?<![A-Za-z0-9]){body}(?:s|es)?\.?(?![A-Za-z0-9])", re.IGNORECASE))
    return tuple(patterns)


def _find(reply: str, actions: tuple[str, ...]) -> list[_Named]:
    """Every place an action is named, earliest first; one inside a longer one's place is left out."""
    found = []
    for index, pattern in enumerate(_patterns(actions)):
        for match in pattern.finditer(reply):
            end = match.end() - (1 if match.group(0).endswith(".") and not actions[index].endswith(".") else 0)
            found.append(_Named(match.start(), end, index))
    found.sort(key=lambda n: (n.start, -(n.end - n.start)))
    kept: list[_Named] = []
    reach = -1  # the furthest end of those kept: each starts at or before the item, so it is inside one iff within
    for item in found:  # (a scan of every kept place for each item was quadratic: 1 MB of replies took minutes)
        if item.end > reach:
            kept.append(item)
            reach = item.end
    return kept


def _clause_start(reply: str, at: int) -> int:
    start = 0
    for match in _CLAUSE_END.finditer(reply, max(0, at - 400), at):
        start = match.end()
    return max(start, reply.rfind("\n", 0, at) + 1)


def _role(reply: str, item: _Named, labels: Sequence[Label], thinking: Sequence[tuple[int, int]],
          previous: _Named | None) -> tuple[Role, str]:
    if any(low <= item.start < high for low, high in thinking):
        return Role.ASIDE, "inside <think>"
    begin = _clause_start(reply, item.start)
    if _NEGATION.search(reply, begin, item.start):
        return Role.ASIDE, "a rejected option"
    line = reply.rfind("\n", 0, item.start) + 1
    if previous is not None:
        correction = next((lab for lab in reversed(labels) if lab.role is Role.CORRECTION
                           and previous.end <= lab.start < item.start), None)
        if correction is not None:
            return Role.CORRECTION, correction.text
    inline = [lab for lab in labels if line <= lab.start and lab.end <= item.start and not lab.heading
              and lab.role in (Role.ANSWER, Role.ASIDE)]
    if inline:
        label = inline[-1]
        if label.role is Role.ASIDE or label.start >= begin or previous is None or previous.end <= label.start:
            return label.role, label.text
    section = _section(reply, item, labels, previous)
    if section is not None:
        return section.role, section.text
    return Role.PLAIN, ""


def _section(reply: str, item: _Named, labels: Sequence[Label], previous: _Named | None) -> Label | None:
    """The heading (or line-starting label) whose section holds the item: an aside covers its section to
    the next label line or blank line; an answer heading introduces the first action named after it."""
    before = [lab for lab in labels if lab.end <= item.start and lab.role is not Role.CORRECTION
              and (lab.heading or reply[reply.rfind("\n", 0, lab.start) + 1:lab.start].strip(" \t>*_#-") == "")]
    if not before:
        return None
    label = before[-1]
    if label.role is Role.PLAIN:
        return None
    if label.role is Role.ANSWER:
        first = previous is None or previous.end <= label.start
        return label if first else None
    gap = reply[label.end:item.start]
    return label if "\n\n" not in gap.replace("\r", "") or label.heading else None


def _last_line(reply: str, answers: Sequence[_Named], thinking: Sequence[tuple[int, int]]) -> _Named | None:
    """The answer named on the reply's last non-blank line, when that line names one action in a few words."""
    end = len(reply.rstrip())
    if any(low <= end - 1 < high for low, high in thinking) or end == 0:
        return None
    start = reply.rfind("\n", 0, end) + 1
    if _ITEM.match(reply, start):
        return None
    on = [n for n in answers if start <= n.start < end]
    if not on or len({n.index for n in on}) > 1:
        return None
    rest = reply[start:on[0].start] + reply[on[-1].end:end]
    return on[-1] if len(re.findall(r"[A-Za-z0-9]+", rest)) <= 8 else None


def _everyday_loose(reply: str, actions: Sequence[str], item: _Named) -> bool:
    """An everyday one-word action written as a word of a sentence, not as the menu's action."""
    action = actions[item.index].rstrip(".")
    if action.lower() not in EVERYDAY or item.role in (Role.ANSWER, Role.CORRECTION):
        return False
    line = reply[reply.rfind("\n", 0, item.start) + 1:].split("\n", 1)[0]
    if line.strip(" \t.!*_`\"'").lower() == action.lower():  # the action alone on its line
        return False
    written = reply[item.start:item.end].rstrip(".")
    if written != action:
        return True
    return _QUESTION_START.match(reply, item.end) is not None and item.start == _clause_start(reply, item.start)
