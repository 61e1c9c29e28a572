"""Which environments exist, and building one from minigrid: level ids, Plan rooms, LangSuitE names.

An environment is named by a minigrid BabyAI id (``BabyAI-GoToLocal-v0``, any of minigrid's 96) or
by one of LLM-BabyBench's custom Plan rooms, ``CustomBabyAI-GoToRedBall-{Small,Medium,Large,Ultra}-
{N}Dists-v0``, which plancheck builds itself (one room of size 8/16/24/32, the agent placed first,
then the red ball, then N distractors recoloured grey, unreachable layouts resampled). Nothing is
registered with gymnasium: environments are constructed from their class, exactly as
``gymnasium.make(id).unwrapped`` would (no BabyAI id wraps a time limit). minigrid is imported
lazily, only when an environment is built.

Two minigrid generators are offered by name. ``installed`` is the minigrid plancheck runs on (3.2.0,
the reference). LLM-BabyBench's data was generated with minigrid at commit ``6e713afe`` (6e713afef8d2,
6 Feb 2025, between releases 3.0.0 and 3.1.0; its ``minigrid.__version__`` reads "2.5.0"), which its
README pins. The two differ in one place that changes worlds: the ``LevelGen`` levels' mission
generator did not clear the locked room of a rejected attempt, so a retry within one reset could
sample its mission against a stale room (minigrid 3.2.0 clears it). Over the 16 levels x seeds
1-500 that changes 5 worlds (SynthLoc 3 and 277, SynthSeq 3, 236 and 422). The id suffix
``@6e713afe`` (``BabyAI-SynthSeq-v0@6e713afe/seed=3``) names the pinned generator; it exists for the
levels that may add a locked room (Synth, SynthLoc, SynthSeq, BossLevel of the 16) and is dropped for
the others, whose worlds are the same under both.

A last suffix ``@reset<N>`` names the world minigrid generates after N further resets without a seed
(the seeded reset's random stream continued): LangSuitE seeds its world and then resets it once more
without the seed before the episode starts, so its episodes are played on ``@reset1``.
"""

from __future__ import annotations

import contextlib
import io
import logging
import re
from dataclasses import dataclass
from functools import cache
from typing import Any

from plancheck.errors import InstanceNotFoundError

log = logging.getLogger(__name__)

BABYBENCH_LEVELS: tuple[str, ...] = tuple(f"BabyAI-{name}-v0" for name in (
    "GoToObj", "GoToRedBallGrey", "GoToRedBall", "GoToLocal", "PutNextLocal", "PickupLoc",
    "GoToObjMaze", "GoTo", "Pickup", "UnblockPickup", "Open", "Synth", "SynthLoc", "GoToSeq",
    "SynthSeq", "BossLevel"))

PLAN_ROOM_SIZES: dict[str, int] = {"Small": 8, "Medium": 16, "Large": 24, "Ultra": 32}
PLAN_ROOM_DISTRACTORS: dict[str, tuple[int, ...]] = {
    "Small": (4, 5, 6, 7), "Medium": (20, 40, 50, 60), "Large": (60, 80, 100, 120), "Ultra": (120, 140, 160, 180)}
PLAN_ROOMS: tuple[str, ...] = tuple(
    f"CustomBabyAI-GoToRedBall-{size}-{n}Dists-v0" for size, counts in PLAN_ROOM_DISTRACTORS.items() for n in counts)

# LangSuitE names levels without the "BabyAI-" prefix; its "1RoomS<N>" levels are minigrid's "OneRoomS<N>"
# (the same generator, renamed when BabyAI moved into minigrid).
LANGSUITE_RENAMED: dict[str, str] = {f"1RoomS{n}": f"OneRoomS{n}" for n in (8, 12, 16, 20)}

# What LangSuitE's code actually builds for a name ("as built"): its levels.py stores each id's keyword
# arguments on the minigrid *class* (``level_class.kwargs = kwargs``), so ids sharing a class all get the
# arguments of the last one registered. Names whose class is not shared, or that LangSuitE implements
# itself, are built as named.
LANGSUITE_AS_BUILT: dict[str, str] = {
    **{name: "GoToLocalS8N7" for name in ("GoToLocal", "GoToLocalS5N2", "GoToLocalS6N2", "GoToLocalS6N3",
                                          "GoToLocalS6N4", "GoToLocalS7N4", "GoToLocalS7N5", "GoToLocalS8N2",
                                          "GoToLocalS8N3", "GoToLocalS8N4", "GoToLocalS8N5", "GoToLocalS8N6")},
    **{name: "GoToObjS6" for name in ("GoToObj", "GoToObjS4")},
    **{name: "GoToObjMazeS7" for name in ("GoTo", "GoToOpen", "GoToObjMaze", "GoToObjMazeOpen", "GoToObjMazeS4R2",
                                          "GoToObjMazeS4", "GoToObjMazeS5", "GoToObjMazeS6")},
    "GoToSeq": "GoToSeqS5R2", "PutNextLocal": "PutNextLocalS6N4", "PutNextLocalS5N3": "PutNextLocalS6N4",
    "Synth": "SynthS5R2", "KeyCorridor": "KeyCorridorS6R3",
}
LANGSUITE_RESOLUTIONS = ("by-name", "as-built")

INSTALLED = "installed"
PINNED = "6e713afe"  # the minigrid commit LLM-BabyBench pins and generated its data with
GENERATIONS = (INSTALLED, PINNED)
GENERATOR_LEVELS = ("Synth", "SynthLoc", "SynthSeq", "BossLevel")  # of the 16 levels, those the generators split

_PLAN_ROOM = re.compile(r"^CustomBabyAI-GoToRedBall-(?P<size>Small|Medium|Large|Ultra)-(?P<n>\d+)Dists-v0$")


@dataclass(frozen=True, slots=True)
class PlanRoom:
    """One custom Plan room: its size class, room size (walls included) and distractor count."""

    size_name: str
    room_size: int
    distractors: int

    @property
    def env_id(self) -> str:
        return f"CustomBabyAI-GoToRedBall-{self.size_name}-{self.distractors}Dists-v0"


def plan_room(env_id: str) -> PlanRoom | None:
    """The Plan room an id names, or None for other ids.

    >>> plan_room("CustomBabyAI-GoToRedBall-Ultra-160Dists-v0")
    PlanRoom(size_name='Ultra', room_size=32, distractors=160)
    >>> plan_room("BabyAI-GoTo-v0") is None
    True
    """
    match = _PLAN_ROOM.match(env_id)
    if match is None:
        return None
    size, count = match["size"], int(match["n"])
    if count not in PLAN_ROOM_DISTRACTORS[size]:
        raise InstanceNotFoundError(
            f"{env_id!r}: the {size} Plan rooms have {', '.join(map(str, PLAN_ROOM_DISTRACTORS[size]))} distractors")
    return PlanRoom(size, PLAN_ROOM_SIZES[size], count)


def minigrid_level_ids() -> tuple[str, ...]:
    """Every BabyAI id minigrid registers (importing minigrid registers them)."""
    import gymnasium
    import minigrid  # noqa: F401  (registers the BabyAI ids)

    return tuple(k for k in gymnasium.registry if k.startswith("BabyAI-"))


def known_env_id(env_id: str) -> bool:
    base, generation = split_generation(split_resets(env_id)[0])
    if generation == INSTALLED:
        return plan_room(base) is not None or base in minigrid_level_ids()
    return generation in GENERATIONS and base in minigrid_level_ids() and _generators_differ(base)


_RESETS = re.compile(r"@reset(?P<n>\d+)$")


def split_resets(env_id: str) -> tuple[str, int]:
    """(environment id, further unseeded resets) of an id.

    >>> split_resets("BabyAI-GoToLocalS8N7-v0@reset1"), split_resets("BabyAI-GoTo-v0")
    (('BabyAI-GoToLocalS8N7-v0', 1), ('BabyAI-GoTo-v0', 0))
    """
    match = _RESETS.search(env_id)
    return (env_id, 0) if match is None else (env_id[:match.start()], int(match["n"]))


def with_resets(env_id: str, resets: int) -> str:
    """``env_id`` after ``resets`` further unseeded resets (0: the seeded world itself)."""
    base = split_resets(env_id)[0]
    return f"{base}@reset{resets}" if resets else base


def split_generation(env_id: str) -> tuple[str, str]:
    """(level id, generator) of an environment id; no ``@`` suffix means the installed minigrid.

    >>> split_generation("BabyAI-SynthSeq-v0@6e713afe"), split_generation("BabyAI-GoTo-v0")
    (('BabyAI-SynthSeq-v0', '6e713afe'), ('BabyAI-GoTo-v0', 'installed'))
    """
    base, _, generation = env_id.partition("@")
    return base, generation or INSTALLED


def with_generation(env_id: str, generation: str) -> str:
    """The id of ``env_id``'s level under ``generation``: suffixed only where that generator differs.

    >>> with_generation("BabyAI-SynthSeq-v0", "6e713afe"), with_generation("BabyAI-GoToLocal-v0", "6e713afe")
    ('BabyAI-SynthSeq-v0@6e713afe', 'BabyAI-GoToLocal-v0')
    """
    if generation not in GENERATIONS:
        raise InstanceNotFoundError(f"unknown minigrid generator {generation!r}; known: {', '.join(GENERATIONS)}")
    rest, resets = split_resets(env_id)
    base = split_generation(rest)[0]
    if generation == INSTALLED or plan_room(base) is not None or base not in minigrid_level_ids():
        return with_resets(base, resets)
    return with_resets(f"{base}@{generation}" if _generators_differ(base) else base, resets)


@cache
def _generators_differ(level: str) -> bool:
    """Whether the pinned generator can make other worlds than the installed one: a ``LevelGen`` level
    that may add a locked room."""
    import gymnasium

    pinned = _pinned_class(_level_class(level))
    return pinned is not None and pinned(**gymnasium.registry[level].kwargs).locked_room_prob > 0


def generator_name(env_id: str) -> str:
    """Which minigrid generated the environment, in words ("minigrid 3.2.0", "minigrid 6e713afe")."""
    from importlib.metadata import version

    generation = split_generation(split_resets(env_id)[0])[1]
    return f"minigrid {version('minigrid')}" if generation == INSTALLED else f"minigrid {generation}"


def langsuite_env_id(name: str, resolution: str = "by-name") -> str | None:
    """The minigrid id of a LangSuitE level name (``GoToLocalS5N2``), or None when minigrid lacks it.

    ``resolution="as-built"`` gives the level LangSuitE's code really builds for that name.

    >>> langsuite_env_id("GoToLocalS5N2"), langsuite_env_id("1RoomS20"), langsuite_env_id("TestGoToBlocked")
    ('BabyAI-GoToLocalS5N2-v0', 'BabyAI-OneRoomS20-v0', None)
    >>> langsuite_env_id("GoToLocalS5N2", "as-built")
    'BabyAI-GoToLocalS8N7-v0'
    """
    if resolution == "as-built":
        name = LANGSUITE_AS_BUILT.get(name, name)
    name = LANGSUITE_RENAMED.get(name, name)
    ids = minigrid_level_ids()
    return next((candidate for candidate in (f"BabyAI-{name}-v0", f"BabyAI-{name}-v1") if candidate in ids), None)


@cache
def _plan_room_class() -> type:
    """The Plan room environment class (defined on first use, so minigrid loads only when needed)."""
    from minigrid.envs.babyai.core.roomgrid_level import RoomGridLevel
    from minigrid.envs.babyai.core.verifier import GoToInstr, ObjDesc

    class PlanRoomLevel(RoomGridLevel):
        """LLM-BabyBench's Plan room: go to the red ball among grey distractors, in one room."""

        def __init__(self, room_size: int, num_dists: int, **kwargs: Any):
            self.num_dists = num_dists
            super().__init__(room_size=room_size, num_rows=1, num_cols=1, **kwargs)

        def gen_mission(self) -> None:
            self.place_agent()
            ball, _ = self.add_object(0, 0, "ball", "red")
            for distractor in self.add_distractors(num_distractors=self.num_dists, all_unique=False):
                distractor.color = "grey"
            self.check_objs_reachable()
            self.instrs = GoToInstr(ObjDesc(ball.type, ball.color))

    return PlanRoomLevel


def _level_class(level: str) -> Any:
    """The class (or creator) minigrid registers for the BabyAI id ``level``."""
    import gymnasium
    from gymnasium.envs.registration import load_env_creator

    spec = gymnasium.registry[level]
    return spec.entry_point if callable(spec.entry_point) else load_env_creator(spec.entry_point)


@cache
def _pinned_class(level_class: Any) -> Any:
    """``level_class`` as minigrid 6e713afe generates it, or None where the generators agree.

    minigrid 3.2.0's ``LevelGen.gen_mission`` starts by clearing ``locked_room``; 6e713afe's kept the
    room of the previous attempt. The subclass skips exactly that first assignment, so everything
    else runs minigrid's own code."""
    from minigrid.envs.babyai.core.levelgen import LevelGen

    if not (isinstance(level_class, type) and issubclass(level_class, LevelGen)):
        return None
    if level_class.gen_mission is not LevelGen.gen_mission:
        return None

    class Pinned(level_class):
        _keep_room = False

        @property
        def locked_room(self) -> Any:
            return self.__dict__.get("_locked_room")

        @locked_room.setter
        def locked_room(self, room: Any) -> None:
            if room is None and self._keep_room:  # the clearing 3.2.0 added: 6e713afe kept the old room
                self._keep_room = False
                return
            self.__dict__["_locked_room"] = room

        def gen_mission(self) -> None:
            self._keep_room = True
            try:
                super().gen_mission()
            finally:
                self._keep_room = False

    Pinned.__name__ = Pinned.__qualname__ = f"{level_class.__name__}At{PINNED}"
    return Pinned


def build_env(env_id: str) -> Any:
    """A fresh, un-reset minigrid environment for ``env_id`` (the unwrapped level object)."""
    env_id = split_resets(env_id)[0]
    base, generation = split_generation(env_id)
    if generation != INSTALLED and known_env_id(base) and not known_env_id(env_id):
        raise InstanceNotFoundError(f"{env_id!r}: {generation!r} is not a minigrid generator that makes other {base} "
                                    f"worlds (known: {PINNED}, for {', '.join(GENERATOR_LEVELS)}); name it {base}")
    room = plan_room(base)
    if room is not None:
        return _plan_room_class()(room_size=room.room_size, num_dists=room.distractors)
    if not known_env_id(env_id):
        raise InstanceNotFoundError(
            f"{env_id!r} is neither a minigrid BabyAI level nor a Plan room "
            "(e.g. BabyAI-GoToLocal-v0, CustomBabyAI-GoToRedBall-Small-4Dists-v0, BabyAI-SynthSeq-v0@6e713afe)")
    import gymnasium

    creator = _level_class(base) if generation == INSTALLED else _pinned_class(_level_class(base))
    return creator(**gymnasium.registry[base].kwargs)


def reset_env(env_id: str, seed: int) -> Any:
    """A minigrid environment for ``env_id`` reset with ``seed`` (then reset again without a seed as many
    times as its ``@reset<N>`` says); minigrid's rejection-sampling messages ("Sampling rejected: ...")
    are captured and logged at debug level, not printed."""
    env = build_env(env_id)
    captured = io.StringIO()
    with contextlib.redirect_stdout(captured):
        env.reset(seed=seed)
        for _ in range(split_resets(env_id)[1]):
            env.reset()
    if captured.getvalue():
        log.debug("%s seed %d: %d resampling message(s)", env_id, seed, captured.getvalue().count("\n"))
    return env
