"""What the IQA agent sees and the texts that say it (``dev:envs/iqa/iqa_env.py``), quirks kept.

* Observed (``get_observed_objects``): each top-level entry whose box meets the view sector is kept
  when its first ``parentReceptacles`` entry is a non-Floor object that is not openable, or openable
  with a truthy ``openness`` (the parent's top-level entry is read: opening it shows its contents);
  an entry without such a parent is kept, and unless it is a closed container, **its entry is
  replaced by each of its children in turn, so the last child stands in for it**
  (*last-child*: a counter top with things on it is never named; its last child is, wherever it lies).
* The text (``get_observation``): front, left and right groups by the X-lines rule;
  ``a <name>; `` per object (right group: ``a <name>, ``), followed by its children when it is not a
  closed container: ``<c1>,<c2> in/on it. `` (front), ``... in/on it.`` (left, no space),
  ``<c1>, a <c2> in/on it. `` (right); nothing is de-duplicated and nothing stripped.
* After ``open``: ``In/on it you see <c1>, a <c2>`` or ``In/on it you see nothing`` (the opened top-level
  entry's direct children, no full stop).
"""

from __future__ import annotations

from plancheck.domains.langsuite.engine.actions import Profile
from plancheck.domains.langsuite.engine.agent import AgentConfig, Pose
from plancheck.domains.langsuite.engine.observe import FRONT, LEFT, NOTHING_HIGH, NOTHING_LOW, RIGHT, sector, sides
from plancheck.domains.langsuite.engine.scene import Scene


def top_level(scene: Scene) -> dict[str, int]:
    """Object id -> its top-level entry."""
    return {scene.nodes[r].id: r for r in scene.roots}


def iqa_observed(scene: Scene, pose: Pose, config: AgentConfig) -> dict[str, int]:
    cone = sector(pose, config)
    nodes = scene.nodes
    entries = top_level(scene)
    seen: dict[str, int] = {}
    for root in scene.roots:
        thing = nodes[root]
        if not cone.hits(thing.rect):
            continue
        parent = thing.first_parent
        if parent and "Floor" not in parent:
            holder = nodes[entries[parent]] if parent in entries else None
            if holder is None:
                raise KeyError(parent)  # LangSuitE's world.objects[parent_id] raises here
            if (holder.openable and holder.openness) or not holder.openable:
                seen[thing.id] = root
            continue
        seen[thing.id] = root
        if thing.openable and not thing.is_open:
            continue
        for child in thing.children:
            seen[thing.id] = child
    return seen


def _closed(scene: Scene, node: int) -> bool:
    thing = scene.nodes[node]
    return thing.openable and not thing.openness


def _group(scene: Scene, side: str, members: list[int]) -> str:
    if not members:
        return ""
    names, nodes = scene.names, scene.nodes
    text = {FRONT: "In front of you, You see ", LEFT: "On your left, you see ", RIGHT: "On your right, you see "}[side]
    for node in members:
        thing = nodes[node]
        text += "a " + names[thing.id] + ("; " if side != RIGHT else ", ")
        if _closed(scene, node) or not thing.children:
            continue
        children = [names[nodes[c].id] for c in thing.children]
        if side == FRONT:
            text += ",".join(children) + " in/on it. "
        elif side == LEFT:
            text += ",".join(children) + " in/on it."
        else:
            text += ", a ".join(children) + " in/on it. "
    return text


def iqa_observation(scene: Scene, pose: Pose, config: AgentConfig, high_level: bool = False,
                    seen: dict[str, int] | None = None) -> str:
    if seen is None:
        seen = iqa_observed(scene, pose, config)
    groups = sides(scene, pose, config, seen.values())
    text = "".join(_group(scene, side, groups[side]) for side in (FRONT, LEFT, RIGHT))
    if not text:
        return NOTHING_HIGH if high_level else NOTHING_LOW
    return text


def iqa_opened(scene: Scene, object_id: str) -> str:
    entry = top_level(scene).get(object_id)
    children = [scene.names[scene.nodes[c].id] for c in scene.nodes[entry].children] if entry is not None else []
    return "In/on it you see " + (", a ".join(children) if children else "nothing")


IQA = Profile("iqa", iqa_observed, iqa_observation, iqa_opened)
