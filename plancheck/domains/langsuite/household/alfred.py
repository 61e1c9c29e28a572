"""A Household task as an ALFRED-domain problem (alfworld's ``alfred.pddl`` and goal library), and plans across.

alfworld (MIT) ships ALFRED's PDDL domain (``alfworld/data/alfred.pddl``) and a PDDL goal template per
task type (``alfworld/gen/goal_library.py``); both are shipped verbatim in ``alfworld.json.gz``
(:mod:`plancheck.domains.langsuite.alfworld_data`). This module writes, for one of our tasks:

* the **domain**: ``alfred.pddl`` with two repairs, each a literal text replacement listed in a
  comment at its top (:data:`REPAIRS`): the comma in ``(exists (?l - location, ?r - receptacle)`` of
  ``examineObject`` is dropped, and the type names the actions use as constants (``SinkBasinType``,
  ``MicrowaveType``, ``FridgeType``, ``KnifeType``, ``ButterKnifeType``) are declared in a
  ``:constants`` section. Fast Downward refuses the verbatim file ("Undefined object sinkbasintype"),
  plancheck's reader the comma;
* the **problem** at alfworld's receptacle level, from our regenerated start scene, as alfworld's
  ``PlannedGameState.state_to_pddl`` lays one out (the metric after the goal, where Fast Downward wants
  it): ``agent1``; the static receptacles (ALFRED's
  ``RECEPTACLES`` less the movable ones) with one location each (``loc_<name>``) and the agent at
  ``loc_start``; every pickupable or toggleable object of ALFRED's vocabulary, ``inReceptacle`` and
  ``objectAtLocation`` of its nearest static receptacle (and ``inReceptacleObject`` of a movable receptacle
  holding it; an object no static receptacle holds, on the floor or in a Sink's frame, is ``objectAtLocation`` a
  location of its own, ``loc_<name>``, in no receptacle, as alfworld's state places it: no action reaches it,
  :meth:`AlfredProblem.unplaced` names why); ``openable`` by ALFRED's
  ``OPENABLE_CLASS_LIST`` and ``opened``, ``pickupable``, ``isReceptacleObject``, ``cleanable``/``heatable``/
  ``coolable``/``sliceable`` by ``VAL_ACTION_OBJECTS``, ``toggleable``/``isOn`` by the scene,
  ``canContain`` by ``VAL_RECEPTACLE_OBJECTS``; every type of the vocabulary as ``<T>Type``;
* the **goal**: the task type's template (``_slice`` for sliced tasks) filled with the task's
  parameters, ``#`` read as ``-`` (alfworld's ``fix_pddl_str_chars``).

Objects and receptacles are named by LangSuitE's display names (``fridge_0``), so plans read across.
:func:`from_reference` maps one of our plans onto the ALFRED domain (:func:`.alfred_replies.to_replies` one of
ALFRED's plans onto LangSuitE's high-level replies); what each cannot express is named.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property

from plancheck.domains.langsuite.alfworld_tables import tables
from plancheck.domains.langsuite.engine.actions import Act, WorldState
from plancheck.domains.langsuite.engine.scene import Scene
from plancheck.domains.langsuite.household.goals import Registries, after_step
from plancheck.domains.langsuite.household.problem import base_id
from plancheck.domains.langsuite.household.rules import Task

DOMAIN_FILE = "alfred.pddl"
CONSTANTS = ("SinkBasinType MicrowaveType FridgeType - rtype", "KnifeType ButterKnifeType - otype")
REPAIRS = (
    ("(?l - location, ?r - receptacle)", "(?l - location ?r - receptacle)",
     "examineObject's quantifier: the comma after 'location' dropped (no PDDL name holds a comma)"),
    ("  otype\n  )\n", "  otype\n  )\n (:constants\n  " + "\n  ".join(CONSTANTS) + "\n )\n",
     "the type names CleanObject, HeatObject, CoolObject and SliceObject use declared as :constants"),
)
KNIVES = ("Knife", "ButterKnife")  # SliceObject's knife types
WORKER = {"pick_heat_then_place_in_recep": ("HeatObject", "heated"),
          "pick_cool_then_place_in_recep": ("CoolObject", "cooled"),
          "pick_clean_then_place_in_recep": ("CleanObject", "cleaned")}


def domain_text() -> str:
    """``alfred.pddl`` with the :data:`REPAIRS` (each must apply exactly once) and a header naming them."""
    text = tables()["alfred_pddl"]
    for old, new, _ in REPAIRS:
        if text.count(old) != 1:
            raise ValueError(f"alfred.pddl: the repair of {old!r} does not apply exactly once")
        text = text.replace(old, new)
    header = ";; alfworld 0.4.2's alfred.pddl (MIT, see LICENSE-alfworld), repaired by plancheck:\n" + \
        "".join(f";;  - {why}\n" for _, _, why in REPAIRS)
    return header + text


def goal_name(task_type: str, sliced: bool) -> str:
    return task_type + ("_slice" if sliced else "")


def goal_text(params: dict, task_type: str) -> str:
    """alfworld's goal template for the task filled in (``get_goal_pddl``), ``#`` as ``-``, without the ``)``
    that closes alfworld's problem (the metric comes after the goal)."""
    template = tables()["goal_pddl"][goal_name(task_type, params["object_sliced"])]
    text = template.format(obj=params["object_target"], recep=params["parent_target"],
                           toggle=params["toggle_target"], mrecep=params["mrecep_target"]).rstrip()
    if not text.endswith(")"):
        raise ValueError(f"goal template {goal_name(task_type, params['object_sliced'])} does not end with ')'")
    return text[:-1].replace("#", "-").rstrip()


@dataclass
class AlfredProblem:
    """One task's ALFRED problem: the scene's receptacles and objects by display name."""

    task: Task
    notes: list[str] = field(default_factory=list)

    @cached_property
    def vocabulary(self) -> tuple[frozenset[str], frozenset[str]]:
        """(object types, static receptacle types) as alfworld declares them."""
        t = tables()
        statics = frozenset(t["RECEPTACLES"]) - frozenset(t["MOVABLE_RECEPTACLES"])
        return (frozenset(t["OBJECTS"]) | frozenset(t["MOVABLE_RECEPTACLES"])) - statics, statics

    @property
    def scene(self) -> Scene:
        return self.task.scene

    def name(self, oid: str) -> str:
        return self.scene.names[oid]

    @cached_property
    def receptacles(self) -> dict[str, str]:
        """Static receptacle name -> object type."""
        _, statics = self.vocabulary
        return {self.name(t.id): t.object_type for t in self._things() if t.object_type in statics}

    @cached_property
    def objects(self) -> dict[str, str]:
        """Object name -> object type: what ALFRED's actions act on (pickupable or toggleable objects of its
        vocabulary that are no static receptacle)."""
        otypes, _ = self.vocabulary
        return {self.name(t.id): t.object_type for t in self._things()
                if t.object_type in otypes and (t.pickupable or t.toggleable)}

    def _things(self) -> Iterator:
        seen: set[str] = set()
        for root in self.scene.roots:
            for node in [root] + self.scene.descendants(root):
                thing = self.scene.nodes[node]
                if thing.id not in seen:
                    seen.add(thing.id)
                    yield thing

    def container(self, scene: Scene, name: str) -> tuple[str | None, str | None]:
        """(nearest static receptacle, nearest movable receptacle below it) holding the named object now: of the
        instance LangSuitE acts on (``Scene.find``; an object listed under two parents is two instances)."""
        node = scene.find(scene.names.ids[name])
        parent = {c: n for n in scene.nodes for c in scene.nodes[n].children}
        recep = movable = None
        while node in parent:
            node = parent[node]
            thing = scene.nodes[node]
            if scene.names[thing.id] in self.receptacles:
                recep = scene.names[thing.id]
                break
            if movable is None and thing.object_type in tables()["MOVABLE_RECEPTACLES"]:
                movable = scene.names[thing.id]
        return recep, movable

    def text(self, name: str) -> str:
        """The problem as PDDL (deterministic: sorted sections)."""
        t = tables()
        otypes, statics = self.vocabulary
        constants = {w for c in CONSTANTS for w in c.split()[:-2]}
        things = {thing.id: thing for thing in self._things()}
        objs, receps = self.objects, self.receptacles
        lines_obj = ["agent1 - agent"] + [f"{o} - object" for o in sorted(objs)] + \
            [f"{r} - receptacle" for r in sorted(receps)] + \
            ["loc_start - location"] + [f"loc_{r} - location" for r in sorted(receps)] + \
            [f"loc_{o} - location" for o in sorted(objs) if self.container(self.scene, o)[0] is None] + \
            [f"{ty}Type - otype" for ty in sorted(otypes) if f"{ty}Type" not in constants] + \
            [f"{ty}Type - rtype" for ty in sorted(statics) if f"{ty}Type" not in constants]
        init = ["(= (total-cost) 0)", "(atLocation agent1 loc_start)"]
        for r, ty in sorted(receps.items()):
            thing = things[self.scene.names.ids[r]]
            init += [f"(receptacleAtLocation {r} loc_{r})", f"(receptacleType {r} {ty}Type)"]
            if ty in t["OPENABLE_CLASS_LIST"]:
                init.append(f"(openable {r})")
                if thing.is_open:
                    init.append(f"(opened {r})")
        action_objects = t["VAL_ACTION_OBJECTS"]
        for o, ty in sorted(objs.items()):
            thing = things[self.scene.names.ids[o]]
            init.append(f"(objectType {o} {ty}Type)")
            if thing.pickupable:
                init.append(f"(pickupable {o})")
            if ty in t["MOVABLE_RECEPTACLES"]:
                init.append(f"(isReceptacleObject {o})")
            for prop, pred in (("Cleanable", "cleanable"), ("Heatable", "heatable"), ("Coolable", "coolable"),
                               ("Sliceable", "sliceable")):
                if ty in action_objects[prop]:
                    init.append(f"({pred} {o})")
            if thing.toggleable:
                init.append(f"(toggleable {o})")
                if thing.is_toggled:
                    init.append(f"(isOn {o})")
            recep, movable = self.container(self.scene, o)
            if recep is not None:
                init += [f"(inReceptacle {o} {recep})", f"(objectAtLocation {o} loc_{recep})"]
            else:  # alfworld's state: objectAtLocation its own place, in no receptacle (no action reaches it)
                init.append(f"(objectAtLocation {o} loc_{o})")
                if o not in self.notes:
                    self.notes.append(o)
            if movable is not None:
                init.append(f"(inReceptacleObject {o} {movable})")
        holds = t["VAL_RECEPTACLE_OBJECTS"]
        for rty in sorted(set(receps.values())):
            init += [f"(canContain {rty}Type {oty}Type)" for oty in sorted(holds.get(rty, ())) if oty in otypes]
        return (f"(define (problem {name})\n (:domain alfred)\n (:objects\n  " + "\n  ".join(lines_obj) +
                "\n )\n (:init\n  " + "\n  ".join(init) + "\n )\n" +
                goal_text(self.task.task.pddl_params, self.task.task.task_type) +
                "\n (:metric minimize (total-cost))\n)\n")

    @property
    def on_no_receptacle(self) -> list[str]:
        """Objects of the vocabulary no static receptacle holds (a floor lamp, a box on the floor): ALFRED's
        actions cannot reach them (every object action needs ``inReceptacle``)."""
        return list(self.notes)

    def unplaced(self, scene: Scene, name: str) -> str:
        """Why ALFRED has no receptacle for the named object: what the scene's metadata says holds it."""
        node = scene.find(scene.names.ids[name])
        parent = {c: n for n in scene.nodes for c in scene.nodes[n].children}
        kinds = []
        while node in parent:
            node = parent[node]
            kinds.append(scene.nodes[node].object_type)
        if kinds and kinds[-1] in ("Sink", "Bathtub"):
            return f"in a {kinds[-1]}, the basin's frame (ALFRED's receptacle is its {kinds[-1]}Basin)"
        if kinds:
            return f"on a {kinds[-1]}, which ALFRED's receptacle table lacks"
        if scene.thing(scene.names.ids[name]).first_parent is None:
            return "its metadata names no parent (ALFRED places it in no receptacle)"
        return "on the floor (ALFRED's receptacle table has no Floor)"


def export(task: Task, instance_id: str) -> dict[str, str]:
    problem = AlfredProblem(task)
    return {DOMAIN_FILE: domain_text(),
            f"{instance_id}.alfred.pddl": problem.text(f"alfred-{instance_id.lower()}")}


# -- our plans onto the ALFRED domain -------------------------------------------------------------------


@dataclass(frozen=True)
class Mapped:
    """One of our plans as ALFRED steps; ``gap`` names the first action ALFRED cannot express (then the steps
    stop there); ``added_opens`` counts the OpenObject steps ALFRED needs where LangSuitE does not."""

    steps: tuple[str, ...]
    gap: str | None = None
    added_opens: int = 0
    dropped: tuple[str, ...] = ()
    nested: tuple[str, ...] = ()  # "<object> in <receptacle> in <receptacle>": the end state's nesting
    substituted: tuple[str, ...] = ()  # "<object> is a <type>": picked up, but not of the task's types
    knives: tuple[str, ...] = ()  # the knife ALFRED's plan takes (and puts back) for each slice of ours


def from_reference(task: Task, acts: Sequence[Act]) -> Mapped:
    """Our (low-level) plan as ALFRED steps: moves and turns dropped, a ``GotoLocation`` to the receptacle of
    each manipulation, ``toggle_on`` of a heater dropped (ALFRED heats without power), and after picking an
    object out of the heater / fridge / basin that changed it (LangSuitE's registry), ALFRED's
    ``HeatObject`` / ``CoolObject`` / ``CleanObject`` there; ``OpenObject`` is added before a put into or a
    pick from a closed openable receptacle (LangSuitE's ``put`` ignores openness), ``open`` of a receptacle ALFRED
    does not count as openable (a toilet) is dropped, and a look-at plan ends with a ``GotoLocation`` to the lit
    lamp's receptacle (LangSuitE's ``stop`` must see the lamp, ALFRED's goal puts the agent at its location).
    An object is picked from where ALFRED's state has it (our plan may take a second instance of an object
    listed under two parents). Before each ``slice`` (LangSuitE's needs no knife) ALFRED's agent takes a knife from
    where ALFRED's state has one (beside the sliced object first), slices, and puts the knife back; a sliced piece
    picked up is its object (ALFRED slices in place)."""
    problem = AlfredProblem(task)
    engine = task.engine
    world = task.initial().world
    registries = Registries()
    at = "loc_start"
    opened = {r for r in problem.receptacles if world.scene.thing(world.scene.names.ids[r]).is_open}
    steps: list[str] = []
    dropped: list[str] = []
    added = 0
    worker = WORKER.get(task.task.task_type)
    names = world.scene.names

    def goto(r: str) -> None:
        nonlocal at
        if at != f"loc_{r}":
            steps.append(f"(gotolocation agent1 {at} loc_{r} {r})")
            at = f"loc_{r}"

    def open_if_closed(r: str) -> None:
        nonlocal added
        if problem.receptacles[r] in tables()["OPENABLE_CLASS_LIST"] and r not in opened:
            steps.append(f"(openobject agent1 {at} {r})")
            opened.add(r)
            added += 1

    def gap(why: str) -> Mapped:
        return Mapped(tuple(steps), why, added, tuple(dropped), (), tuple(others), tuple(knife_steps))

    lamp = None
    held: str | None = None  # what ALFRED's agent holds
    knife_steps: list[str] = []  # the knife taken for each slice (ALFRED needs one held, LangSuitE does not)
    others: list[str] = []
    place: dict[str, str | None] = {}  # where ALFRED's state has each object our plan moved
    for act in acts:
        scene = world.scene
        if act.name in ("PickUp", "Put", "Open", "ToggleOn", "Slice"):
            o = names[base_id(act.object_id)]  # a sliced piece is its object in ALFRED (isSliced)
            if act.name == "PickUp":
                kind, wanted = scene.thing(base_id(act.object_id)).object_type, problem.task.task.pddl_params
                if kind not in (wanted["object_target"], wanted["mrecep_target"]):
                    others.append(f"{o} is a {kind}")  # LangSuitE matches object ids by substring
                recep = place[o] if o in place else problem.container(scene, o)[0]
                if recep is None:
                    return gap(f"pick_up [{o}]: {problem.unplaced(scene, o)}")
                place[o] = None
                goto(recep)
                open_if_closed(recep)
                steps.append(f"(pickupobject agent1 loc_{recep} {o} {recep})")
                held = o
                if worker is not None and act.object_id in getattr(registries, worker[1]):
                    steps.append(f"({worker[0].lower()} agent1 loc_{recep} {recep} {o})")
            elif act.name == "Put":
                r = names[act.receptacle_id]
                if r not in problem.receptacles:
                    kind = scene.thing(act.receptacle_id).object_type
                    if kind in tables()["MOVABLE_RECEPTACLES"]:
                        return gap(f"put [{o}, {r}]: into a receptacle object ({kind}; alfred.pddl's actions for "
                                   "those are commented out)")
                    return gap(f"put [{o}, {r}]: a {kind} is no receptacle in ALFRED's table")
                wanted = problem.task.task.pddl_params["parent_target"]
                if wanted and wanted in act.receptacle_id and problem.receptacles[r] != wanted:
                    others.append(f"{r} is a {problem.receptacles[r]}")  # LangSuitE matches receptacles by substring
                goto(r)
                open_if_closed(r)
                types = f"{problem.objects[o]}Type {problem.receptacles[r]}Type"
                steps.append(f"(putobject agent1 loc_{r} {o} {r} {types})")
                place[o], held = r, None
            elif act.name == "Open":
                if o not in problem.receptacles:
                    return gap(f"open [{o}]: not a static receptacle")
                if problem.receptacles[o] not in tables()["OPENABLE_CLASS_LIST"]:
                    dropped.append(f"open [{o}]")  # a toilet's lid: AI2-THOR 3 hides what it holds, ALFRED does not
                elif o not in opened:
                    goto(o)
                    steps.append(f"(openobject agent1 loc_{o} {o})")
                    opened.add(o)
            elif act.name == "ToggleOn":
                if o in problem.receptacles:
                    dropped.append(f"toggle_on [{o}]")  # a heater's power: ALFRED's HeatObject needs none
                else:
                    recep, _ = problem.container(scene, o)
                    if recep is None:
                        return gap(f"toggle_on [{o}]: {problem.unplaced(scene, o)}")
                    goto(recep)
                    steps.append(f"(toggleobject agent1 loc_{recep} {o} {recep})")
                    lamp = recep
                    kind = scene.thing(act.object_id).object_type
                    if kind != problem.task.task.toggle_target:
                        others.append(f"{o} is a {kind} (LangSuitE counts any lit lamp in view)")
            else:
                r = place[o] if o in place else problem.container(scene, o)[0]
                if r is None:
                    return gap(f"slice [{o}]: {problem.unplaced(scene, o)}")
                if held is not None:
                    return gap(f"slice [{o}]: LangSuitE slices holding {held}, ALFRED's SliceObject needs a knife "
                               "held")
                knives = sorted((k_r != r, k) for k, k_r in
                                ((k, place[k] if k in place else problem.container(scene, k)[0])
                                 for k, kind in problem.objects.items() if kind in KNIVES) if k_r is not None)
                if not knives:
                    return gap(f"slice [{o}]: LangSuitE slices without a knife, ALFRED's SliceObject needs one held "
                               "and no knife lies in a receptacle ALFRED knows")
                knife = knives[0][1]
                k_r = place[knife] if knife in place else problem.container(scene, knife)[0]
                goto(k_r)  # ALFRED's SliceObject needs a knife held: take one, slice, put it back
                open_if_closed(k_r)
                steps.append(f"(pickupobject agent1 loc_{k_r} {knife} {k_r})")
                goto(r)
                steps.append(f"(sliceobject agent1 loc_{r} {o} {knife})")
                goto(k_r)
                kinds = f"{problem.objects[knife]}Type {problem.receptacles[k_r]}Type"
                steps.append(f"(putobject agent1 loc_{k_r} {knife} {k_r} {kinds})")
                place[knife] = k_r
                knife_steps.append(knife)
        result = engine.execute(WorldState(scene, world.pose, world.inventory), act)
        if not result.success or result.crash:
            return gap(f"{act}: refused by our engine")
        scene, registries = after_step(result.state.scene, registries)
        world = replace(result.state, scene=scene)
    if lamp is not None:
        goto(lamp)  # LangSuitE's stop sees the lit lamp; ALFRED's goal: at its receptacle's location
    return Mapped(tuple(steps), None, added, tuple(dropped), tuple(_nesting(problem, world.scene)), tuple(others),
                  tuple(knife_steps))


def _nesting(problem: AlfredProblem, scene: Scene) -> Iterator[str]:
    """Objects of the task's type that end in a static receptacle standing in another one (LangSuitE's goal
    counts the whole subtree, ALFRED's ``inReceptacle`` only the nearest receptacle)."""
    target = problem.task.task.object_target

    def walk(node: int, chain: tuple[str, ...]) -> Iterator[str]:
        thing = scene.nodes[node]
        name = scene.names[thing.id]
        if name in problem.receptacles:
            chain = (name,) + chain
        elif thing.object_type == target and len(chain) > 1:
            yield f"{name} in " + " in ".join(chain)
        for child in thing.children:
            yield from walk(child, chain)

    for root in scene.roots:
        yield from walk(root, ())
