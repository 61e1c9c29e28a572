"""SmartPlay's Tower of Hanoi as PDDL (STRIPS with typing), and Hanoi moves <-> PDDL plan steps.

Objects: rods ``a b c`` and disks ``d0`` (smallest) .. ``d<n-1>``. A disk sits ``on`` a disk or
directly on a rod; ``on-rod`` tells which rod a disk is on (and each rod is ``on-rod`` itself, so
an empty rod can be a target); ``smaller`` is static: every disk is smaller than the bigger disks
and than the rods. One action ``(move ?d ?from ?to ?below ?onto)`` moves the clear disk ``?d``
from rod ``?from`` (where it sits on ``?below``) onto the clear top ``?onto`` of rod ``?to``;
its first three arguments are the SmartPlay move, the last two follow from the state. The same
domain serves every n; the plain STRIPS form suits Fast Downward, SymK, pyperplan and VAL.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from plancheck.domains.smartplay.hanoi.instance import HanoiInstance
from plancheck.domains.smartplay.hanoi.rules import RODS, Move, State, apply, initial_state
from plancheck.errors import PDDLError
from plancheck.translators.pddl_model import Action, And, Atom, Domain, Literal, Param, Pred, Problem
from plancheck.translators.pddl_writer import domain_text, problem_text

DOMAIN_FILE = "hanoi-domain.pddl"
_ROD_NAMES = tuple(rod.lower() for rod in RODS)


def _disk(index: int) -> str:
    return f"d{index}"


def hanoi_domain() -> Domain:
    def pred(name: str, *args: str) -> Pred:
        return Pred(name, args)

    params = (Param("?d", ("disk",)), Param("?from", ("rod",)), Param("?to", ("rod",)),
              Param("?below", ("object",)), Param("?onto", ("object",)))
    precondition = And((pred("on-rod", "?d", "?from"), pred("clear", "?d"), pred("on", "?d", "?below"),
                        pred("on-rod", "?onto", "?to"), pred("clear", "?onto"), pred("smaller", "?d", "?onto")))
    effects = (Literal(pred("on", "?d", "?below"), False), Literal(pred("on", "?d", "?onto")),
               Literal(pred("on-rod", "?d", "?from"), False), Literal(pred("on-rod", "?d", "?to")),
               Literal(pred("clear", "?below")), Literal(pred("clear", "?onto"), False))
    return Domain(
        name="hanoi",
        requirements=(":strips", ":typing"),
        types={"rod": "object", "disk": "object"},
        predicates={"on": (Param("?d", ("disk",)), Param("?x", ("object",))),
                    "on-rod": (Param("?x", ("object",)), Param("?r", ("rod",))),
                    "clear": (Param("?x", ("object",)),),
                    "smaller": (Param("?d", ("disk",)), Param("?x", ("object",)))},
        actions={"move": Action("move", params, precondition, effects)})


def hanoi_problem(instance: HanoiInstance) -> Problem:
    n = instance.disks
    objects = {rod: "rod" for rod in _ROD_NAMES} | {_disk(i): "disk" for i in range(n)}
    init: set[Atom] = {("on-rod", rod, rod) for rod in _ROD_NAMES}
    init |= {("smaller", _disk(i), _disk(j)) for i in range(n) for j in range(i + 1, n)}
    init |= {("smaller", _disk(i), rod) for i in range(n) for rod in _ROD_NAMES}
    init |= {("on-rod", _disk(i), "a") for i in range(n)}
    init |= {("on", _disk(i), _disk(i + 1)) for i in range(n - 1)} | {("on", _disk(n - 1), "a")}
    init |= {("clear", _disk(0)), ("clear", "b"), ("clear", "c")}
    goal = And(tuple(Pred("on-rod", (_disk(i), "c")) for i in range(n)))
    return Problem(instance.id, "hanoi", objects, frozenset(init), {}, goal)


def export(instance: HanoiInstance) -> dict[str, str]:
    """The PDDL files of an instance: file name -> text (the domain is the same for every n)."""
    domain = hanoi_domain()
    return {DOMAIN_FILE: domain_text(domain), f"{instance.id}.pddl": problem_text(hanoi_problem(instance), domain)}


def _top(rod: tuple[int, ...], name: str) -> str:
    return _disk(rod[-1]) if rod else name


def to_pddl_plan(instance: HanoiInstance, moves: Iterable[Move]) -> list[Atom]:
    """The PDDL steps of a sequence of valid moves (``below`` and ``onto`` read off the state).

    >>> to_pddl_plan(HanoiInstance(2), [Move.AB, Move.AC, Move.BC])
    [('move', 'd0', 'a', 'b', 'd1', 'b'), ('move', 'd1', 'a', 'c', 'a', 'c'), ('move', 'd0', 'b', 'c', 'b', 'd1')]
    """
    state: State = initial_state(instance.disks)
    steps: list[Atom] = []
    for move in moves:
        source, target = state[move.source], state[move.target]
        if not source:
            raise ValueError(f"{move} moves from an empty rod")
        below = _top(source[:-1], _ROD_NAMES[move.source])
        steps.append(("move", _disk(source[-1]), _ROD_NAMES[move.source], _ROD_NAMES[move.target], below,
                      _top(target, _ROD_NAMES[move.target])))
        outcome = apply(state, move)
        if not outcome.ok:
            raise ValueError(outcome.reason)
        state = outcome.state
    return steps


def from_pddl_plan(steps: Sequence[Sequence[str]]) -> list[Move]:
    """The moves of PDDL ``(move ?d ?from ?to ...)`` steps."""
    moves = []
    for step in steps:
        if len(step) < 4 or step[0].lower() != "move" or step[2].upper() not in RODS or step[3].upper() not in RODS:
            raise PDDLError(f"{' '.join(step)!r} is not a step of the Hanoi domain")
        moves.append(Move.between(step[2], step[3]))
    return moves
