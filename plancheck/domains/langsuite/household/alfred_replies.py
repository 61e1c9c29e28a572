"""ALFRED plans (``alfred.pddl`` steps) as LangSuitE's high-level replies, run through its conversation.

:func:`to_replies` translates each ALFRED step into the replies LangSuitE's Household task reads and sends them
one by one (:func:`~.rules.step`); where LangSuitE's ``goto`` does not bring what ALFRED acts on into view,
:func:`sight_moves` gives the fewest moves and turns that do.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from plancheck.domains.langsuite.engine import lattice as lattice_mod
from plancheck.domains.langsuite.engine.actions import WorldState
from plancheck.domains.langsuite.household.rules import Outcome, Task
from plancheck.domains.langsuite.household.rules import step as run_step


@dataclass(frozen=True)
class Translated:
    """An ALFRED plan as LangSuitE's high-level replies and what LangSuitE's run made of them."""

    replies: tuple[str, ...]
    success: bool  # LangSuitE scores s == ts at the stop
    conditions: tuple[int, int]
    refused: tuple[str, ...]  # "reply: feedback" of each action LangSuitE refused
    crashed: str | None
    by_moves: tuple[str, ...] = ()  # "goto [r]: n moves and turns": gotos LangSuitE's own does not bring into view
    limit: bool = False  # the episode reached LangSuitE's step limit before the stop


def to_replies(task: Task, steps: Sequence[str]) -> Translated:
    """ALFRED steps as LangSuitE's high-level replies, sent one by one through LangSuitE's conversation
    (:func:`~.rules.step`): ``GotoLocation`` -> ``goto [r]``, ``OpenObject`` / ``CloseObject`` -> ``open`` /
    ``close``, ``PickupObject`` -> ``pick_up`` (after ``open`` of a closed receptacle ALFRED does not count as
    openable: a toilet's lid hides what it holds in AI2-THOR 3), ``PutObject`` -> ``put``, ``ToggleObject`` ->
    ``toggle_on`` (``toggle_off`` if on), ``SliceObject`` -> ``slice``; ALFRED's ``HeatObject`` / ``CoolObject`` /
    ``CleanObject`` (one action, the object held, at the receptacle) become LangSuitE's physics, because its
    ``heat`` / ``cool`` / ``clean`` raise: ``open`` the receptacle if it is closed, ``put`` the object in,
    ``toggle_on`` a heater that is off, ``pick_up`` the object again; then ``stop``.

    Where LangSuitE's ``goto [r]`` does not bring what ALFRED acts on at ``r`` into view (its grid planner fails,
    would raise IndexError, or ends facing elsewhere), the ``GotoLocation`` becomes the fewest LangSuitE moves
    and turns to a pose that sees it (:func:`sight_moves`; LangSuitE's high level runs them, its prompt does not
    list them); when no reachable pose sees it, the ``goto`` is sent as it is."""
    high = Task(task.task, "high")
    turn = high.initial()
    replies: list[str] = []
    refused: list[str] = []

    def send(reply: str, out: Outcome | None = None) -> None:  # out: the step already taken from this turn
        nonlocal turn
        if turn.done:
            return
        out = out or run_step(high, turn, reply)
        replies.append(reply)
        if out.kind == "action" and not out.success:
            refused.append(f"{reply}: {out.feedback}")
        turn = out.turn

    def thing(name: str):
        return turn.world.scene.thing(turn.world.scene.names.ids[name])

    def seen(world: WorldState) -> set[str]:
        return set(high.engine.profile.observed(world.scene, world.pose, high.engine.config))

    by_moves: list[str] = []
    send("YES")
    parsed = [(w[0].lower(), w[1:]) for w in (raw.strip().strip("()").split() for raw in steps)]
    for i, (name, args) in enumerate(parsed):
        if name == "gotolocation":
            r = args[3]
            ids = turn.world.scene.names.ids
            need = {ids[r]} | {ids[a[2]] for a in _at_location(parsed[i + 1:])
                                if a[2] in ids and not thing(r).closed_container}
            trial = run_step(high, turn, f"Act: goto [{r}]")
            if not turn.done and not (trial.success and not trial.turn.crashed and need <= seen(trial.turn.world)):
                moves = sight_moves(high, turn.world, need)
                if moves is not None:
                    by_moves.append(f"goto [{r}]: {len(moves)} moves and turns")
                    for word in moves:
                        send(f"Act: {word}")
                    continue
            send(f"Act: goto [{r}]", trial)
        elif name in ("openobject", "closeobject"):
            send(f"Act: {name[:-6]} [{args[2]}]")
        elif name == "pickupobject":
            if thing(args[3]).openable and not thing(args[3]).is_open:
                send(f"Act: open [{args[3]}]")  # a toilet's lid: ALFRED's toilet is not openable
            send(f"Act: pick_up [{args[2]}]")
        elif name == "putobject":
            send(f"Act: put [{args[2]}, {args[3]}]")
        elif name == "toggleobject":
            send(f"Act: {'toggle_off' if thing(args[2]).is_toggled else 'toggle_on'} [{args[2]}]")
        elif name == "sliceobject":
            send(f"Act: slice [{args[2]}]")
        elif name in ("heatobject", "coolobject", "cleanobject"):
            r, o = args[2], args[3]
            if thing(r).openable and not thing(r).is_open:
                send(f"Act: open [{r}]")
            send(f"Act: put [{o}, {r}]")
            if name == "heatobject" and thing(r).toggleable and not thing(r).is_toggled:
                send(f"Act: toggle_on [{r}]")
            send(f"Act: pick_up [{o}]")
        # look, inventory, examine*, help: no effect a goal needs; nothing is sent
    send("Act: stop")
    goal = turn.goal
    limit = turn.timesteps >= high.step_limit and (not replies or replies[-1] != "Act: stop")
    return Translated(tuple(replies), bool(goal is not None and goal.success and not turn.crashed),
                      (goal.satisfied, goal.total) if goal is not None else (0, 0), tuple(refused), turn.crashed,
                      tuple(by_moves), limit)


def _at_location(rest: Sequence[tuple[str, list[str]]]) -> Iterator[list[str]]:
    """The ALFRED steps acting on an object until the next ``GotoLocation`` (pick up, toggle)."""
    for name, args in rest:
        if name == "gotolocation":
            return
        if name in ("pickupobject", "toggleobject"):
            yield args


def sight_moves(task: Task, world: WorldState, need: set[str]) -> list[str] | None:
    """The fewest ``move_ahead`` / ``turn_left`` / ``turn_right`` (breadth first on the pose lattice, every root
    an obstacle as LangSuitE's moves have it) from the agent's pose to one where LangSuitE observes every object
    id in ``need``; None when no reachable pose does."""
    config = task.engine.config
    lat = lattice_mod.build(world.scene, world.pose, config)
    came: dict[int, tuple[int, str] | None] = {0: None}
    queue = deque([0])
    while queue:
        p = queue.popleft()
        if need <= set(task.engine.profile.observed(world.scene, lat.poses[p], config)):
            words: list[str] = []
            while came[p] is not None:
                p, word = came[p]  # type: ignore[misc]
                words.append(word)
            return words[::-1]
        for nxt, word in ((lat.ahead[p], "move_ahead"), (lat.left[p], "turn_left"), (lat.right[p], "turn_right")):
            if nxt >= 0 and nxt not in came:
                came[nxt] = (p, word)
                queue.append(nxt)
    return None
