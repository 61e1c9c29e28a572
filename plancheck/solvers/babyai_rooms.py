"""How many closed doors an agent must still open: a lower bound from the rooms-and-doors graph.

The cells that are neither walls nor doors fall into rooms; each door joins the rooms on its two
sides. To face a cell of every set it must visit, the agent must reach, from where it stands, a
room or door next to each set; every closed door on the way costs a toggle. The cheapest such
choice of doors is a node-weighted group Steiner tree (closed doors weigh 1; open doors, rooms and
doors that an "open" instruction will toggle anyway weigh 0), solved exactly by the
Dreyfus-Wagner dynamic programme over subsets of the sets (the graphs have a few dozen nodes).
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable

from plancheck.solvers.babyai_search import INF, Model


class RoomGraph:
    """Rooms (connected non-wall, non-door cells) and doors of one instance, as one small graph.

    Nodes ``0 .. rooms-1`` are rooms and ``rooms + d`` is door ``d``.
    """

    def __init__(self, model: Model):
        self.model = model
        inst = model.rules.instance
        width = model.width
        self.door_cells = [model.cell(*d.pos) for d in inst.doors]
        door_at = {cell: d for d, cell in enumerate(self.door_cells)}
        self.node_of = [-1] * model.cells
        rooms = 0
        for start in range(model.cells):
            if model.walls[start] or start in door_at or self.node_of[start] >= 0:
                continue
            stack = [start]
            self.node_of[start] = rooms
            while stack:
                cell = stack.pop()
                for other in (cell - 1, cell + 1, cell - width, cell + width):
                    if 0 <= other < model.cells and not model.walls[other] and other not in door_at \
                            and self.node_of[other] < 0:
                        self.node_of[other] = rooms
                        stack.append(other)
            rooms += 1
        self.rooms = rooms
        self.neighbours: list[set[int]] = [set() for _ in range(rooms + len(self.door_cells))]
        for d, cell in enumerate(self.door_cells):
            node = rooms + d
            self.node_of[cell] = node
            for other in (cell - 1, cell + 1, cell - width, cell + width):
                if 0 <= other < model.cells and not model.walls[other] and other not in door_at:
                    room = self.node_of[other]
                    self.neighbours[node].add(room)
                    self.neighbours[room].add(node)
        self.memo: dict[tuple, list[int]] = {}

    @property
    def has_doors(self) -> bool:
        return bool(self.door_cells)

    def stands(self, cells: Iterable[int]) -> frozenset[int]:
        """The nodes from which the agent can face one of ``cells``."""
        model, width = self.model, self.model.width
        nodes = set()
        for cell in cells:
            for other in (cell - 1, cell + 1, cell - width, cell + width):
                if 0 <= other < model.cells and not model.walls[other]:
                    nodes.add(self.node_of[other])
        return frozenset(nodes)

    def toggles(self, groups: tuple[frozenset[int], ...], weights: tuple[int, ...]) -> list[int]:
        """For every start node, the fewest weighted nodes of a connected set that contains it and
        meets every group (``weights`` per door: 1 closed, 0 passable for free)."""
        key = (groups, weights)
        result = self.memo.get(key)
        if result is None:
            result = self.memo[key] = self._steiner(groups, weights)
        return result

    def _steiner(self, groups: tuple[frozenset[int], ...], weights: tuple[int, ...]) -> list[int]:
        n = len(self.neighbours)
        w = [0] * self.rooms + list(weights)
        k = len(groups)
        full = (1 << k) - 1
        dp = [[INF] * n for _ in range(full + 1)]
        for v in range(n):
            dp[0][v] = w[v]
        for g, group in enumerate(groups):
            for v in group:
                dp[1 << g][v] = w[v]
        for mask in range(1, full + 1):
            row = dp[mask]
            sub = (mask - 1) & mask
            while sub:
                if sub < mask ^ sub:  # each split once
                    other = dp[mask ^ sub]
                    part = dp[sub]
                    for v in range(n):
                        value = part[v] + other[v] - w[v]
                        if value < row[v]:
                            row[v] = value
                sub = (sub - 1) & mask
            heap = [(value, v) for v, value in enumerate(row) if value < INF]
            heapq.heapify(heap)
            while heap:
                value, v = heapq.heappop(heap)
                if value > row[v]:
                    continue
                for u in self.neighbours[v]:
                    nv = value + w[u]
                    if nv < row[u]:
                        row[u] = nv
                        heapq.heappush(heap, (nv, u))
        return dp[full]
