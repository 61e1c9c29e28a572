"""The two achievements that take time, not items: ``wake_up`` and ``eat_plant``, counted exactly.

``wake_up`` (crafter's ``Player.update`` and ``_update_life_stats``): sleep starts only below full
energy; energy drops by one when the fatigue counter, +1 per awake step, passes 30; asleep, the counter
falls by one a step and below -10 gives one energy back; at full energy the sleeper wakes, which is
the achievement. :func:`wake_up_plan` finds the fewest actions by breadth-first search over that clock
(fatigue, energy, asleep), from the clock's state after SmartPlay's reset (the extra Noop made the
fatigue 1). Damage wakes a sleeper without the achievement; the clock assumes none (no creature, food
and drink left).

``eat_plant``: Do on grass gives a sapling (probability 0.1; counted here as one Do), Place Plant puts
it in front, and the plant ripens after more than 300 of its own updates, one per step from the step
after it was placed, each after the player has acted. So the earliest Do that eats it is the 302nd
action after Place Plant: 1 + 1 + 301 + 1 = 304 actions. A plant dies when a zombie, skeleton or cow
stands next to it; the count assumes none does.
"""

from __future__ import annotations

from collections import deque
from typing import NamedTuple

MAX_ENERGY = 9
RIPE_AFTER = 300  # Plant.ripe: grown > 300


class Clock(NamedTuple):
    fatigue: int
    energy: int
    asleep: bool


AFTER_RESET = Clock(1, 9, False)  # SmartPlay's reset ran one Noop


def tick(clock: Clock, sleep: bool) -> tuple[Clock, bool]:
    """One step of the player's sleep clock; returns the new clock and whether it woke up (the unlock)."""
    fatigue, energy, asleep = clock
    woke = False
    if asleep:
        if energy < MAX_ENERGY:
            sleep = True
        else:
            asleep, woke, sleep = False, True, False
    if sleep and energy < MAX_ENERGY:
        asleep = True
    if asleep:
        fatigue = min(fatigue - 1, 0)
    else:
        fatigue += 1
    if fatigue < -10:
        fatigue, energy = 0, energy + 1
    if fatigue > 30:
        fatigue, energy = 0, energy - 1
    return Clock(fatigue, max(0, min(energy, MAX_ENERGY)), asleep), woke


def wake_up_plan(start: Clock = AFTER_RESET) -> tuple[str, ...]:
    """The fewest actions (``noop`` or ``sleep``) that unlock ``wake_up`` from ``start``, by BFS."""
    parents: dict[Clock, tuple[Clock, str] | None] = {start: None}
    frontier = deque([start])
    while frontier:
        clock = frontier.popleft()
        for action in ("noop", "sleep"):
            after, woke = tick(clock, action == "sleep")
            if woke:
                plan = [action]
                while parents[clock] is not None:
                    clock, taken = parents[clock]
                    plan.append(taken)
                return tuple(reversed(plan))
            if after not in parents:
                parents[after] = (clock, action)
                frontier.append(after)
    raise AssertionError("the sleep clock always reaches wake_up")


def eat_plant_plan() -> tuple[str, ...]:
    """Do (a sapling), Place Plant, 301 actions of waiting, Do: 304 actions (see the module text)."""
    return ("do", "place_plant") + ("noop",) * (RIPE_AFTER + 1) + ("do",)
