"""What the agent sees and the texts that say it (``dev:envs/rearrange/rearrange_env.py``).

* Visible: a root whose box meets the view sector (no occlusion at all), plus every descendant of a
  visible root that is not a closed container, even outside the sector (``get_observed_objects``).
* Left / front / right: each visible object goes to the nearest of three segments: the heading
  segment of length ``max_view_distance`` and that segment rotated by -aov/2 and +aov/2 about its
  own midpoint (ties: front, left, right). The two side segments cross in an X at half distance, so
  a far object on the left is said to be "on your right" (a quirk kept by name).
* The texts: ``In front of you, You see ...``, ``On your left, you see ...``, ``On your right, you
  see ...`` with open containers listing their children inline (the left group's empty case lacks
  a space: ``an opened<name>, it's empty``), each group stripped of "; " and ended with ". ".
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from math import floor

from plancheck.domains.langsuite.engine.agent import AgentConfig, Pose
from plancheck.domains.langsuite.engine.geometry import Lines, Sector, rotate_segment
from plancheck.domains.langsuite.engine.scene import Scene

FRONT, LEFT, RIGHT = "front", "left", "right"
NOTHING_LOW = ("You see nothing. You can try to take action like move_ahead, turn_left or turn_right to explore "
               "the room.")
NOTHING_HIGH = "You see nothing. You can goto other objects to explore the room."
REGIONS = ("north", "northeast", "east", "southeast", "south", "southwest", "west", "northwest", "middle")
_CELL_REGION = {(0, 0): "southwest", (0, 1): "west", (0, 2): "northwest", (1, 0): "south", (1, 1): "middle",
                (1, 2): "north", (2, 0): "southeast", (2, 1): "east", (2, 2): "northeast"}


def sector(pose: Pose, config: AgentConfig) -> Sector:
    return Sector(pose.x, pose.y, pose.vx, pose.vy, config.max_view_distance, config.aov)


def observed(scene: Scene, pose: Pose, config: AgentConfig) -> dict[str, int]:
    """The observed objects in LangSuitE's order (each visible root, then, unless it is a closed
    container, its subtree), as object id -> the instance LangSuitE keeps (the last one seen)."""
    cone = sector(pose, config)
    seen: dict[str, int] = {}
    nodes = scene.nodes
    for root in scene.roots:
        thing = nodes[root]
        if cone.hits(thing.rect):
            seen[thing.id] = root
            if not thing.closed_container:
                for child in scene.descendants(root):
                    seen[nodes[child].id] = child
    return seen


def side_lines(pose: Pose, config: AgentConfig):
    """The front, left and right segments (the left and right ones cross the front one at its middle)."""
    start = (pose.x, pose.y)
    middle = (start, pose.ahead(config.max_view_distance))
    return middle, rotate_segment(*middle, -config.aov / 2), rotate_segment(*middle, config.aov / 2)


def sides(scene: Scene, pose: Pose, config: AgentConfig, objects: Iterable[int]) -> dict[str, list[int]]:
    """Each object instance to the nearest of the front, left and right segments (ties in that order)."""
    lines = Lines(side_lines(pose, config))
    groups: dict[str, list[int]] = {FRONT: [], LEFT: [], RIGHT: []}
    order = (groups[FRONT], groups[LEFT], groups[RIGHT])
    for node in objects:
        order[lines.nearest(scene.nodes[node].rect)].append(node)
    return groups


_PREFIX = {FRONT: "In front of you, You see ", LEFT: "On your left, you see ", RIGHT: "On your right, you see "}


def _group_text(scene: Scene, side: str, members: Sequence[int], left_space: bool = True) -> str:
    if not members:
        return ""
    names, nodes = scene.names, scene.nodes
    text = _PREFIX[side]
    described: list[str] = []
    for node in members:
        thing = nodes[node]
        oid = thing.id
        if oid in described:
            continue
        described.append(oid)
        if thing.open_container:
            children = []
            for child in thing.children:
                described.append(nodes[child].id)
                children.append(names[nodes[child].id])
            if children:
                text += "an opened " + names[oid] + ", " + "there is a " + ", a ".join(children) + " in/on it; "
            else:
                opened = "an opened" if side == LEFT and left_space else "an opened "
                text += opened + names[oid] + ", " + "it's empty; "
        else:
            text += "a " + names[oid] + "; "
    return text.strip("; ") + ". "


def observation(scene: Scene, pose: Pose, config: AgentConfig, high_level: bool = False,
                seen: dict[str, int] | None = None) -> str:
    """``get_observation``: the three groups, or the "You see nothing" text of the action level
    (``seen``: the observed objects, when already computed for this scene and pose)."""
    if seen is None:
        seen = observed(scene, pose, config)
    groups = sides(scene, pose, config, seen.values())
    text = "".join(_group_text(scene, side, groups[side]) for side in (FRONT, LEFT, RIGHT))
    if not text:
        return NOTHING_HIGH if high_level else NOTHING_LOW
    return text


def alfred_observation(scene: Scene, pose: Pose, config: AgentConfig, high_level: bool = False,
                       seen: dict[str, int] | None = None) -> str:
    """ALFRED's ``get_observation``: Rearrangement's text with the left group's space in place
    ("an opened cabinet_0, it's empty") and the low-level "You see nothing" text at both levels."""
    if seen is None:
        seen = observed(scene, pose, config)
    groups = sides(scene, pose, config, seen.values())
    text = "".join(_group_text(scene, side, groups[side], left_space=False) for side in (FRONT, LEFT, RIGHT))
    return text or NOTHING_LOW


def look_around(scene: Scene) -> str:
    """The high-level start view: every root receptacle, seen or not; its trailing ", " stays."""
    text = "You are in the middle of a room. Looking quickly around you, you see "
    receptacles = [scene.nodes[r].id for r in scene.roots if scene.nodes[r].receptacle]
    if not receptacles:
        text += "nothing."
    for oid in receptacles:
        text += "a " + scene.names[oid] + ", "
    if text.strip().endswith(", "):  # never true (strip removes the space): LangSuitE's text keeps ", "
        text = text[:-1] + "."
    return text


def opened_object(scene: Scene, object_id: str) -> str:
    """The text after ``open``: the root's direct children, or "nothing" (always for a non-root)."""
    root = next((r for r in scene.roots if scene.nodes[r].id == object_id), None)
    children = [scene.names[scene.nodes[c].id] for c in scene.nodes[root].children] if root is not None else []
    return "In/on it you see " + (", a ".join(children) if children else "nothing")


def alfred_opened_object(scene: Scene, object_id: str) -> str:
    """ALFRED's text after ``open``: Rearrangement's, ended with a full stop."""
    return opened_object(scene, object_id) + "."


def held(scene: Scene, inventory: Sequence[int]) -> str:
    """``get_held_object_observation`` (the inventory holds instances)."""
    if inventory:
        return "You are now holding " + ", a ".join(scene.names[scene.nodes[o].id] for o in inventory) + \
            ". Drop one before you pick up another one. "
    return "You are now holding nothing. "


def inventory_text(scene: Scene, inventory: Sequence[int]) -> str:
    """The agent's ``get_inventory``: "Empty" or the names joined by ", "."""
    return ", ".join(scene.names[scene.nodes[o].id] for o in inventory) if inventory else "Empty"


def cell(scene: Scene, x: float, y: float) -> tuple[int, int]:
    """The 3x3 cell of a point: ``floor((coord - min) / (extent / 3))`` (3 on the max edge)."""
    x0, y0, x1, y1 = scene.room.bounds
    return floor((x - x0) / ((x1 - x0) / 3)), floor((y - y0) / ((y1 - y0) / 3))


def region(scene: Scene, x: float, y: float) -> str | None:
    """The region word of a point, or None off the 3x3 grid (an object on the max edge)."""
    return _CELL_REGION.get(cell(scene, x, y))


def room_description(scene: Scene) -> str:
    """``get_room_description``: the roots by region, open ones as "an opened", children inline."""
    by_region: dict[str, list[int]] = {r: [] for r in REGIONS}
    for root in scene.roots:
        where = region(scene, *scene.nodes[root].position)
        if where is not None:
            by_region[where].append(root)
    text = ""
    for where in REGIONS:
        part = ""
        if by_region[where]:
            part = "In the " + where + " of the room, there is "
        for node in by_region[where]:
            thing = scene.nodes[node]
            part += ("an " + "opened " if thing.open_container else "a ") + scene.names[thing.id] + "; "
            if thing.children:
                part = part.strip("; ") + ", " + "in/on it you can see a " + \
                    ", a ".join(scene.names[scene.nodes[c].id] for c in thing.children) + "; "
        if part:
            part = part.strip("; ") + ". "
        text += part
    return text


def position_text(scene: Scene, pose: Pose) -> str:
    """``get_agent_position_observation``: only when the heading is exactly an axis vector."""
    where = region(scene, pose.x, pose.y)
    facing = {(0, 1): "north", (1, 0): "east", (0, -1): "south", (-1, 0): "west"}.get((pose.vx, pose.vy))
    if not where or not facing:
        return ""
    return f"Now you are in the {where} of the room facing {facing}. "
