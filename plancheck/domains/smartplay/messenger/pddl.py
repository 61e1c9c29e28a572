"""A MessengerL1 episode's grid as PDDL (STRIPS with typing), and plans <-> SmartPlay actions.

Objects: the cells ``r<row>c<col>`` the avatar can reach within the 4-step limit (every other cell
is out of reach, so leaving it out changes nothing), the time points ``t0``..``t4``. Static facts:
``adjacent ?from ?to`` per direction (``north``, ``south``, ``west``, ``east``), ``edge ?dir ?cell``
where a move would leave the grid, what stands on each cell (``free``, ``enemy-at``,
``message-at``, ``goal-at``) and ``next ?t ?t2``. The state: ``at``, ``has-message`` or
``no-message``, ``playing`` until the episode ends (``won`` or ``lost``), ``now ?t``.

One action per outcome of a SmartPlay step, each taking one time step: ``move`` onto a free cell,
``bump`` at the edge and ``wait`` (nothing changes), and the moves that end the episode:
``meet-enemy`` (lost), ``take-message`` (won: L1 ends when the message is picked up),
``retake-message`` (lost: the avatar already had it), ``deliver`` (won), ``reach-goal-early``
(lost). The goal is ``won``; a plan of at most 4 actions is an episode scoring +1.
"""

from __future__ import annotations

from collections.abc import Sequence

from plancheck.domains.smartplay.messenger.instance import L1_AVATAR, STEP_LIMITS, Cell, Episode
from plancheck.domains.smartplay.messenger.rules import GRID, Action, L1State, l1_step, moved
from plancheck.errors import PDDLError
from plancheck.translators.pddl_model import Action as PddlAction
from plancheck.translators.pddl_model import And, Atom, Domain, Literal, Param, Pred, Problem
from plancheck.translators.pddl_writer import domain_text, problem_text

DOMAIN_FILE = "messenger-l1-domain.pddl"
DIRECTIONS = {Action.NORTH: "north", Action.SOUTH: "south", Action.WEST: "west", Action.EAST: "east"}
_ENDINGS = {  # action: (what is on the target cell, the message flag it needs, won?)
    "meet-enemy": ("enemy-at", None, False),
    "take-message": ("message-at", "no-message", True),
    "retake-message": ("message-at", "has-message", False),
    "deliver": ("goal-at", "has-message", True),
    "reach-goal-early": ("goal-at", "no-message", False),
}


def _p(name: str, *args: str) -> Pred:
    return Pred(name, args)


def cell_name(cell: Cell) -> str:
    return f"r{cell[0]}c{cell[1]}"


def _tick() -> tuple[list[Pred], list[Literal]]:
    return [_p("now", "?t"), _p("next", "?t", "?t2")], [Literal(_p("now", "?t"), False), Literal(_p("now", "?t2"))]


def messenger_domain() -> Domain:
    """The L1 domain (the same for every episode)."""
    when, then = _tick()
    step = (Param("?t", ("step",)), Param("?t2", ("step",)))
    walk = (Param("?d", ("direction",)), Param("?from", ("cell",)), Param("?to", ("cell",))) + step
    reach = [_p("playing"), _p("at", "?from"), _p("adjacent", "?d", "?from", "?to")]
    moved = [Literal(_p("at", "?from"), False), Literal(_p("at", "?to"))]
    actions = {
        "move": PddlAction("move", walk, And(tuple(reach + [_p("free", "?to")] + when)), tuple(moved + then)),
        "bump": PddlAction("bump", (Param("?d", ("direction",)), Param("?c", ("cell",))) + step,
                           And((_p("playing"), _p("at", "?c"), _p("edge", "?d", "?c"), *when)), tuple(then)),
        "wait": PddlAction("wait", step, And((_p("playing"), *when)), tuple(then)),
    }
    for name, (occupant, flag, won) in _ENDINGS.items():
        needs = reach + [_p(occupant, "?to")] + ([_p(flag)] if flag else []) + when
        ends = [Literal(_p("playing"), False), Literal(_p("won" if won else "lost"))]
        actions[name] = PddlAction(name, walk, And(tuple(needs)), tuple(moved + ends + then))
    return Domain(
        name="messenger-l1",
        requirements=(":strips", ":typing"),
        types={"cell": "object", "direction": "object", "step": "object"},
        constants={name: "direction" for name in DIRECTIONS.values()},
        predicates={"at": (Param("?c", ("cell",)),),
                    "adjacent": (Param("?d", ("direction",)), Param("?from", ("cell",)), Param("?to", ("cell",))),
                    "edge": (Param("?d", ("direction",)), Param("?c", ("cell",))),
                    "free": (Param("?c", ("cell",)),), "enemy-at": (Param("?c", ("cell",)),),
                    "message-at": (Param("?c", ("cell",)),), "goal-at": (Param("?c", ("cell",)),),
                    "has-message": (), "no-message": (), "playing": (), "won": (), "lost": (),
                    "now": (Param("?t", ("step",)),), "next": (Param("?t", ("step",)), Param("?t2", ("step",)))},
        actions=actions)


def _reachable(steps: int) -> list[Cell]:
    return [(r, c) for r in range(GRID) for c in range(GRID)
            if abs(r - L1_AVATAR[0]) + abs(c - L1_AVATAR[1]) <= steps]


def messenger_problem(episode: Episode) -> Problem:
    """The problem of one L1 episode: its grid, the message flag, the step limit."""
    layout = episode.layout
    if layout is None:
        raise PDDLError(f"{episode.id}: only MessengerL1 episodes have a PDDL model (the entities of L2/L3 move "
                        "at random)")
    steps = STEP_LIMITS[1]
    cells = _reachable(steps)
    occupants = {layout.enemy: "enemy-at", layout.message: "message-at", layout.goal: "goal-at"}
    init: set[Atom] = {("at", cell_name(L1_AVATAR)), ("playing",), ("now", "t0"),
                       ("has-message",) if layout.has_message else ("no-message",)}
    init |= {("next", f"t{i}", f"t{i + 1}") for i in range(steps)}
    for cell in cells:
        init.add((occupants.get(cell, "free"), cell_name(cell)))
        for action, name in DIRECTIONS.items():
            to = (cell[0] + action.delta[0], cell[1] + action.delta[1])
            if not (0 <= to[0] < GRID and 0 <= to[1] < GRID):
                init.add(("edge", name, cell_name(cell)))
            elif to in cells:
                init.add(("adjacent", name, cell_name(cell), cell_name(to)))
    objects = {cell_name(cell): "cell" for cell in cells} | {f"t{i}": "step" for i in range(steps + 1)}
    name = episode.id.replace("/", "-").replace("=", "").lower()
    return Problem(name, "messenger-l1", objects, frozenset(init), {}, And((_p("won"),)))


def export(episode: Episode) -> dict[str, str]:
    """The PDDL files of an L1 episode: file name -> text."""
    domain = messenger_domain()
    problem = messenger_problem(episode)
    return {DOMAIN_FILE: domain_text(domain), f"{problem.name}.pddl": problem_text(problem, domain)}


def to_pddl_plan(episode: Episode, actions: Sequence[Action]) -> list[Atom]:
    """The PDDL steps of SmartPlay actions (the action's name follows from what it runs into)."""
    layout = episode.layout
    assert layout is not None
    occupants = {layout.enemy: ("meet-enemy", "meet-enemy"), layout.message: ("take-message", "retake-message"),
                 layout.goal: ("reach-goal-early", "deliver")}
    state, steps = L1State(has_message=layout.has_message), []
    for index, action in enumerate(actions):
        t = (f"t{index}", f"t{index + 1}")
        if action is Action.STAY:
            steps.append(("wait", *t))
        elif moved(state.avatar, action) == state.avatar:
            steps.append(("bump", DIRECTIONS[action], cell_name(state.avatar), *t))
        else:
            to = moved(state.avatar, action)
            name = occupants[to][state.has_message] if to in occupants else "move"
            steps.append((name, DIRECTIONS[action], cell_name(state.avatar), cell_name(to), *t))
        state = l1_step(layout, state, action)
    return steps


def from_pddl_plan(steps: Sequence[Sequence[str]]) -> list[Action]:
    """The SmartPlay actions of PDDL steps (``wait`` is Do Nothing; every other step names its direction)."""
    by_name = {name: action for action, name in DIRECTIONS.items()}
    actions = []
    for step in steps:
        if step and step[0].lower() == "wait":
            actions.append(Action.STAY)
        elif len(step) > 1 and step[1].lower() in by_name:
            actions.append(by_name[step[1].lower()])
        else:
            raise PDDLError(f"{' '.join(step)!r} is not a step of the Messenger L1 domain")
    return actions
