"""Checking a Crafter log without its seed, from what the text shows (the observational checker).

Without the seed, creatures, saplings and the player's hidden clocks cannot be replayed; the player's
own rules can be checked from the observations, since the player acts first in every crafter step,
on the world its previous observation shows:

- the observation is one SmartPlay's Crafter writes, echoing the action taken;
- the inventory changes only as the action allows, given what the player faced and held
  (crafter 1.8.3's recipes: a Do collects what is faced, with the pickaxe it needs; Place uses up
  wood, stone or a sapling and needs a free grass/sand/path tile, or water/lava for stone; Make uses
  up its materials and needs a table, and a furnace, in the 3 x 3 square around the player);
  whether a table is that near is read from the nearest table line and may be undecidable (2 steps
  straight: a diagonal one may be as near), which is then accepted;
- asleep, every action is a sleep until energy is full, and the banner stays until then (or until the
  player is hurt: crafter wakes a sleeper whose health dropped since its last turn);
- the reward is the health change / 10 plus 1 when something was unlocked: an unlock the text shows
  (the first wood, table, pickaxe, drink...) needs the +1, and a +1 needs an action that can unlock
  (a Do, Place, Make, or waking up); SmartPlay's score rises each step by the number unlocked so
  far, which may grow only with such unlocks;
- "You died." exactly at health 0, and the episode ends exactly then (or at crafter's last step).

Creatures, plants ripening, vitals ticking and the sapling's 10 % are not checked.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from plancheck.domains.smartplay import _frame
from plancheck.domains.smartplay._game import SmartPlayGame, observation_missing
from plancheck.domains.smartplay.crafter import prompts
from plancheck.domains.smartplay.crafter.observe import Frame, NotAnObservation, read_frame
from plancheck.domains.smartplay.crafter.rules import RECIPES
from plancheck.episodes.game import Transition
from plancheck.episodes.log import Episode, Step

LAST_STEP = 9999  # crafter ends the episode at its step 10000; SmartPlay's reset took step 1
ACHIEVEMENTS = 22
# Do facing a material: (item received, pickaxe needed)
COLLECT = {"tree": ("wood", None), "stone": ("stone", "wood_pickaxe"), "coal": ("coal", "wood_pickaxe"),
           "iron": ("iron", "stone_pickaxe"), "diamond": ("diamond", "iron_pickaxe"), "water": ("drink", None)}
WHERE = {"stone": ("grass", "sand", "path", "water", "lava"), "table": ("grass", "sand", "path"),
         "furnace": ("grass", "sand", "path"), "plant": ("grass",)}
INVISIBLE = {"cow": "eat_cow", "zombie": "defeat_zombie", "skeleton": "defeat_skeleton", "plant": "eat_plant"}


Change = dict[str, int]


def _said(action: str) -> str:
    """SmartPlay's text of a crafter action."""
    return prompts.ACTIONS[prompts.CRAFTER_ACTIONS.index(action)]


def outcomes(before: Frame, action: str) -> tuple[list[tuple[Change, tuple[str, ...]]], str]:
    """What crafter may do when the player, as ``before`` shows it, takes ``action`` (crafter's name):
    the possible inventory changes, each with the achievements it shows were unlocked, and in words."""
    if before.sleeping:
        if before.vitals["energy"] < 9:
            return [({}, ())], "asleep (crafter makes every action a sleep until energy is full)"
        woke = ("wake_up",)  # crafter wakes the sleeper at full energy, then the action is taken
        possible, how = outcomes(Frame(**{**before.__dict__, "sleeping": False}), action)
        return [(change, woke + unlocks) for change, unlocks in possible], f"waking up, then {how}"
    if action == "do":
        if before.facing == "grass":
            return [({}, ()), ({"sapling": 1}, ("collect_sapling",))], "a Do on grass (a sapling 1 time in 10)"
        if before.facing not in COLLECT:
            return [({}, ())], f"a Do facing {before.facing}"
        item, tool = COLLECT[before.facing]
        if tool is not None and before.count(tool) < 1:
            return [({}, ())], f"a Do facing {before.facing} without a {tool.replace('_', ' ')}"
        gain = {item: 1} if item != "drink" and before.count(item) < 9 else {}
        return [(gain, ("collect_drink" if item == "drink" else f"collect_{item}",))], f"a Do facing {before.facing}"
    if action.startswith("place_"):
        name, uses = action[6:], RECIPES[action].uses
        if before.facing not in WHERE[name]:
            return [({}, ())], f"Place {name} facing {before.facing} (not placeable there)"
        if any(before.count(item) < n for item, n in uses.items()):
            return [({}, ())], f"Place {name} without " + " and ".join(f"{n} {i}" for i, n in uses.items())
        return [({item: -n for item, n in uses.items()}, (action,))], f"Place {name} facing {before.facing}"
    if action.startswith("make_"):
        recipe = RECIPES[action]
        if any(before.count(item) < n for item, n in recipe.uses.items()):
            return [({}, ())], f"{action} without " + " and ".join(f"{n} {i}" for i, n in recipe.uses.items())
        near = [before.sees(u).nearby if before.sees(u) else False for u in recipe.nearby]
        made = {item: -n for item, n in recipe.uses.items()}
        if before.count(recipe.gives) < 9:
            made[recipe.gives] = 1
        where = " and ".join(recipe.nearby)
        if all(near):
            return [(made, (action,))], f"{action} with a {where} nearby"
        if False in near:
            return [({}, ())], f"{action} with no {where} nearby"
        return [({}, ()), (made, (action,))], f"{action} ({where} 2 steps away: nearby or not, the text cannot tell)"
    return [({}, ())], _said(action)


def _change(before: Frame, after: Frame) -> dict[str, int]:
    items = set(before.inventory) | set(after.inventory)
    return {item: after.count(item) - before.count(item) for item in items
            if after.count(item) != before.count(item)}


def _words(change: Mapping[str, int]) -> str:
    if not change:
        return "no change"
    return ", ".join(f"{'+' if n > 0 else ''}{n} {item}" for item, n in sorted(change.items()))


class CrafterFollower(SmartPlayGame):
    """Follows an unseeded Crafter log step by step (see the module docstring)."""

    def __init__(self, settings: Mapping[str, Any]):
        super().__init__(prompts.manual(), prompts.ACTIONS, settings["steps"], settings["history"])
        self.frame: Frame | None = None
        self.earlier_health: int | None = None  # health in the observation before ``frame``
        self.unlocked: set[str] = set()  # achievements the text shows were unlocked
        self.count = 0  # achievements unlocked so far, as the score or reward tell
        self.score: float | None = None

    def begin(self, log: Episode) -> str | None:
        """Take the log's first observation (the game cannot know it without the seed); a problem or None."""
        observation = log.header.observation
        if observation is None:
            return None
        self.frame = self._read(observation)
        noop = observation if observation == prompts.OUT_OF_MAP else f"You took action noop.\n\n{observation}"
        self.observations = [noop, observation]
        self._entries = [_frame.history_entry(0, noop), _frame.history_entry(1, observation)]
        self.score = 0.0
        return None

    def reset(self) -> str | None:
        """The start read by :meth:`begin` (None when the log does not give it)."""
        return self.observations[-1] if self.frame is not None else None

    @staticmethod
    def _read(text: str) -> Frame | None:
        try:
            return read_frame(text)
        except NotAnObservation:
            return None

    def follow(self, action: str, logged: Step) -> tuple[Transition, str | None]:
        name = prompts.CRAFTER_ACTIONS[self.index(action)]
        before = self.frame
        problem = observation_missing(logged, self.horizon)
        after = None
        if logged.observation is not None:
            try:
                after = read_frame(logged.observation)
            except NotAnObservation as error:
                problem = problem or f"the observation is not a Crafter observation: {error}"
        if after is not None and not after.out_of_map:
            problem = problem or self._player(before, name, after, logged)
        if after is not None:
            unlocks = self._unlocks(before, name, after, logged)  # always: it keeps the count of unlocks
            problem = problem or unlocks
        self.observe(logged.observation or "")
        self.earlier_health = None if before is None or before.out_of_map else before.vitals["health"]
        self.frame = after
        info = {"unlocked": list(logged.info["unlocked"])} if logged.info and "unlocked" in logged.info else {}
        return Transition(logged.observation, logged.reward, bool(logged.done), logged.score, info), problem

    def _player(self, before: Frame | None, name: str, after: Frame, logged: Step) -> str | None:
        if after.action != prompts.ECHOED[name]:
            return (f"the observation echoes action {after.action!r} but {_said(name)} was taken (SmartPlay "
                    f"echoes {prompts.ECHOED[name]!r})")
        health = after.vitals["health"]
        if after.died != (health == 0 and not after.sleeping):
            return "the observation says 'You died.' but health is not 0" if after.died else \
                "health is 0 but the observation does not say 'You died.'"
        if logged.done is not None and logged.step < LAST_STEP and logged.done != (health == 0):
            return f"the log says done={str(logged.done).lower()} but health is {health}"
        if before is None or before.out_of_map:
            return None
        possible, how = outcomes(before, name)
        change = _change(before, after)
        if all(change != option for option, _ in possible):
            return f"the inventory changes by {_words(change)}, but {how} gives {_words(possible[-1][0])}"
        return self._sleep(before, name, after)

    def _sleep(self, before: Frame, name: str, after: Frame) -> str | None:
        # crafter wakes a sleeper hurt since its last turn: by a creature after that turn (the drop shows one
        # observation earlier) or by its own vitals in this one
        earlier = self.earlier_health if self.earlier_health is not None else before.vitals["health"]
        hurt = after.vitals["health"] < before.vitals["health"] or before.vitals["health"] < earlier
        energy = before.vitals["energy"]
        if before.sleeping and energy < 9 and not after.sleeping and not hurt:
            return f"the player wakes up with energy {energy}/9 and unhurt; crafter wakes a sleeper at full energy"
        if before.sleeping and energy == 9 and after.sleeping:
            return "the player sleeps on at full energy; crafter wakes it"
        if not before.sleeping and name == "sleep" and energy < 9 and not after.sleeping and not hurt:
            return f"Sleep at energy {energy}/9 puts the player to sleep, but the observation shows it awake"
        if not before.sleeping and after.sleeping and name != "sleep":
            return f"the player falls asleep after {name}; only Sleep does that"
        return None

    def _unlocks(self, before: Frame | None, name: str, after: Frame, logged: Step) -> str | None:
        """The reward's and the score's unlock flag against what the step shows and what it can unlock."""
        known = before is not None and not before.out_of_map and not after.out_of_map
        shown: list[str] = []
        possible = not known  # an out-of-map text hides what was faced
        if known:
            options, _ = outcomes(before, name)
            change = _change(before, after)
            for option, unlocks in options:
                if option == change:
                    shown = [a for a in unlocks if a not in self.unlocked]
            awake = not before.sleeping or before.vitals["energy"] == 9
            possible = bool(shown) or (name == "do" and before.facing in INVISIBLE and awake)
        flag = None
        if logged.reward is not None and known:
            health = (after.vitals["health"] - before.vitals["health"]) / 10
            rest = logged.reward - health
            flag = 1 if math.isclose(rest, 1, abs_tol=1e-9) else 0 if math.isclose(rest, 0, abs_tol=1e-9) else None
            if flag is None:
                return (f"the reward {logged.reward!r} is neither the health change / 10 ({health:g}) nor that plus 1 "
                        "(an unlock)")
        rise = None
        if logged.score is not None and self.score is not None:
            now = logged.score - self.score
            if now != int(now) or now < self.count or now > ACHIEVEMENTS:
                self.score = logged.score
                return (f"the score rises by {now:g}; SmartPlay adds the number of achievements unlocked so far, "
                        f"{self.count} before this step (it never falls, and there are 22)")
            rise = int(now) - self.count
            if flag is not None and (rise > 0) != (flag == 1):
                return f"the reward says {'an' if flag else 'no'} achievement was unlocked but the score says {rise}"
            self.count = int(now)
        self.score = logged.score
        if shown and (flag == 0 or rise == 0):
            return (f"this step unlocks {', '.join(shown)} (the text shows it) but the "
                    f"{'reward' if flag == 0 else 'score'} says nothing was unlocked")
        if (flag == 1 or (rise or 0) > 0) and not possible:
            return (f"the {'reward' if flag == 1 else 'score'} says an achievement was unlocked, but nothing "
                    f"{name} did here can unlock one")
        if rise is not None and rise < len(shown):
            return f"this step unlocks {', '.join(shown)} (the text shows it) but the score counts {rise}"
        self.unlocked.update(shown)
        if rise is None and flag == 1:
            self.count += 1
        return None
