"""GRASP plans as PDDL plan steps, and PDDL plans (a planner's output) back as GRASP actions.

:func:`validation_plan` writes an answer as a plan of the validation model under the benchmark
semantics: every executed action becomes its effectful PDDL action or, when the benchmark
treats it as a no-op, the matching no-op action (``bump``, ``take-nothing``,
``take-over-limit``, ``drop-nothing``, ``noop``); actions past the step limit are left out, as
the benchmark ignores them; a final ``score-paper`` / ``score-delivered`` reaches the goal.
A strictly valid answer gives a plan without no-op actions.

:func:`read_plan` reads a plan of either model (one ``(name arg ...)`` per step, as Fast
Downward writes them) into GRASP actions; a ``noop`` step becomes an :class:`Unknown` token.

>>> from plancheck.domains.grasp.grid import Grid
>>> from plancheck.domains.grasp.instance import Environment, GridInfo, Setting
>>> env = Environment(Grid(1, 3, " EO", (0, 0)), Setting(), GridInfo("doc", 0, "random", "free", "inner"))
>>> steps = validation_plan(env, [Action.RIGHT, Action.TAKE, Action.RIGHT, Action.DROP], "paper")
>>> print("\\n".join(steps))
(move dir-right c0_0 c0_1 t0 t1)
(take-last c0_1 n0 n1 t1 t2)
(bump dir-right c0_1 t2 t3)
(drop c0_1 n0 n1 n1 t3 t4)
(score-paper c0_1 n1 t4)
>>> [str(a) for a in read_plan(steps)]
['RIGHT', 'TAKE', 'RIGHT', 'DROP']
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from plancheck.domains.grasp.instance import Environment
from plancheck.domains.grasp.rules import MOVES, Action, GraspRules, State, pddl_cell, pddl_direction
from plancheck.domains.grasp.scoring import RULES
from plancheck.errors import Location, PDDLError
from plancheck.rules import Unknown

_STEP = re.compile(r"^\(\s*([a-z][a-z0-9_-]*)((?:\s+[a-z0-9_-]+)*)\s*\)$")
_CELL = re.compile(r"^c(\d{1,9})_(\d{1,9})$")  # bounded: no int() of 5000 digits
_BY_OFFSET = {offset: action for action, offset in MOVES.items()}
_BY_DIRECTION = {pddl_direction(action): action for action in MOVES}
# (name, number of arguments) -> what the step is, for both models
_KINDS: dict[tuple[str, int], str] = {
    ("move", 4): "move", ("move", 5): "move", ("bump", 4): "move",
    ("take", 5): "take", ("take", 7): "take", ("take-last", 5): "take", ("take-nothing", 3): "take",
    ("take-over-limit", 4): "take",
    ("drop", 3): "drop", ("drop", 6): "drop", ("drop-first", 3): "drop", ("drop-nothing", 2): "drop",
    ("noop", 2): "noop", ("go-on", 3): "none",
    ("finish", 3): "end", ("finish-on-unit", 5): "end", ("finish-empty", 0): "end",
    ("finish-on-unit-only", 1): "end", ("score-paper", 3): "end", ("score-delivered", 3): "end",
}
_ARITIES = {name: sorted(n for other, n in _KINDS if other == name) for name, _ in _KINDS}


def _count(n: int) -> str:
    return f"n{n}"


def _pddl_step(env: Environment, state: State, action: Action | Unknown, ok: bool, t: int) -> str:
    """The validation model's action for ``action`` taken in ``state`` at step ``t`` (``ok``: it had an effect)."""
    time = f"t{t} t{t + 1}"
    cell = pddl_cell(state.position)
    here = state.energy[state.position[0] * env.grid.cols + state.position[1]]
    if isinstance(action, Unknown):
        return f"(noop {time})"
    if action is Action.TAKE:
        if not ok and here == 0:
            return f"(take-nothing {cell} {time})"
        if not ok:
            return f"(take-over-limit {cell} {_count(state.carried)} {time})"
        carry = f"{_count(state.carried)} {_count(state.carried + 1)}"
        if here == 1:
            return f"(take-last {cell} {carry} {time})"
        return f"(take {cell} {_count(here)} {_count(here - 1)} {carry} {time})"
    if action is Action.DROP:
        if not ok:
            return f"(drop-nothing {time})"
        return f"(drop {cell} {_count(here)} {_count(state.carried)} {_count(here + state.carried)} {time})"
    if not ok:
        return f"(bump {pddl_direction(action)} {cell} {time})"
    dr, dc = MOVES[action]
    target = (state.position[0] + dr, state.position[1] + dc)
    return f"(move {pddl_direction(action)} {cell} {pddl_cell(target)} {time})"


def validation_plan(env: Environment, actions: Sequence[Action | Unknown], rule: str) -> list[str]:
    """The answer as steps of the validation model (benchmark semantics), ending with the score."""
    if rule not in RULES:
        raise ValueError(f"unknown scoring rule {rule!r}; known: {', '.join(RULES)}")
    rules = GraspRules(env)
    state = rules.initial_state()
    steps = []
    for t, action in enumerate(actions[:env.step_limit]):
        outcome = rules.step(state, action)
        steps.append(_pddl_step(env, state, action, outcome.ok, t))
        if outcome.ok:
            state = outcome.state
    t = len(steps)
    scored = state.position if rule == "paper" else env.grid.start
    energy = state.energy[scored[0] * env.grid.cols + scored[1]]
    steps.append(f"(score-{rule} {pddl_cell(scored)} {_count(energy)} t{t})")
    return steps


def _cell(name: str, where: Location) -> tuple[int, int]:
    match = _CELL.match(name)
    if not match:
        raise PDDLError(f"{name!r} is not a cell (expected c<row>_<col>)", where)
    return int(match[1]), int(match[2])


def read_plan(steps: Iterable[str], source: str | None = None) -> tuple[Action | Unknown, ...]:
    """GRASP actions of a plan of the planning or the validation model (told apart by the move's arity).

    Everything after the final ``finish``/``score`` step is an error, as is an unknown action
    name or a wrong number of arguments.
    """
    actions: list[Action | Unknown] = []
    ended = False
    for line, text in enumerate(steps, start=1):
        where = Location(source, line)
        match = _STEP.match(text.strip().lower())
        if not match:
            raise PDDLError(f"{text.strip()!r} is not a plan step '(name arg ...)'", where)
        name, args = match[1], match[2].split()
        if ended:
            raise PDDLError(f"{name} follows the end of the plan", where)
        if name not in _ARITIES:
            raise PDDLError(f"{name!r} is not an action of the GRASP models", where)
        kind = _KINDS.get((name, len(args)))
        if kind is None:
            expected = " or ".join(str(n) for n in _ARITIES[name])
            raise PDDLError(f"{name} takes {expected} arguments, not {len(args)}", where)
        if kind == "end":
            ended = True
        elif kind == "none":
            continue
        elif kind == "take":
            actions.append(Action.TAKE)
        elif kind == "drop":
            actions.append(Action.DROP)
        elif kind == "noop":
            actions.append(Unknown("noop"))
        elif args[0] in _BY_DIRECTION:
            actions.append(_BY_DIRECTION[args[0]])
        else:
            (r0, c0), (r1, c1) = _cell(args[0], where), _cell(args[1], where)
            move = _BY_OFFSET.get((r1 - r0, c1 - c0))
            if move is None:
                raise PDDLError(f"no move leads from {args[0]} to {args[1]}", where)
            actions.append(move)
    return tuple(actions)


def plan_text(steps: Sequence[str], cost: int | None = None) -> str:
    """A plan file: one step per line, then ``; cost = N (general cost)`` when the cost is known."""
    tail = [] if cost is None else [f"; cost = {cost} (general cost)"]
    return "\n".join([*steps, *tail]) + "\n"
