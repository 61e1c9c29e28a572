"""LangSuitE's Rearrangement expert (``dev:envs/rearrange/rearrange_expert_agent.py``), step for step.

* Plan: one PickUp (at the start pose) and one Drop (at the target pose) for every object whose
  start and target (x, z), rounded to 2 decimals, differ, plus an Open for every such object named
  in ``openable_data``; the order is the one with the least summed straight-line distance from the
  agent (exhaustive depth-first search; a Drop needs its PickUp earlier, no two PickUps or two Drops
  in a row; the first shortest order found wins).
* Each plan node becomes the grid planner's moves and turns toward the object (or, for a Drop, the
  target point), an Open of the object's first parent when that is a closed container, then the
  action itself. The moves are executed as they are, so from a heading that is not a multiple of
  90 degrees they leave the grid (the planner rounds the heading).
* When nothing is left it says ``stop``. When an object is gone it says ``Stop``, which LangSuitE's
  parser does not know (a "Pass" step), and then ``stop``.

Turns cost nothing to its planner and the drop lands 0.5 m ahead-right of the agent, not at the
target, so the expert is neither optimal nor always successful. Where LangSuitE's expert raises
(its planner finds no cell: ``extend(None)``), the run is marked as crashed.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from math import sqrt
from typing import Any

from plancheck.domains.langsuite.engine.actions import Act, WorldState, goto_boxes
from plancheck.domains.langsuite.engine.goto import GridError, heading, plan_goto
from plancheck.domains.langsuite.rearrangement.instance import Episode


@dataclass(frozen=True, slots=True)
class Node:
    action: str  # start | PickUp | Drop | Open
    name: str
    object_id: str
    x: float
    y: float


def _id_of(data: dict[str, Any], name: str) -> str | None:
    for obj in data["objects"]:
        if obj["name"] == name:
            return obj["objectId"]
    return None


def plan_nodes(episode: Episode) -> list[Node]:
    """``get_observation_diff`` over LangSuitE's rounded poses, in pose order."""
    openable = {o[0] for o in episode.openable}
    nodes = []
    for s, t in zip(episode.start, episode.target):
        oid = _id_of(episode.start_scene, s[0])
        start_xy, target_xy = (round(s[1], 2), round(s[3], 2)), (round(t[1], 2), round(t[3], 2))
        if start_xy != target_xy:
            nodes.append(Node("PickUp", s[0], oid, *start_xy))
            nodes.append(Node("Drop", t[0], oid, *target_xy))
        if t[0] in openable:
            nodes.append(Node("Open", t[0], oid, *target_xy))
    return nodes


def order(episode: Episode) -> list[Node]:
    """``generate_plan``: the nodes in the order of least summed distance (first found on ties)."""
    x, _, z, _ = episode.agent
    start = Node("start", "agent", "agent", x, z)
    nodes = plan_nodes(episode)
    best: list[Node] | None = None
    best_distance = float("inf")

    def valid(path: list[Node], node: Node) -> bool:
        if node.action == "Drop":
            picked = any(n.name == node.name and n.action == "PickUp" for n in path)
            return picked and path[-1].action != node.action
        if node.action == "PickUp":
            return path[-1].action != node.action
        return node.action in ("Open", "start")

    def dfs(path: list[Node], remaining: list[Node], distance: float) -> None:
        nonlocal best, best_distance
        if not remaining:
            if distance < best_distance:
                best, best_distance = path, distance
            return
        for node in remaining:
            if valid(path, node):
                last = path[-1]
                rest = list(remaining)
                rest.remove(node)
                dfs(path + [node], rest, distance + sqrt((last.x - node.x) ** 2 + (last.y - node.y) ** 2))

    dfs([start], nodes, 0)
    return (best or [start])[1:]


class ExpertCrash(Exception):
    """Where LangSuitE's expert raises (its planner found no path and it extends its queue with None)."""


def expert_actions(episode: Episode, state0: WorldState, step, children2parent: dict[str, list[str]],
                   step_size: float = 0.25) -> Iterator[Act | str]:
    """The expert's actions, one per timestep after the opening ``YES.``; ``step(act)`` executes one
    and returns the new world state. Yields :class:`Act` or the string ``"Pass"``; ends after ``Stop``."""
    plans = order(episode)
    queue: list[str] = []
    state = state0
    while True:
        if not queue:
            if not plans:
                state = yield Act("Stop")
                return
            node = plans.pop(0)
            scene, pose = state.scene, state.pose
            if node.action == "Drop":
                target = (node.x, node.y)
            else:
                found = scene.find(node.object_id)
                if found is None:
                    plans.clear()
                    state = yield "Pass"
                    continue
                target = scene.nodes[found].position
            try:
                plan = plan_goto(scene.room.bounds, step_size, goto_boxes(scene), (pose.x, pose.y),
                                 heading(pose.vx, pose.vy), target)
            except GridError as exc:
                raise ExpertCrash(str(exc)) from None
            if not plan:
                raise ExpertCrash(f"no path toward {node.name} ({'already there' if plan is False else 'none'})")
            queue.extend(plan.moves)
            if node.action == "PickUp" and children2parent.get(node.object_id):
                parent = scene.find(children2parent[node.object_id][0])
                if parent is not None and scene.nodes[parent].closed_container:
                    queue.append("Open#" + scene.nodes[parent].id)
            queue.append(node.action + "#" + node.object_id)
        item = queue.pop(0)
        if "#" in item:
            name, oid = item.split("#", 1)
            state = yield Act(name, oid)
        else:
            state = yield Act(item)


def children_to_parents(start_scene_data: dict[str, Any]) -> dict[str, list[str]]:
    """``create_world``'s ``children2parent`` of the start scene: non-floor parents in listed order."""
    return {o["objectId"]: [p for p in o.get("parentReceptacles") or () if "Floor|" not in p]
            for o in start_scene_data["objects"]}


@dataclass(frozen=True)
class ExpertRun:
    """The expert's episode: its actions (after the opening), LangSuitE's numbers at the end."""

    actions: tuple[Act | str, ...]
    timesteps: int
    crashed: str | None
    final: WorldState


def run_expert(task) -> ExpertRun:
    """Play the expert on a :class:`~.rules.Task` until ``stop`` or the step limit (100 timesteps)."""
    state = task.initial().world
    driver = expert_actions(task.episode, state, None, children_to_parents(task.episode.start_scene),
                            task.engine.config.step_size)
    actions: list[Act | str] = []
    timesteps = 1  # the opening "YES."
    crashed = None
    try:
        act = next(driver)
        while True:
            actions.append(act)
            timesteps += 1
            if isinstance(act, Act) and act.name != "Stop":
                try:
                    state = task.engine.execute(state, act).state
                except GridError as exc:
                    crashed = f"goto: {exc}"
                    break
            if act == Act("Stop") or timesteps >= task.step_limit:
                break
            act = driver.send(state)
    except ExpertCrash as exc:
        crashed = str(exc)
    except StopIteration:
        pass
    return ExpertRun(tuple(actions), timesteps, crashed, state)
