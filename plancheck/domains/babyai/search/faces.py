"""Distance tables over the agent's poses: from every pose, the fewest actions to face a set of
cells (or to reach seeded poses), where entering some cells costs extra (a door to open, an object
to move) and a locked door may need its key first. The BabyAI heuristic and the Decompose helper
build on them.

Poses are ``cell * 4 + direction`` as in :class:`~plancheck.domains.babyai.search.astar.Model`; the
tables are computed backwards from the targets with a bucket queue (costs are small integers).
"""

from __future__ import annotations

from plancheck.domains.babyai.instance import DIR_VEC
from plancheck.domains.babyai.search.astar import INF, Model


class FaceTables:
    """Distances from every pose to facing a set of cells (or to a set of poses with starting
    values); a closed door may cost an extra toggle."""

    def __init__(self, model: Model):
        self.model = model
        self.steps = [dx + dy * model.width for dx, dy in DIR_VEC]
        self.tables: dict[tuple, list[int]] = {}
        self._preds: list[list[tuple[int, int]]] | None = None

    def faces(self, cells: frozenset[int]) -> list[int]:
        """The poses facing one of ``cells``."""
        model = self.model
        return [p for p in range(model.poses) if model.front[p] in cells and not model.walls[p >> 2]]

    def __call__(self, cells: frozenset[int], toll: tuple[tuple[int, int], ...] = ()) -> list[int]:
        """Entering a cell listed in ``toll`` as (cell, extra) costs 1 + extra (a toggle, a pickup...)."""
        key = (cells, toll)
        table = self.tables.get(key)
        if table is None:
            table = self.tables[key] = self.seeded({pose: 0 for pose in self.faces(cells)}, toll)
        return table

    def seeded(self, seeds: dict[int, int], toll: tuple[tuple[int, int], ...] = (), gate: tuple | None = None
               ) -> list[int]:
        """For every node, the least (distance to a seed node + the seed's value).

        Without a ``gate`` nodes are poses. With ``gate = (door cell, key cells, key cost, toggle
        cost)`` there are two layers, ``layer * poses + pose``: in layer 0 the locked door is a wall;
        facing a key moves to layer 1 (at the key cost), where the door opens at the toggle cost.
        """
        model = self.model
        poses = model.poses
        extra = dict(toll)
        door, keys, key_cost, toggle_cost = gate if gate is not None else (-1, frozenset(), 0, 0)
        if gate is not None:
            extra[door] = toggle_cost
        layers = 2 if gate is not None else 1
        preds, front = self.predecessors(), model.front
        dist = [INF] * (poses * layers)
        buckets: list[list[int]] = []
        for node, value in seeds.items():
            if value < dist[node]:
                dist[node] = value
                while len(buckets) <= value:
                    buckets.append([])
                buckets[value].append(node)
        level = 0
        while level < len(buckets):
            queue = buckets[level]
            while queue:
                node = queue.pop()
                if dist[node] != level:
                    continue
                offset = poses if node >= poses else 0
                pose = node - offset
                for prev, entered in preds[pose]:
                    if entered < 0:
                        nd = level + 1
                    elif entered == door and not offset:
                        continue  # the locked door, without its key
                    else:
                        nd = level + 1 + extra.get(entered, 0)
                    prev += offset
                    if nd < dist[prev]:
                        dist[prev] = nd
                        while len(buckets) <= nd:
                            buckets.append([])
                        buckets[nd].append(prev)
                if offset and front[pose] in keys:  # picking the key up here led from layer 0 to layer 1
                    nd = level + key_cost
                    if nd < dist[pose]:
                        dist[pose] = nd
                        while len(buckets) <= nd:
                            buckets.append([])
                        buckets[nd].append(pose)
            level += 1
        return dist

    def predecessors(self) -> list[list[tuple[int, int]]]:
        """For every pose, the poses one action before it: (pose, cell entered by moving, or -1)."""
        if self._preds is None:
            model, steps = self.model, self.steps
            preds: list[list[tuple[int, int]]] = []
            for pose in range(model.poses):
                cell, direction = divmod(pose, 4)
                base = cell * 4
                ways = [(base + (direction + 1) % 4, -1), (base + (direction + 3) % 4, -1)]
                back = cell - steps[direction]
                if not model.walls[cell] and 0 <= back < model.cells and not model.walls[back]:
                    ways.append((back * 4 + direction, cell))
                preds.append(ways)
            self._preds = preds
        return self._preds
