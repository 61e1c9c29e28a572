"""The scene: objects as rectangles, their containment tree and their display names (LangSuitE dev).

Built from AI2-THOR-style metadata (``objects`` with ``axisAlignedBoundingBox``, ``parentReceptacles``,
``receptacleObjectIds`` and state flags; ``sceneBounds.cornerPoints``) the way
``dev:envs/rearrange/rearrange_env.py:create_world`` and ``rearrange_world.py`` build it:

* the room is the rectangle over the scene bounds; its four edges are walls;
* an object is the rectangle ``center +- size/2`` of its AABB in (x, z) (a zero size becomes 0.1),
  rotation ignored; its ``position`` is that rectangle's centroid;
* parents come from ``parentReceptacles`` without "Floor|" entries; every object listed as a parent
  gets ``receptacleObjectIds`` = its children in scene order (a two-way pair is cut by set
  differences; LangSuitE's set order is Python's string hashing, here it is sorted); the roots are
  the objects without a parent (Floor excluded), in scene order, and each root carries a subtree
  built from ``receptacleObjectIds``;
* an object with several parents is built once under each (LangSuitE creates a separate Python
  object each time): the tree holds *instances* (:class:`Thing` keyed by a node number), and
  lookups by object id take the first instance in LangSuitE's search order;
* display names are ``<category>_<k>`` lower-cased, ``k`` counted per category over the instances
  in tree order, where a root's subtree is numbered before the root is counted although the root
  took its number first (so a root and a same-category descendant share a name; the name then
  means the descendant). An object built several times takes its last name; all its names lead
  to it.

A containment cycle is refused with a clear error (LangSuitE would recurse forever).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from plancheck.domains.langsuite.engine.geometry import Point, Rect, centroid, rect_from_center
from plancheck.errors import BadInputError


@dataclass(frozen=True, slots=True)
class Thing:
    """One object instance: what it is, where its box is, its state and its children (node numbers)."""

    id: str
    category: str  # objectId up to the first '|'
    object_type: str
    asset: str  # the metadata's "name"
    rect: Rect
    position: Point
    pickupable: bool = False
    openable: bool = False
    receptacle: bool = False
    toggleable: bool = False
    is_open: bool = False
    openness: float | None = None
    is_toggled: bool = False
    children: tuple[int, ...] = ()
    dirtyable: bool = False
    is_dirty: bool = False
    sliceable: bool = False
    is_sliced: bool = False
    temperature: str | None = None
    first_parent: str | None = None  # the metadata's first parentReceptacles entry (IQA reads it)

    @property
    def closed_container(self) -> bool:
        """Openable and not open: LangSuitE hides its contents."""
        return self.openable and not self.is_open

    @property
    def open_container(self) -> bool:
        return self.openable and self.is_open


@dataclass(frozen=True, slots=True)
class Room:
    """The room rectangle (as its four corners in LangSuitE's order) and its walls."""

    corners: tuple[Point, Point, Point, Point]

    @property
    def bounds(self) -> Rect:
        xs = [c[0] for c in self.corners]
        ys = [c[1] for c in self.corners]
        return min(xs), min(ys), max(xs), max(ys)

    def walls(self) -> Iterator[tuple[Point, Point]]:
        for i in range(4):
            yield self.corners[i], self.corners[(i + 1) % 4]


@dataclass(frozen=True, slots=True)
class Names:
    """Display names: object id -> name (its last name), and every name -> object id."""

    of: Mapping[str, str]
    ids: Mapping[str, str]

    def __getitem__(self, object_id: str) -> str:
        return self.of[object_id]


@dataclass(frozen=True, slots=True)
class Scene:
    """Object instances (by node number), the root nodes in order, the room and the display names."""

    nodes: Mapping[int, Thing]
    roots: tuple[int, ...]
    room: Room
    names: Names

    def descendants(self, node: int) -> list[int]:
        """All descendant nodes in LangSuitE's order (``find_all_children``: each child, then its subtree)."""
        out: list[int] = []
        for child in self.nodes[node].children:
            out.append(child)
            out.extend(self.descendants(child))
        return out

    def find(self, object_id: str) -> int | None:
        """The instance ``World.get_object`` returns: a root, else the first found under the roots in order."""
        for root in self.roots:
            if self.nodes[root].id == object_id:
                return root
        for root in self.roots:
            found = self._child(root, object_id)
            if found is not None:
                return found
        return None

    def _child(self, node: int, object_id: str) -> int | None:
        children = self.nodes[node].children
        for child in children:
            if self.nodes[child].id == object_id:
                return child
        for child in children:
            found = self._child(child, object_id)
            if found is not None:
                return found
        return None

    def thing(self, object_id: str) -> Thing:
        node = self.find(object_id)
        if node is None:
            raise KeyError(object_id)
        return self.nodes[node]

    def root_ids(self) -> list[str]:
        return [self.nodes[r].id for r in self.roots]

    def with_node(self, node: int, thing: Thing) -> Scene:
        nodes = dict(self.nodes)
        nodes[node] = thing
        return replace(self, nodes=nodes)

    def without(self, object_id: str) -> tuple[Scene, int] | None:
        """``World.pop_object``: the root, else the first instance found as a child (``del_child``), taken out."""
        for root in self.roots:
            if self.nodes[root].id == object_id:
                return replace(self, roots=tuple(r for r in self.roots if r != root)), root
        for root in self.roots:
            taken = self._take(root, object_id)
            if taken is not None:
                nodes = dict(self.nodes)
                parent, child = taken
                nodes[parent] = replace(nodes[parent], children=tuple(c for c in nodes[parent].children if c != child))
                return replace(self, nodes=nodes), child
        return None

    def _take(self, node: int, object_id: str) -> tuple[int, int] | None:
        children = self.nodes[node].children
        for child in children:
            if self.nodes[child].id == object_id:
                return node, child
        for child in children:
            taken = self._take(child, object_id)
            if taken is not None:
                return taken
        return None


def room_from_bounds(corner_points: Sequence[Sequence[float]]) -> Room:
    """``get_room_polygons``: the rectangle over the x and z of the scene bounds' corner points."""
    minx = min(c[0] for c in corner_points)
    maxx = max(c[0] for c in corner_points)
    minz = min(c[2] for c in corner_points)
    maxz = max(c[2] for c in corner_points)
    return Room(((minx, minz), (minx, maxz), (maxx, maxz), (maxx, minz)))


def _non_floor(parents: Sequence[str] | None) -> list[str]:
    return [p for p in parents or () if "Floor|" not in p]


def fix_receptacles(objects: Sequence[Mapping[str, Any]], floor_parents: bool = False) -> list[dict[str, Any]]:
    """``create_world``'s first pass: receptacleObjectIds recomputed from parentReceptacles (Rearrangement
    skips "Floor|" parents; ALFRED keeps them, ``floor_parents``, which cuts the floor's two-way pairs too)."""
    parent2children: dict[str, list[str]] = {}
    children2parent: dict[str, list[str]] = {}
    for obj in objects:
        children2parent[obj["objectId"]] = []
        for p in obj.get("parentReceptacles") or ():
            if "Floor|" in p and not floor_parents:
                continue
            children2parent[obj["objectId"]].append(p)
            parent2children.setdefault(p, []).append(obj["objectId"])
    fixed = []
    for obj in objects:
        obj = dict(obj)
        oid = obj["objectId"]
        if oid in parent2children:
            c2p, p2c = children2parent[oid], parent2children[oid]
            if not set(c2p).isdisjoint(p2c):
                obj["parentReceptacles"] = sorted(set(c2p) - set(p2c))
                obj["receptacleObjectIds"] = sorted(set(p2c) - set(c2p))
            else:
                obj["receptacleObjectIds"] = p2c
        fixed.append(obj)
    return fixed


BOXES = ("aabb", "aabb-exact", "alfred")


def box_of(obj: Mapping[str, Any], boxes: str = "aabb") -> Rect:
    """An object's rectangle as a task builds it.

    ``aabb`` (Rearrangement): ``axisAlignedBoundingBox`` centre +- size/2, a zero size becomes 0.1;
    ``aabb-exact`` (IQA): the same without the 0.1 rule; ``alfred`` (ALFRED's ``AlfredObject``):
    ``center`` +- ``bbox``/2 when the data has them, else ``position`` with a 0.1 x 0.1 box.
    """
    if boxes == "alfred":
        size = obj["bbox"] if "bbox" in obj else {"x": 0.1, "z": 0.1}
        center = obj["center"] if "center" in obj else obj["position"]
        x, y, sx, sy = center["x"], center["z"], size["x"], size["z"]
        return x - sx / 2, y - sy / 2, x + sx / 2, y + sy / 2
    box = obj["axisAlignedBoundingBox"]
    center, size = box["center"], box["size"]
    if boxes == "aabb-exact":
        cx, cy, sx, sy = center["x"], center["z"], size["x"], size["z"]
        return cx - (1 / 2) * sx, cy - (1 / 2) * sy, cx + (1 / 2) * sx, cy + (1 / 2) * sy
    return rect_from_center(center["x"], center["z"], size["x"], size["z"])


def make_thing(obj: Mapping[str, Any], children: tuple[int, ...], where: str, boxes: str = "aabb") -> Thing:
    """One instance from its metadata dict."""
    try:
        rect = box_of(obj, boxes)
        oid = obj["objectId"]
        openness = obj.get("openness")
        parents = obj.get("parentReceptacles") or ()
        return Thing(
            id=oid, category=oid.split("|")[0], object_type=obj.get("objectType", oid.split("|")[0]),
            asset=obj.get("name", ""), rect=rect, position=centroid(rect),
            pickupable=bool(obj.get("pickupable")), openable=bool(obj.get("openable")),
            receptacle=bool(obj.get("receptacle")), toggleable=bool(obj.get("toggleable")),
            is_open=bool(obj.get("isOpen")), openness=None if openness is None else float(openness),
            is_toggled=bool(obj.get("isToggled")), children=children,
            dirtyable=bool(obj.get("dirtyable")), is_dirty=bool(obj.get("isDirty")),
            sliceable=bool(obj.get("sliceable")), is_sliced=bool(obj.get("isSliced")),
            temperature=obj.get("temperature"), first_parent=parents[0] if parents else None)
    except (KeyError, TypeError) as exc:
        raise BadInputError(f"{where}: object {obj.get('objectId', '?')!r} lacks a field LangSuitE reads: {exc}") \
            from None


def build_scene(world_data: Mapping[str, Any], where: str = "scene", boxes: str = "aabb",
                floor_parents: bool = False) -> Scene:
    """The scene LangSuitE builds from one AI2-THOR metadata dict (``create_world`` + ``World.create``).

    The room is the rectangle over ``sceneBounds.cornerPoints`` (Rearrangement), or LangSuitE's
    ALFRED ``polys_2d`` corners when the data has them (``AlfredWorld``); ``boxes`` picks the box rule
    (:func:`box_of`); ``floor_parents`` is ALFRED's first pass (:func:`fix_receptacles`).
    """
    try:
        raw = world_data["objects"]
        if "polys_2d" in world_data:
            room = Room(tuple((float(x), float(y)) for x, y in world_data["polys_2d"]))  # type: ignore[arg-type]
        else:
            room = room_from_bounds(world_data["sceneBounds"]["cornerPoints"])
    except (KeyError, TypeError, ValueError) as exc:
        raise BadInputError(f"{where}: missing {exc} (need objects and sceneBounds.cornerPoints or polys_2d)") \
            from None
    objects = fix_receptacles(raw, floor_parents)
    by_id: dict[str, Mapping[str, Any]] = {}
    for obj in objects:
        by_id.setdefault(obj["objectId"], obj)
    nodes: dict[int, Thing] = {}

    def build(oid: str, path: tuple[str, ...]) -> int:
        if oid in path:
            raise BadInputError(f"{where}: containment cycle through {oid!r}")
        obj = by_id[oid]
        kids: dict[str, int] = {}
        for kid in obj.get("receptacleObjectIds") or ():
            if kid in by_id:
                kids[kid] = build(kid, path + (oid,))
        node = len(nodes)
        nodes[node] = make_thing(obj, tuple(kids.values()), where, boxes)
        return node

    roots = [build(obj["objectId"], ()) for obj in objects
             if "Floor|" not in obj["objectId"] and not _non_floor(obj.get("parentReceptacles"))]
    scene = Scene(nodes, tuple(roots), room, Names({}, {}))
    return replace(scene, names=number_names(scene))


def number_names(scene: Scene) -> Names:
    """LangSuitE's display names (``create_world``'s second pass), with its numbering quirk."""
    of: dict[str, str] = {}
    ids: dict[str, str] = {}
    counts: dict[str, int] = {}
    for root in scene.roots:
        category = scene.nodes[root].category
        name = f"{category}_{counts.get(category, 0)}".lower()
        of[scene.nodes[root].id], ids[name] = name, scene.nodes[root].id
        for child in scene.descendants(root):
            thing = scene.nodes[child]
            child_name = f"{thing.category}_{counts.get(thing.category, 0)}".lower()
            of[thing.id], ids[child_name] = child_name, thing.id
            counts[thing.category] = counts.get(thing.category, 0) + 1
        counts[category] = counts.get(category, 0) + 1
    return Names(of, ids)
