"""The reference problem of a Rearrangement episode: what "restored" means and which plans count.

Goal ``restore``: the end state matches the goal scene at the granularity the agent is told about
it (the 3x3 regions of the goal text, from the true (x, z), and the open state): every object in
the room lies in its goal region and is open exactly when it is open in the goal scene, and the
agent holds nothing. LangSuitE's own success test counts differently (see :mod:`scoring`); both are
reported for every plan.

The plans searched (the *reference class*): every object whose region differs between the start
and the goal (a *mover*) is picked up once and dropped once, into its goal region; no other object
is picked up; containers are opened and closed only where a mover lies in a closed one or an
object's open state differs; any number of moves and turns. Actions are LangSuitE's low-level set:
``move_ahead``, ``turn_left``, ``turn_right``, ``pick_up``, ``drop``, ``open``, ``close``, then ``stop``.
The episode's limit of 100 timesteps (the opening reply and the ``stop`` included) leaves 98
actions.

:class:`Problem` holds the facts both the native search and the PDDL compilation use: the pose
lattice (reachable with the movers out of the way), where each mover can be picked up from, which
drops put it in its goal region, and which moves a placed or unmoved mover blocks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from math import floor

from plancheck.domains.langsuite.engine import lattice as lattice_mod
from plancheck.domains.langsuite.engine.actions import DROP_DISTANCE
from plancheck.domains.langsuite.engine.geometry import Rect, translate
from plancheck.domains.langsuite.engine.observe import observed
from plancheck.domains.langsuite.engine.scene import Scene
from plancheck.domains.langsuite.rearrangement.rules import Task

MAX_ACTIONS = 98  # 100 timesteps minus the opening reply and the stop


def cell_of(scene: Scene, x: float, y: float) -> tuple[int, int]:
    x0, y0, x1, y1 = scene.room.bounds
    return floor((x - x0) / ((x1 - x0) / 3)), floor((y - y0) / ((y1 - y0) / 3))


def restored(task: Task, scene: Scene, holding: bool) -> list[str]:
    """What keeps ``scene`` from the ``restore`` goal, in words (empty when it is reached)."""
    goal = task.goal_scene
    problems = ["the agent still holds an object"] if holding else []
    for oid in goal.names.of:
        node, target = scene.find(oid), goal.find(oid)
        if target is None:
            continue
        if node is None:
            problems.append(f"{oid} is not in the room")
            continue
        thing, want = scene.nodes[node], goal.nodes[target]
        if cell_of(scene, *thing.position) != cell_of(goal, *want.position):
            problems.append(f"{oid} is not in its goal region")
        if thing.openable and thing.is_open != want.is_open:
            problems.append(f"{oid} is {'open' if thing.is_open else 'closed'}, the goal has it "
                            f"{'open' if want.is_open else 'closed'}")
    return problems


@dataclass
class Problem:
    """One episode's reference problem on its pose lattice."""

    task: Task
    movers: tuple[str, ...] = field(init=False)
    toggles: tuple[str, ...] = field(init=False)

    def __post_init__(self) -> None:
        start, goal = self.task.start_scene, self.task.goal_scene
        movers, toggles = [], []
        for oid in goal.names.of:
            a, b = start.find(oid), goal.find(oid)
            if a is None or b is None:
                continue
            s, g = start.nodes[a], goal.nodes[b]
            if cell_of(start, *s.position) != cell_of(goal, *g.position):
                movers.append(oid)
            elif s.openable and s.is_open != g.is_open:
                toggles.append(oid)
        self.movers = tuple(movers)
        self.toggles = tuple(toggles)

    @property
    def start(self) -> Scene:
        return self.task.start_scene

    @cached_property
    def lattice(self) -> lattice_mod.Lattice:
        return lattice_mod.build(self.start, self.task.start_pose, self.task.engine.config, self.movers)

    @cached_property
    def anchor(self) -> dict[str, str]:
        """Each mover's root at the start (itself when it is a root)."""
        out = {}
        for root in self.start.roots:
            rid = self.start.nodes[root].id
            for node in [root] + self.start.descendants(root):
                oid = self.start.nodes[node].id
                if oid in self.movers and oid not in out:
                    out[oid] = rid
        return out

    @cached_property
    def containers(self) -> tuple[str, ...]:
        """Objects the plans may open or close: closed roots holding movers, and the toggles."""
        closed = []
        for o in self.movers:
            a = self.anchor[o]
            if a != o and self.start.thing(a).closed_container and a not in closed:
                closed.append(a)
        return tuple(closed) + tuple(t for t in self.toggles if t not in closed)

    def goal_open(self, oid: str) -> bool:
        return self.task.goal_scene.thing(oid).is_open

    @cached_property
    def sees(self) -> dict[str, frozenset[int]]:
        """For each anchor and container, the poses whose view sector meets its box (at the start)."""
        wanted = {self.anchor[o] for o in self.movers} | set(self.containers)
        out: dict[str, set[int]] = {w: set() for w in wanted}
        rects = {w: self.start.thing(w).rect for w in wanted}
        for p in range(len(self.lattice)):
            cone = self.lattice.sector(p)
            for w, rect in rects.items():
                if cone.hits(rect):
                    out[w].add(p)
        return {w: frozenset(s) for w, s in out.items()}

    def container_visible(self, oid: str, p: int) -> bool:
        """Whether ``open``/``close`` of ``oid`` passes the observed check at pose ``p`` (start tree)."""
        if oid in self.sees:
            node = self.start.find(oid)
            if node in self.start.roots:
                return p in self.sees[oid]
        return oid in observed(self.start, self.lattice.poses[p], self.task.engine.config)

    def drop_point(self, p: int) -> tuple[float, float]:
        pose = self.lattice.poses[p]
        d = pose.turned(45)
        return pose.x + d.vx * DROP_DISTANCE, pose.y + d.vy * DROP_DISTANCE

    @cached_property
    def drops(self) -> dict[str, frozenset[int]]:
        """For each mover, the poses from which a drop puts it in its goal region."""
        goal = self.task.goal_scene
        out = {}
        for o in self.movers:
            want = cell_of(goal, *goal.thing(o).position)
            out[o] = frozenset(p for p in range(len(self.lattice)) if cell_of(self.start, *self.drop_point(p)) == want)
        return out

    def placed_rect(self, o: str, p: int) -> Rect:
        thing = self.start.thing(o)
        x, y = self.drop_point(p)
        return translate(thing.rect, x - thing.position[0], y - thing.position[1])

    _blocks: dict[tuple[str, int], frozenset[int]] = field(default_factory=dict, init=False, repr=False)

    def blocks(self, o: str, p: int) -> frozenset[int]:
        """The poses whose move_ahead a mover dropped from pose ``p`` blocks."""
        key = (o, p)
        if key not in self._blocks:
            self._blocks[key] = frozenset(self.lattice.blocked_by(self.placed_rect(o, p)))
        return self._blocks[key]

    def is_root(self, o: str) -> bool:
        return self.anchor[o] == o
