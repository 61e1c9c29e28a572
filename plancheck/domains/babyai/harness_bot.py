"""LLM-BabyBench's own expert: minigrid's ``BabyAIBot`` as the benchmark modified it, on the live env.

The benchmark's records (Predict action sequences, Plan ``expert_action_sequence``, Decompose
``help_count``) come from a modified bot in its repository (``omniscient_fixed_plan_baby_ai_bot.py``,
read for its behaviour; this is plancheck's own code). It differs from minigrid's bot in these ways,
each reproduced here:

* it sees the whole map (no exploration of unseen cells; ``Explore`` only opens the nearest closed
  door, unlocked ones first, and gives up when there is none);
* its breadth-first search walks through locked doors, and through closed doors when blockers are
  allowed; looking for a key of a named colour it does not walk through locked doors of that colour,
  and a key it cannot reach that way is skipped (its ``signal`` variable, which keeps its value for
  the next objects of the same description: a non-key object after an unreachable key is skipped too);
* ``GoNextTo`` checks its path for a locked door it holds no key for (other than its target) and first
  goes to open it (``GoNextTo(door, Open)``, ``Open``), then resumes;
* ``Open``/``Close``/``Drop`` with nothing to act on are dropped from the plan instead of asserting;
  opening a locked door does not plan to drop the key afterwards;
* ``Pickup`` with full hands goes to drop what it holds and comes back;
* every subgoal pushed onto the plan counts as *help* (the initial subgoals from the mission too,
  which makes the records' ``help_count``); a list given up front does not count.

Where the benchmark's bot fails (an assertion, a search without result) this one raises
:class:`BotGaveUp`: the benchmark's generators skip such instances (no record exists for them).
The driver calls ``replan()`` without the action taken, as the generators do. Run beside the
benchmark's own bot on minigrid 3.2.0, it acted identically (actions, success, help count) on all
8,000 runs of the 16 levels x seeds 1-500 and all 1,600 of the 16 Plan rooms x seeds 1-100.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

Pos = tuple[int, int]
Accept = Callable[[Pos, Any], bool]
MAX_REPLANS = 10_000  # subgoal replans within one step before the bot is declared stuck (the original would hang)


class BotGaveUp(Exception):
    """The benchmark's bot would stop here (an assertion or a failed search in its code)."""


@dataclass(eq=False)
class Subgoal:
    """One plan step: ``kind`` (GoNextTo, Open, Close, Pickup, Drop, Explore), its target and why."""

    kind: str
    datum: Any = None
    reason: str | None = None


@dataclass(frozen=True, slots=True)
class Search:
    """A shortest-path answer: the cells to walk (agent's cell excluded), the cell found, via blockers."""

    path: list[Pos] | None
    finish: Pos | None
    with_blockers: bool
    signal: str | None = None  # the colour search's verdict: "path_found" / "no_path"


def _manhattan(a: Any, b: Any) -> int:
    return abs(int(b[0]) - int(a[0])) + abs(int(b[1]) - int(a[1]))


def _same(a: Any, b: Any) -> bool:
    return int(a[0]) == int(b[0]) and int(a[1]) == int(b[1])


@dataclass
class HarnessBot:
    """The benchmark's bot on a reset minigrid environment (``env.unwrapped`` is used)."""

    env: Any
    stack: list[Subgoal] = field(default_factory=list)
    help: int = 0

    def __post_init__(self) -> None:
        self.env = self.env.unwrapped

    # -- the plan ---------------------------------------------------------------------------------
    def push(self, subgoal: Subgoal) -> None:
        """Add a subgoal on top of the plan; it counts as help."""
        self.help += 1
        self.stack.append(subgoal)

    def give(self, subgoals: list[Subgoal]) -> None:
        """Start from a list given up front (executed first to last; not counted as help)."""
        self.stack = list(reversed(subgoals))

    def plan_mission(self) -> None:
        """The mission's own subgoals (they count as help, as in the benchmark's records)."""
        self._instruction(self.env.instrs)

    def _instruction(self, instr: Any) -> None:
        kind = type(instr).__name__
        if kind == "GoToInstr":
            self.push(Subgoal("GoNextTo", instr.desc))
        elif kind == "OpenInstr":
            self.push(Subgoal("Open"))
            self.push(Subgoal("GoNextTo", instr.desc, "Open"))
        elif kind == "PickupInstr":  # pick up and drop at once, so that other objects can be carried
            self.push(Subgoal("Drop"))
            self.push(Subgoal("Pickup"))
            self.push(Subgoal("GoNextTo", instr.desc))
        elif kind == "PutNextInstr":
            self.push(Subgoal("Drop"))
            self.push(Subgoal("GoNextTo", instr.desc_fixed, "PutNext"))
            self.push(Subgoal("Pickup"))
            self.push(Subgoal("GoNextTo", instr.desc_move))
        elif kind in ("BeforeInstr", "AndInstr"):
            self._instruction(instr.instr_b)
            self._instruction(instr.instr_a)
        elif kind == "AfterInstr":
            self._instruction(instr.instr_a)
            self._instruction(instr.instr_b)
        else:
            raise BotGaveUp(f"unknown instruction {kind}")

    def next_action(self) -> int:
        """The bot's next action (minigrid's number); ``done`` when its plan is empty."""
        if self.stack and self.stack[-1].kind in ("Open", "Close", "Drop", "Pickup"):
            self.stack.pop()  # the action it suggested last time was taken
        while self.stack and self.stack[-1].kind == "Explore":
            self.stack.pop()
        for _ in range(MAX_REPLANS):
            if not self.stack:
                return int(self.env.actions.done)
            action = self._replan(self.stack[-1])
            if action is not None:
                return int(action)
        raise BotGaveUp(f"no action after {MAX_REPLANS} replans (the bot loops)")

    def _replan(self, subgoal: Subgoal) -> Any:
        return getattr(self, f"_{subgoal.kind.lower()}")(subgoal)

    # -- what the agent sees ------------------------------------------------------------------------
    @property
    def pos(self) -> np.ndarray:
        return np.asarray(self.env.agent_pos)

    @property
    def fwd_pos(self) -> np.ndarray:
        return self.pos + self.env.dir_vec

    @property
    def fwd_cell(self) -> Any:
        return self.env.grid.get(*self.fwd_pos)

    @property
    def carrying(self) -> Any:
        return self.env.carrying

    def _holds_key_for(self, door: Any) -> bool:
        held = self.carrying
        return bool(held and held.type == "key" and held.color == door.color)

    # -- subgoals -----------------------------------------------------------------------------------
    def _close(self, subgoal: Subgoal) -> Any:
        cell = self.fwd_cell
        if cell is None or cell.type != "door" or not cell.is_open:
            self.stack.pop()
            return None
        return self.env.actions.toggle

    def _drop(self, subgoal: Subgoal) -> Any:
        if not self.carrying or self.fwd_cell:
            self.stack.pop()
            return None
        return self.env.actions.drop

    def _pickup(self, subgoal: Subgoal) -> Any:
        if self.carrying:  # put down what is held, come back, then pick up
            self.push(Subgoal("GoNextTo", self.fwd_pos))
            drop_at = self._drop_pos()
            self.push(Subgoal("Drop"))
            self.push(Subgoal("GoNextTo", drop_at))
            return None
        return self.env.actions.pickup

    def _open(self, subgoal: Subgoal) -> Any:
        door = self.fwd_cell
        if door is None or door.type != "door" or door.is_open:
            self.stack.pop()
            return None
        if door.is_locked and not self._holds_key_for(door):
            key = _key_description(self.env, door.color)
            here = tuple(self.fwd_pos)
            self.stack.pop()
            if self.carrying:
                drop_at = self._drop_pos()
                for step in (Subgoal("Pickup"), Subgoal("GoNextTo", drop_at), Subgoal("Open"),
                             Subgoal("GoNextTo", here), Subgoal("Pickup"), Subgoal("GoNextTo", key),
                             Subgoal("Drop"), Subgoal("GoNextTo", drop_at)):
                    self.push(step)
            else:
                for step in (Subgoal("Open"), Subgoal("GoNextTo", here), Subgoal("Pickup"), Subgoal("GoNextTo", key)):
                    self.push(step)
            return None
        return self.env.actions.toggle

    def _explore(self, subgoal: Subgoal) -> Any:
        found = self._shortest(lambda pos, cell: bool(cell and cell.type == "door" and not cell.is_locked
                                                      and not cell.is_open), blockers=True).finish
        if not found:
            found = self._shortest(lambda pos, cell: bool(cell and cell.type == "door" and not cell.is_open),
                                   blockers=True).finish
        if not found:
            raise BotGaveUp("nothing left to explore")
        door = self.env.grid.get(*found)
        self.stack.pop()
        self.push(Subgoal("Open", reason="KeepKey" if door.is_locked and self._holds_key_for(door) else None))
        self.push(Subgoal("GoNextTo", door, "Open"))
        return None

    def _gonextto(self, subgoal: Subgoal) -> Any:
        target_obj = None
        datum = subgoal.datum
        if type(datum).__name__ == "ObjDesc":
            target_obj, target_pos = self._closest_match(datum, subgoal.reason == "PutNext")
            if not target_pos:
                self.push(Subgoal("Explore"))
                return None
        elif hasattr(datum, "cur_pos"):
            target_obj, target_pos = datum, datum.cur_pos
        else:
            target_pos = tuple(datum)
        if subgoal.reason == "Open" and target_obj and target_obj.type == "door" and target_obj.is_locked:
            key = _key_description(self.env, target_obj.color)
            if not self.carrying:  # fetch the key first, then come back to this door
                self.stack.pop()
                self.push(Subgoal("GoNextTo", target_obj, "Open"))
                self.push(Subgoal("Pickup"))
                self.push(Subgoal("GoNextTo", key))
                return None
        pos, fwd, actions, grid = self.pos, self.fwd_pos, self.env.actions, self.env.grid
        right = self.env.right_vec
        if _manhattan(target_pos, pos) == (1 if subgoal.reason == "PutNext" else 0):  # step off the spot
            def steppable(cell: Any) -> bool:
                return cell is None or (cell.type == "door" and cell.is_open)

            if steppable(self.fwd_cell):
                return actions.forward
            if steppable(grid.get(*(pos + right))):
                return actions.right
            return actions.left  # to the left, or spin and hope
        if subgoal.reason == "PutNext":
            if _manhattan(target_pos, fwd) == 1:
                if self.fwd_cell is None:
                    self.stack.pop()
                    return None
                if self.fwd_cell.type == "door" and self.fwd_cell.is_open:  # no dropping onto a door
                    self.push(Subgoal("GoNextTo", fwd + 2 * np.asarray(self.env.dir_vec)))
                    return None
        elif _same(target_pos, fwd):
            self.stack.pop()
            return None

        def reached(cell_pos: Pos, cell: Any) -> bool:
            return cell_pos == target_pos if isinstance(target_pos, tuple) else _same(cell_pos, target_pos)

        path = self._shortest(reached).path
        if not path:
            path = self._shortest(reached, blockers=True).path
        if not path:
            self.push(Subgoal("Explore"))
            return None
        for cell_pos in path:
            if _same(cell_pos, pos):
                continue
            cell = grid.get(*cell_pos)
            if not (cell and cell.type == "door" and cell.is_locked) or cell is target_obj:
                continue
            if self._holds_key_for(cell):
                break
            self.stack.pop()  # open that door first, then resume this subgoal
            self.push(Subgoal("GoNextTo", subgoal.datum, subgoal.reason))
            self.push(Subgoal("Open"))
            self.push(Subgoal("GoNextTo", cell, "Open"))
            return None
        step = path[0]
        if _same(step, fwd):
            cell = self.fwd_cell
            if not cell:
                return actions.forward
            if cell.type == "door":
                if cell.is_locked:
                    raise BotGaveUp(f"walked up to the locked {cell.color} door at {tuple(map(int, fwd))}")
                if not cell.is_open:
                    self.push(Subgoal("Open"))
                    return None
                return actions.forward
            if self.carrying:  # put the load down, move the blocker away, take the load back
                drop_load = self._drop_pos()
                drop_blocker = self._drop_pos(drop_load)
                for goal in (Subgoal("Pickup"), Subgoal("GoNextTo", drop_load), Subgoal("Drop"),
                             Subgoal("GoNextTo", drop_blocker), Subgoal("Pickup"), Subgoal("GoNextTo", fwd),
                             Subgoal("Drop"), Subgoal("GoNextTo", drop_load)):
                    self.push(goal)
                return None
            drop_at = self._drop_pos()
            self.push(Subgoal("Drop"))
            self.push(Subgoal("GoNextTo", drop_at))
            self.push(Subgoal("Pickup"))
            return None
        turn = np.asarray(step) - pos
        if np.array_equal(turn, right):
            return actions.right
        if np.array_equal(turn, -right):
            return actions.left
        # the cell is behind: turn towards the side whose nearest wall or door is further away
        if self._clearance(pos, -right) > self._clearance(pos, right):
            return actions.left
        return actions.right

    # -- searches -----------------------------------------------------------------------------------
    def _closest_match(self, desc: Any, adjacent: bool) -> tuple[Any, Pos | None]:
        """The closest object the description matches (its cost as the benchmark's bot counts it)."""
        if not desc.obj_set:
            raise BotGaveUp("a description matches no object")
        best, best_obj, best_pos = 999, None, None
        signal = None
        for index, obj in enumerate(desc.obj_set):
            if obj.type == "wall" or obj is self.carrying:
                continue
            if index >= len(desc.obj_poss):  # a tracked object no longer on the grid: positions shifted
                continue
            obj_pos = desc.obj_poss[index]

            def at(cell_pos: Pos, cell: Any, obj_pos: Pos = obj_pos) -> bool:
                return cell_pos == obj_pos

            if obj.type == "key" and desc.color is not None:
                found = self._shortest(at, blockers=True, color=desc.color)
                signal = found.signal
            else:
                found = self._shortest(at, blockers=True)
            if signal == "no_path":
                continue
            if found.path is None:
                raise BotGaveUp(f"no path to the {obj.color} {obj.type} at {obj_pos}")
            distance = len(found.path)
            if found.with_blockers:  # moving a blocker takes at least 4 more actions, 7 when carrying
                distance += 7 if self.carrying else 4
            if distance == 0:
                distance = 3 if adjacent else 2
            if adjacent and distance == 1:
                distance = 3
            if distance < best:
                best, best_obj, best_pos = distance, obj, obj_pos
        return best_obj, best_pos

    def _bfs(self, starts: list[tuple[int, int, int, int]], accept: Accept, blockers: bool,
             color: str | None) -> tuple[list[Pos] | None, Pos | None, dict[Pos, Pos | None]]:
        """Breadth-first over cells; going straight is tried before turning. Returns the path from the
        cell found back to a start, the cell found, and every visited cell's predecessor."""
        grid = self.env.grid
        queue = deque((start, None) for start in starts)
        previous: dict[Pos, Pos | None] = {}
        while queue:
            (i, j, di, dj), came_from = queue.popleft()
            if (i, j) in previous:
                continue
            cell = grid.get(i, j)
            previous[(i, j)] = came_from
            if accept((i, j), cell):
                path, at = [], (i, j)
                while at:
                    path.append(at)
                    at = previous[at]
                return path, (i, j), previous
            if cell:
                if cell.type == "wall":
                    continue
                if cell.type == "door":
                    if not cell.is_locked:
                        if not cell.is_open and not blockers:
                            continue
                    elif color is not None and cell.color == color:
                        continue
                elif not blockers:
                    continue
            for k, step in ((di, dj), (dj, di), (-dj, -di), (-di, -dj)):
                queue.append(((i + k, j + step, k, step), (i, j)))
        return None, None, previous

    def _shortest(self, accept: Accept, *, blockers: bool = False, color: str | None = None) -> Search:
        """A path to a cell ``accept`` takes, avoiding blockers (objects, closed doors) as long as possible."""
        x, y = (int(v) for v in self.env.agent_pos)
        dx, dy = (int(v) for v in self.env.dir_vec)
        path, finish, previous = self._bfs([(x, y, dx, dy)], accept, False, color)
        signal = None if color is None else ("path_found" if path else "no_path")
        with_blockers = False
        if not path and blockers:
            with_blockers = True
            path, finish, _ = self._bfs([(i, j, 1, 0) for i, j in previous], accept, True, color)
            if color is not None:
                signal = "path_found" if path else "no_path"
            if path:
                back, at = [], path[-1]
                while at:
                    back.append(at)
                    at = previous[at]
                path = path + back[1:]
        if path:
            path = path[::-1][1:]
        return Search(path, finish, with_blockers, signal)

    def _drop_pos(self, avoid: Pos | None = None) -> Pos | None:
        """Where to put an object down, ideally without cutting a passage (the bot's rule)."""
        grid = self.env.grid
        agent = tuple(int(v) for v in self.env.agent_pos)

        def free(cell_pos: Pos, cell: Any) -> bool:
            return cell_pos != agent and not (avoid and cell_pos == tuple(avoid)) and not cell

        def harmless(cell_pos: Pos, cell: Any) -> bool:
            if not free(cell_pos, cell):
                return False
            i, j = cell_pos
            kinds = []  # around the cell: 0 empty (or an open door, or the agent), 1 wall, 2 anything else
            for k, step in ((-1, -1), (0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0)):
                near = (i + k, j + step)
                other = grid.get(*near)
                if other and other.type == "wall":
                    kinds.append(1)
                elif (not other or (other.type == "door" and other.is_open) or near == agent) and near != avoid:
                    kinds.append(0)
                else:
                    kinds.append(2)
            changes = sum(bool(kinds[(n + 1) % 8]) != bool(kinds[n]) for n in range(8))
            if any(kinds[n] == 2 and kinds[n - 1] != 0 and kinds[(n + 1) % 8] != 0 for n in range(8)):
                return False
            return changes <= 2

        for accept, blockers in ((harmless, False), (free, False), (harmless, True), (free, True)):
            found = self._shortest(accept, blockers=blockers).finish
            if found:
                return found
        return None

    def _clearance(self, position: np.ndarray, direction: np.ndarray) -> int:
        """Cells from ``position`` to the nearest wall or door along ``direction`` within the agent's view."""
        distance = 1
        while True:
            x, y = position + distance * direction
            if not self.env.in_view(x, y):
                return distance - 1
            cell = self.env.grid.get(x, y)
            if cell and (cell.type.endswith("door") or cell.type == "wall"):
                return distance
            distance += 1


def _key_description(env: Any, color: str) -> Any:
    from minigrid.envs.babyai.core.verifier import ObjDesc

    key = ObjDesc("key", color)
    key.find_matching_objs(env)
    return key
