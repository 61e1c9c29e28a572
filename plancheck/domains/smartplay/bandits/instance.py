"""The bandit instance: SmartPlay's ``BanditTwoArmedHighLowFixed`` (two machines paying 1 with
probability 0.8 and 0.2, -1 otherwise, in an order shuffled at every reset).

Its id is SmartPlay's environment name, with or without ``-v0`` (any case); ``all`` names it too.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from plancheck.errors import InstanceNotFoundError


@dataclass(frozen=True, slots=True)
class BanditInstance:
    """SmartPlay's environment: its name, payout probabilities (``p_dist``) and rewards (``r_dist``)."""

    env: str = "BanditTwoArmedHighLowFixed"
    payouts: tuple[float, ...] = (0.8, 0.2)
    rewards: tuple[int, ...] = (1, 1)

    @property
    def id(self) -> str:
        return self.env

    def to_json(self) -> dict:
        return {"id": self.id, "env_id": f"{self.env}-v0", "payouts": list(self.payouts), "rewards": list(self.rewards)}


INSTANCES = (BanditInstance(),)


def parse_id(text: str) -> BanditInstance:
    """The instance an id names.

    >>> parse_id("banditTwoArmedHighLowFixed-v0").id
    'BanditTwoArmedHighLowFixed'
    """
    name = text.strip().lower().removesuffix("-v0")
    for instance in INSTANCES:
        if instance.env.lower() == name:
            return instance
    raise InstanceNotFoundError(f"{text!r} is not a bandit instance; plancheck has "
                                f"{', '.join(i.id for i in INSTANCES)}")


def select(selectors: Sequence[str]) -> Iterator[BanditInstance]:
    """Instances for selectors: ids, or ``all``."""
    for selector in selectors:
        if selector == "all":
            yield from INSTANCES
        else:
            yield parse_id(selector)
