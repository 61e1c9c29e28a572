"""The reference problem of an IQA episode: the least the agent must look at before it may answer.

An omniscient planner could answer at the first step, so the reference counts the looking. Its
*facts* are what LangSuitE's messages tell the agent, read from the texts the engine writes:

* ``seen:<id>``: the object's name appears in a message (as an observed object, as a child listed
  "in/on it", or in the text after ``open``);
* ``checked:<id>``: the container's contents were listed: it was opened (the text after ``open``
  lists its children), or its entry was shown with its children listed;
* ``found``: an object of the asked class was listed in a receptacle of the asked type (contains).

The evidence an honest answer needs (each part is necessary, so the optimum is a lower bound on
the steps of any agent that answers from what it has seen):

* existence, "yes": ``seen`` for some object of the class;
* existence "no", and counting: ``seen`` for every object of the class, and ``checked`` for every
  container closed at the start that can hold the class (ALFRED's receptacle table,
  ``VAL_RECEPTACLE_OBJECTS``: apples can be in fridges and microwaves, spoons in drawers, ...);
* contains "yes": ``found``; contains "no": ``checked`` for every receptacle of the type (a garbage
  can's contents are never listed, LangSuitE's text names its last child in its place, so such
  questions have no evidence).

The plans searched: LangSuitE's actions of the level that keep the conversation going (low level:
``move_ahead``, ``turn_left``, ``turn_right``, ``open``; high level: ``goto``, ``open``), then ``answer``; at
most 27 actions, so that the answer comes by timestep 29 (the 30th reply is never read).

What a pose shows is computed symbolically from IQA's observation rule (:func:`contributions`):
each name a pose can show comes with the containers that must be open for it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property

from plancheck.domains.langsuite.alfworld_tables import receptacle_objects
from plancheck.domains.langsuite.engine import lattice as lattice_mod
from plancheck.domains.langsuite.engine.actions import goto_boxes
from plancheck.domains.langsuite.engine.agent import Pose
from plancheck.domains.langsuite.engine.geometry import Lines, Sector
from plancheck.domains.langsuite.engine.goto import FACING, GotoEnds, GridError
from plancheck.domains.langsuite.engine.observe import sector, side_lines
from plancheck.domains.langsuite.engine.scene import Scene, Thing
from plancheck.domains.langsuite.iqa.observe import top_level
from plancheck.domains.langsuite.iqa.rules import Task, start_pose

MAX_ACTIONS = 27  # the answer must come by timestep 29: the opening reply, 27 actions, the answer


@dataclass(frozen=True)
class Shown:
    """A name a pose can show: the object, the containers that must be open, the entry listing it (if any)."""

    oid: str
    needs: frozenset[str]
    via: str | None = None


def contributions(scene: Scene, pose: Pose, task: Task) -> Iterator[Shown]:
    """Every name IQA's text at ``pose`` can hold, with what must be open for it (``needs``; a container
    that must stay closed is never needed for an object of a question's class). A listing in the right
    group (``a x, a y, a z in/on it``) does not say which object holds the others: its names count as
    seen, not as listed in a container (``via`` is dropped)."""
    cone = sector(pose, task.engine.config)
    nodes, entries = scene.nodes, top_level(scene)
    lines = Lines(side_lines(pose, task.engine.config))
    for shown in _contributions(scene, cone, nodes, entries):
        if shown.via is not None and lines.nearest(scene.thing(shown.via).rect) == 2:  # the right group
            yield Shown(shown.oid, shown.needs)
        else:
            yield shown


def _contributions(scene: Scene, cone: Sector, nodes: Mapping[int, Thing], entries: dict[str, int]) -> Iterator[Shown]:
    for root in scene.roots:
        thing = nodes[root]
        if not cone.hits(thing.rect):
            continue
        parent = thing.first_parent
        if parent and "Floor" not in parent:
            holder = nodes[entries[parent]]
            needs = frozenset({parent}) if holder.openable and not holder.openness else frozenset()
            yield Shown(thing.id, needs)
            own = frozenset({thing.id}) if thing.openable and not thing.openness else frozenset()
            for child in thing.children:
                yield Shown(nodes[child].id, needs | own, thing.id)
            continue
        closed = thing.openable and not thing.is_open
        if closed or not thing.children:
            yield Shown(thing.id, frozenset())  # a closed container: while it stays closed
        if not thing.children:
            continue
        needs = frozenset({thing.id}) if closed else frozenset()
        last = nodes[thing.children[-1]]  # it stands in for the entry
        yield Shown(last.id, needs)
        if not (last.openable and not last.openness):  # a child's openness never changes: open acts on entries
            for child in last.children:
                yield Shown(nodes[child].id, needs, last.id)


def openable_at(scene: Scene, pose: Pose, task: Task) -> Iterator[tuple[str, frozenset[str]]]:
    """The openable objects ``open`` accepts at ``pose`` (their entry in the observed set), with what
    must be open for that (their first parent, when it is a closed container)."""
    cone = sector(pose, task.engine.config)
    nodes, entries = scene.nodes, top_level(scene)
    for root in scene.roots:
        thing = nodes[root]
        if not thing.openable or not cone.hits(thing.rect):
            continue
        parent = thing.first_parent
        if parent and "Floor" not in parent:
            holder = nodes[entries[parent]]
            yield thing.id, frozenset({parent}) if holder.openable and not holder.openness else frozenset()
        else:
            yield thing.id, frozenset()


@dataclass
class Evidence:
    """One episode's evidence problem (the question and the start drawn from ``seed``, or the start ``at``)."""

    task: Task
    seed: int | None
    poses: list[Pose] = field(default_factory=list)
    index: dict[tuple, int] = field(default_factory=dict)
    at: Pose | None = None

    def __post_init__(self) -> None:
        if self.at is None and self.seed is None:
            raise ValueError("an evidence problem needs a seed or a start")
        self.start = self.at if self.at is not None else start_pose(self.scene, self.seed)
        self.add_pose(self.start)

    @property
    def scene(self) -> Scene:
        return self.task.scene

    @property
    def high(self) -> bool:
        return self.task.level == "high"

    def add_pose(self, pose: Pose) -> int:
        key = pose.key()
        if key not in self.index:
            self.index[key] = len(self.poses)
            self.poses.append(pose)
        return self.index[key]

    @cached_property
    def instances(self) -> tuple[str, ...]:
        cls = self.task.question.object_class
        return tuple(sorted({t.id for t in self.scene.nodes.values() if t.object_type == cls}))

    @cached_property
    def required_checks(self) -> tuple[str, ...]:
        """The containers an answer must have checked (see the module docstring)."""
        q = self.task.question
        things = {t.id: t for t in self.scene.nodes.values()}
        if q.kind == "contains":
            if self.task.gold:
                return ()
            return tuple(sorted(oid for oid, t in things.items() if t.object_type == q.receptacle))
        if q.kind == "existence" and self.task.gold:
            return ()
        return tuple(sorted(oid for oid, t in things.items()
                            if t.openable and not t.is_open and q.object_class in receptacle_objects(t.object_type)))

    @cached_property
    def facts(self) -> tuple[str, ...]:
        return tuple([f"seen:{o}" for o in self.instances] + [f"checked:{c}" for c in self.required_checks]
                     + ["found"])

    @cached_property
    def fact_bit(self) -> dict[str, int]:
        return {f: 1 << i for i, f in enumerate(self.facts)}

    @cached_property
    def goal(self) -> tuple[int, int]:
        """(facts all needed, facts one of which is needed); 0 for none."""
        q, bit = self.task.question, self.fact_bit
        seen = sum(bit[f"seen:{o}"] for o in self.instances)
        checks = sum(bit[f"checked:{c}"] for c in self.required_checks)
        if q.kind == "contains":
            return (checks, 0) if not self.task.gold else (0, bit["found"])
        if q.kind == "existence" and self.task.gold:
            return 0, seen
        return seen | checks, 0

    @cached_property
    def containers(self) -> tuple[str, ...]:
        """The openable objects plans may open: closed ones that are required checks or that some
        shown name needs open (at any pose the plans can reach)."""
        things = {t.id: t for t in self.scene.nodes.values()}
        wanted = set(c for c in self.required_checks if things[c].openable)
        for p in range(len(self.all_poses())):
            for shown in self._shown(p):
                if shown.oid in self.instances or shown.via is not None:
                    wanted |= shown.needs
        grown = True
        while grown:  # a container whose entry shows only when its parent is open needs that parent too
            grown = False
            for p in range(len(self.poses)):
                for oid, needs in openable_at(self.scene, self.poses[p], self.task):
                    if oid in wanted and not needs <= wanted:
                        wanted |= needs
                        grown = True
        return tuple(sorted(c for c in wanted if things[c].openable and not things[c].is_open))

    @cached_property
    def container_bit(self) -> dict[str, int]:
        return {c: 1 << i for i, c in enumerate(self.containers)}

    def needs_mask(self, needs: frozenset[str]) -> int | None:
        """The containers as a bit mask; None when one cannot be opened by the plans (it stays closed)."""
        mask = 0
        for c in needs:
            if c not in self.container_bit:
                return None
            mask |= self.container_bit[c]
        return mask

    _shown_cache: dict[int, list[Shown]] = field(default_factory=dict, repr=False)
    _event_cache: dict[int, list[tuple[int, int]]] = field(default_factory=dict, repr=False)
    _open_cache: dict[int, list[tuple[int, int]]] = field(default_factory=dict, repr=False)

    def _shown(self, p: int) -> list[Shown]:
        if p not in self._shown_cache:
            self._shown_cache[p] = list(contributions(self.scene, self.poses[p], self.task))
        return self._shown_cache[p]

    def fact_of(self, shown: Shown) -> int:
        bit, q = self.fact_bit, self.task.question
        out = bit.get(f"seen:{shown.oid}", 0)
        if shown.via is not None:
            out |= bit.get(f"checked:{shown.via}", 0)
            if q.kind == "contains" and self.scene.thing(shown.via).object_type == q.receptacle \
                    and shown.oid in self.instances:
                out |= bit["found"]
        return out

    def events(self, p: int) -> list[tuple[int, int]]:
        """(facts, containers that must be open) for the names pose ``p`` can show."""
        if p not in self._event_cache:
            merged: dict[int, int] = {}
            for shown in self._shown(p):
                facts, needs = self.fact_of(shown), self.needs_mask(shown.needs)
                if facts and needs is not None:
                    merged[needs] = merged.get(needs, 0) | facts
            self._event_cache[p] = sorted((f, n) for n, f in merged.items())
        return self._event_cache[p]

    def facts_at(self, p: int, opened: int) -> int:
        out = 0
        for facts, needs in self.events(p):
            if needs & opened == needs:
                out |= facts
        return out

    def openers(self, p: int) -> list[tuple[int, int]]:
        """(container bit, containers that must be open) for the plan's containers ``open`` accepts at ``p``."""
        if p not in self._open_cache:
            out = []
            for oid, needs in openable_at(self.scene, self.poses[p], self.task):
                mask = self.needs_mask(needs)
                if oid in self.container_bit and mask is not None:
                    out.append((self.container_bit[oid], mask))
            self._open_cache[p] = out
        return self._open_cache[p]

    @cached_property
    def open_facts(self) -> dict[int, int]:
        """What opening each plan container reveals: the names after ``open`` (its entry's children)."""
        nodes, entries = self.scene.nodes, top_level(self.scene)
        out = {}
        for c, b in self.container_bit.items():
            facts = self.fact_bit.get(f"checked:{c}", 0)
            for child in nodes[entries[c]].children:
                facts |= self.fact_of(Shown(nodes[child].id, frozenset(), c))
            out[b] = facts
        return out

    @cached_property
    def start_facts(self) -> int:
        """What the first message shows: the observation at the start (low level) or the look-around
        text, which names every top-level receptacle (high level)."""
        if not self.high:
            return self.facts_at(0, 0)
        out = 0
        for root in self.scene.roots:
            thing = self.scene.nodes[root]
            if thing.receptacle:
                out |= self.fact_bit.get(f"seen:{thing.id}", 0)
        return out

    # -- moves --------------------------------------------------------------------------------------

    @cached_property
    def lattice(self) -> lattice_mod.Lattice:
        return lattice_mod.build(self.scene, self.start, self.task.engine.config)

    @cached_property
    def goto_ends(self) -> GotoEnds:
        return GotoEnds(self.scene.room.bounds, self.task.engine.config.step_size, list(goto_boxes(self.scene)))

    @cached_property
    def targets(self) -> tuple[str, ...]:
        """The objects ``goto`` can name (every display name leads to one)."""
        return tuple(sorted(set(self.scene.names.ids.values())))

    _goto_cache: dict[tuple, int | None] = field(default_factory=dict, repr=False)

    def goto(self, p: int, target: str) -> int | None:
        """The pose ``goto [target]`` leads to from pose ``p`` (None when it fails)."""
        pose = self.poses[p]
        key = (self.goto_ends.cell(pose.x, pose.y), target)
        if key not in self._goto_cache:
            try:
                end = self.goto_ends.end((pose.x, pose.y), self.scene.thing(target).position)
            except GridError:
                end = None
            if end is None or end is False:
                self._goto_cache[key] = None
            else:
                x, y, face = end
                vx, vy = FACING[face]
                self._goto_cache[key] = self.add_pose(Pose(x, y, vx, vy))
        return self._goto_cache[key]

    def moves(self, p: int) -> Iterator[tuple[tuple[str, str | None], int]]:
        """(action word and object, next pose) for the level's moves from ``p``."""
        if self.high:
            for target in self.targets:
                q = self.goto(p, target)
                if q is not None and q != p:
                    yield ("goto", target), q
            return
        lat = self.lattice
        yield ("turn_left", None), lat.left[p]
        yield ("turn_right", None), lat.right[p]
        if lat.ahead[p] >= 0:
            yield ("move_ahead", None), lat.ahead[p]

    def all_poses(self) -> list[Pose]:
        """Every pose the level's moves reach from the start (the low level: the lattice)."""
        if not self.high:
            if len(self.poses) < len(self.lattice):
                self.poses[:] = list(self.lattice.poses)
                self.index = {pose.key(): i for i, pose in enumerate(self.poses)}
            return self.poses
        done = 0
        while done < len(self.poses):
            list(self.moves(done))
            done += 1
        return self.poses
