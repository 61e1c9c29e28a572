"""The poses an agent can reach by LangSuitE's moves and turns, and what each pose touches and sees.

From a start pose the agent only ever stands at ``start + 0.25 * (i * v0 + j * w0)`` (``w0`` = ``v0``
turned right; turns by 90 degrees are exact) facing one of four headings, so a pose is the integer
triple ``(i, j, h)``. Its coordinates here are computed directly from that triple; the engine's
own floats along a plan differ from them by accumulated rounding only, which is why every plan
built on the lattice is replayed by the engine before it is reported.

:func:`build` enumerates the poses reachable from the start with the *static* obstacles (walls and
every root except the ``movable`` ones) and records, per move, which movable roots would block it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property

from plancheck.domains.langsuite.engine.agent import AgentConfig, Pose
from plancheck.domains.langsuite.engine.geometry import Rect, Sector, segment_hits_rect, segments_meet
from plancheck.domains.langsuite.engine.scene import Scene

Triple = tuple[int, int, int]
UNREACHABLE = 10**9  # the distance of a pose no path reaches (the searches' INF)
_STEP = ((1, 0), (0, 1), (-1, 0), (0, -1))  # heading h moves along +v0, +w0, -v0, -w0


@dataclass(frozen=True)
class Lattice:
    """Reachable poses (index -> triple, pose), moves between them, and what blocks each move."""

    config: AgentConfig
    triples: tuple[Triple, ...]
    poses: tuple[Pose, ...]
    index: Mapping[Triple, int]
    ahead: tuple[int, ...]  # pose index after move_ahead, -1 when a static obstacle blocks it
    blockers: Mapping[int, frozenset[str]]  # pose index -> movable root ids that block its move_ahead
    left: tuple[int, ...]
    right: tuple[int, ...]

    def __len__(self) -> int:
        return len(self.poses)

    @cached_property
    def predecessors(self) -> tuple[tuple[int, ...], ...]:
        """For each pose, the poses one turn or move_ahead (with no movable root in the way) leads from to it."""
        before: list[list[int]] = [[] for _ in range(len(self.poses))]
        for p in range(len(self.poses)):
            for q in (self.left[p], self.right[p], self.ahead[p]):
                if q >= 0:
                    before[q].append(p)
        return tuple(map(tuple, before))

    def moves_to(self, targets: Iterable[int]) -> list[int]:
        """The turns and moves from each pose to the nearest of ``targets`` (``UNREACHABLE`` when none is reached;
        a backward breadth-first search over :attr:`predecessors`)."""
        dist = [UNREACHABLE] * len(self.poses)
        queue = deque(targets)
        for p in queue:
            dist[p] = 0
        before = self.predecessors
        while queue:
            q = queue.popleft()
            for p in before[q]:
                if dist[p] == UNREACHABLE:
                    dist[p] = dist[q] + 1
                    queue.append(p)
        return dist

    def segment(self, p: int) -> tuple[tuple[float, float], tuple[float, float]]:
        """The move_ahead segment from pose ``p`` (to where it would go)."""
        pose = self.poses[p]
        return (pose.x, pose.y), pose.ahead(self.config.step_size)

    def sector(self, p: int) -> Sector:
        pose = self.poses[p]
        return Sector(pose.x, pose.y, pose.vx, pose.vy, self.config.max_view_distance, self.config.aov)

    def blocked_by(self, rect: Rect) -> list[int]:
        """The poses whose move_ahead segment meets ``rect``."""
        x0, y0, x1, y1 = rect
        out = []
        for p in range(len(self.poses)):
            if self.ahead[p] < 0:
                continue
            a, b = self.segment(p)
            if max(a[0], b[0]) < x0 or min(a[0], b[0]) > x1 or max(a[1], b[1]) < y0 or min(a[1], b[1]) > y1:
                continue
            if segment_hits_rect(a, b, rect):
                out.append(p)
        return out


def headings(start: Pose) -> tuple[Pose, Pose, Pose, Pose]:
    """The start heading and its three right turns (exact)."""
    out = [start]
    for _ in range(3):
        out.append(out[-1].turned(90))
    return tuple(out)  # type: ignore[return-value]


def build(scene: Scene, start: Pose, config: AgentConfig, movable: Iterable[str] = ()) -> Lattice:
    """The lattice of poses reachable from ``start`` when the ``movable`` roots are out of the way."""
    movable = set(movable)
    turned = headings(start)
    v0, w0 = turned[0], turned[1]
    step = config.step_size
    walls = list(scene.room.walls())
    static: list[Rect] = []
    dynamic: list[tuple[str, Rect]] = []
    for r in scene.roots:
        thing = scene.nodes[r]
        if thing.id.startswith("Floor"):
            continue
        (dynamic if thing.id in movable else static).append((thing.id, thing.rect) if thing.id in movable
                                                             else thing.rect)

    def pose_of(t: Triple) -> Pose:
        i, j, h = t
        x = start.x + step * (i * v0.vx + j * w0.vx)
        y = start.y + step * (i * v0.vy + j * w0.vy)
        return Pose(x, y, turned[h].vx, turned[h].vy)

    index: dict[Triple, int] = {}
    triples: list[Triple] = []
    poses: list[Pose] = []
    ahead: list[int] = []
    blockers: dict[int, frozenset[str]] = {}
    first = (0, 0, 0)
    index[first] = 0
    triples.append(first)
    poses.append(Pose(start.x, start.y, start.vx, start.vy))
    queue = deque([first])
    moves: dict[int, Triple | None] = {}
    while queue:
        t = queue.popleft()
        p = index[t]
        i, j, h = t
        nxt: list[Triple] = [(i, j, (h + 1) % 4), (i, j, (h + 3) % 4)]
        di, dj = _STEP[h]
        target = (i + di, j + dj, h)
        a = (poses[p].x, poses[p].y)
        b = (pose_of(target).x, pose_of(target).y)
        if any(segments_meet(a, b, c, d) for c, d in walls) or any(segment_hits_rect(a, b, r) for r in static):
            moves[p] = None
        else:
            moves[p] = target
            hit = frozenset(oid for oid, r in dynamic if segment_hits_rect(a, b, r))
            if hit:
                blockers[p] = hit
            nxt.append(target)
        for n in nxt:
            if n not in index:
                index[n] = len(triples)
                triples.append(n)
                poses.append(pose_of(n))
                queue.append(n)
    for p in range(len(triples)):
        target = moves[p]
        ahead.append(-1 if target is None else index[target])
    left = tuple(index[(i, j, (h + 3) % 4)] for i, j, h in triples)
    right = tuple(index[(i, j, (h + 1) % 4)] for i, j, h in triples)
    return Lattice(config, tuple(triples), tuple(poses), index, tuple(ahead), blockers, left, right)
