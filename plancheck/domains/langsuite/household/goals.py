"""LangSuitE's ALFRED goal conditions and per-step physics (``dev:envs/alfred/alfred_task.py``, ``alfred_env.py``).

Each task type counts satisfied conditions ``s`` out of ``ts`` (``*_conditions_met``); success is
``s == ts`` and the goal-condition score ``s / ts`` (rounded to 4 places), computed after every step.
Quirks kept:

* *substring*: objects are matched by ``name in objectId`` (a ``Knife`` task accepts butter knives, a
  ``Pen`` task pencils, ``Pot`` matches ``Potato`` ids), over the roots and every subtree, so an
  instance that is both a root and a child (after ``put``) counts twice;
* ``get_child`` searches the whole subtree: an apple in a bowl in the fridge is "in" the fridge;
* sliced: ``"Sliced" in objectId`` for any matching object (the ten pieces of ``slice``);
* *lamp-count*: ``look_at_obj_in_light`` adds one for every name with "lamp" in the observation text
  whose object is on, so two lit lamps in view make ``s = 3 != ts = 2`` (no success);
* the registries: after every step (``update_object_props_after_action``), every descendant of a
  **root** Sink, SinkBasin, Bathtub or BathtubBasin that is ``dirtyable`` is cleaned, every
  descendant of a root Toaster, StoveBurner or Microwave that is on is heated, every descendant of a
  root Fridge (open or not) is cooled; objects stay registered. A heater on a counter is not a root,
  until something is ``put`` in it (*put-root*); an apple is not ``dirtyable``, so it is never cleaned
  (*dirtyable-only*).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from plancheck.domains.langsuite.engine.scene import Scene, Thing

BASINS = ("Sink", "SinkBasin", "Bathtub", "BathtubBasin")
HEATERS = ("Toaster", "StoveBurner", "Microwave")


@dataclass(frozen=True)
class Registries:
    """The environment's ``cleaned_objects``, ``heated_objects`` and ``cooled_objects`` (object ids)."""

    cleaned: frozenset[str] = frozenset()
    heated: frozenset[str] = frozenset()
    cooled: frozenset[str] = frozenset()


def after_step(scene: Scene, registries: Registries) -> tuple[Scene, Registries]:
    """``update_object_props_after_action``: the registries grow; cleaned objects lose ``isDirty``."""
    cleaned, heated, cooled = set(registries.cleaned), set(registries.heated), set(registries.cooled)
    nodes = dict(scene.nodes)
    for root in scene.roots:
        thing = scene.nodes[root]
        below = scene.descendants(root)
        if thing.object_type in BASINS:
            for child in below:
                if nodes[child].dirtyable:
                    nodes[child] = replace(nodes[child], is_dirty=False)
                    cleaned.add(nodes[child].id)
        if thing.object_type in HEATERS and thing.is_toggled:
            heated.update(scene.nodes[c].id for c in below)
        if thing.object_type == "Fridge":
            cooled.update(scene.nodes[c].id for c in below)
    return replace(scene, nodes=nodes), Registries(frozenset(cleaned), frozenset(heated), frozenset(cooled))


def matching(scene: Scene, name: str, prop: str) -> list[int]:
    """``get_objects_with_name_and_prop``: roots and their subtrees, ``name in objectId`` and the property."""
    out = []
    for root in scene.roots:
        for node in [root] + scene.descendants(root):
            thing = scene.nodes[node]
            if name in thing.id and getattr(thing, prop):
                out.append(node)
    return out


def has_child(scene: Scene, node: int, object_id: str) -> bool:
    """``get_child`` found something: the id among the node's descendants."""
    return any(scene.nodes[c].id == object_id for c in scene.descendants(node))


@dataclass(frozen=True)
class Progress:
    """``(s, ts)`` of one state."""

    satisfied: int
    total: int

    @property
    def success(self) -> bool:
        return self.satisfied == self.total

    @property
    def score(self) -> float:
        """``conditioned_success``: ``round(s / ts, 4)``."""
        return round(self.satisfied / self.total, 4)


_NAMES = re.compile(r"\b(\w+_\d+)\b")


def progress(params: dict, task_type: str, scene: Scene, inventory: Sequence[int], registries: Registries,
             observation: str) -> Progress:
    """The task type's ``*_conditions_met`` on a state (``observation``: the text at the agent's pose)."""
    obj, parent = params["object_target"], params["parent_target"]
    if task_type == "look_at_obj_in_light":
        s = int(any(scene.nodes[n].id.split("|")[0] == obj for n in inventory))
        for name in _NAMES.findall(observation):
            if "lamp" in name:
                lamp = scene.find(scene.names.ids[name])
                if lamp is not None and scene.nodes[lamp].is_toggled:
                    s += 1
        return Progress(s, 2)
    receptacles = matching(scene, parent, "receptacle")
    pickupables = matching(scene, obj, "pickupable")
    sliced = sum(1 for p in pickupables if "Sliced" in scene.nodes[p].id)
    ids = [scene.nodes[p].id for p in pickupables]
    if task_type == "pick_two_obj_and_place":
        s = min(sliced, 2) if params["object_sliced"] else 0
        if not receptacles:
            raise ValueError("np.max of an empty list")  # LangSuitE's evaluation raises
        s += min(max(sum(1 for oid in ids if has_child(scene, r, oid)) for r in receptacles), 2)
        return Progress(s, 4 if params["object_sliced"] else 2)
    base = {"pick_and_place_simple": 1, "pick_and_place_with_movable_recep": 3}.get(task_type, 3)
    s = int(params["object_sliced"] and sliced >= 1)
    total = base + int(bool(params["object_sliced"]))
    in_place = [oid for oid in ids for r in receptacles if has_child(scene, r, oid)]
    if task_type == "pick_and_place_simple":
        return Progress(s + int(bool(in_place)), total)
    if task_type == "pick_and_place_with_movable_recep":
        movables = matching(scene, params["mrecep_target"], "pickupable")
        holding = [m for oid in ids for m in movables if has_child(scene, m, oid)]
        placed = [m for m in movables for r in receptacles if has_child(scene, r, scene.nodes[m].id)]
        both = [r for m in holding for r in receptacles if has_child(scene, r, scene.nodes[m].id)]
        return Progress(s + int(bool(holding)) + int(bool(placed)) + int(bool(both)), total)
    registry = {"pick_heat_then_place_in_recep": registries.heated, "pick_cool_then_place_in_recep": registries.cooled,
                "pick_clean_then_place_in_recep": registries.cleaned}[task_type]
    done = [oid for oid in ids if oid in registry]
    return Progress(s + int(bool(in_place)) + int(bool(done)) + int(any(o in done for o in in_place)), total)


def conditions_at_start(task) -> bool:
    """Whether the task's goal already holds before any action (such a draw is drawn again)."""
    from plancheck.domains.langsuite.household.rules import Task

    t = Task(task)
    state = t.initial().world
    return progress(task.pddl_params, task.task_type, state.scene, (), Registries(),
                    t.engine.observation(state)).success


__all__ = ["Progress", "Registries", "Thing", "after_step", "conditions_at_start", "has_child", "matching", "progress"]
