"""A BabyAI instance as frozen data: the static layout, the start state, the mission; stable ids.

An instance id is ``<env id>/seed=<seed>``, e.g. ``BabyAI-GoToLocal-v0/seed=5``. LangSuitE's
``GoToLocalS5N2-5`` form and ``<env id>/<seed>`` are accepted too (see :func:`parse_id`).
The state keeps what minigrid keeps: the agent's pose, what it carries, where every object is,
each door's state and the mission verifier's progress.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from plancheck.domains.babyai.mission import NONE, Cell, Desc, Mission, Progress, leaves, node_from_json, node_to_json
from plancheck.errors import InstanceNotFoundError, clip
from plancheck.limits import id_number

DIRECTIONS = ("east", "south", "west", "north")
DIR_VEC: tuple[Cell, ...] = ((1, 0), (0, 1), (-1, 0), (0, -1))
OPEN, CLOSED, LOCKED = 0, 1, 2
DOOR_STATES = ("open", "closed", "locked")


@dataclass(frozen=True, slots=True)
class Door:
    pos: Cell
    color: str


@dataclass(frozen=True, slots=True)
class Thing:
    """A key, ball or box; ``contains`` is the index of the object inside a box."""

    kind: str
    color: str
    contains: int | None = None

    @property
    def name(self) -> str:
        return f"{self.color} {self.kind}"


@dataclass(frozen=True, slots=True)
class State:
    """Everything that changes during an episode.

    ``objects[i]`` is the cell of object ``i`` on the grid, or None (carried, inside a box, or gone
    after its box was opened). ``held_at`` is minigrid's ``cur_pos`` of a carried object the agent
    held from the start (start-carrying levels); after a pickup it is (-1, -1), written None.
    """

    pos: Cell
    dir: int
    carrying: int
    objects: tuple[Cell | None, ...]
    doors: tuple[int, ...]
    progress: Progress
    held_at: Cell | None = None

    @property
    def front(self) -> Cell:
        dx, dy = DIR_VEC[self.dir]
        return (self.pos[0] + dx, self.pos[1] + dy)

    def pose(self) -> tuple[Cell, int]:
        return self.pos, self.dir


def replace_state(state: State, **changes: Any) -> State:
    """A copy of ``state`` with some fields changed (faster than ``dataclasses.replace``)."""
    fields = {"pos": state.pos, "dir": state.dir, "carrying": state.carrying, "objects": state.objects,
              "doors": state.doors, "progress": state.progress, "held_at": state.held_at}
    fields.update(changes)
    return State(**fields)


@dataclass(frozen=True, slots=True)
class Instance:
    """One environment (level id + seed) as minigrid generated it."""

    env_id: str
    seed: int
    width: int
    height: int
    room_size: int
    num_rows: int
    num_cols: int
    walls: frozenset[Cell]
    doors: tuple[Door, ...]
    things: tuple[Thing, ...]
    mission: Mission
    start: State
    max_steps: int

    @property
    def id(self) -> str:
        return f"{self.env_id}/seed={self.seed}"

    def to_json(self) -> dict[str, Any]:
        rows = ["".join("#" if (x, y) in self.walls else "." for x in range(self.width)) for y in range(self.height)]
        start = self.start
        return {
            "id": self.id, "env": self.env_id, "seed": self.seed, "width": self.width, "height": self.height,
            "room_size": self.room_size, "rooms": [self.num_rows, self.num_cols], "max_steps": self.max_steps,
            "walls": rows,
            "doors": [{"pos": list(d.pos), "color": d.color, "state": DOOR_STATES[s]}
                      for d, s in zip(self.doors, start.doors)],
            "objects": [{"type": t.kind, "color": t.color, "pos": None if p is None else list(p),
                         "contains": t.contains} for t, p in zip(self.things, start.objects)],
            "agent": {"pos": list(start.pos), "dir": start.dir, "carrying": None if start.carrying == NONE else
                      start.carrying, "held_at": None if start.held_at is None else list(start.held_at)},
            "mission": {"text": self.mission.text, "tree": node_to_json(self.mission.root),
                        "descs": [d.to_json() for d in self.mission.descs],
                        "poss": [[list(c) for c in cells] for cells in start.progress.poss]},
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Instance:
        walls = frozenset((x, y) for y, row in enumerate(data["walls"]) for x, ch in enumerate(row) if ch == "#")
        doors = tuple(Door(tuple(d["pos"]), d["color"]) for d in data["doors"])
        things = tuple(Thing(o["type"], o["color"], o["contains"]) for o in data["objects"])
        descs = tuple(Desc(d["type"], d["color"], d["loc"], tuple(d["targets"])) for d in data["mission"]["descs"])
        root = node_from_json(data["mission"]["tree"])
        slots = sum(1 for leaf in leaves(root) if hasattr(leaf, "slot"))
        nodes = _count_seq(data["mission"]["tree"])
        mission = Mission(data["mission"]["text"], root, descs, nodes, slots)
        agent = data["agent"]
        progress = Progress(tuple(tuple(tuple(c) for c in cells) for cells in data["mission"]["poss"]),
                            (0,) * (2 * nodes), (NONE,) * slots)
        start = State(tuple(agent["pos"]), int(agent["dir"]),
                      NONE if agent["carrying"] is None else int(agent["carrying"]),
                      tuple(None if o["pos"] is None else tuple(o["pos"]) for o in data["objects"]),
                      tuple(DOOR_STATES.index(d["state"]) for d in data["doors"]), progress,
                      None if agent.get("held_at") is None else tuple(agent["held_at"]))
        rows, cols = data["rooms"]
        return cls(data["env"], int(data["seed"]), int(data["width"]), int(data["height"]), int(data["room_size"]),
                   int(rows), int(cols), walls, doors, things, mission, start, int(data["max_steps"]))


def _count_seq(tree: dict[str, Any]) -> int:
    if tree["op"] in ("before", "after", "and"):
        return 1 + _count_seq(tree["a"]) + _count_seq(tree["b"])
    return 0


_ID = re.compile(r"^(?P<env>[A-Za-z0-9][\w-]*?(?:@\w+)*)(?:/seed=|/|-)(?P<seed>\d+)$")


def parse_id(text: str, langsuite: str = "by-name") -> tuple[str, int]:
    """(environment id, seed) of an instance id.

    Accepts ``BabyAI-GoToLocal-v0/seed=5``, ``BabyAI-GoToLocal-v0/5`` and LangSuitE's
    ``GoToLocalS5N2-5`` (a level name without prefix, then ``-seed``; ``langsuite="as-built"`` maps
    it to the level LangSuitE's code really builds, see :data:`~plancheck.domains.babyai.levels.LANGSUITE_AS_BUILT`).

    >>> parse_id("BabyAI-GoToLocal-v0/seed=5")
    ('BabyAI-GoToLocal-v0', 5)
    >>> parse_id("GoToLocalS5N2-5")
    ('BabyAI-GoToLocalS5N2-v0', 5)
    """
    from plancheck.domains.babyai.levels import langsuite_env_id

    match = _ID.match(text.strip())
    if match is None:
        raise InstanceNotFoundError(
            f"{text!r} is not a BabyAI instance id; expected e.g. 'BabyAI-GoToLocal-v0/seed=5' or "
            "LangSuitE's 'GoToLocalS5N2-5'")
    env, seed = match["env"], id_number(match["seed"], f"the seed in {clip(text)!r}")
    if "/" in text or env.startswith(("BabyAI-", "CustomBabyAI-")):
        return env, seed
    resolved = langsuite_env_id(env, langsuite)
    if resolved is None:
        raise InstanceNotFoundError(f"{text!r}: minigrid has no level {env!r} (LangSuitE's test levels "
                                    "and bonus levels outside minigrid are not available)")
    return resolved, seed
