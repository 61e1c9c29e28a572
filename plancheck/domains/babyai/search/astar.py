"""Shortest action sequences for BabyAI missions: A* over minigrid's exact rules.

A search state is the agent's pose plus a *configuration*: what it carries, where every object is,
each door's state and the mission verifier's progress. Configurations are interned to integers and
their transitions memoised, each computed once by
:class:`~plancheck.domains.babyai.rules.BabyAIRules`, so the search follows minigrid's rules with
all their quirks (a no-op still advances the verifier). Turns and moves never change the world;
the verifier's reaction to them depends only on the cell in front, so it is memoised per
(configuration, front cell) by replaying it as minigrid's ``done`` action.

The mission heuristic (:mod:`plancheck.domains.babyai.search.heuristic`) is admissible; A* reopens a
state when a cheaper path reaches it, so plans are optimal even where the estimate is
inconsistent. Costs are integers per action; ties go to the deepest state, deterministically.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Callable
from dataclasses import dataclass

from plancheck.domains.babyai.instance import DIR_VEC, State
from plancheck.domains.babyai.mission import FAILURE, SUCCESS
from plancheck.domains.babyai.rules import PLAN_ACTIONS, Action, BabyAIRules
from plancheck.solvers.result import SearchResult, Status

INF = 1 << 30
REPORT_EVERY = 1 << 15  # expansions between two progress reports
LEFT, RIGHT, FORWARD, PICKUP = int(Action.left), int(Action.right), int(Action.forward), int(Action.pickup)
ACTIONS = tuple(int(a) for a in PLAN_ACTIONS)


@dataclass(frozen=True, slots=True)
class Config:
    """A state without the agent's pose."""

    carrying: int
    objects: tuple
    doors: tuple
    progress: object
    held_at: object


class Model:
    """Interned configurations and memoised transitions of one instance's rules.

    Poses are integers ``cell * 4 + direction`` with ``cell = y * width + x``.
    """

    def __init__(self, rules: BabyAIRules):
        self.rules = rules
        inst = rules.instance
        self.width, self.height = inst.width, inst.height
        self.cells = inst.width * inst.height
        self.poses = self.cells * 4
        self.walls = bytearray(self.cells)
        for x, y in inst.walls:
            self.walls[y * self.width + x] = 1
        steps = [dx + dy * self.width for dx, dy in DIR_VEC]
        self.front = [min(max(c + steps[d], 0), self.cells - 1) for c in range(self.cells) for d in range(4)]
        self.configs: list[Config] = []
        self.config_ids: dict[Config, int] = {}
        self.blocked: list[bytearray] = []
        self.result: list[int] = []
        self.memo: dict[tuple[int, int, int], int] = {}

    def cell(self, x: int, y: int) -> int:
        return y * self.width + x

    def pose_of(self, state: State) -> int:
        return self.cell(*state.pos) * 4 + state.dir

    def intern(self, state: State) -> int:
        config = Config(state.carrying, state.objects, state.doors, state.progress, state.held_at)
        cid = self.config_ids.get(config)
        if cid is None:
            cid = len(self.configs)
            self.config_ids[config] = cid
            self.configs.append(config)
            blocked = bytearray(self.walls)
            for cell in state.objects:
                if cell is not None:
                    blocked[self.cell(*cell)] = 1
            for door, status in zip(self.rules.instance.doors, state.doors):
                if status != 0:
                    blocked[self.cell(*door.pos)] = 1
            self.blocked.append(blocked)
            self.result.append(state.progress.result)
        return cid

    def state(self, cid: int, pose: int) -> State:
        config = self.configs[cid]
        cell, direction = divmod(pose, 4)
        return State((cell % self.width, cell // self.width), direction, config.carrying, config.objects,
                     config.doors, config.progress, config.held_at)

    def successor(self, cid: int, pose: int, action: int) -> tuple[int, int]:
        """(configuration, pose) after ``action`` (an int of :class:`Action`)."""
        if action == LEFT:
            pose = pose - pose % 4 + (pose + 3) % 4
        elif action == RIGHT:
            pose = pose - pose % 4 + (pose + 1) % 4
        elif action == FORWARD:
            ahead = self.front[pose]
            if not self.blocked[cid][ahead]:
                pose = ahead * 4 + pose % 4
        key = (cid, self.front[pose], action if action >= PICKUP else -1)
        result = self.memo.get(key)
        if result is None:
            state = self.state(cid, pose)
            # Moves and turns only make the verifier look at the new front cell: replay that as 'done'.
            outcome = self.rules.step(state, Action(action) if action >= PICKUP else Action.done)
            new = outcome.state if outcome.ok or outcome.state is not None else state
            result = self.memo[key] = self.intern(new)
        return result, pose


def astar(model: Model, start: State, heuristic: Callable[[int, int], int], goal: Callable[[int, int], bool], *,
          cost: Callable[[int], int] | None = None, actions: tuple[int, ...] = ACTIONS, horizon: int | None = None,
          max_expansions: int | None = None, deadline: float | None = None,
          report: Callable[[int, int], None] | None = None) -> SearchResult:
    """A* from ``start``; ``heuristic(cid, pose)`` must be admissible (INF marks a dead end).

    Every action costs 1 unless ``cost(action)`` says otherwise; ``horizon`` bounds the number of
    actions (minigrid's step limit; only with unit costs, where a state's cost is that number).
    The plan is a tuple of :class:`Action` (other action numbers, such as a coarser model's
    pseudo-actions, stay ints). Stopped by ``max_expansions`` or the ``deadline``, the result is
    TIMEOUT with ``bound``, the largest f-value expanded: when a state is taken out, no f-value
    still open is smaller, and some state of an optimal plan is open with its optimal cost, so each
    such f is a lower bound on the optimal cost (with an inconsistent estimate it may later fall:
    the largest is kept). Per state it keeps its cost, its parent and action packed in one int,
    and the cost it was expanded at. ``report(expanded, bound)``, if given, hears every so many
    expansions how far the search got.
    """
    if cost is not None and horizon is not None:
        raise ValueError("a horizon needs unit costs")
    began = time.perf_counter()
    poses = model.poses
    cid0 = model.intern(start)
    key0 = cid0 * poses + model.pose_of(start)
    best = {key0: 0}
    parent = {key0: -1}  # parent key * 16 + action
    expanded_at: dict[int, int] = {}
    buckets: dict[int, list[int]] = {}
    keys: list[int] = []

    def push(key: int, f: int) -> None:
        bucket = buckets.get(f)
        if bucket is None:
            buckets[f] = bucket = []
            heapq.heappush(keys, f)
        bucket.append(key)

    h0 = heuristic(cid0, key0 % poses)
    if h0 < INF:
        push(key0, h0)
    expanded = proven = 0
    while keys:
        f = keys[0]
        bucket = buckets[f]
        key = bucket.pop()
        if not bucket:
            heapq.heappop(keys)
            del buckets[f]
        g = best[key]
        cid, pose = divmod(key, poses)
        if g >= expanded_at.get(key, INF) or g + heuristic(cid, pose) != f:
            continue  # stale entry
        if goal(cid, pose):
            plan = _plan(parent, key)
            return SearchResult(Status.SOLVED, plan, g, expanded, time.perf_counter() - began)
        expanded_at[key] = g
        expanded += 1
        proven = max(proven, f)
        if report is not None and expanded % REPORT_EVERY == 0:
            report(expanded, proven)
        if max_expansions is not None and expanded > max_expansions or (
                deadline is not None and time.monotonic() > deadline):
            return SearchResult(Status.TIMEOUT, None, None, expanded, time.perf_counter() - began, bound=proven)
        if horizon is not None and g + 1 > horizon:
            continue
        for action in actions:
            ncid, npose = model.successor(cid, pose, action)
            nkey = ncid * poses + npose
            ng = g + (1 if cost is None else cost(action))
            if nkey == key or ng >= best.get(nkey, INF):
                continue
            h = heuristic(ncid, npose)
            if h >= INF:
                continue
            best[nkey] = ng
            parent[nkey] = key * 16 + action
            push(nkey, ng + h)
    return SearchResult(Status.UNSOLVABLE, None, None, expanded, time.perf_counter() - began)


def _plan(parent: dict[int, int], key: int) -> tuple[Action | int, ...]:
    actions = []
    while parent[key] >= 0:
        key, action = divmod(parent[key], 16)
        actions.append(Action(action) if action < len(Action) else action)
    return tuple(reversed(actions))


def mission_goal(model: Model) -> Callable[[int, int], bool]:
    result = model.result
    return lambda cid, pose: result[cid] == SUCCESS


def failed(model: Model, cid: int) -> bool:
    return model.result[cid] == FAILURE
