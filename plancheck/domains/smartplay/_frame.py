"""What every SmartPlay game shares, byte for byte: the history text, the chat prompt, the two
questions, SmartPlay's reading of a reply (``match_act``) and a strict one, the recorded settings,
the normalisation, and the paper's Table 4.

Sources: ``src/smartplay/utils.py`` (``HistoryTracker``, ``describe_act``),
``examples/experiment.py`` (``compose_ingame_prompt``, the questions, ``match_act``),
``src/smartplay/eval.py`` and each game's ``evaluation.yml`` (microsoft/SmartPlay at 9dec5f2).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from plancheck.episodes.game import AMBIGUOUS, CLEAR, NONE, Read

PLAYER = "You\u2019re a player trying to play the game."
QUESTIONS = ("What is the best action to take? Let's think step by step, ",
             "Choose the best executable action from the list of all actions. Write the exact chosen action.")


def describe_act(actions: Sequence[str]) -> str:
    """SmartPlay's action menu.

    >>> print(describe_act(["Rock", "Paper"]))
    List of all actions:
    1. Rock
    2. Paper
    """
    return "List of all actions:\n" + "\n".join(f"{i}. {action}" for i, action in enumerate(actions, start=1))


def history(previous: Sequence[str], window: int) -> str:
    """``info['history']``: the last ``window`` observations before the current one, numbered from 0
    (the reset), as SmartPlay's ``HistoryTracker(max_steps=window).describe()`` writes them.

    >>> history([], 50)
    ''
    >>> print(history(["A new round begins.", "You pulled slot machine 1, you received reward 1."], 50))
    Most recent 2 steps of the player's in-game observation:
    <BLANKLINE>
    Player Observation Step 0:
    A new round begins.
    <BLANKLINE>
    Player Observation Step 1:
    You pulled slot machine 1, you received reward 1.
    >>> history(["a", "b", "c"], 2).splitlines()[2]
    'Player Observation Step 1:'
    """
    shown = previous[-window:] if window > 0 else ()
    first = len(previous) - len(shown)
    return history_text([history_entry(first + i, text) for i, text in enumerate(shown)])


def history_entry(number: int, observation: str) -> str:
    """One observation as the history writes it."""
    return f"Player Observation Step {number}:\n{observation}\n\n"


def history_text(entries: Sequence[str]) -> str:
    """The history made of ``entries`` (see :func:`history_entry`); empty when there are none."""
    if not entries:
        return ""
    return f"Most recent {len(entries)} steps of the player's in-game observation:\n\n{''.join(entries)}".strip()


def messages(manual: str, history_text: str, observation: str, question: str,
             earlier: Iterable[tuple[str, str]] = ()) -> list[dict[str, str]]:
    """``compose_ingame_prompt``: the player line, the manual and the history (each only when not
    empty), the current observation, the step's earlier questions and answers, the question."""
    out = [{"role": "system", "content": PLAYER}]
    if manual:
        out.append({"role": "system", "content": manual})
    if history_text:
        out.append({"role": "system", "content": history_text})
    out.append({"role": "system", "content": f"current step observation: {observation}"})
    for asked, answered in earlier:
        out.append({"role": "user", "content": asked})
        out.append({"role": "assistant", "content": answered})
    out.append({"role": "user", "content": question})
    return out


def step_messages(manual: str, observations: Sequence[str], window: int,
                  earlier: Sequence[str] = ()) -> list[dict[str, str]]:
    """The messages of the next question of a step: ``observations`` are all so far (the last one is
    the current), ``earlier`` the replies to the step's earlier questions."""
    if len(earlier) >= len(QUESTIONS):
        raise ValueError(f"SmartPlay asks {len(QUESTIONS)} questions per step; {len(earlier)} were answered")
    return messages(manual, history(observations[:-1], window), observations[-1], QUESTIONS[len(earlier)],
                    zip(QUESTIONS, earlier))


# -- reading a reply ---------------------------------------------------------------------------------

def matches(reply: str, actions: Sequence[str]) -> list[tuple[int, int]]:
    """(position, index) of every action whose text occurs in the reply, case-insensitively, at its
    first occurrence, earliest first (ties: lower index first), as ``match_act`` ranks them.

    >>> matches("Paper beats rock.", ["Rock", "Paper", "Scissor"])
    [(0, 1), (12, 0)]
    """
    lowered = reply.lower()
    found = []
    for index, action in enumerate(_lowered(tuple(actions))):
        position = lowered.find(action)
        if position >= 0:
            found.append((position, index))
    found.sort()
    return found


@lru_cache(maxsize=256)
def _lowered(actions: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(action.lower() for action in actions)


def match_act(reply: str, actions: Sequence[str]) -> int:
    """SmartPlay's ``match_act``: the index of the action written first, else 0 (its silent fallback).

    >>> match_act("I pull slot machine 2", ["Pull slot machine 1.", "Pull slot machine 2."])
    0
    """
    found = matches(reply, actions)
    return found[0][1] if found else 0


def _named(reply: str, actions: Sequence[str], found: list[tuple[int, int]]) -> list[int]:
    """The indices of the actions the reply names, leaving out an action whose every occurrence lies
    inside an occurrence of a longer action that the reply names."""
    lowered = reply.lower()
    spans = {index: _occurrences(lowered, actions[index].lower()) for _, index in found}
    named = []
    for _, index in found:
        inside = all(any(j != index and len(actions[j]) > len(actions[index]) and s <= start and
                         start + len(actions[index]) <= s + len(actions[j]) for j in spans for s in spans[j])
                     for start in spans[index])
        if not inside:
            named.append(index)
    return named


def _occurrences(text: str, word: str) -> list[int]:
    found, at = [], text.find(word)
    while at >= 0:
        found.append(at)
        at = text.find(word, at + 1)
    return found


def judged(rule: Read, reply: str, actions: Sequence[str], benchmark: str) -> Read:
    """A benchmark rule's reading with the reply's committed answer compared (``benchmark`` names the
    rule in notes): clear only when the action taken is the committed one; a fallback or a differing
    answer is said. The action taken is the rule's, always."""
    from plancheck.episodes.committed import read_committed  # episodes only: Hanoi's one-shot check never reads

    committed = read_committed(reply, actions)
    taken = rule.action
    if taken is None:  # the rule takes no action (the episode ends): the status says why
        status = rule.status if committed.status == NONE or rule.status != NONE else AMBIGUOUS
        notes = rule.notes + ((f"the reply's committed answer is {committed.action} ({committed.why})",)
                              if committed.action is not None else ())
        return Read(status, None, notes, rule.status)
    fallback = rule.status == NONE
    if committed.status == CLEAR and committed.action == taken and not fallback:
        return Read(CLEAR, taken, (), rule.status)
    if committed.action is None:
        why = f"the reply commits to no action ({committed.why})"
        status = NONE
    elif committed.action == taken:
        why = f"the reply's committed answer is {taken} ({committed.why})"
        status = AMBIGUOUS
    else:
        why = f"the reply's committed answer is {committed.action} ({committed.why}), not {taken}"
        status = AMBIGUOUS
    if fallback:  # the rule's note says the fallback; the committed answer only when there is one
        return Read(status, taken, rule.notes + ((why,) if committed.action is not None else ()), rule.status,
                    guessed=True)
    return Read(status, taken, (f"{benchmark} takes {taken}, the action written first", why), rule.status,
                guessed=True)


@dataclass(frozen=True, slots=True)
class SmartPlayReading:
    """``smartplay``: SmartPlay's rule, the action written first; nothing found means action 0.
    The action taken is SmartPlay's; the status compares it with the reply's committed answer
    (:func:`judged`), and every guess is reported in a note (the harness itself says nothing)."""

    name: str = "smartplay"

    def read(self, reply: str, actions: Sequence[str]) -> Read:
        return judged(self.rule(reply, actions), reply, actions, "SmartPlay")

    @staticmethod
    def rule(reply: str, actions: Sequence[str]) -> Read:
        """SmartPlay's rule alone, with the status it gives (several actions named: ambiguous)."""
        found = matches(reply, actions)
        if not found:
            return Read(NONE, actions[0], (f"no action text in the reply; SmartPlay takes action 0 ({actions[0]})",))
        chosen = actions[found[0][1]]
        if len(found) == 1 or len(_named(reply, actions, found)) == 1:
            return Read(CLEAR, chosen)
        listed = ", ".join(actions[i] for i in _named(reply, actions, found))
        return Read(AMBIGUOUS, chosen, (f"the reply names several actions ({listed}); SmartPlay takes the one "
                                        f"written first, {chosen}",))


@dataclass(frozen=True, slots=True)
class StrictReading:
    """``strict``: the reply must name exactly one action (SmartPlay's case-insensitive text match);
    a reply naming none or several is unreadable, no action is taken and the episode ends. The
    status compares the action with the reply's committed answer, as for ``smartplay``."""

    name: str = "strict"

    def read(self, reply: str, actions: Sequence[str]) -> Read:
        return judged(self.rule(reply, actions), reply, actions, "the strict reading")

    @staticmethod
    def rule(reply: str, actions: Sequence[str]) -> Read:
        found = matches(reply, actions)
        if not found:
            return Read(NONE, None, ("no action text in the reply",))
        named = [found[0][1]] if len(found) == 1 else _named(reply, actions, found)
        if len(named) > 1:
            return Read(AMBIGUOUS, None, (f"the reply names several actions ({', '.join(actions[i] for i in named)})",))
        return Read(CLEAR, actions[named[0]])


@dataclass(frozen=True, slots=True)
class CommittedReading:
    """``committed``: plancheck's committed-answer reading (:func:`read_committed`): a marked answer
    wins, asides and rejected options do not count; an ambiguous reply takes the last action named
    (noted); a reply committing to none takes no action and the episode ends. Not SmartPlay's rule:
    for playing or re-reading logs the way a careful person reads them."""

    name: str = "committed"

    def read(self, reply: str, actions: Sequence[str]) -> Read:
        from plancheck.episodes.committed import read_committed

        committed = read_committed(reply, actions)
        notes = () if committed.status == CLEAR else (committed.why,)
        return Read(committed.status, committed.action, notes)


READINGS = {"smartplay": SmartPlayReading(), "strict": StrictReading(), "committed": CommittedReading()}


# -- recorded settings, normalisation, the paper's numbers ---------------------------------------------

@dataclass(frozen=True, slots=True)
class Recorded:
    """A game's ``recorded settings`` (its evaluation.yml) and its column in the paper's tables."""

    env: str
    column: str
    steps: int
    episodes: int
    minimum: float
    human: float


RECORDED = {r.env: r for r in (
    Recorded("BanditTwoArmedHighLowFixed", "Bandit", 50, 20, 0, 45),
    Recorded("RockPaperScissorBasic", "RPS", 50, 20, 0, 43),
    Recorded("Hanoi3Disk", "Hanoi", 30, 10, 0, 3),
    Recorded("MessengerL1", "MessengerL1", 4, 100, -1, 1),
    Recorded("MessengerL2", "MessengerL2", 64, 100, -1, 1),
    Recorded("Crafter", "Crafter", 10000, 10, 0, 2680),
    Recorded("MinedojoCreative0", "Minecraft", 200, 20, 0, 1),
)}


def normalize(env: str, score: float) -> float:
    """SmartPlay's ``normalize_score``: (score - min) / (human - min), not clipped. (Appendix D.2 of
    the paper prints (human - raw) / (human - min), which contradicts its own Table 2.)

    >>> round(normalize("RockPaperScissorBasic", 39.25), 2), normalize("MessengerL1", 0)
    (0.91, 0.5)
    """
    try:
        recorded = RECORDED[env]
    except KeyError:
        raise ValueError(f"SmartPlay records no settings for {env!r}") from None
    return (score - recorded.minimum) / (recorded.human - recorded.minimum)


# Table 4 of the paper (arXiv 2310.01557 v5), raw scores, in the order of the RECORDED games.
TABLE4 = {
    "Human": (45, 43, 3, 1, 1, 2680, 1),
    "GPT-4-0613": (45.09, 39.25, 2.5, 0.8, 0.85, 700, 0.61),
    "GPT-4-0314": (43.86, 42.05, 2.7, 0.74, 0.93, 845.6, 0.592),
    "text-davinci-003": (46.92, 17.0, 1.5, 0.24, -0.07, 186.25, 0.449),
    "Claude": (32.43, 20.3, 2, -0.12, 0.2, 143.3, 0.5),
    "Bard": (38.85, 12.9, 2, 0.22, -0.21, 112.3, 0.54),
    "llama-2-13b": (22.33, 15.05, 1.1, -0.76, -0.745, 115.3, 0.606),
    "llama-13b": (30.5, 21.4, 1, -0.68, -0.885, 100.2, 0.5),
    "vicuna-13b": (28.81, 7.1, 0.2, -1, -0.76, 56.7, 0.43),
}


def paper_raw(model: str, env: str) -> float:
    """A published raw score (Table 4) by model name (case-insensitive) and SmartPlay env name."""
    names = {name.lower(): name for name in TABLE4}
    if model.lower() not in names:
        raise ValueError(f"the paper has no row {model!r}; it has {', '.join(TABLE4)}")
    return TABLE4[names[model.lower()]][list(RECORDED).index(env)]
