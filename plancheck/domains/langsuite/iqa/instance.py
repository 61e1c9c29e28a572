"""IQA questions on the 30 default kitchens, generated from IQUAD's templates and vocabulary.

LangSuitE's own IQA file (``iqa_test_1k.json``: 1,000 recorded scene states with three questions
each) is not public. Here the scenes are the default kitchens FloorPlan1-30 and the questions come
from IQUAD's generator (thor-iqa-cvpr-2018 ``utils/question_util.py``, ``constants.py``):

* the object classes are IQUAD's (Spoon, Potato, Fork, Plate, Egg, Tomato, Bowl, Lettuce, Apple,
  Knife, Bread, Mug; ``Container`` is left out: AI2-THOR's later scenes have no such type, so every
  question about it would answer "no"), the contains receptacles IQUAD's contains generator keeps
  (GarbageCan, Microwave, Fridge, Cabinet);
* the wording: IQUAD's templates, one picked by the question's seed as IQUAD picks it
  (``random.seed(seed)``, then Python 2's ``randint``: ``int(random() * n)``; this reproduces the
  templates of IQUAD's published val questions from their seeds);
* the answers are computed from the scene: existence = some object of the class, counting = their
  number, contains = some receptacle of the type lists one in its ``receptacleObjectIds`` (IQUAD's
  rule).

Every default kitchen holds exactly one object of each class, so the default state alone would
always answer existence "yes" and counting "1". IQUAD pairs each question with a scene state where
the answer differs (its random spawns); here that state is the default kitchen **with every object
of the asked class removed** (``-removed`` ids): existence "no", counting 0, contains "no".

A question whose scene has no free start point (no integer point with a free diagonal: all of
FloorPlan3, whose counters and stools cover every such point) is left out: LangSuitE's
``random_world_position`` would draw forever.

Ids: ``FloorPlan1-existence-apple``, ``FloorPlan1-counting-mug-removed``,
``FloorPlan2-contains-apple-fridge`` (contains questions for the pairs true in the default state).
Question types use LangSuitE's indices: 0 existence, 1 contains, 2 counting.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from typing import Any

from plancheck.domains.langsuite.iqa.scene import start_blockers
from plancheck.domains.langsuite.scenes import object_bounds, world_data
from plancheck.errors import BadInputError

KITCHENS = tuple(f"FloorPlan{i}" for i in range(1, 31))
TYPES = ("existence", "contains", "counting")  # LangSuitE's question_type 0, 1, 2
CLASSES = ("Spoon", "Potato", "Fork", "Plate", "Egg", "Tomato", "Bowl", "Lettuce", "Apple", "Knife", "Bread", "Mug")
RECEPTACLES = ("GarbageCan", "Microwave", "Fridge", "Cabinet")
SINGULAR = {"Spoon": "spoon", "Potato": "potato", "Fork": "fork", "Plate": "plate", "Egg": "egg", "Tomato": "tomato",
            "Bowl": "bowl", "Lettuce": "head of lettuce", "Apple": "apple", "Knife": "knife", "Bread": "loaf of bread",
            "Mug": "mug", "GarbageCan": "garbage can", "Microwave": "microwave", "Fridge": "fridge",
            "Cabinet": "cabinet"}
PLURAL = {"Spoon": "spoons", "Potato": "potatoes", "Fork": "forks", "Plate": "plates", "Egg": "eggs",
          "Tomato": "tomatoes", "Bowl": "bowls", "Lettuce": "heads of lettuce", "Apple": "apples", "Knife": "knives",
          "Bread": "loaves of bread", "Mug": "mugs"}
MAX_COUNTING_ANSWER = 3
EXISTENCE = ("Is there %s %s in the room?", "Please tell me if there is %s %s somewhere in the room.",
             "Is there %s %s somewhere in the room?", "Is there %s %s somewhere nearby?",
             "I think %s %s is in the room. Is that correct?", "Do we have any %s?")
COUNTING = ("How many %s are there in the room?", "There are between 0 and %d %s in the room. How many are there?",
            "Please tell me how many %s there are somewhere in the room?",
            "Please tell me how many %s are around here?",
            "Count the number of %s in this room.")
CONTAINS = ("Is there %s %s %s %s %s?", "Can you find %s %s %s %s %s?", "Please tell me if there is %s %s %s %s %s?",
            "I think there is %s %s %s %s %s. Is that correct?")
SAMPLE_SIZE = 50  # the paper evaluates 50 questions per IQA sub-task


def template_index(seed: int, count: int) -> int:
    """IQUAD's template choice: ``random.seed(seed); random.randint(0, count - 1)`` under Python 2."""
    rng = random.Random(seed)
    return int(rng.random() * count)


def question_text(kind: str, object_class: str, receptacle: str | None, seed: int) -> str:
    """``get_question_str`` of IQUAD for a question type, object class and (contains) receptacle type."""
    singular = SINGULAR[object_class]
    article = "an" if singular[0] in "aeiou" else "a"
    if kind == "existence":
        i = template_index(seed, len(EXISTENCE))
        return EXISTENCE[i] % PLURAL[object_class] if i == 5 else EXISTENCE[i] % (article, singular)
    if kind == "counting":
        i = template_index(seed, len(COUNTING))
        if i == 1:
            return COUNTING[i] % (MAX_COUNTING_ANSWER, PLURAL[object_class])
        return COUNTING[i] % PLURAL[object_class]
    assert receptacle is not None
    container = SINGULAR[receptacle]
    container_article = "the" if container in ("fridge", "microwave", "sink") else \
        ("an" if container[0] in "aeiou" else "a")
    preposition = "on" if receptacle in ("StoveBurner", "TableTop") else "in"
    i = template_index(seed, len(CONTAINS))
    return CONTAINS[i] % (article, singular, preposition, container_article, container)


@dataclass(frozen=True)
class Question:
    """One IQA question on one scene state (a default kitchen, or it with the asked class removed)."""

    id: str
    scene: str
    kind: str  # existence | contains | counting
    object_class: str
    receptacle: str | None
    removed: bool
    seed: int

    @property
    def question_type(self) -> int:
        """LangSuitE's index: 0 existence, 1 contains, 2 counting."""
        return TYPES.index(self.kind)

    @property
    def text(self) -> str:
        return question_text(self.kind, self.object_class, self.receptacle, self.seed)

    @cached_property
    def world_data(self) -> dict[str, Any]:
        """The kitchen's metadata as LangSuitE's IQA loader expects it (``sceneBounds`` from the room
        rectangle and the objects' corner extremes), with the asked class removed when ``removed``."""
        data = world_data(self.scene)
        corners = [list(c) for c in data["sceneBounds"]["cornerPoints"]]
        x0, z0, x1, z1 = object_bounds(self.scene)
        corners += [[x0, 0.0, z0], [x0, 0.0, z1], [x1, 0.0, z1], [x1, 0.0, z0]]
        data["sceneBounds"] = {"cornerPoints": corners}
        if self.removed:
            gone = {o["objectId"] for o in data["objects"] if o["objectType"] == self.object_class}
            data["objects"] = [o for o in data["objects"] if o["objectId"] not in gone]
            for obj in data["objects"]:  # as the simulator's metadata would read without them
                for key in ("receptacleObjectIds", "parentReceptacles"):
                    if obj.get(key):
                        obj[key] = [c for c in obj[key] if c not in gone]
        return data

    def langsuite_world_data(self) -> dict[str, Any]:
        """``world_data`` as LangSuitE's IQA code reads it: every object with an ``assetId`` (its asset
        name) and the eight ``cornerPoints`` of its box, clamped to the recorded corner extremes so that
        LangSuitE's room is exactly the one plancheck computes."""
        data = copy.deepcopy(self.world_data)
        x0, z0, x1, z1 = object_bounds(self.scene)
        for obj in data["objects"]:
            box = obj["axisAlignedBoundingBox"]
            c, s = box["center"], box["size"]
            xs = (min(max(c["x"] - s["x"] / 2, x0), x1), min(max(c["x"] + s["x"] / 2, x0), x1))
            zs = (min(max(c["z"] - s["z"] / 2, z0), z1), min(max(c["z"] + s["z"] / 2, z0), z1))
            ys = (c["y"] - s["y"] / 2, c["y"] + s["y"] / 2)
            box["cornerPoints"] = [[x, y, z] for x in xs for y in ys for z in zs]
            obj.setdefault("assetId", obj.get("name", ""))
        return data

    @cached_property
    def answer(self) -> bool | int:
        return compute_answer(self.world_data["objects"], self.kind, self.object_class, self.receptacle)

    def qa(self) -> dict[str, Any]:
        """The question as one entry of LangSuitE's ``qa_list`` (``question``, ``answer``, ``object_class``,
        ``recept``)."""
        out: dict[str, Any] = {"question": self.text, "answer": self.answer, "object_class": self.object_class}
        if self.receptacle is not None:
            out["recept"] = self.receptacle
        return out


def compute_answer(objects: Sequence[dict[str, Any]], kind: str, object_class: str,
                   receptacle: str | None) -> bool | int:
    """IQUAD's ``get_answer`` on a scene's objects."""
    of_class = [o for o in objects if o["objectType"] == object_class]
    if kind == "existence":
        return bool(of_class)
    if kind == "counting":
        return len(of_class)
    return any(object_class in [c.split("|")[0] for c in (o.get("receptacleObjectIds") or ())]
               for o in objects if o["objectType"] == receptacle)


def _slug(name: str) -> str:
    return name.lower()


@cache
def _questions() -> dict[str, Question]:
    """Every question, in a fixed order; each question's seed drawn as IQUAD draws it (0..999999999),
    here from ``random.Random(0)`` over that order."""
    rng = random.Random(0)
    out: dict[str, Question] = {}

    def add(scene: str, kind: str, cls: str, receptacle: str | None, removed: bool) -> None:
        parts = [scene, kind, _slug(cls)] + ([_slug(receptacle)] if receptacle else [])
        qid = "-".join(parts + (["removed"] if removed else []))
        found = Question(qid, scene, kind, cls, receptacle, removed, rng.randint(0, 999999999))
        if any(all(removed and type_of[b] == cls for b in hit) for hit in blockers):  # else LangSuitE
            out[qid] = found  # would draw a start point forever

    for scene in KITCHENS:
        objects = world_data(scene)["objects"]
        blockers = start_blockers(Question("", scene, "existence", "Apple", None, False, 0).world_data)
        type_of = {o["objectId"]: o["objectType"] for o in objects}
        for kind in ("existence", "counting"):
            for cls in CLASSES:
                for removed in (False, True):
                    add(scene, kind, cls, None, removed)
        for cls in CLASSES:
            for receptacle in RECEPTACLES:
                if compute_answer(objects, "contains", cls, receptacle):
                    for removed in (False, True):
                        add(scene, "contains", cls, receptacle, removed)
    return out


def question(qid: str) -> Question:
    found = _questions().get(qid)
    if found is None:
        raise BadInputError(f"unknown IQA question {qid!r} (ids look like FloorPlan1-existence-apple, "
                            "FloorPlan1-counting-mug-removed, FloorPlan2-contains-apple-fridge)")
    return found


def question_ids(kind: str | None = None) -> list[str]:
    return [q.id for q in _questions().values() if kind is None or q.kind == kind]


def langsuite_sample(kind: str) -> list[str]:
    """50 questions of one type, drawn with ``random.Random(0)`` (the paper evaluates 50 per sub-task;
    LangSuitE's own list of indices points into its unpublished file)."""
    ids = question_ids(kind)
    return sorted(random.Random(0).sample(ids, SAMPLE_SIZE), key=ids.index)


def select(selectors: Sequence[str]) -> Iterator[Question]:
    """Selectors: an id, ``all``, a question type, ``<type>-sample`` (50 of the type), ``sample`` (50 of
    each type), a kitchen (``FloorPlan1``: its questions)."""
    for sel in selectors:
        if sel == "all":
            ids = question_ids()
        elif sel in TYPES:
            ids = question_ids(sel)
        elif sel == "sample":
            ids = [i for kind in TYPES for i in langsuite_sample(kind)]
        elif sel.endswith("-sample") and sel[:-len("-sample")] in TYPES:
            ids = langsuite_sample(sel[:-len("-sample")])
        elif sel in KITCHENS:
            ids = [i for i in question_ids() if i.split("-")[0] == sel]
        elif sel.startswith("FloorPlan") and "-" not in sel:
            raise BadInputError(f"IQA runs on the kitchens FloorPlan1-30, not {sel!r}")
        else:
            ids = [sel]
        for qid in ids:
            yield question(qid)
