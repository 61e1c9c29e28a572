"""The BabyAI optimum from a coarser model that forgets where unneeded objects were put.

An object *matters* while a pending instruction's description targets it, while it is a key of a
door that is still locked, or while it holds (in a box) an object that matters; once it stops
mattering it never matters again (instructions only complete, locked doors only unlock). An
object that does not matter stays where it lies, an obstacle like any other, until the agent
picks it up: it then holds a *phantom*, and wherever the phantom is dropped is forgotten. So all
the concrete states that differ only in where a distractor or a used key was put down become one
abstract state, the main source of the concrete search's growth on large missions.

The abstract transitions over-approximate the concrete ones: in a cell where a forgotten object
may lie (not a wall, a door or a known object), ``forward`` may be blocked, ``drop`` may fail and
``pickup`` may lift it. Those alternatives are the pseudo-actions ``BLOCKED_FORWARD``,
``FAILED_DROP`` and ``PICKUP_FORGOTTEN``. Every concrete run is simulated by an abstract run of the
same length (the abstract state equals the concrete one except that forgotten objects may lie
anywhere), so the abstract optimum is a lower bound on the concrete optimum. When the abstract
optimal plan uses no pseudo-action and its concrete replay stays simulated to the end, it is a
concrete plan of that length: the optimum, certified. Otherwise the forgotten objects it ran into
are remembered (tracked exactly) and the search repeats.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace

from plancheck.domains.babyai.instance import LOCKED, Instance, State, Thing, replace_state
from plancheck.domains.babyai.mission import NONE, SUCCESS, Pickup, PutNext, descs_of, pending_leaves
from plancheck.domains.babyai.rules import Action, BabyAIRules
from plancheck.domains.babyai.search.astar import ACTIONS, Model, astar, mission_goal
from plancheck.domains.babyai.search.heuristic import MissionHeuristic, boxes_holding
from plancheck.solvers.result import SearchResult, Status

BLOCKED_FORWARD, PICKUP_FORGOTTEN, FAILED_DROP = 12, 13, 14
PSEUDO_ACTIONS = (BLOCKED_FORWARD, PICKUP_FORGOTTEN, FAILED_DROP)
ABSTRACT_ACTIONS = ACTIONS + PSEUDO_ACTIONS


def with_phantom(instance: Instance) -> Instance:
    """The instance with one more object, never on the grid: what an agent holding a forgotten object holds."""
    phantom = Thing("ball", "forgotten")
    start = replace_state(instance.start, objects=instance.start.objects + (None,))
    return replace(instance, things=instance.things + (phantom,), start=start)


class AbstractModel(Model):
    """:class:`Model` over abstract states; ``keep`` names objects that always matter."""

    def __init__(self, instance: Instance, keep: frozenset[int] = frozenset()):
        super().__init__(BabyAIRules(with_phantom(instance)))
        self.phantom = len(instance.things)
        self.keep = keep
        things = instance.things
        self.keys_of = [frozenset(i for i, t in enumerate(things) if t.kind == "key" and t.color == door.color)
                        for door in instance.doors]
        self.forgotten_flags: list[bool] = []
        self.mattering: dict[tuple, tuple[frozenset[int], frozenset[int], frozenset[int]]] = {}
        self.box_of: list[int | None] = [None] * len(things)
        for b, thing in enumerate(things):
            if thing.contains is not None:
                self.box_of[thing.contains] = b
        self.door_cells = frozenset(self.cell(*d.pos) for d in instance.doors)

    # -- the abstraction ---------------------------------------------------------------------------
    def pending(self, state: State) -> list:
        """The instructions not yet completed (in the order of ``leaves``)."""
        progress = state.progress
        if progress.result == SUCCESS:
            return []
        found: list = []
        pending_leaves(self.rules.instance.mission.root, progress.done, found)
        return found

    def matters(self, state: State, pending: list) -> set[int]:
        descs = self.rules.instance.mission.descs
        wanted = set(self.keep)
        for leaf in pending:
            for desc in descs_of(leaf):
                wanted.update(t for t in descs[desc].targets if t >= 0)
        for d, status in enumerate(state.doors):
            if status == LOCKED:
                wanted |= self.keys_of[d]
        return wanted | boxes_holding(self.rules.instance.things, wanted)

    def known(self, state: State) -> tuple[frozenset[int], frozenset[int], frozenset[int]]:
        """What matters in ``state``: objects, verifier slots and descriptions (cached per progress and doors)."""
        key = (state.progress.done, state.progress.result, state.doors)
        known = self.mattering.get(key)
        if known is None:
            pending = self.pending(state)
            live_slots = frozenset(leaf.slot for leaf in pending if isinstance(leaf, (Pickup, PutNext)))
            live_descs = frozenset(d for leaf in pending for d in descs_of(leaf))
            known = self.mattering[key] = (frozenset(self.matters(state, pending)), live_slots, live_descs)
        return known

    def abstract(self, state: State) -> State:
        wanted, live_slots, live_descs = self.known(state)
        phantom = self.phantom
        carrying = state.carrying if state.carrying == NONE or state.carrying in wanted else phantom
        objects = state.objects
        if objects[phantom] is not None:  # the phantom was dropped: where is forgotten
            objects = objects[:phantom] + (None,)
        held_at = state.held_at if carrying != phantom else None
        progress = state.progress
        pre = tuple((v if v == NONE or v in wanted else phantom) if slot in live_slots else NONE
                    for slot, v in enumerate(progress.pre))
        poss = tuple(p if d in live_descs else () for d, p in enumerate(progress.poss))
        if pre != progress.pre or poss != progress.poss:
            progress = replace(progress, pre=pre, poss=poss)
        return replace_state(state, objects=objects, carrying=carrying, held_at=held_at, progress=progress)

    def intern(self, state: State) -> int:
        return super().intern(self.abstract(state))

    def forgotten(self, cid: int) -> bool:
        """Whether some object's whereabouts are forgotten (conservatively: an object off the grid,
        neither carried nor in a box that is)."""
        flags = self.forgotten_flags
        while len(flags) <= cid:
            config = self.configs[len(flags)]
            objects, carrying = config.objects, config.carrying
            flags.append(any(cell is None and i != carrying and not (
                self.box_of[i] is not None and (objects[self.box_of[i]] is not None or carrying == self.box_of[i]))
                for i, cell in enumerate(objects[:self.phantom])))
        return flags[cid]

    def simulates(self, cid: int, pose: int, concrete: State) -> bool:
        """Whether abstract state (``cid``, ``pose``) stands for ``concrete``: equal but for forgotten
        objects, which may lie anywhere."""
        if pose != self.pose_of(concrete):
            return False
        seen = self.abstract(lift(concrete))
        mine = self.configs[cid]
        if (mine.carrying, mine.doors, mine.progress, mine.held_at) != (seen.carrying, seen.doors, seen.progress,
                                                                        seen.held_at):
            return False
        wanted = self.known(seen)[0]
        return all(a == c or a is None and i not in wanted for i, (a, c) in enumerate(zip(mine.objects, seen.objects)))

    # -- the transitions ---------------------------------------------------------------------------
    def successor(self, cid: int, pose: int, action: int) -> tuple[int, int]:
        if action < BLOCKED_FORWARD:
            return super().successor(cid, pose, action)
        ahead = self.front[pose]
        if self.blocked[cid][ahead] or ahead in self.door_cells or not self.forgotten(cid):
            return cid, pose  # a wall, a door, a known object, or nothing forgotten anywhere
        carrying = self.configs[cid].carrying
        if action == PICKUP_FORGOTTEN and carrying != NONE or action == FAILED_DROP and carrying == NONE:
            return cid, pose
        key = (cid, ahead, action)
        result = self.memo.get(key)
        if result is None:
            state = self.state(cid, pose)
            if action == BLOCKED_FORWARD:
                new, verb = state, Action.forward
            elif action == PICKUP_FORGOTTEN:
                new, verb = replace_state(state, carrying=self.phantom, held_at=None), Action.pickup
            else:
                new, verb = state, Action.drop
            result = self.memo[key] = self.intern(self.rules.verify_step(new, verb))
        return result, pose


def abstract_optimum(instance: Instance, *, deadline: float | None = None, keep: frozenset[int] = frozenset(),
                     log: Callable[[str], None] | None = None,
                     report: Callable[[int, int], None] | None = None) -> SearchResult:
    """The concrete optimum by abstraction refinement, or a lower bound on it.

    Search the abstract model with A*; replay its optimal plan on the concrete rules; if forgotten
    objects stood in its way, remember them and search again (each round's optimum is a
    lower bound, and never decreases). SOLVED: the plan is concrete and as short as the abstract
    optimum, hence optimal. TIMEOUT: ``bound`` is the best proven lower bound. If the abstract plan
    relies on a pseudo-action with nothing forgotten in front, the concrete search takes over.
    ``keep``: objects to track exactly from the first round (a finer start, as sound). ``report``:
    as for :func:`astar`, with the expansions of all rounds and the best bound proven so far.
    """
    began = time.perf_counter()
    expanded, bound, heuristic = 0, None, None

    def progress(done: int, f: int) -> None:
        if report is not None:
            report(expanded + done, f if bound is None else max(bound, f))

    while True:
        model = AbstractModel(instance, keep)
        heuristic = MissionHeuristic(model) if heuristic is None else heuristic.rebind(model)
        result = astar(model, model.rules.instance.start, heuristic, mission_goal(model),
                       actions=ABSTRACT_ACTIONS, horizon=instance.max_steps, deadline=deadline, report=progress)
        expanded += result.expanded
        seconds = time.perf_counter() - began
        if result.status is not Status.SOLVED:
            bound = result.bound if bound is None or result.bound is None else max(bound, result.bound)
            return SearchResult(result.status, None, None, expanded, seconds, bound=bound)
        bound = result.cost
        plan = tuple(int(a) for a in result.plan)
        found = obstacles(instance, model, plan)
        if log is not None:
            what = ("relies on a pseudo-action: searching the concrete model" if found is None else "is concrete"
                    if not found else "runs into " + ", ".join(f"the {instance.things[i].name}" for i in sorted(found)))
            log(f"abstract optimum {result.cost} ({result.expanded} states, {len(keep)} objects kept); its plan {what}")
        if found is not None and not found:
            return SearchResult(Status.SOLVED, tuple(Action(a) for a in plan), result.cost, expanded, seconds)
        if found is None:  # the concrete search, with the bound proven so far
            concrete = Model(BabyAIRules(instance))
            result = astar(concrete, instance.start, MissionHeuristic(concrete), mission_goal(concrete),
                           horizon=instance.max_steps, deadline=deadline, report=progress)
            seconds = time.perf_counter() - began
            bound = bound if result.bound is None else max(bound, result.bound)
            return replace(result, expanded=expanded + result.expanded, seconds=seconds,
                           bound=None if result.status is Status.SOLVED else bound)
        keep |= found


def obstacles(instance: Instance, model: AbstractModel, plan: tuple[int, ...]) -> frozenset[int] | None:
    """The forgotten objects ``plan`` runs into when replayed on the concrete rules.

    Each step is replayed beside the abstract model; where they disagree, the forgotten object in
    front of the agent is the cause: it is recorded and lifted off the concrete grid, and the step
    replayed again, so one replay finds every obstacle on the plan's way. Empty: the plan is
    concrete all along. None: it relies on a pseudo-action with no forgotten object in front, or
    differs for another reason.
    """
    rules = BabyAIRules(instance)
    state = instance.start
    cid, pose = model.intern(lift(state)), model.pose_of(state)
    found: set[int] = set()
    for action in plan:
        if action in PSEUDO_ACTIONS:  # realisable only if a forgotten object lies in front: remember it
            thing = rules.occupant(state, state.front)
            return frozenset(found | {thing}) if thing is not None and thing >= 0 and thing not in found else None
        cid, pose = model.successor(cid, pose, action)
        while True:
            outcome = rules.step(state, Action(action))
            after = outcome.state if outcome.state is not None else state
            if model.simulates(cid, pose, after):
                break
            thing = rules.occupant(state, state.front)
            if thing is None or thing < 0 or thing in found:
                return None
            found.add(thing)
            objects = list(state.objects)
            objects[thing] = None
            state = replace_state(state, objects=tuple(objects))
        state = after
    return frozenset(found)


def lift(state: State) -> State:
    """A concrete state in the phantom instance's shape (one more object slot, empty)."""
    return replace_state(state, objects=state.objects + (None,))
