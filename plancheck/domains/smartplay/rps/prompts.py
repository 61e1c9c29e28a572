"""Rock Paper Scissors' texts, byte for byte as SmartPlay's ``RPSEnv`` writes them."""

from __future__ import annotations

import re
from collections.abc import Sequence

from plancheck.domains.smartplay._frame import describe_act

ACTIONS = ("Rock", "Paper", "Scissor")
RESET = "New round begins."
_MANUAL = """For the game Rock Paper Scissors, you and the opponent choose one of three options: rock, paper, or scissors.
After both players have chosen, the winner is determined as follows:
Rock crushes scissors (Rock wins, score {})
Scissors cut paper (Scissors win, score {})
Paper covers rock (Paper wins, score {})
If you lose, your score is the negative of the winner's score.
If both players choose the same option, it's a draw (score 0).
Your goal is to maximize your score.

{}"""  # noqa: E501 - SmartPlay's manual, verbatim
# numbers bounded: int() of 5000 digits would fail
_ROUND = re.compile(r"You chose (\w+), and the opponent chose (\w+)\. "
                    r"You (won|lost|tied) and received score (-?\d{1,9})\.\nNew round begins\.")


def manual(scores: Sequence[int]) -> str:
    """The manual; SmartPlay fills the three scores from its (shuffled) score list in the order Rock,
    Paper, Scissor although its lines go Rock, Scissors, Paper (harmless: Basic's scores are all 1)."""
    return _MANUAL.format(*scores, describe_act(ACTIONS))


def observation(move: int, opponent: int, outcome: str, reward: int) -> str:
    """The observation after a round.

    >>> observation(2, 0, "lost", -1)
    'You chose Scissor, and the opponent chose Rock. You lost and received score -1.\\nNew round begins.'
    """
    return (f"You chose {ACTIONS[move]}, and the opponent chose {ACTIONS[opponent]}. You {outcome} and received "
            f"score {reward}.\n{RESET}")


def read_observation(text: str) -> tuple[int, int, str, int] | None:
    """(move, opponent, result, reward) of an observation written by :func:`observation`, else None."""
    match = _ROUND.fullmatch(text)
    if match is None or match[1] not in ACTIONS or match[2] not in ACTIONS:
        return None
    seen = ACTIONS.index(match[1]), ACTIONS.index(match[2]), match[3], int(match[4])
    return seen if observation(*seen) == text else None
