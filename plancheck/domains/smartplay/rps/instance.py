"""The Rock Paper Scissors instance: SmartPlay's ``RockPaperScissorBasic`` (an opponent who plays one
move with probability 0.6 and the other two with 0.2, in an order shuffled at every reset; every
win scores 1).

Its id is SmartPlay's environment name, with or without ``-v0`` (any case); ``all`` names it too.
(``RockPaperScissorDifferentScore`` is registered by SmartPlay but its constructor raises a
TypeError, so it has no instance here.)
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from plancheck.errors import InstanceNotFoundError


@dataclass(frozen=True, slots=True)
class RPSInstance:
    """SmartPlay's environment: its name, the opponent's move probabilities and the win scores, in the
    order (Rock, Paper, Scissor) before any shuffle."""

    env: str = "RockPaperScissorBasic"
    probabilities: tuple[float, ...] = (0.2, 0.2, 0.6)
    scores: tuple[int, ...] = (1, 1, 1)

    @property
    def id(self) -> str:
        return self.env

    def to_json(self) -> dict:
        return {"id": self.id, "env_id": f"{self.env}-v0", "probabilities": list(self.probabilities),
                "scores": list(self.scores)}


INSTANCES = (RPSInstance(),)


def parse_id(text: str) -> RPSInstance:
    """The instance an id names.

    >>> parse_id("RockPaperScissorBasic-v0").id
    'RockPaperScissorBasic'
    """
    name = text.strip().lower().removesuffix("-v0")
    for instance in INSTANCES:
        if instance.env.lower() == name:
            return instance
    raise InstanceNotFoundError(f"{text!r} is not a Rock Paper Scissors instance; plancheck has "
                                f"{', '.join(i.id for i in INSTANCES)}")


def select(selectors: Sequence[str]) -> Iterator[RPSInstance]:
    """Instances for selectors: ids, or ``all``."""
    for selector in selectors:
        if selector == "all":
            yield from INSTANCES
        else:
            yield parse_id(selector)
