"""IQA's scene: every object a top-level entry, children built by popping shared id lists (LangSuitE dev).

``Iqa2DEnv.create_world`` and ``IqaWorld.create`` build the world differently from Rearrangement:

* ``receptacleObjectIds`` is set, for every object named as a parent, to the list of objects naming
  it in ``parentReceptacles`` (Floor included, no two-way fix), in scene order; other objects keep
  their metadata list;
* **every** object whose ``name`` does not start with "Floor" becomes a top-level entry, in scene
  order (*all-top-level*);
* building an object pops its ``receptacleObjectIds`` list from the end, building each child found
  (recursively); the lists are shared, so an object's children are built only the first time any
  of its instances is built, in reverse order (*popped-children*): an object that comes later as a
  top-level entry, or under a second parent, has no children;
* the room is the rectangle over the scene bounds and every object's AABB corner points; objects
  are their AABB rectangles (no 0.1 rule).

Display names are numbered over the top-level entries and their subtrees as everywhere else.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from plancheck.domains.langsuite.engine.geometry import segment_hits_rect, segments_meet
from plancheck.domains.langsuite.engine.scene import Names, Room, Scene, Thing, box_of, make_thing, number_names
from plancheck.errors import BadInputError


def room_of(world_data: Mapping[str, Any], where: str) -> Room:
    """``get_room_polygons``: the rectangle over the scene bounds' corners and the objects' corners
    (an object without ``cornerPoints`` adds its box's corners)."""
    try:
        points = [(c[0], c[2]) for c in world_data["sceneBounds"]["cornerPoints"]]
        for obj in world_data["objects"]:
            box = obj["axisAlignedBoundingBox"]
            if "cornerPoints" in box:
                points += [(c[0], c[2]) for c in box["cornerPoints"]]
    except (KeyError, TypeError, IndexError) as exc:
        raise BadInputError(f"{where}: missing {exc} (need sceneBounds.cornerPoints and objects)") from None
    x0, x1 = min(p[0] for p in points), max(p[0] for p in points)
    z0, z1 = min(p[1] for p in points), max(p[1] for p in points)
    return Room(((x0, z0), (x0, z1), (x1, z1), (x1, z0)))


def build_iqa_scene(world_data: Mapping[str, Any], where: str = "scene") -> Scene:
    """The scene LangSuitE's IQA builds from one metadata dict."""
    room = room_of(world_data, where)
    objects = world_data["objects"]
    parent2children: dict[str, list[str]] = {}
    for obj in objects:
        for p in obj.get("parentReceptacles") or ():
            parent2children.setdefault(p, []).append(obj["objectId"])
    lists: dict[str, list[str]] = {}
    by_id: dict[str, Mapping[str, Any]] = {}
    for obj in objects:
        oid = obj["objectId"]
        by_id.setdefault(oid, obj)
        if oid not in lists:
            lists[oid] = list(parent2children[oid]) if oid in parent2children else \
                list(obj.get("receptacleObjectIds") or ())
    nodes: dict[int, Thing] = {}

    def build(oid: str) -> int:
        pending = lists[oid]
        kids: dict[str, int] = {}
        while pending:
            child = pending.pop()
            if child in by_id:
                kids[child] = build(child)
        node = len(nodes)
        nodes[node] = make_thing(by_id[oid], tuple(kids.values()), where, "aabb-exact")
        return node

    roots: dict[str, int] = {}
    for obj in objects:
        if not str(obj.get("name", "")).startswith("Floor"):
            roots[obj["objectId"]] = build(obj["objectId"])
    scene = Scene(nodes, tuple(roots.values()), room, Names({}, {}))
    return replace(scene, names=number_names(scene))


def free_start(scene: Scene, x: float, y: float) -> bool:
    """``is_valid_trajectory(Point2D)``: the segment to (x + 1, y + 1) meets no wall and no object."""
    a, b = (x, y), (x + 1, y + 1)
    if any(segments_meet(a, b, c, d) for c, d in scene.room.walls()):
        return False
    return not any(segment_hits_rect(a, b, scene.nodes[r].rect) for r in scene.roots)


def free_starts(scene: Scene) -> list[tuple[int, int]]:
    """The integer points ``random_world_position`` can return: x from ``int(min x)`` to ``int(max x + 1) - 1``
    (numpy's ``randint`` truncates float bounds), z likewise, with a free diagonal."""
    x0, y0, x1, y1 = scene.room.bounds
    return [(x, y) for x in range(int(x0), int(x1 + 1)) for y in range(int(y0), int(y1 + 1)) if free_start(scene, x, y)]


def start_blockers(world_data: Mapping[str, Any]) -> list[set[str]]:
    """For each integer start point whose diagonal meets no wall, the ids of the objects its diagonal
    meets (a scene without those objects can start there)."""
    room = room_of(world_data, "scene")
    x0, y0, x1, y1 = room.bounds
    boxes = [(o["objectId"], box_of(o, "aabb-exact")) for o in world_data["objects"]
             if not str(o.get("name", "")).startswith("Floor")]
    out = []
    for x in range(int(x0), int(x1 + 1)):
        for y in range(int(y0), int(y1 + 1)):
            a, b = (x, y), (x + 1, y + 1)
            if any(segments_meet(a, b, c, d) for c, d in room.walls()):
                continue
            out.append({oid for oid, rect in boxes if segment_hits_rect(a, b, rect)})
    return out
