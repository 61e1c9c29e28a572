"""LangSuitE's reading of a reply compared with the reply's committed answer (shared by its worlds).

LangSuitE reads a reply by its own rule (a regular expression, substring tests in a fixed order,
the first of several actions); that action is always the one taken, so a log stays what LangSuitE's
own code makes of it. :func:`judged` also reads the reply the committed way
(:mod:`plancheck.episodes.committed`: thoughts and rejected options do not count, a marked answer
wins) and the reply reads ``clear`` only when LangSuitE takes the committed action, or takes none
where the reply commits to none; otherwise the status and notes say both, and why.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from plancheck.episodes.committed import read_committed
from plancheck.episodes.game import AMBIGUOUS, CLEAR, NONE, Read


def same_action(committed: str, taken: str) -> bool:
    """Whether the committed action is the one taken: the same text, or the same word where one of them is
    the word alone (LangSuitE takes it alone for a name that is no object; a name outside the menu is
    read as the word alone)."""
    if committed == taken:
        return True
    word, bare = committed.split(" [", 1)[0], taken.split(" [", 1)[0]
    return word == bare and (committed == word or taken == bare)


def judged(rule: Read, reply: str, actions: Sequence[str], special: Collection[str],
           same: Callable[[str, str], bool] = same_action, menu: Sequence[str] | None = None) -> Read:
    """LangSuitE's reading ``rule`` with the reply's committed answer over ``menu`` (default: ``actions``
    less the ``special`` texts, the ones that take no action) compared. The action is ``rule``'s, always."""
    committed = read_committed(reply, [a for a in (actions if menu is None else menu) if a not in special])
    taken = rule.action
    if taken is None or taken in special:  # LangSuitE takes no action: honest unless the reply commits to one
        if committed.action is None or committed.status != CLEAR or (taken is not None and same(committed.action,
                                                                                                  taken)):
            return Read(rule.status, taken, rule.notes, rule.status)
        return Read(AMBIGUOUS, taken, rule.notes + (f"the reply's committed answer is {committed.action} "
                                                    f"({committed.why}); LangSuitE takes no action",), rule.status)
    agrees = committed.action is not None and same(committed.action, taken)
    if committed.status == CLEAR and agrees:
        return Read(CLEAR if rule.status != NONE else NONE, taken, rule.notes, rule.status)
    why = (f"the reply commits to no action ({committed.why})" if committed.action is None else
           f"the reply's committed answer is {committed.action} ({committed.why})" +
           ("" if agrees else f", not {taken}"))
    said = any(note.endswith(f"LangSuitE takes {taken}") for note in rule.notes)
    return Read(NONE if committed.action is None else AMBIGUOUS, taken,
                rule.notes + (() if said else (f"LangSuitE takes {taken}",)) + (why,), rule.status, guessed=True)
