"""Household (ALFRED) tasks on the 120 default floor plans, sampled as ALFRED's generator samples them.

LangSuitE's Household data (506 ALFRED trajectories replayed in AI2-THOR 2.1, with human-written
instructions) is not public. Here one task is drawn per floor plan and task type that ALFRED allows
in that kind of room (``GOALS_VALID``: 6 in kitchens, 4 in living rooms and bedrooms, 3 in
bathrooms), by the rules of alfworld's ``TaskGameState.setup_problem`` and ``get_filter_crit`` on the
default-state metadata, with ``random.Random("<floor plan>-<task type>")``:

* the object: a pickupable object whose type ALFRED knows, passing the type's filter (two of its
  type for ``pick_two``; not already in a sink basin / microwave / fridge and cleanable / heatable /
  coolable for the clean / heat / cool tasks; not a movable receptacle for the movable task);
* sliced: for a sliceable type, a coin flip (ALFRED's sliced variants, ``object_sliced``), which needs
  a knife in the room;
* the movable receptacle (``pick_and_place_with_movable_recep``): one of the room's bowls, cups, mugs,
  plates, pans, pots or boxes that can hold the object;
* the lamp (``look_at_obj_in_light``): a desk or floor lamp that is off;
* the receptacle: a static receptacle that can hold the object (or the movable receptacle), passing
  the type's filter (no receptacle of its type already holding an object of the type for
  ``pick_two`` and the movable task; not the sink basin / microwave / fridge that does the work);
* the instruction: one of alfworld's templates for the goal (``get_templated_task_desc``), lower-case;
* the start: a point of alfworld's reachable grid for the floor plan (AI2-THOR 2.1) that lies in no
  object's box, facing 0, 90, 180 or 270 degrees;
* the desk and floor lamps start off, as in ALFRED's scenes (the AI2-THOR 3 metadata has most of them
  on, which would leave ``look_at_obj_in_light`` no lamp to switch on).

A draw that finds nothing valid at some point (e.g. an object no movable receptacle can hold), or
whose goal already holds at the start (LangSuitE would report success before any action), is drawn
again, up to 20 times; a type with nothing valid in a floor plan gives no task there.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from typing import Any

from plancheck.domains.langsuite.alfworld_tables import tables
from plancheck.domains.langsuite.engine.scene import box_of
from plancheck.domains.langsuite.scenes import floor_plans, room_polygon, world_data
from plancheck.errors import BadInputError

TASK_TYPES = ("pick_and_place_simple", "pick_two_obj_and_place", "look_at_obj_in_light",
              "pick_clean_then_place_in_recep", "pick_heat_then_place_in_recep", "pick_cool_then_place_in_recep",
              "pick_and_place_with_movable_recep")
ROOM_TYPE = {1: "Kitchen", 2: "LivingRoom", 3: "Bedroom", 4: "Bathroom"}
DRAWS = 20
WORKERS = {"pick_clean_then_place_in_recep": ("SinkBasin", "Cleanable"),
           "pick_heat_then_place_in_recep": ("Microwave", "Heatable"),
           "pick_cool_then_place_in_recep": ("Fridge", "Coolable")}


def room_type(floor_plan: str) -> str:
    number = int(floor_plan[len("FloorPlan"):])
    return ROOM_TYPE[1 if number < 100 else number // 100]


@dataclass(frozen=True)
class HouseholdTask:
    """One Household task: the goal (ALFRED's ``pddl_params``), the instruction, the start."""

    id: str
    scene: str
    task_type: str
    object_target: str
    parent_target: str
    toggle_target: str
    mrecep_target: str
    object_sliced: bool
    description: str
    start: tuple[float, float, int]  # x, z, rotation

    @property
    def pddl_params(self) -> dict[str, Any]:
        return {"object_target": self.object_target, "parent_target": self.parent_target,
                "toggle_target": self.toggle_target, "mrecep_target": self.mrecep_target,
                "object_sliced": self.object_sliced}

    @cached_property
    def world_data(self) -> dict[str, Any]:
        """The scene as LangSuitE's ALFRED loader expects it (``floor_plan``, ``polys_2d``, ``objects`` with
        ``bbox`` and ``center`` from the axis-aligned box, ``init_action``)."""
        data = lamps_off(world_data(self.scene))
        for obj in data["objects"]:
            box = obj["axisAlignedBoundingBox"]
            obj["bbox"], obj["center"] = dict(box["size"]), dict(box["center"])
        x, z, rotation = self.start
        return {"floor_plan": self.scene, "polys_2d": room_polygon(self.scene), "objects": data["objects"],
                "init_action": {"action": "TeleportFull", "x": x, "z": z, "rotation": rotation, "horizon": 30}}

    def trajectory(self) -> dict[str, Any]:
        """The task as the parts of an ALFRED ``traj_data.json`` LangSuitE's loader reads."""
        return {"task_type": self.task_type, "scene": self.world_data, "pddl_params": self.pddl_params,
                "plan": {"low_actions": []}, "turk_annotations": {"anns": [{"task_desc": self.description}]}}


LAMPS = ("DeskLamp", "FloorLamp")


def lamps_off(data: dict[str, Any]) -> dict[str, Any]:
    """The scene with its desk and floor lamps off, as ALFRED's scenes (AI2-THOR 2.1) start; the AI2-THOR 3
    metadata has most of them on."""
    for obj in data["objects"]:
        if obj["objectType"] in LAMPS:
            obj["isToggled"] = False
    return data


def _sample(floor_plan: str, task_type: str, rng: random.Random) -> HouseholdTask | None:
    t = tables()
    objects = lamps_off(world_data(floor_plan))["objects"]
    known = set(t["OBJECTS"])
    movable = set(t["MOVABLE_RECEPTACLES"])
    holds = t["VAL_RECEPTACLE_OBJECTS"]
    of_type: dict[str, list[dict[str, Any]]] = {}
    for o in objects:
        of_type.setdefault(o["objectType"], []).append(o)

    def type_in(recep: str, cls: str) -> bool:  # is_obj_type_in_recep
        return any(o["objectType"] == cls and any(recep in p for p in (o["parentReceptacles"] or ()))
                   for o in objects)

    def any_holds(r: dict[str, Any], cls: str) -> bool:  # does_any_recep_type_have_obj_of_type
        return any(any(cls in c for c in (rr["receptacleObjectIds"] or ())) for rr in of_type[r["objectType"]])

    picks = [o for o in objects if o["pickupable"] and o["objectType"] in known]
    if task_type == "pick_two_obj_and_place":
        picks = [o for o in picks if len(of_type[o["objectType"]]) >= 2]
    elif task_type in WORKERS:
        worker, prop = WORKERS[task_type]
        picks = [o for o in picks if not type_in(worker, o["objectType"])
                 and o["objectType"] in t["VAL_ACTION_OBJECTS"][prop]]
    elif task_type == "pick_and_place_with_movable_recep":
        picks = [o for o in picks if o["objectType"] not in movable]
    if not picks:
        return None
    obj = rng.choice(picks)
    cls = obj["objectType"]
    sliced = cls in t["VAL_ACTION_OBJECTS"]["Sliceable"] and rng.random() < 0.5
    if sliced and not any("Knife" in o["objectType"] for o in objects):
        return None
    mrecep = toggle = recep = ""
    if task_type == "pick_and_place_with_movable_recep":
        cands = [o for o in objects if o["objectType"] in movable and cls in holds.get(o["objectType"], ())]
        if not cands:
            return None
        mrecep = rng.choice(cands)["objectType"]
    if task_type == "look_at_obj_in_light":
        lamps = [o for o in objects if o["toggleable"] and not o["isToggled"]
                 and o["objectType"] in t["VAL_ACTION_OBJECTS"]["Toggleable"]]
        if not lamps:
            return None
        toggle = rng.choice(lamps)["objectType"]
    else:
        target = mrecep or cls
        receps = [o for o in objects if o["receptacle"] and o["objectType"] in t["RECEPTACLES"]
                  and o["objectType"] not in movable and target in holds.get(o["objectType"], ())]
        if task_type == "pick_two_obj_and_place":
            receps = [r for r in receps if not any_holds(r, cls)]
        elif task_type in WORKERS:
            receps = [r for r in receps if r["objectType"] != WORKERS[task_type][0]]
        elif task_type == "pick_and_place_with_movable_recep":
            receps = [r for r in receps if not any_holds(r, mrecep)]
        if not receps:
            return None
        recep = rng.choice(receps)["objectType"]
    goal = task_type + ("_slice" if sliced else "")
    template = rng.choice(t["templates"][goal])
    description = template.format(obj=cls.lower(), recep=recep.lower(), toggle=toggle.lower(), mrecep=mrecep.lower())
    start = _start(floor_plan, rng)
    if start is None:
        return None
    return HouseholdTask(f"{floor_plan}-{task_type}", floor_plan, task_type, cls, recep, toggle, mrecep, sliced,
                         description, start)


def _start(floor_plan: str, rng: random.Random) -> tuple[float, float, int] | None:
    boxes = [box_of(o, "aabb-exact") for o in world_data(floor_plan)["objects"]
             if "Floor|" not in o["objectId"] and not [p for p in (o["parentReceptacles"] or ()) if "Floor|" not in p]]
    free = [(x, z) for x, z in tables()["layouts"].get(floor_plan, ())
            if not any(x0 <= x <= x1 and z0 <= z <= z1 for x0, z0, x1, z1 in boxes)]
    if not free:
        return None
    x, z = rng.choice(free)
    return x, z, rng.choice((0, 90, 180, 270))


@cache
def _tasks() -> dict[str, HouseholdTask]:
    out: dict[str, HouseholdTask] = {}
    for plan in floor_plans():
        for task_type in TASK_TYPES:
            found = _one(plan, task_type)
            if found is not None:
                out[found.id] = found
    return out


@cache
def _one(floor_plan: str, task_type: str) -> HouseholdTask | None:
    from plancheck.domains.langsuite.household.goals import conditions_at_start

    if floor_plan not in floor_plans() or task_type not in TASK_TYPES or \
            room_type(floor_plan) not in tables()["GOALS_VALID"][task_type]:
        return None
    rng = random.Random(f"{floor_plan}-{task_type}")
    for _ in range(DRAWS):
        found = _sample(floor_plan, task_type, rng)
        if found is not None and not conditions_at_start(found):
            return found
    return None


def task(tid: str) -> HouseholdTask:
    plan, _, task_type = tid.partition("-")
    found = _one(plan, task_type)
    if found is None:
        raise BadInputError(f"unknown Household task {tid!r} (ids look like FloorPlan1-pick_and_place_simple)")
    return found


def task_ids(task_type: str | None = None) -> list[str]:
    return [t.id for t in _tasks().values() if task_type is None or t.task_type == task_type]


def langsuite_batch() -> list[str]:
    """LangSuitE's ``scripts/alfred_batch_run.py`` choice applied to these tasks: ``random.seed(0)``,
    shuffle, the first 10 (the paper evaluates 100 sampled tasks)."""
    ids = task_ids()
    random.Random(0).shuffle(ids)
    return ids[:10]


def sample(n: int = 100) -> list[str]:
    """``n`` tasks drawn with ``random.Random(0)`` (the paper's 100 sampled tasks, here from these)."""
    ids = task_ids()
    return sorted(random.Random(0).sample(ids, min(n, len(ids))), key=ids.index)


def select(selectors: Sequence[str]) -> Iterator[HouseholdTask]:
    """Selectors: an id, ``all``, a task type, ``sample`` (100 tasks), ``langsuite-batch``, a floor plan."""
    for sel in selectors:
        if sel == "all":
            ids = task_ids()
        elif sel in TASK_TYPES:
            ids = task_ids(sel)
        elif sel == "sample":
            ids = sample()
        elif sel == "langsuite-batch":
            ids = langsuite_batch()
        elif sel.startswith("FloorPlan") and "-" not in sel:
            ids = [i for i in task_ids() if i.split("-")[0] == sel]
            if not ids:
                raise BadInputError(f"no Household tasks on {sel!r}")
        else:
            ids = [sel]
        for tid in ids:
            yield task(tid)
