"""LangSuitE's Rearrangement metrics (``dev:envs/rearrange/rearrangement_task.py``), bugs named.

After every step LangSuitE compares the objects' current poses with the start and the goal scene:

* ``changed``: objects (in the world; held ones are absent) whose position differs exactly from
  the start, or whose open state (``openable``, ``isOpen``) differs;
* ``misplaced = |changed objects whose 3x3 cell or open state differs from the goal| / diff_count``
  and ``fixed = |changed objects whose cell and open state match the goal| / diff_count``, both
  rounded to 2 decimals (0 when ``diff_count`` is 0);
* success iff ``misplaced == 0 and fixed == 1``, evaluated after each step; the episode's result is
  the value at its last step.

Quirks, each kept under the ``langsuite`` rule and named:

* ``x-twice``: an object's position is ``(x, x)``: z never enters; the cell is
  ``(floor((x - xmin)/(W/3)), floor((x - ymin)/(H/3)))``. The ``corrected`` rule uses (x, z).
* ``child-open``: an openable object inside another takes its root's ``isOpen``.
* ``diff-count``: the denominator counts the episode's pickupable objects whose start and target
  (x, z), rounded to 2 decimals, differ, plus those in ``openable_data`` (in the 2022 data none
  are pickupable), so openness changes never count and an episode that only changes an openness
  has ``diff_count = 0`` and cannot succeed.
* ``untouched``: only objects the agent changed are counted, so a changed object the agent never
  touches is not "misplaced", and any object moved within its own cell counts as "fixed".

``misplaced`` is not bounded by 1: every object the agent disturbs (an opened drawer, a moved
object) counts in the numerator while ``diff_count`` counts only the episode's moved objects; the
paper's Misplaced column (100 x the mean, above 100) counts exactly this.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from math import floor
from typing import Any

from plancheck.domains.langsuite.engine.scene import Scene

RULES = ("langsuite", "corrected")


@dataclass(frozen=True, slots=True)
class Pose:
    """``get_all_object_pos`` for one object: its position pair and open state."""

    position: tuple[float, float]
    openable: bool
    is_open: bool | None


def all_object_poses(scene: Scene, rule: str = "langsuite") -> dict[str, Pose]:
    """``get_all_object_pos``: roots, then each root's subtree (a later instance of an id overwrites)."""
    out: dict[str, Pose] = {}
    nodes = scene.nodes
    for root in scene.roots:
        thing = nodes[root]
        x, y = thing.position
        pair = (x, x) if rule == "langsuite" else (x, y)
        out[thing.id] = Pose(pair, thing.openable, thing.is_open if thing.openable else None)
        for child in scene.descendants(root):
            kid = nodes[child]
            cx, cy = kid.position
            cpair = (cx, cx) if rule == "langsuite" else (cx, cy)
            # child-open: LangSuitE reads the root's isOpen for an openable child
            out[kid.id] = Pose(cpair, kid.openable, thing.is_open if kid.openable else None)
    return out


def _cell(scene: Scene, pair: tuple[float, float]) -> tuple[int, int]:
    x0, y0, x1, y1 = scene.room.bounds
    return floor((pair[0] - x0) / ((x1 - x0) / 3)), floor((pair[1] - y0) / ((y1 - y0) / 3))


def changed(current: Mapping[str, Pose], start: Mapping[str, Pose]) -> dict[str, Pose]:
    """``get_pos_diff(current, start, start=True)``: exact position or open state differs."""
    out = {}
    for oid, pose in current.items():
        if oid not in start:
            continue
        other = start[oid]
        same_place = pose.position == other.position
        same_open = pose.openable == other.openable and pose.is_open == other.is_open
        if not (same_place and same_open):
            out[oid] = pose
    return out


def split_changed(scene: Scene, moved: Mapping[str, Pose], target: Mapping[str, Pose]) -> tuple[list[str], list[str]]:
    """The changed objects that match the goal (cell and open state) and those that do not."""
    good, bad = [], []
    for oid, pose in moved.items():
        if oid not in target:
            continue
        other = target[oid]
        same_cell = _cell(scene, pose.position) == _cell(scene, other.position)
        same_open = pose.openable == other.openable and pose.is_open == other.is_open
        (good if same_cell and same_open else bad).append(oid)
    return good, bad


def diff_count(episode_start: Sequence[Sequence[Any]], episode_target: Sequence[Sequence[Any]],
               openable_names: set[str]) -> int:
    """``get_diff_count``: poses whose rounded (x, z) differ, plus poses named in ``openable_data``."""
    count = 0
    for s, t in zip(episode_target, episode_start):  # LangSuitE passes (targets, inputs)
        if s[0] != t[0]:
            raise ValueError(f"pose lists out of step: {s[0]} vs {t[0]}")
        if {"x": round(s[1], 2), "y": round(s[3], 2)} != {"x": round(t[1], 2), "y": round(t[3], 2)}:
            count += 1
        if t[0] in openable_names:
            count += 1
    return count


@dataclass(frozen=True, slots=True)
class Score:
    """LangSuitE's numbers after a step, under one rule."""

    misplaced: float
    fixed: float
    success: bool
    changed: tuple[str, ...] = ()
    wrong: tuple[str, ...] = ()


def score(scene: Scene, start: Mapping[str, Pose], target: Mapping[str, Pose], count: int,
          rule: str = "langsuite") -> Score:
    """``misplaced()``, ``fixed()`` and the success test on the current scene."""
    moved = changed(all_object_poses(scene, rule), start)
    good, bad = split_changed(scene, moved, target)
    misplaced = round(len(bad) / count, 2) if count > 0 else 0.0
    fixed = round(len(good) / count, 2) if count > 0 else 0.0
    return Score(misplaced, fixed, misplaced == 0 and fixed == 1, tuple(moved), tuple(bad))
