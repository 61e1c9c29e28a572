"""The fixed table of worlds: a name maps to the module attribute holding its facade.

The table is a constant, not something modules add themselves to at import time; a world is
imported only when it is asked for.
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import TYPE_CHECKING

from plancheck.errors import BadInputError

if TYPE_CHECKING:
    from plancheck.world import World

WORLDS: dict[str, str] = {
    "grasp": "plancheck.domains.grasp.world:WORLD",
    "babyai": "plancheck.domains.babyai.world:WORLD",
    "hanoi": "plancheck.domains.smartplay.hanoi.world:WORLD",
    "mango": "plancheck.domains.mango.world:WORLD",
    "bandits": "plancheck.domains.smartplay.bandits.world:WORLD",
    "rps": "plancheck.domains.smartplay.rps.world:WORLD",
    "messenger-l1": "plancheck.domains.smartplay.messenger.world:WORLD_L1",
    "messenger-l2": "plancheck.domains.smartplay.messenger.world:WORLD_L2",
    "messenger-l3": "plancheck.domains.smartplay.messenger.world:WORLD_L3",
    "rearrangement": "plancheck.domains.langsuite.rearrangement.world:WORLD",
    "iqa": "plancheck.domains.langsuite.iqa.world:WORLD",
    "household": "plancheck.domains.langsuite.household.world:WORLD",
    "crafter": "plancheck.domains.smartplay.crafter.world:WORLD",
}


# Benchmarks plancheck knows but cannot run here, listed by `plancheck worlds` with the reason.
UNSUPPORTED: dict[str, str] = {
    "minecraft": "SmartPlay Minecraft (MineDojo): unsupported, it needs the real Minecraft client, which MineDojo "
                 "builds from downloads (docs/smartplay.md)",
}


def world_names() -> tuple[str, ...]:
    return tuple(WORLDS)


def world_package(name: str) -> str:
    """The package holding world ``name``'s modules.

    >>> world_package("hanoi")
    'plancheck.domains.smartplay.hanoi'
    """
    if name not in WORLDS:
        raise BadInputError(f"unknown world {name!r}; known worlds: {', '.join(WORLDS)}")
    return WORLDS[name].split(":")[0].rsplit(".", 1)[0]


@cache
def get_world(name: str) -> World:
    """The facade of world ``name``.

    >>> get_world("grasp").name
    'grasp'
    """
    try:
        target = WORLDS[name]
    except KeyError:
        raise BadInputError(f"unknown world {name!r}; known worlds: {', '.join(WORLDS)}") from None
    module_name, attribute = target.split(":")
    return getattr(importlib.import_module(module_name), attribute)
