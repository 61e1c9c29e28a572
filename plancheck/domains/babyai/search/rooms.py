"""How many doors must still be opened and blockers moved: a bound from the rooms-and-doors graph.

The cells that are neither walls nor doors fall into rooms; each door joins the rooms on its two
sides through its approach cells (the room cells right in front of it, which every passage
crosses). To face a cell of every set it must visit, the agent must reach, from where it stands, a
node next to each set; every closed door on the way costs a toggle, and every object lying on an
approach cell on the way costs at least the action that moves it. The cheapest such choice is a
node-weighted group Steiner tree (closed doors and blocked approach cells weigh 1; open doors,
free cells, rooms, doors that an "open" instruction toggles anyway and objects that instructions
name weigh 0), solved exactly by the Dreyfus-Wagner dynamic programme over subsets of the sets
(the graphs have a few dozen nodes).
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable

from plancheck.domains.babyai.search.astar import INF, Model


class RoomGraph:
    """Rooms (connected non-wall, non-door cells), doors, and the cells right in front of doors.

    Nodes ``0 .. rooms-1`` are rooms, then one node per door, then one per *approach*: a room cell
    next to a door, which every passage through that door crosses (an object lying there must be
    moved first). An approach cell belongs to its own node, linked to its room and its door(s).
    """

    def __init__(self, model: Model):
        self.model = model
        inst = model.rules.instance
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
                for other in self._around(cell):
                    if other not in door_at and self.node_of[other] < 0:
                        self.node_of[other] = rooms
                        stack.append(other)
            rooms += 1
        self.rooms = rooms
        self.approach_cells: list[int] = sorted({other for cell in self.door_cells for other in self._around(cell)
                                                 if other not in door_at})
        self.approach_set = frozenset(self.approach_cells)
        total = rooms + len(self.door_cells) + len(self.approach_cells)
        self.neighbours: list[set[int]] = [set() for _ in range(total)]
        approach_node = {}
        for a, cell in enumerate(self.approach_cells):
            node = rooms + len(self.door_cells) + a
            approach_node[cell] = node
            self._link(node, self.node_of[cell])
        for d, cell in enumerate(self.door_cells):
            node = rooms + d
            for other in self._around(cell):
                if other in approach_node:
                    self._link(node, approach_node[other])
                elif other in door_at:
                    self._link(node, rooms + door_at[other])
        for cell, node in approach_node.items():
            self.node_of[cell] = node
        for d, cell in enumerate(self.door_cells):
            self.node_of[cell] = rooms + d
        self.memo: dict[tuple, list[int]] = {}

    def _around(self, cell: int) -> list[int]:
        model, width = self.model, self.model.width
        return [o for o in (cell - 1, cell + 1, cell - width, cell + width) if 0 <= o < model.cells and
                not model.walls[o]]

    def _link(self, a: int, b: int) -> None:
        self.neighbours[a].add(b)
        self.neighbours[b].add(a)

    def stands(self, cells: Iterable[int]) -> frozenset[int]:
        """The nodes from which the agent can face one of ``cells``."""
        return frozenset(self.node_of[other] for cell in cells for other in self._around(cell))

    def toggles(self, groups: tuple[frozenset[int], ...], weights: tuple[int, ...]) -> list[int]:
        """For every start node, the least weight of a connected set of nodes that contains it and
        meets every group (``weights``: per door, then per approach cell; rooms weigh 0)."""
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
