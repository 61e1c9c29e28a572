"""The reference problem of a Household task: the shortest low-level episode that LangSuitE scores a success.

Success is LangSuitE's own (:mod:`goals`): ``s == ts`` on the state the ``stop`` reply sees (the last
action done and its physics applied). The plans searched (the *reference class*): any moves and
turns, and the manipulations the task type needs, with every choice of objects and every order:

* ``pick_up`` of an object matching the task's object (or movable receptacle), when it holds nothing,
  within the prompt's manipulation distance (2 m, which LangSuitE never checks; ``open`` too);
* ``put`` of a held object (holding nothing) into a receptacle matching the task's receptacle, a
  movable receptacle (movable task), a heater (Microwave, Toaster: heat), a fridge (cool) or a
  basin (Sink, SinkBasin, Bathtub, BathtubBasin: clean), or of a movable receptacle into a receptacle;
* ``open`` of a closed container that hides such an object, or of a heater or fridge; in the movable
  task also of one closed receptacle (a movable receptacle put into a closed cabinet is out of sight,
  and putting it there with the object inside raises, so its cabinet must be opened; one open suffices);
* ``pick_up`` of *clutter* (what lies at the start in an object or movable receptacle the plans put, e.g. a
  tomato on the only plate: LangSuitE raises when a held object holding others is put) and ``put`` of it into
  a *dump* (a receptacle that is a root at the start and plays no role): once no copy of it is left in the
  plate, which dump holds it changes nothing later, so the first one accepted stands for them all in the graph;
* ``toggle_on`` of a heater (heat) or a lamp (look at); ``slice`` of the object (sliced tasks);
* then ``stop``; at most 58 actions (60 timesteps with the opening reply and the ``stop``).

No ``drop``, ``close``, ``heat``/``cool``/``clean`` (they crash), ``goto`` (it crashes at the low level) or
``inspect`` (likewise). A manipulation changes the scene the same way wherever the agent stands (only
whether LangSuitE accepts it depends on the pose), so the scenes a plan can pass through form a
graph of *scene states* (:class:`Node`), each a real engine state after LangSuitE's physics; the
agent's poses come from the engine's pose lattice, with the boxes that appear or vanish (picked
objects, receptacles made roots by ``put``, sliced pieces) blocking moves only while they are roots.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property

from plancheck.domains.langsuite.engine import lattice as lattice_mod
from plancheck.domains.langsuite.engine.actions import Act, WorldState
from plancheck.domains.langsuite.engine.manipulate import BASINS
from plancheck.domains.langsuite.engine.scene import Scene
from plancheck.domains.langsuite.household.goals import HEATERS, Registries, after_step, matching, progress
from plancheck.domains.langsuite.household.rules import Task

MAX_ACTIONS = 58
HEAT_WITH = ("Microwave", "Toaster")
LAMPS = ("DeskLamp", "FloorLamp")
MAX_NODES = 20000


def base_id(oid: str) -> str:
    """A sliced piece's object (``Apple|...|AppleSliced_3`` -> ``Apple|...``): the piece shares its box."""
    head, _, last = oid.rpartition("|")
    return head if head and "Sliced_" in last else oid


@dataclass(frozen=True)
class Node:
    """A scene state: the engine's world (the pose is irrelevant) and the registries after physics."""

    world: WorldState
    registries: Registries

    @property
    def key(self) -> tuple:
        scene = self.world.scene
        return (scene.roots, self.world.inventory, self.registries,
                tuple((n, t.children, t.is_open, t.is_toggled, t.is_sliced, t.is_dirty, t.position)
                      for n, t in sorted(scene.nodes.items())))


@dataclass(frozen=True)
class Edge:
    """A manipulation from one scene state to another and the poses where LangSuitE accepts it."""

    act: Act
    target: int
    poses: frozenset[int]


@dataclass
class Problem:
    """One task's reference problem (low level)."""

    task: Task
    nodes: list[Node] = field(default_factory=list)
    edges: list[list[Edge]] = field(default_factory=list)
    truncated: bool = False  # more than MAX_NODES scene states: the graph was cut there

    def __post_init__(self) -> None:
        start = self.task.initial().world
        scene, registries = after_step(start.scene, Registries())  # the first action's physics (nothing moves)
        self._index: dict[tuple, int] = {}
        self._expanded: set[int] = set()
        self._add(Node(WorldState(scene, start.pose), registries))
        self._expand()

    @property
    def params(self) -> dict:
        return self.task.task.pddl_params

    @property
    def kind(self) -> str:
        return self.task.task.task_type

    @cached_property
    def start_scene(self) -> Scene:
        return self.task.scene

    # -- roles --------------------------------------------------------------------------------------

    @cached_property
    def things(self) -> dict[str, object]:
        return {t.id: t for t in self.start_scene.nodes.values()}

    @cached_property
    def objects(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(self.start_scene.nodes[n].id
                                   for n in matching(self.start_scene, self.params["object_target"], "pickupable")))

    @cached_property
    def movables(self) -> tuple[str, ...]:
        if not self.params["mrecep_target"]:
            return ()
        return tuple(dict.fromkeys(self.start_scene.nodes[n].id
                                   for n in matching(self.start_scene, self.params["mrecep_target"], "pickupable")))

    @cached_property
    def receptacles(self) -> tuple[str, ...]:
        if not self.params["parent_target"]:
            return ()
        return tuple(dict.fromkeys(self.start_scene.nodes[n].id
                                   for n in matching(self.start_scene, self.params["parent_target"], "receptacle")))

    def _of_type(self, types: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(sorted(oid for oid, t in self.things.items() if t.object_type in types))

    @cached_property
    def workers(self) -> tuple[str, ...]:
        """Where the object must go to change: heaters, fridges or basins."""
        return {"pick_heat_then_place_in_recep": self._of_type(HEAT_WITH),
                "pick_cool_then_place_in_recep": self._of_type(("Fridge",)),
                "pick_clean_then_place_in_recep": self._of_type(BASINS)}.get(self.kind, ())

    @cached_property
    def switches(self) -> tuple[str, ...]:
        if self.kind == "pick_heat_then_place_in_recep":
            return tuple(w for w in self.workers if self.things[w].toggleable)
        if self.kind == "look_at_obj_in_light":
            return tuple(o for o in self._of_type(LAMPS) if self.things[o].toggleable)
        return ()

    @cached_property
    def clutter(self) -> tuple[str, ...]:
        """What lies at the start in an object or movable receptacle the plans put, matching no name of the goal:
        a held object holding others cannot be put (LangSuitE raises), so the plans may take it out first."""
        if self.kind == "look_at_obj_in_light":
            return ()
        scene = self.start_scene
        carried = set(self.objects) | set(self.movables)
        names = [n for n in (self.params["object_target"], self.params["mrecep_target"], self.params["parent_target"])
                 if n]
        out = set()
        for oid in carried:
            for child in scene.descendants(scene.find(oid)):
                thing = scene.nodes[child]
                if thing.pickupable and thing.id not in carried and not any(n in thing.id for n in names):
                    out.add(thing.id)
        return tuple(sorted(out))

    @cached_property
    def dumps(self) -> tuple[str, ...]:
        """Where the plans put clutter: receptacles that are roots at the start, not pickupable, playing no role
        and no heater, fridge or basin. Each stays a root, and the clutter in it is never looked at, matched by the
        goal or registered by the physics again, so which dump holds it changes nothing later."""
        if not self.clutter:
            return ()
        scene = self.start_scene
        roles = set(self.dynamic) | set(self.hiders) | set(self.switches) | set(self.clutter)
        skip = set(HEATERS) | set(BASINS) | {"Fridge"}
        return tuple(sorted(t.id for t in (scene.nodes[r] for r in scene.roots)
                            if t.receptacle and not t.pickupable and t.id not in roles and t.object_type not in skip))

    def dump_class(self, scene: Scene, act: Act) -> tuple | None:
        """Which dumps a ``put`` of clutter cannot tell apart (None: no put of clutter). When no copy of the clutter
        is left in an object or movable receptacle, the plans never pick it up again, so any dump will do. An object
        listed under two parents is built under both, though: while the other copy still lies in the plate, the
        next ``pick_up`` takes the first copy in the order of the roots, is accepted where any copy is seen and
        measures the reach from the copy it finds, so then every dump is its own class."""
        cid, rid = act.object_id, act.receptacle_id
        if cid not in self.clutter or rid not in self.dumps:
            return None
        return (cid, rid) if self.loose(scene, cid) else (cid,)

    def loose(self, scene: Scene, cid: str) -> bool:
        """Whether the clutter still lies in an object or movable receptacle (then the plans may pick it up)."""
        for oid in self.objects + self.movables:
            found = scene.find(oid)
            if found is not None and any(scene.nodes[c].id == cid for c in scene.descendants(found)):
                return True
        return False

    @cached_property
    def hiders(self) -> tuple[str, ...]:
        """Closed containers the plans may open: the roots hiding an object or movable receptacle, and
        openable workers."""
        scene = self.start_scene
        out = set(w for w in self.workers if self.things[w].openable)
        for root in scene.roots:
            thing = scene.nodes[root]
            if thing.openable and not thing.is_open:
                below = {scene.nodes[c].id for c in scene.descendants(root)}
                if below & (set(self.objects) | set(self.movables)):
                    out.add(thing.id)
        return tuple(sorted(out))

    def openable_receptacles(self, scene: Scene) -> tuple[str, ...]:
        """Movable task: the closed receptacles the plans may open, while none of them has been opened."""
        if self.kind != "pick_and_place_with_movable_recep":
            return ()
        closed = tuple(r for r in self.receptacles if self.things[r].openable and not self.things[r].is_open
                       and r not in self.hiders)
        if any((found := scene.find(r)) is not None and scene.nodes[found].is_open for r in closed):
            return ()
        return closed

    # -- the scene-state graph ------------------------------------------------------------------------

    def _add(self, node: Node) -> int:
        key = self._key(node)
        if key not in self._index:
            self._index[key] = len(self.nodes)
            self.nodes.append(node)
            self.edges.append([])
        return self._index[key]

    def _key(self, node: Node) -> tuple:
        """What tells scene states apart (:attr:`Node.key`), kept as its difference from the start's (smaller)."""
        if not self._index:
            self._base = {e[0]: e for e in node.key[3]}
        key = node.key
        base, entries = self._base, key[3]
        diff = tuple(e for e in entries if base.get(e[0]) != e)
        present = {e[0] for e in entries}
        return key[:3] + (diff, tuple(n for n in base if n not in present))

    def acts(self, node: Node) -> Iterator[Act]:
        """The manipulations of the reference class in a scene state."""
        world, scene = node.world, node.world.scene
        held = [scene.nodes[n].id for n in world.inventory]
        moved = self.moved(node)
        if not held:
            for oid in self.objects + self.movables:
                if scene.find(oid) is not None and (oid in moved or len(moved) < self.cap) and \
                        not (oid in moved and self.placed(scene, oid)):
                    yield Act("PickUp", oid)
            for cid in self.clutter:
                if self.loose(scene, cid):
                    yield Act("PickUp", cid)
        for oid in held:
            node_ = next(n for n in world.inventory if scene.nodes[n].id == oid)
            if scene.descendants(node_):
                continue  # put would raise
            for rid in self.destinations(oid):
                if rid != oid and scene.find(rid) is not None:
                    yield Act("Put", oid, rid)
        for cid in self.hiders + self.openable_receptacles(scene):
            found = scene.find(cid)
            if found is not None and not scene.nodes[found].is_open:
                yield Act("Open", cid)
        for sid in self.switches:
            found = scene.find(sid)
            if found is not None and not scene.nodes[found].is_toggled:
                yield Act("ToggleOn", sid)
        if self.params["object_sliced"]:
            for oid in self.objects:
                found = scene.find(oid)
                if found is not None and scene.nodes[found].sliceable and not scene.nodes[found].is_sliced:
                    yield Act("Slice", oid)

    @cached_property
    def cap(self) -> int:
        """How many different objects the plans move: two for two objects or object and movable receptacle."""
        return 2 if self.kind in ("pick_two_obj_and_place", "pick_and_place_with_movable_recep") else 1

    def moved(self, node: Node) -> set[str]:
        """The objects this scene state shows picked up at some point (held, or put somewhere)."""
        scene = node.world.scene
        held = {scene.nodes[n].id for n in node.world.inventory}
        start = self.start_scene
        out = set(held)
        for oid in self.objects + self.movables:
            now, then = scene.find(oid), start.find(oid)
            if now is not None and then is not None and self._parent(scene, now) != self._parent(start, then):
                out.add(oid)
        return out

    @staticmethod
    def _parent(scene: Scene, node: int) -> str | None:
        for n, thing in scene.nodes.items():
            if node in thing.children and (n in scene.roots or any(n in scene.nodes[m].children for m in scene.nodes)):
                return thing.id
        return None

    def placed(self, scene: Scene, oid: str) -> bool:
        """Whether the object lies in one of its final destinations (once the plan put it there, it stays)."""
        finals = self.movables if self.kind == "pick_and_place_with_movable_recep" and oid in self.objects \
            and oid not in self.movables else self.receptacles
        return any(scene.find(f) is not None and
                   any(scene.nodes[c].id == oid for c in scene.nodes[scene.find(f)].children) for f in finals)

    def destinations(self, oid: str) -> tuple[str, ...]:
        """Where the plans put a held object: the task's roles (the object into the worker or the receptacle,
        or into the movable receptacle, which goes into the receptacle)."""
        if self.kind == "look_at_obj_in_light":
            return ()
        if oid in self.clutter:
            return self.dumps
        if self.kind == "pick_and_place_with_movable_recep":
            into_movable = self.movables if oid in self.objects else ()  # an object may match both ("Pot" in "Potato")
            return into_movable + (self.receptacles if oid in self.movables else ())
        return self.workers + self.receptacles

    def _expand(self) -> None:
        """Breadth-first from the start, the whole graph or its first :data:`MAX_NODES` scene states."""
        queue = deque([0])
        while queue:
            if len(self.nodes) >= MAX_NODES:
                self.truncated = True  # the graph is cut: a plan found in it is valid, but not proven shortest
                return
            i = queue.popleft()
            j_before = len(self.nodes)
            self.expand(i)
            queue.extend(range(j_before, len(self.nodes)))

    def expanded(self, i: int) -> bool:
        return i in self._expanded

    def expand(self, i: int) -> None:
        """The manipulations of scene state ``i`` (new scene states are added at the end, unexpanded)."""
        if i in self._expanded:
            return
        self._expanded.add(i)
        node = self.nodes[i]
        dumped: dict[tuple, int] = {}  # a class of dumps -> the scene state its first accepted dump gave
        for act in self.acts(node):
            dump = self.dump_class(node.world.scene, act) if act.name == "Put" else None
            if dump in dumped:
                poses = self.observed_poses(node, act.receptacle_id)
                if poses:
                    self.edges[i].append(Edge(act, dumped[dump], poses))
                continue
            subject = act.receptacle_id or act.object_id
            poses = self.observed_poses(node, subject)
            if act.name in ("PickUp", "Open"):  # the prompt's manipulation distance (LangSuitE does not check)
                poses = self.within_reach(node, subject, poses)
            if not poses:
                continue
            pose = self.lattice.poses[min(poses)]
            result = self.task.engine.execute(WorldState(node.world.scene, pose, node.world.inventory), act)
            if not result.success or result.crash:
                continue
            scene, registries = after_step(result.state.scene, node.registries)
            j = self._add(Node(WorldState(scene, self.lattice.poses[0], result.state.inventory), registries))
            self.edges[i].append(Edge(act, j, poses))
            if dump is not None:
                dumped[dump] = j

    # -- poses ----------------------------------------------------------------------------------------

    @cached_property
    def dynamic(self) -> tuple[str, ...]:
        """Objects whose box may become or stop being an obstacle (a root) in some scene state."""
        return tuple(sorted(set(self.objects) | set(self.movables) | set(self.receptacles) | set(self.workers)))

    @cached_property
    def lattice(self) -> lattice_mod.Lattice:
        return lattice_mod.build(self.start_scene, self.task.start_pose, self.task.engine.config,
                                 set(self.dynamic) | set(self.objects))

    @cached_property
    def sees(self) -> dict[str, frozenset[int]]:
        """For every object, the poses whose view sector meets its box (boxes never move in the class)."""
        lat = self.lattice
        out: dict[str, set[int]] = {oid: set() for oid in self.things}
        rects = [(oid, t.rect) for oid, t in self.things.items()]
        for p in range(len(lat)):
            cone = lat.sector(p)
            for oid, rect in rects:
                if cone.hits(rect):
                    out[oid].add(p)
        return {oid: frozenset(s) for oid, s in out.items()}

    def observed_poses(self, node: Node, oid: str) -> frozenset[int]:
        """The poses where ``oid`` is in LangSuitE's observed set (a root seen, or under a seen root that is not
        a closed container); sliced pieces share their object's box."""
        scene = node.world.scene
        out: set[int] = set()
        for root in scene.roots:
            thing = scene.nodes[root]
            if thing.id == oid or (not thing.closed_container and
                                   any(scene.nodes[c].id == oid for c in scene.descendants(root))):
                out |= self.sees.get(base_id(thing.id), frozenset())
        return frozenset(out)

    def within_reach(self, node: Node, oid: str, poses: frozenset[int]) -> frozenset[int]:
        """The poses within the manipulation distance of the object's position (as the strict reading measures)."""
        x, y = node.world.scene.thing(oid).position
        limit = self.task.engine.config.max_manipulate_distance
        lat = self.lattice
        return frozenset(p for p in poses if (lat.poses[p].x - x) ** 2 + (lat.poses[p].y - y) ** 2 <= limit * limit)

    @cached_property
    def _blocks(self) -> dict[str, frozenset[int]]:
        lat = self.lattice
        return {oid: frozenset(lat.blocked_by(self.things[oid].rect)) for oid in self.dynamic}

    def blocked(self, node: Node) -> frozenset[int]:
        """The poses whose ``move_ahead`` a root box of this scene state blocks (beyond the lattice's static ones)."""
        scene = node.world.scene
        out: set[int] = set()
        for root in scene.roots:
            oid = scene.nodes[root].id
            base = base_id(oid)
            if base in self._blocks and not oid.startswith("Floor"):
                out |= self._blocks[base]
        return frozenset(out)

    # -- the goal -------------------------------------------------------------------------------------

    def may_end(self, i: int) -> bool:
        """Whether ``stop`` can score a success in scene state ``i`` from some pose (for looking at an object
        in light: it is held and a lamp is on, where the lamp is seen is checked by :meth:`ends`)."""
        node = self.nodes[i]
        world = node.world
        if self.kind != "look_at_obj_in_light":
            return progress(self.params, self.kind, world.scene, world.inventory, node.registries, "").success
        held = {world.scene.nodes[n].id.split("|")[0] for n in world.inventory}
        lit = any(world.scene.nodes[n].is_toggled for n in world.scene.nodes
                  if world.scene.nodes[n].object_type in LAMPS)
        return self.params["object_target"] in held and lit

    _ends: dict[tuple[int, int], bool] = field(default_factory=dict, repr=False)

    def ends(self, i: int, p: int) -> bool:
        """Whether ``stop`` at pose ``p`` in scene state ``i`` scores a success."""
        if not self.may_end(i):
            return False
        if self.kind != "look_at_obj_in_light":
            return True
        if (i, p) not in self._ends:
            node = self.nodes[i]
            world = WorldState(node.world.scene, self.lattice.poses[p], node.world.inventory)
            self._ends[(i, p)] = progress(self.params, self.kind, world.scene, world.inventory, node.registries,
                                          self.task.engine.observation(world)).success
        return self._ends[(i, p)]
