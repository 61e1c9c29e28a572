"""The household actions of LangSuitE's engine (``dev:langsuite/actions/simple_actions.py``), quirks kept.

ALFRED's actions beyond Rearrangement's, in LangSuitE's order of checks:

* ``ToggleOn`` / ``ToggleOff [o]``: ``o`` given, existing, observed, ``toggleable``; no "already on" check.
  A non-toggleable object under ``toggle_off`` asks for a template key the files lack
  (``failure.notToggleable``), so the feedback is empty (*silent-toggle-off*).
* ``Slice [o]``: observed, ``sliceable`` and not yet sliced; **no knife is needed**. Ten copies of the
  object (its subtree included) become roots with ids ``<id>|<Category>Sliced_<i>`` and names
  ``<category>|sliced_<i>``; the object itself stays (``isSliced``).
* ``Put [o, r]``: ``o`` held, ``r`` existing and observed; no type, openness or capacity check. The
  object joins ``r``'s children (its position becomes ``r``'s, its box stays where it was), and ``r``
  becomes a root as well (``world.objects[r] = r``; *put-root*: a receptacle that sat in another is
  now both). Putting an object that holds others raises AttributeError (``self.cleaned_objects``).
* ``Heat`` / ``Cool`` / ``Clean [o, r]``: like ``Put`` with a type check on ``r`` (Toaster, StoveBurner,
  Microwave / Fridge / Sink, SinkBasin, Bathtub, BathtubBasin); after moving the object they write to
  registries that exist only on the environment, so LangSuitE's code **always raises AttributeError**
  (*registry-crash*).
* ``Inspect [o]``: observed; the text of ``get_obj_description`` (every object has the ``isDirty`` and
  ``toggleable`` keys, so a plain object reads "<name> is clean." and its other branches never fire).
"""

from __future__ import annotations

from dataclasses import replace

from plancheck.domains.langsuite.engine import observe
from plancheck.domains.langsuite.engine.actions import HANDLERS, Act, Engine, Result, WorldState
from plancheck.domains.langsuite.engine.scene import Names, Scene, Thing

HEATERS = ("Toaster", "StoveBurner", "Microwave")
COOLERS = ("Fridge",)
BASINS = ("Sink", "SinkBasin", "Bathtub", "BathtubBasin")
SLICES = 10


def _observation(engine: Engine, state: WorldState) -> str:
    return engine.observation(state)


def _not_provided(engine: Engine, state: WorldState) -> Result:
    return engine._say(state, False, "InvalidAction", "failure.objectNotProvide",
                       observation=_observation(engine, state))


def _seen(engine: Engine, state: WorldState, oid: str) -> bool:
    return oid in engine._observed(state)


def _not_in_view(engine: Engine, state: WorldState, oid: str) -> Result:
    return engine._say(state, False, "InvalidAction", "failure.objectNotInView",
                       max_view_steps=engine.config.max_view_steps, object=state.scene.names[oid],
                       observation=_observation(engine, state))


def _toggle(engine: Engine, state: WorldState, act: Act) -> Result:
    on = act.name == "ToggleOn"
    oid = act.object_id
    if oid is None:
        return _not_provided(engine, state)
    scene = state.scene
    if scene.find(oid) is None:
        if on:
            return engine._say(state, False, "InvalidAction", "failure.objectNotExist",
                               object=scene.names.of.get(oid) or oid, observation=_observation(engine, state))
        return engine._say(state, False, "InvalidAction", "failure.objectNotExist", object=oid)
    if not _seen(engine, state, oid):
        return _not_in_view(engine, state, oid)
    node = scene.find(oid)
    thing, name = scene.nodes[node], scene.names[oid]
    if not thing.toggleable:
        return engine._say(state, False, act.name, "failure.notToggleable", object=name,
                           observation=_observation(engine, state))
    after = replace(state, scene=scene.with_node(node, replace(thing, is_toggled=on)))
    return engine._say(after, True, act.name, "success.default", object=name, observation=_observation(engine, after))


def _slice(engine: Engine, state: WorldState, act: Act) -> Result:
    oid = act.object_id
    if oid is None:
        return _not_provided(engine, state)
    scene = state.scene
    if scene.find(oid) is None:
        return engine._say(state, False, "InvalidAction", "failure.objectNotExist", object=oid)
    if not _seen(engine, state, oid):
        return _not_in_view(engine, state, oid)
    node = scene.find(oid)
    thing, name = scene.nodes[node], scene.names[oid]
    if not thing.sliceable:
        return engine._say(state, False, "Slice", "failure.notSliceable", object=name,
                           observation=_observation(engine, state))
    if thing.is_sliced:
        return engine._say(state, False, "Slice", "failure.objectIsSliced", object=name,
                           observation=_observation(engine, state))
    scene = scene.with_node(node, replace(thing, is_sliced=True))
    thing = scene.nodes[node]
    nodes, roots = dict(scene.nodes), list(scene.roots)
    of, ids = dict(scene.names.of), dict(scene.names.ids)
    for i in range(SLICES):
        piece_id = f"{thing.id}|{thing.category}Sliced_{i}"
        piece = _copy_tree(nodes, node, {"id": piece_id, "sliceable": False, "is_sliced": True,
                                         "object_type": "Sliced" + thing.object_type})
        roots.append(piece)
        piece_name = f"{thing.category}|Sliced_{i}".lower()
        of[piece_id], ids[piece_name] = piece_name, piece_id
    scene = Scene(nodes, tuple(roots), scene.room, Names(of, ids))
    after = replace(state, scene=scene)
    return engine._say(after, True, "Slice", "success.default", object=name, observation=_observation(engine, after))


def _copy_tree(nodes: dict[int, Thing], node: int, changes: dict) -> int:
    """A deep copy of an instance and its subtree as new nodes (``deepcopy``); ``changes`` apply to the top."""
    kids = tuple(_copy_tree(nodes, child, {}) for child in nodes[node].children)
    new = len(nodes)
    while new in nodes:
        new += 1
    nodes[new] = replace(nodes[node], children=kids, **changes)
    return new


def _held(state: WorldState, oid: str) -> int | None:
    return next((n for n in state.inventory if state.scene.nodes[n].id == oid), None)


_TYPE_CHECK = {"Heat": (HEATERS, "failure.notHeater"), "Cool": (COOLERS, "failure.notCooler"),
               "Clean": (BASINS, "failure.notBasin")}
_REGISTRY = {"Put": "cleaned_objects", "Heat": "heated_objects", "Cool": "cooled_objects", "Clean": "cleaned_objects"}


def _put(engine: Engine, state: WorldState, act: Act) -> Result:
    """``Put``, ``Heat``, ``Cool`` and ``Clean`` of ``act.object_id`` into ``act.receptacle_id``."""
    kind = act.name
    if act.object_id is None or act.receptacle_id is None:
        if kind == "Put":  # LangSuitE builds this one without an observation
            return engine._say(state, False, "InvalidAction", "failure.objectNotProvide")
        return _not_provided(engine, state)
    oid, rid = act.object_id, act.receptacle_id
    scene = state.scene
    name = scene.names[oid]
    held = _held(state, oid)
    if held is None:
        return engine._say(state, False, kind, "failure.NotInInventory", object=name,
                           observation=_observation(engine, state),
                           inventory=observe.inventory_text(scene, state.inventory))
    if scene.find(rid) is None:
        return engine._say(state, False, "InvalidAction", "failure.objectNotExist", object=rid,
                           observation=_observation(engine, state))
    rnode = scene.find(rid)
    receptacle, rname = scene.nodes[rnode], scene.names[rid]
    if kind in _TYPE_CHECK and receptacle.object_type not in _TYPE_CHECK[kind][0]:
        return engine._say(state, False, kind, _TYPE_CHECK[kind][1], object=name, receptacle=rname,
                           observation=_observation(engine, state))
    if not _seen(engine, state, rid):
        return engine._say(state, False, kind, "failure.notInView", receptacle=rname,
                           observation=_observation(engine, state))
    inventory = tuple(n for n in state.inventory if n != held)
    nodes = dict(scene.nodes)
    obj = replace(nodes[held], position=receptacle.position)
    if kind == "Cool":
        obj = replace(obj, temperature="Cold")
    nodes[held] = obj
    below = scene.descendants(held)
    crash = f"AttributeError: '{kind}Action' object has no attribute '{_REGISTRY[kind]}'"
    if below:  # LangSuitE moves the first descendant (heat/cool: sets its temperature), then raises
        first = nodes[below[0]]
        first = replace(first, position=receptacle.position)
        if kind in ("Heat", "Cool"):
            first = replace(first, temperature="Hot" if kind == "Heat" else "Cold")
        nodes[below[0]] = first
        broken = replace(state, scene=replace(scene, nodes=nodes), inventory=inventory)
        return Result(broken, False, "", (kind, "crash"), crash)
    same = [i for i, c in enumerate(receptacle.children) if nodes[c].id == oid]  # a dict keyed by id
    kids = receptacle.children + (held,) if not same else \
        receptacle.children[:same[0]] + (held,) + receptacle.children[same[0] + 1:]
    nodes[rnode] = replace(receptacle, children=kids)
    roots = scene.roots if rnode in scene.roots else scene.roots + (rnode,)
    after = replace(state, scene=replace(scene, nodes=nodes, roots=roots), inventory=inventory)
    if kind != "Put":
        return Result(after, False, "", (kind, "crash"), crash)
    return engine._say(after, True, "Put", "success.default", object=name, receptacle=rname,
                       observation=_observation(engine, after))


def describe_object(scene: Scene, thing: Thing) -> str:
    """``get_obj_description`` with AI2-THOR's keys all present (``isDirty`` and ``toggleable`` always are)."""
    name = scene.names[thing.id]
    temperature = {"Cold": "cool", "Hot": "hot"}.get(thing.temperature or "", "")
    dirty = "dirty" if thing.is_dirty else "clean"
    if thing.receptacle:
        if thing.openable and not thing.is_open:
            return name + " is closed. You can check it by opening it."
        if thing.children:
            return "In it, you see a " + ", a ".join(scene.names[scene.nodes[c].id] for c in thing.children) + "."
        return "In it, you see nothing."
    if temperature:
        return f"{name} is {temperature} and {dirty}."
    return f"{name} is {dirty}."


def _inspect(engine: Engine, state: WorldState, act: Act) -> Result:
    oid = act.object_id
    if oid is None:
        return _not_provided(engine, state)
    scene = state.scene
    if scene.find(oid) is None:
        return engine._say(state, False, "InvalidAction", "failure.objectNotExist", object=oid,
                           observation=_observation(engine, state))
    if not _seen(engine, state, oid):
        return _not_in_view(engine, state, oid)
    thing = scene.thing(oid)
    return engine._say(state, True, "Inspect", "success.default", object=scene.names[oid],
                       observation=describe_object(scene, thing))


HOUSEHOLD_HANDLERS = {**HANDLERS, "ToggleOn": _toggle, "ToggleOff": _toggle, "Slice": _slice, "Put": _put,
                      "Heat": _put, "Cool": _put, "Clean": _put, "Inspect": _inspect}
