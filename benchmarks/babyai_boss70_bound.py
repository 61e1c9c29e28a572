"""The optimum of BossLevel 70 is 146 actions: a lower bound split at the unlock, met by a known plan.

Mission: "put a purple key next to the grey ball after you pick up the blue key and go to the blue
key". The blue key lies in the top-middle room, whose only door (14, 2) is locked; its key, the only
red one, lies in the top-left room; the agent starts in the top-right room. So every plan unlocks
the door, from (15, 2) facing west with the red key in hand (U), and its length is at least
t + C(X): t the actions up to that toggle, C(X) the exact optimum from the state X right after it
(the concrete A* with the mission estimate, well under a second). The least t + C(X) is found by A*
over minigrid's exact rules up to the toggle, with C(X) as the value of each such state and, before
it, a relaxed estimate that never exceeds what is left. Two searches cover every plan:

* **the grey ball lies where it started when the door is unlocked**; the estimate is the least of
  (a) no purple key picked up before the unlock: the walk (to the red key, its pickup) to U and the
  toggle, plus a bound on C for the purple keys where they lie now; (b) a purple key picked up
  first: the same walk through that key, with its pickup and drop (and the red key's drop and
  second pickup when the red key comes first), plus a bound on C with the purple keys anywhere;
* **the grey ball lies elsewhere**: the walk to the ball, to the cell g it is left on, to the red
  key and U, in each order of those three (with the drops and pickups each order forces: one hand),
  plus a bound on C for the ball at g and the purple keys anywhere; the least over g.

Relaxed means: walks on the walls-only map (objects never block, closed doors are open; turns
count), each pickup, drop and toggle an action of its own. The doors still to be opened are
counted by cuts, disjoint sets of doors that some future step must cross (the script checks the
room topology they rest on): (3, 7) into the top-left room, (7, 9) or (1, 14) out of the left
rooms, (14, 13) out of the west, (17, 7) into the top-right room, (19, 14) into the bottom-right
room, where the final drop next to the ball happens (the verifier refreshes the ball's position on
every drop, so next to wherever it lies then). The bound on C after the unlock: drop the red key,
pick up the blue key, drop it, pick up a purple key, drop it next to the ball; or the purple key
picked up before the blue key (two actions more); or the ball moved after the unlock.

A search ends when it takes out a state right after the toggle: no plan of its case is shorter than
that state's t + C(X). Both give 146 or more; the 146-action plan of
``benchmarks/babyai_best_known.py`` (kept and replayed in tests/babyai/test_abstract.py) is
therefore optimal. The first search ends in 11 s (18,999 states, a plan that unlocks after 93 actions
and needs 53 more), the second proves 146 after 2.36 M states (5 minutes, 3.8 GB), on one core.

    python benchmarks/babyai_boss70_bound.py [--case ball-in-place|ball-moved|both]
"""

from __future__ import annotations

import argparse
import heapq
import sys
import time
from functools import cache
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from plancheck.domains.babyai.extract import load_instance  # noqa: E402
from plancheck.domains.babyai.instance import LOCKED, OPEN  # noqa: E402
from plancheck.domains.babyai.rules import BabyAIRules  # noqa: E402
from plancheck.domains.babyai.search.astar import INF, Model, astar, mission_goal  # noqa: E402
from plancheck.domains.babyai.search.heuristic import MissionHeuristic  # noqa: E402

INSTANCE = load_instance("BabyAI-BossLevel-v0", 70)
MODEL = Model(BabyAIRules(INSTANCE))
W = INSTANCE.width
CELLS, POSES = W * INSTANCE.height, W * INSTANCE.height * 4
RED_KEY, BALL, PURPLES = 2, 15, (1, 12)
LOCKED_DOOR = 0
cell = MODEL.cell
RED_DOOR, RED_KEY_CELL, BALL_CELL, BLUE_KEY_CELL = cell(14, 2), cell(3, 2), cell(16, 16), cell(10, 5)
U = cell(15, 2) * 4 + 2  # facing the red door from the east, the only free cell next to it outside
DOORS = {door.pos: index for index, door in enumerate(INSTANCE.doors)}
ROOM_DOORS = {(3, 7): "TL|ML", (7, 9): "ML|MM", (1, 14): "ML|BL", (14, 13): "MM|MR", (13, 14): "MM|BM",
              (7, 18): "BL|BM", (17, 7): "TR|MR", (19, 14): "MR|BR", (14, 2): "TM|TR"}


def _room(c: int) -> str:
    x, y = c % W, c // W
    if (x, y) in ROOM_DOORS:
        return ROOM_DOORS[(x, y)]
    return ("T" if y < 7 else "M" if y < 14 else "B") + ("L" if x < 7 else "M" if x < 14 else "R")


ROOM = [_room(c) for c in range(CELLS)]
LEFT = {"TL", "ML", "TL|ML"}
WEST = LEFT | {"BL", "MM", "BM", "ML|MM", "ML|BL", "MM|BM", "BL|BM"}
CUT_TL, CUT_LEFT, CUT_WEST, CUT_TR, CUT_BR = ((3, 7),), ((7, 9), (1, 14)), ((14, 13),), ((17, 7),), ((19, 14),)


# -- the relaxed pose graph ------------------------------------------------------------------------

def _blocked(locked: bool) -> bytearray:
    blocked = bytearray(MODEL.walls)
    blocked[RED_DOOR] = locked
    return blocked


BLOCKED = {locked: _blocked(locked) for locked in (True, False)}


def _successors(locked: bool) -> list[list[int]]:
    graph: list[list[int]] = [[] for _ in range(POSES)]
    for pose in range(POSES):
        c, d = divmod(pose, 4)
        if BLOCKED[locked][c]:
            continue
        graph[pose] = [c * 4 + (d + 1) % 4, c * 4 + (d + 3) % 4]
        if not BLOCKED[locked][MODEL.front[pose]]:
            graph[pose].append(MODEL.front[pose] * 4 + d)
    return graph


SUCC = {locked: _successors(locked) for locked in (True, False)}
PRED: dict[bool, list[list[int]]] = {locked: [[] for _ in range(POSES)] for locked in (True, False)}
FACE: dict[bool, dict[int, list[int]]] = {locked: {} for locked in (True, False)}
for _locked in (True, False):
    for _pose, _nexts in enumerate(SUCC[_locked]):
        for _next in _nexts:
            PRED[_locked][_next].append(_pose)
        if _nexts and MODEL.front[_pose] != _pose >> 2:
            FACE[_locked].setdefault(MODEL.front[_pose], []).append(_pose)


def spread(seeds: dict[int, int], graph: list[list[int]]) -> list[int]:
    """Least seed value plus steps, over ``graph`` (successors: forward; predecessors: backward)."""
    dist = [INF] * POSES
    heap = [(value, pose) for pose, value in seeds.items() if value < INF]
    heapq.heapify(heap)
    while heap:
        value, pose = heapq.heappop(heap)
        if dist[pose] <= value:
            continue
        dist[pose] = value
        for other in graph[pose]:
            if dist[other] > value + 1:
                heapq.heappush(heap, (value + 1, other))
    return dist


def through(table: list[int], c: int, cost: int, locked: bool = True) -> list[int]:
    """pose -> walk to face ``c``, an action there costing ``cost``, then go on as ``table`` says."""
    return spread({q: table[q] + cost for q in FACE[locked].get(c, []) if table[q] < INF}, PRED[locked])


def onward(start: dict[int, int], visits: tuple[int, ...]) -> list[int]:
    """pose -> least walk from ``start`` facing each cell of ``visits`` in turn, ending at pose (no locks)."""
    table = spread(start, SUCC[False])
    for c in visits:
        table = spread({q: table[q] for q in FACE[False].get(c, []) if table[q] < INF}, SUCC[False])
    return table


TO_U = spread({U: 1}, PRED[True])  # pose -> U, and the toggle


# -- after the unlock ------------------------------------------------------------------------------

def _next_to(c: int) -> list[int]:
    return [n for n in (c - 1, c + 1, c - W, c + W) if not BLOCKED[False][n]]


@cache
def after_unlock(keys: tuple, ball: int) -> int:
    """A lower bound on C(X) for the purple keys on ``keys`` (None: anywhere) and the ball on
    ``ball``, without the toggle of (19, 14) (counted by the cut)."""
    drop_next_to = spread({q: 1 for n in _next_to(ball) for q in FACE[False].get(n, [])}, PRED[False])
    blue = onward({U: 0}, (BLUE_KEY_CELL,))  # the red key dropped, the blue key picked up: 2 actions
    best = INF
    for key in keys:
        # the key picked up after the blue key: 5 actions (red drop, blue pickup, blue drop, pickup, drop)
        faces = range(POSES) if key is None else FACE[False].get(key, [])
        best = min(best, min((blue[q] + drop_next_to[q] + 4 for q in faces), default=INF))
        if key is not None:  # picked up before the blue key, dropped, picked up again: 7 actions
            via = onward({U: 0}, (key, BLUE_KEY_CELL))
            best = min(best, min(via[q] + drop_next_to[q] for q in range(POSES)) + 6)
    # the ball moved after the unlock (its pickup and drop, and the 5 above)
    moved = min(min(onward({U: 0}, (BLUE_KEY_CELL, ball))), min(onward({U: 0}, (ball, BLUE_KEY_CELL))))
    return min(best, moved + 7)


# -- before the unlock -----------------------------------------------------------------------------

def doors_to_open(config, agent: int, ball_cut: bool) -> int:
    """One toggle for each cut whose doors are all closed and that a later step must cross; the
    cut into the bottom-right room counts when ``ball_cut`` says it must be entered."""
    closed = {pos: config.doors[i] != OPEN for pos, i in DOORS.items()}
    red = None if config.carrying == RED_KEY else ROOM[cell(*config.objects[RED_KEY])]
    here = ROOM[agent]

    def shut(cut: tuple) -> bool:
        return all(closed[pos] for pos in cut)

    return (shut(CUT_TL) and "TL" in (here, red)) + (shut(CUT_LEFT) and (here in LEFT or red in LEFT)) \
        + (shut(CUT_WEST) and (here in WEST or red in WEST)) \
        + (shut(CUT_TR) and (here != "TR" or red not in (None, "TR"))) + (shut(CUT_BR) and ball_cut)


@cache
def walk_via(visits: tuple) -> list[int]:
    """pose -> walk facing each (cell, actions there) in turn, then to U and the toggle."""
    table = TO_U
    for c, cost in reversed(visits):
        table = through(table, c, cost)
    return table


def _extra(config) -> int:
    """A drop first, if the hand holds something that is neither the red key nor the object sought."""
    return 1 if config.carrying >= 0 and config.carrying != RED_KEY else 0


EXACT_MODEL = Model(MODEL.rules)
EXACT_ESTIMATE = MissionHeuristic(EXACT_MODEL)
EXACT: dict[int, int] = {}


def rest(cid: int, pose: int) -> int:
    """C(X): the exact optimum from a state right after the unlock."""
    value = EXACT.get(cid)
    if value is None:
        found = astar(EXACT_MODEL, MODEL.state(cid, pose), EXACT_ESTIMATE, mission_goal(EXACT_MODEL))
        value = EXACT[cid] = found.cost if found.cost is not None else INF
    return value


def ball_in_place(cid: int, pose: int) -> int:
    """The estimate for plans that unlock with the ball where it started."""
    config = MODEL.configs[cid]
    if config.doors[LOCKED_DOOR] != LOCKED:
        return rest(cid, pose) if pose == U and config.objects[BALL] == (16, 16) else INF
    doors = doors_to_open(config, pose >> 2, True)  # the final drop is next to the ball
    red = None if config.carrying == RED_KEY else cell(*config.objects[RED_KEY])
    best = INF
    if config.carrying not in PURPLES:  # (a) no purple key picked up before the unlock
        keys = tuple(cell(*config.objects[k]) for k in PURPLES)
        walk = TO_U[pose] if red is None else walk_via(((red, 1),))[pose] + _extra(config)
        best = walk + after_unlock(keys, BALL_CELL)
    if config.carrying in PURPLES:  # (b) a purple key in hand: dropped, then the red key
        walk = 1 + walk_via(((red, 1),))[pose]
    elif red is None:  # (b) the red key dropped, a purple key picked up and dropped, the red key again
        walk = min(walk_via(((cell(*config.objects[k]), 0),))[pose] for k in PURPLES) + 4
    else:  # (b) the purple key first, or the red key first (then dropped and picked up again)
        walk = _extra(config) + min(min(walk_via(((cell(*config.objects[k]), 2), (red, 1)))[pose],
                                        walk_via(((red, 0), (cell(*config.objects[k]), 0)))[pose] + 5)
                                    for k in PURPLES)
    return doors + min(best, walk + after_unlock((None,), BALL_CELL))


BALL_CELLS = [c for c in range(CELLS) if not MODEL.walls[c] and ROOM[c] != "TM" and "|" not in ROOM[c]
              and c != BALL_CELL]


def _leave_ball(table: list[int]) -> list[int]:
    """pose -> face the best cell g, drop the ball there (C for the ball on g added), then go on as ``table``."""
    seeds: dict[int, int] = {}
    for g in BALL_CELLS:
        value = after_unlock((None,), g) + 1
        for q in FACE[True].get(g, []):
            if table[q] < INF:
                seeds[q] = min(seeds.get(q, INF), table[q] + value)
    return spread(seeds, PRED[True])


@cache
def _ball_tables(ball: int | None, red: int | None) -> dict[str, list[int]]:
    """pose -> the walk, pickups and drops to U for the ball on ``ball`` and the red key on ``red``
    (None: in hand), by the order of the ball's first pickup (b), its last drop (g) and the red key's
    first pickup (r); the ball left where it lies as "stay"."""
    if ball is None:  # in hand: g then r; or r then g (ball dropped, r, red key dropped, ball again, g, red key again)
        return {"moved": [min(x, y + 4) for x, y in zip(_leave_ball(walk_via(((red, 1),))),
                                                         through(_leave_ball(TO_U), red, 1), strict=True)]}
    if red is None:  # red key dropped, b, g, red key again
        return {"moved": [v + 2 for v in through(_leave_ball(TO_U), ball, 1)], "stay": TO_U}
    b_g_r = through(_leave_ball(walk_via(((red, 1),))), ball, 1)
    b_r_g = through(through(_leave_ball(TO_U), red, 1), ball, 1)  # + ball dropped, red key dropped, ball, red key
    r_b_g = through(through(_leave_ball(TO_U), ball, 1), red, 1)  # + red key dropped and picked up again
    return {"moved": [min(x, y + 4, z + 2) for x, y, z in zip(b_g_r, b_r_g, r_b_g, strict=True)],
            "stay": walk_via(((red, 1),))}


def ball_moved(cid: int, pose: int) -> int:
    """The estimate for plans that unlock with the ball elsewhere."""
    config = MODEL.configs[cid]
    if config.doors[LOCKED_DOOR] != LOCKED:
        return rest(cid, pose) if pose == U and config.objects[BALL] != (16, 16) else INF
    held = config.carrying
    red = None if held == RED_KEY else cell(*config.objects[RED_KEY])
    ball = None if held == BALL else cell(*config.objects[BALL])
    in_br = ROOM[pose >> 2] == "BR" or ball is not None and ROOM[ball] == "BR"
    tables = _ball_tables(ball, red)
    best = tables["moved"][pose]
    if ball is not None and ball != BALL_CELL:  # or left where it lies now
        best = min(best, tables["stay"][pose] + after_unlock((None,), ball))
    extra = 1 if held >= 0 and held not in (RED_KEY, BALL) else 0
    return doors_to_open(config, pose >> 2, in_br) + extra + best


def check_topology() -> None:
    """The room facts the estimates rest on: which rooms each cut encloses, the red door's neighbours."""
    def enclosed(doors: tuple, inside: int) -> set[str]:
        removed = {cell(*pos) for pos in doors}
        seen, todo = {inside}, [inside]
        while todo:
            c = todo.pop()
            for n in (c - 1, c + 1, c - W, c + W):
                if not MODEL.walls[n] and n not in removed and n not in seen:
                    seen.add(n)
                    todo.append(n)
        return {ROOM[c] for c in seen}

    start = MODEL.pose_of(INSTANCE.start) >> 2
    assert enclosed(((14, 2),), BLUE_KEY_CELL) == {"TM"}, "the blue key is not behind the red door alone"
    assert INSTANCE.start.doors[LOCKED_DOOR] == LOCKED and INSTANCE.doors[LOCKED_DOOR].pos == (14, 2)
    assert [t.color for t in INSTANCE.things if t.kind == "key"].count("red") == 1
    assert {n for n in (RED_DOOR - 1, RED_DOOR + 1, RED_DOOR - W, RED_DOOR + W) if not MODEL.walls[n]} == {
        cell(13, 2), cell(15, 2)}
    assert enclosed(CUT_TL, RED_KEY_CELL) == {"TL"}
    assert enclosed(CUT_LEFT, RED_KEY_CELL) == LEFT
    assert enclosed(CUT_WEST, RED_KEY_CELL) == WEST
    assert enclosed(CUT_TR + ((14, 2),), start) == {"TR"}
    assert enclosed(CUT_BR, BALL_CELL) == {"BR"}
    assert {ROOM[m] for n in _next_to(BALL_CELL) for m in _next_to(n) if m != BALL_CELL} == {"BR"}
    assert all(INSTANCE.start.doors[DOORS[pos]] != OPEN for cut in (CUT_TL, CUT_LEFT, CUT_WEST, CUT_TR, CUT_BR)
               for pos in cut)


class _Reached(Exception):
    """Raised from the progress report once the search's proven bound reaches the target."""

    def __init__(self, bound: int, expanded: int):
        super().__init__(bound)
        self.bound, self.expanded = bound, expanded


def search(name: str, estimate, target: int) -> int:
    """The least t + C(X) over the plans of one case, or a proven bound of at least ``target``."""
    began = time.perf_counter()

    def report(expanded: int, bound: int) -> None:
        if bound >= target:
            raise _Reached(bound, expanded)

    try:
        found = astar(MODEL, INSTANCE.start, estimate,
                      lambda cid, pose: MODEL.configs[cid].doors[LOCKED_DOOR] != LOCKED, report=report)
    except _Reached as reached:
        print(f"{name}: at least {reached.bound} actions (no state of a shorter plan is left after "
              f"{reached.expanded:,} states, {time.perf_counter() - began:.0f} s)", flush=True)
        return reached.bound
    if found.plan is None:
        print(f"{name}: no plan of this case")
        return INF
    state = INSTANCE.start
    for action in found.plan:
        state = MODEL.rules.step(state, action).state
    cid = MODEL.intern(state)
    total = found.cost + rest(cid, MODEL.pose_of(state))
    print(f"{name}: at least {total} actions, met by a plan that unlocks after {found.cost} "
          f"({found.expanded:,} states, {time.perf_counter() - began:.0f} s)", flush=True)
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", choices=("ball-in-place", "ball-moved", "both"), default="both")
    parser.add_argument("--target", type=int, default=146, help="stop a search once it proves this bound")
    args = parser.parse_args()
    check_topology()
    bounds = []
    if args.case in ("ball-in-place", "both"):
        bounds.append(search("ball in place at the unlock", ball_in_place, args.target))
    if args.case in ("ball-moved", "both"):
        bounds.append(search("ball moved before the unlock", ball_moved, args.target))
    if args.case == "both":
        print(f"every plan has at least {min(bounds)} actions")


if __name__ == "__main__":
    main()
