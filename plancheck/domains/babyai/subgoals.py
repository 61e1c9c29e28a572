"""Decompose's helper: execute a list of subgoals with the optimal planner, counting the help it adds.

Rules (they mirror the published helper bot where it is well defined):

* Subgoals run in order; the run stops when minigrid ends the episode (mission done or failed) or
  at the step limit. Success (CR) = the mission is done; the helper never adds subgoals for the
  mission itself, so a list that stops short fails, as in the published evaluation.
* ``GoNextTo (x, y)``: reach the closest pose facing (x, y) (leaving the cell first if standing on
  it). The plan minimises first the pickups, drops and toggles it needs (opening doors on the way,
  moving blockers), then its length. Facing (x, y) already: nothing to do.
* ``Open`` / ``Close``: toggle the door in front if it is closed / open. A locked door without its
  key is opened by the cheapest detour that fetches the key. ``Open`` facing a box opens it (the
  box vanishes, leaving its contents), as the description's "toggle (open/close a door or a box)"
  says; the published bot skips boxes. Anything else in front: skipped.
* ``Pickup``: pick up what is in front; with full hands, the cheapest detour that frees them and
  picks it up. ``Drop``: drop in front when carrying and the cell is free; otherwise skipped.
* An unreachable target ends the run unsuccessfully; so does a subgoal whose plan is not found
  within ``MAX_EXPANSIONS`` search states (deterministic; reported as such, never reached on the
  benchmark's answers we know of: the searches are guided by admissible estimates that count a
  door to open or an object to move on the way as one interaction each).

*Help* is the number of subgoals the helper inserted: the detour of a subgoal is cut into
subgoals by :func:`decompose` (one per pickup, drop or toggle, each preceded by a GoNextTo when the
agent moved to reach it, except a door opened on the way and walked through, which like the
published bot's counts once), and the subgoal itself is not counted. :func:`decompose` applied to
an optimal plan gives the *expert* list (executable with no help); its length is the expert's own
help count used to normalise ACI when no published count is known.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from plancheck.domains.babyai.instance import LOCKED, OPEN, State
from plancheck.domains.babyai.mission import NONE, RUNNING, SUCCESS, door_index
from plancheck.domains.babyai.rules import Action, BabyAIRules
from plancheck.domains.babyai.search.astar import Model, astar
from plancheck.domains.babyai.search.faces import FaceTables
from plancheck.domains.babyai.tasks import Subgoal
from plancheck.solvers.result import Status

INTERACTION_COST = 1000  # the detour planner minimises inserted interactions first, then length
MAX_EXPANSIONS = 50_000  # per subgoal: beyond this the subgoal counts as unreachable (seconds)


@dataclass(frozen=True, slots=True)
class StepOfRun:
    """One executed subgoal: what was asked, the actions taken, the help inserted, and why."""

    subgoal: Subgoal
    actions: tuple[Action, ...]
    help: tuple[Subgoal, ...]
    note: str = ""


@dataclass(frozen=True, slots=True)
class SubgoalRun:
    """The helper's whole run."""

    success: bool
    help: int
    actions: tuple[Action, ...]
    steps: tuple[StepOfRun, ...]
    final: State
    stopped: str

    @property
    def executed(self) -> int:
        return len(self.steps)


def decompose(rules: BabyAIRules, start: State, actions: Sequence[Action], *,
              on_the_way: bool = False) -> list[Subgoal]:
    """Cut an action sequence into the subgoals it achieves: a pickup, drop or toggle each, preceded
    by a GoNextTo to the cell in front when the agent moved since the previous one, and a GoNextTo
    wherever a move completes part of the mission ("go to the box, then ..."), so that the list,
    executed, passes there too. With ``on_the_way``, a door opened and walked through at once is an
    Open without a GoNextTo (the helper meets it on its path), and moves are not cut: the result is
    then a count of help, not an executable list."""
    subgoals: list[Subgoal] = []
    state, moved = start, False
    for index, action in enumerate(actions):
        before = state
        outcome = rules.step(state, action)
        state = outcome.state if outcome.ok or outcome.state is not None else state
        if action in (Action.left, Action.right, Action.forward):
            moved = moved or state.pose() != before.pose()
            if moved and not on_the_way and _completes_part(before, state) and index + 1 < len(actions):
                subgoals.append(Subgoal("GoNextToSubgoal", state.front))
                moved = False
            continue
        if not outcome.ok:
            continue
        front = before.front
        if action is Action.toggle:
            ref = rules.occupant(before, front)
            is_door = ref is not None and ref < 0
            opened = is_door and state.doors[door_index(ref)] == OPEN
            through = on_the_way and opened and index + 1 < len(actions) and actions[index + 1] is Action.forward
            if moved and not through:
                subgoals.append(Subgoal("GoNextToSubgoal", front))
            subgoals.append(Subgoal("OpenSubgoal" if opened or not is_door else "CloseSubgoal"))
        else:
            if moved:
                subgoals.append(Subgoal("GoNextToSubgoal", front))
            subgoals.append(Subgoal("PickupSubgoal" if action is Action.pickup else "DropSubgoal"))
        moved = False
    if moved:
        subgoals.append(Subgoal("GoNextToSubgoal", state.front))
    return subgoals


def _completes_part(before: State, after: State) -> bool:
    """Whether a step completed a part of the mission (a combinator's side succeeded)."""
    return any(now == SUCCESS and then != SUCCESS for then, now in zip(before.progress.done, after.progress.done))


class Helper:
    """Executes subgoal lists on one instance (one search model, reused across subgoals)."""

    def __init__(self, rules: BabyAIRules):
        self.rules = rules
        self.model = Model(rules)
        self.face = FaceTables(self.model)

    def run(self, subgoals: Sequence[Subgoal]) -> SubgoalRun:
        state = self.rules.initial_state()
        limit = self.rules.horizon
        taken: list[Action] = []
        steps: list[StepOfRun] = []
        for subgoal in subgoals:
            plan, note = self._plan(state, subgoal)
            if plan is None:
                steps.append(StepOfRun(subgoal, (), (), note))
                return self._end(taken, steps, state, f"stopped at {subgoal}: {note}")
            before = state
            executed: list[Action] = []
            for action in plan:
                outcome = self.rules.step(state, action)
                state = outcome.state if outcome.ok or outcome.state is not None else state
                executed.append(action)
                if state.progress.result != RUNNING or len(taken) + len(executed) >= limit:
                    break
            help_ = self._help(subgoal, before, executed)
            taken.extend(executed)
            steps.append(StepOfRun(subgoal, tuple(executed), tuple(help_), note))
            if state.progress.result != RUNNING:
                return self._end(taken, steps, state, "the episode ended")
            if len(taken) >= limit:
                return self._end(taken, steps, state, "step limit reached")
        return self._end(taken, steps, state, "all subgoals executed")

    @staticmethod
    def _end(taken: list[Action], steps: list[StepOfRun], state: State, stopped: str) -> SubgoalRun:
        return SubgoalRun(state.progress.result == SUCCESS, sum(len(s.help) for s in steps), tuple(taken),
                          tuple(steps), state, stopped)

    def _help(self, subgoal: Subgoal, before: State, executed: list[Action]) -> list[Subgoal]:
        cut = decompose(self.rules, before, executed, on_the_way=True)
        return cut[:-1] if cut and cut[-1].kind == subgoal.kind else cut

    # -- planning one subgoal ------------------------------------------------------------------
    def _plan(self, state: State, subgoal: Subgoal) -> tuple[list[Action] | None, str]:
        """The subgoal's actions (planned without the step limit, which cuts the run when it executes)."""
        rules = self.rules
        front = state.front
        ref = rules.occupant(state, front)
        if subgoal.kind == "GoNextToSubgoal":
            target = subgoal.cell
            if front == target:
                return [], "already facing it"
            if not (0 <= target[0] < rules.instance.width and 0 <= target[1] < rules.instance.height):
                return None, f"{target} is outside the grid"
            cell = self.model.cell(*target)
            front_of = self.model.front
            return self._search(state, lambda cid, pose: front_of[pose] == cell, self._approach(cell),
                                f"cannot reach a cell facing {target}")
        if subgoal.kind in ("OpenSubgoal", "CloseSubgoal"):
            if subgoal.kind == "OpenSubgoal" and ref is not None and ref >= 0 and rules.things[ref].kind == "box":
                return [Action.toggle], "opens the box"
            if ref is None or ref >= 0:
                return [], "no door in front: skipped"
            door = door_index(ref)
            status = state.doors[door]
            if subgoal.kind == "CloseSubgoal":
                return ([Action.toggle], "") if status == OPEN else ([], "the door is not open: skipped")
            if status == OPEN:
                return [], "the door is already open: skipped"
            toggle = rules.step(state, Action.toggle)
            if toggle.ok:
                return [Action.toggle], ""
            configs, color = self.model.configs, rules.instance.doors[door].color

            def interactions(cid: int, pose: int) -> int:  # the toggle; a key of the colour; freeing the hands
                config = configs[cid]
                if config.doors[door] == OPEN:
                    return 0
                held = config.carrying
                if held != NONE and rules.things[held].kind == "key" and rules.things[held].color == color:
                    return INTERACTION_COST
                return INTERACTION_COST * (2 if held == NONE else 3)

            return self._search(state, lambda cid, pose: configs[cid].doors[door] == OPEN, interactions,
                                "cannot fetch the key for the locked door")
        if subgoal.kind == "PickupSubgoal":
            if state.carrying == NONE or ref is None or ref < 0:
                return [Action.pickup], ""
            configs = self.model.configs

            def interactions(cid: int, pose: int) -> int:  # the pickup, and a drop first with full hands
                held = configs[cid].carrying
                return 0 if held == ref else INTERACTION_COST * (1 if held == NONE else 2)

            return self._search(state, lambda cid, pose: configs[cid].carrying == ref, interactions,
                                "cannot free the hands to pick it up")
        if subgoal.kind == "DropSubgoal":
            if state.carrying == NONE or ref is not None or front in rules.walls:
                return [], "nothing carried or the cell in front is not free: skipped"
            return [Action.drop], ""
        return None, f"unknown subgoal {subgoal.kind}"

    def _approach(self, cell: int):
        """An admissible estimate for facing ``cell``: the moves, plus one interaction for every closed
        door or object on the way (each must be opened or moved before the agent can enter its cell),
        and one more for a locked door whose key the agent does not hold (when no other locked door
        shares its colour, so that the key's pickup is counted once)."""
        tables: dict[int, list[int]] = {}
        model, things, doors = self.model, self.rules.things, self.rules.instance.doors
        cells = [model.cell(*door.pos) for door in doors]
        target = frozenset({cell})

        def estimate(cid: int, pose: int) -> int:
            table = tables.get(cid)
            if table is None:
                config = model.configs[cid]
                held = things[config.carrying] if config.carrying != NONE else None
                key = held.color if held is not None and held.kind == "key" else None
                locked = [door.color for door, status in zip(doors, config.doors) if status == LOCKED]
                toll = {model.cell(*xy): INTERACTION_COST for xy in config.objects if xy is not None}
                for door, where, status in zip(doors, cells, config.doors):
                    if status != OPEN:
                        fetch = status == LOCKED and door.color != key and locked.count(door.color) == 1
                        toll[where] = INTERACTION_COST * (2 if fetch else 1)
                table = tables[cid] = self.face(target, tuple(sorted(toll.items())))
            return table[pose]

        return estimate

    def _search(self, state, goal, heuristic, failure) -> tuple[list[Action] | None, str]:
        result = astar(self.model, state, heuristic, goal, max_expansions=MAX_EXPANSIONS,
                       cost=lambda a: INTERACTION_COST if a >= int(Action.pickup) else 1)
        if result.status is Status.TIMEOUT:
            return None, f"{failure} (no plan within {MAX_EXPANSIONS:,} search states)"
        if result.status is not Status.SOLVED:
            return None, failure
        return list(result.plan), ""

