"""The Crafter instance: SmartPlay's ``Crafter-v0`` (crafter 1.8.3, 64 x 64 world, 9 x 9 view, reward on,
10,000 crafter steps). Its id is ``Crafter`` (with or without ``-v0``, any case); ``all`` names it too.

Which world is played follows from a log's ``seed`` and two settings (see ``world.py``): ``seeding``
``crafter`` (the seed is crafter's own ``Env(seed=...)``) or ``numpy`` (the seed is numpy's global
seed, set after importing smartplay, from which SmartPlay's ``Crafter()`` draws crafter's seed), and
``episode`` (the k-th reset of that env: crafter seeds its world with hash((seed, k)) % (2**31 - 1)).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from plancheck.errors import InstanceNotFoundError


@dataclass(frozen=True, slots=True)
class CrafterInstance:
    """SmartPlay's Crafter environment."""

    env: str = "Crafter"

    @property
    def id(self) -> str:
        return self.env

    def to_json(self) -> dict:
        return {"id": self.id, "env_id": f"{self.env}-v0", "engine": "crafter==1.8.3", "area": [64, 64],
                "view": [9, 9], "length": 10000}


INSTANCES = (CrafterInstance(),)


def parse_id(text: str) -> CrafterInstance:
    """The instance an id names.

    >>> parse_id("crafter-v0").id
    'Crafter'
    """
    name = text.strip().lower().removesuffix("-v0")
    for instance in INSTANCES:
        if instance.env.lower() == name:
            return instance
    raise InstanceNotFoundError(f"{text!r} is not a Crafter instance; plancheck has "
                                f"{', '.join(i.id for i in INSTANCES)}")


def select(selectors: Sequence[str]) -> Iterator[CrafterInstance]:
    """Instances for selectors: ids, or ``all``."""
    for selector in selectors:
        if selector == "all":
            yield from INSTANCES
        else:
            yield parse_id(selector)
