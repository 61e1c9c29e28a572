"""Breadth-first, uniform-cost and A* search as plain functions over a world's rules.

The searches use only ``initial_state``, ``goal_reached``, ``actions``, ``step`` and ``cost``
(:class:`plancheck.rules.SearchRules`); they never know what a grid or a disk is. A counter
breaks ties, so the heap never compares states and results are deterministic.
"""

from __future__ import annotations

import heapq
import itertools
import time
from collections import deque
from collections.abc import Callable, Hashable
from typing import TypeVar

from plancheck.rules import SearchRules
from plancheck.solvers.result import SearchResult, Status

S = TypeVar("S", bound=Hashable)
A = TypeVar("A", bound=Hashable)


def _plan(parents: dict, state) -> tuple:
    actions = []
    while parents[state] is not None:
        state, action = parents[state]
        actions.append(action)
    return tuple(reversed(actions))


def breadth_first_search(rules: SearchRules[S, A], *, max_expansions: int | None = None,
                         deadline: float | None = None) -> SearchResult:
    """Shortest plan by number of actions (rejected actions are never part of a plan)."""
    start = time.perf_counter()
    initial = rules.initial_state()
    if rules.goal_reached(initial):
        return SearchResult(Status.SOLVED, (), 0, 0, time.perf_counter() - start)
    parents: dict = {initial: None}
    frontier = deque([initial])
    expanded = 0
    while frontier:
        state = frontier.popleft()
        expanded += 1
        if max_expansions is not None and expanded > max_expansions or (
                deadline is not None and expanded % 1024 == 0 and time.monotonic() > deadline):
            return SearchResult(Status.TIMEOUT, None, None, expanded, time.perf_counter() - start)
        for action in rules.actions(state):
            outcome = rules.step(state, action)
            if not outcome.ok or outcome.state in parents:
                continue
            parents[outcome.state] = (state, action)
            if rules.goal_reached(outcome.state):
                plan = _plan(parents, outcome.state)
                return SearchResult(Status.SOLVED, plan, len(plan), expanded, time.perf_counter() - start)
            frontier.append(outcome.state)
    return SearchResult(Status.UNSOLVABLE, None, None, expanded, time.perf_counter() - start)


def astar_search(rules: SearchRules[S, A], heuristic: Callable[[S], float] | None = None, *,
                 max_expansions: int | None = None, deadline: float | None = None) -> SearchResult:
    """Cheapest plan by action cost; with ``heuristic=None`` this is uniform-cost search.

    The heuristic must be admissible and consistent for the result to be optimal.
    """
    start = time.perf_counter()
    h = heuristic or (lambda state: 0.0)
    initial = rules.initial_state()
    tie = itertools.count()
    best: dict = {initial: 0.0}
    parents: dict = {initial: None}
    frontier = [(h(initial), next(tie), 0.0, initial)]
    closed: set = set()
    expanded = 0
    while frontier:
        _, _, g, state = heapq.heappop(frontier)
        if state in closed:
            continue
        if rules.goal_reached(state):
            return SearchResult(Status.SOLVED, _plan(parents, state), g, expanded, time.perf_counter() - start)
        closed.add(state)
        expanded += 1
        if max_expansions is not None and expanded > max_expansions or (
                deadline is not None and expanded % 1024 == 0 and time.monotonic() > deadline):
            return SearchResult(Status.TIMEOUT, None, None, expanded, time.perf_counter() - start)
        for action in rules.actions(state):
            outcome = rules.step(state, action)
            if not outcome.ok:
                continue
            child = outcome.state
            cost = g + rules.cost(state, action)
            if child not in closed and cost < best.get(child, float("inf")):
                best[child] = cost
                parents[child] = (state, action)
                heapq.heappush(frontier, (cost + h(child), next(tie), cost, child))
    return SearchResult(Status.UNSOLVABLE, None, None, expanded, time.perf_counter() - start)


def uniform_cost_search(rules: SearchRules[S, A], **limits) -> SearchResult:
    """Dijkstra over the rules' action costs."""
    return astar_search(rules, None, **limits)


SEARCHES = {"bfs": breadth_first_search, "ucs": uniform_cost_search, "astar": astar_search}
