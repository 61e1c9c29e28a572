"""Which environments exist, and building one from minigrid: level ids, Plan rooms, LangSuitE names.

An environment is named by a minigrid BabyAI id (``BabyAI-GoToLocal-v0``, any of minigrid's 96) or
by one of LLM-BabyBench's custom Plan rooms, ``CustomBabyAI-GoToRedBall-{Small,Medium,Large,Ultra}-
{N}Dists-v0``, which plancheck builds itself (one room of size 8/16/24/32, the agent placed first,
then the red ball, then N distractors recoloured grey, unreachable layouts resampled). Nothing is
registered with gymnasium: environments are constructed from their class, exactly as
``gymnasium.make(id).unwrapped`` would (no BabyAI id wraps a time limit). minigrid is imported
lazily, only when an environment is built.
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
    return plan_room(env_id) is not None or env_id in minigrid_level_ids()


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


def build_env(env_id: str) -> Any:
    """A fresh, un-reset minigrid environment for ``env_id`` (the unwrapped level object)."""
    room = plan_room(env_id)
    if room is not None:
        return _plan_room_class()(room_size=room.room_size, num_dists=room.distractors)
    if env_id not in minigrid_level_ids():
        raise InstanceNotFoundError(
            f"{env_id!r} is neither a minigrid BabyAI level nor a Plan room "
            "(e.g. BabyAI-GoToLocal-v0, CustomBabyAI-GoToRedBall-Small-4Dists-v0)")
    import gymnasium
    from gymnasium.envs.registration import load_env_creator

    spec = gymnasium.registry[env_id]
    creator = spec.entry_point if callable(spec.entry_point) else load_env_creator(spec.entry_point)
    return creator(**spec.kwargs)


def reset_env(env_id: str, seed: int) -> Any:
    """A minigrid environment for ``env_id`` reset with ``seed``; minigrid's rejection-sampling
    messages ("Sampling rejected: ...") are captured and logged at debug level, not printed."""
    env = build_env(env_id)
    captured = io.StringIO()
    with contextlib.redirect_stdout(captured):
        env.reset(seed=seed)
    if captured.getvalue():
        log.debug("%s seed %d: %d resampling message(s)", env_id, seed, captured.getvalue().count("\n"))
    return env
