"""The bandit's texts, byte for byte as SmartPlay's ``BanditEnv`` writes them."""

from __future__ import annotations

import re

from plancheck.domains.smartplay._frame import describe_act

ACTIONS = ("Pull slot machine 1.", "Pull slot machine 2.")
RESET = "A new round begins."
MANUAL = ("You are in the casino with 2 slot machines in front of you. Your goal is to try to earn the most from "
          f"those slot machines.\n\n{describe_act(ACTIONS)}")
_PULLED = re.compile(r"You pulled slot machine (\d{1,9}), you received reward (-?\d{1,9})\.")  # no int() of 5000 digits


def observation(machine: int, reward: int) -> str:
    """The observation after pulling ``machine`` (0-based).

    >>> observation(1, -1)
    'You pulled slot machine 2, you received reward -1.'
    """
    return f"You pulled slot machine {machine + 1}, you received reward {reward}."


def read_observation(text: str) -> tuple[int, int] | None:
    """(machine, reward) of an observation written by :func:`observation`, else None."""
    match = _PULLED.fullmatch(text)
    if match is None:
        return None
    machine, reward = int(match[1]) - 1, int(match[2])
    return (machine, reward) if observation(machine, reward) == text else None
