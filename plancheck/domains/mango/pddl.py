"""A MANGO map and a route-finding question as a PDDL task, and a PDDL plan back as a route.

One domain serves every game: places are ``location`` objects, actions are ``move`` objects, and
the map is the static relation ``(link ?from ?move ?to)``; ``go`` follows one link. A
nondeterministic move is several links with the same place and move, so a planner picks the
outcome it needs: a plan exists iff some branch of the benchmark's walk reaches the goal, and the
shortest plan is the shortest route. Names become identifiers (``l-`` + words joined by ``-`` for
places, ``m-`` for moves, a numeric suffix on a clash); a comment header in the problem lists them.
The texts are built as plancheck's PDDL model and printed by its writer, like every world's.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache

from plancheck.domains.mango.graph import Move, Moves, normalize
from plancheck.errors import PDDLError
from plancheck.translators.pddl_model import Action, And, Domain, Literal, Param, Pred, Problem
from plancheck.translators.pddl_writer import domain_text as write_domain
from plancheck.translators.pddl_writer import problem_text as write_problem

DOMAIN_NAME = "mango"
DOMAIN_FILE = "mango-domain.pddl"
_WORDS = re.compile(r"[a-z0-9]+")


@cache
def mango_domain() -> Domain:
    """One ``go`` action along a ``link``; the same domain for every game."""
    at_from, at_to = Pred("at", ("?from",)), Pred("at", ("?to",))
    go = Action("go", (Param("?from", ("location",)), Param("?move", ("move",)), Param("?to", ("location",))),
                And((at_from, Pred("link", ("?from", "?move", "?to")))),
                (Literal(at_from, False), Literal(at_to)))
    return Domain(name=DOMAIN_NAME, requirements=(":strips", ":typing"),
                  types={"location": "object", "move": "object"},
                  predicates={"at": (Param("?l", ("location",)),),
                              "link": (Param("?from", ("location",)), Param("?move", ("move",)),
                                       Param("?to", ("location",)))},
                  actions={"go": go})


@cache
def domain_text() -> str:
    """The shared MANGO domain."""
    return write_domain(mango_domain())


def _identifiers(prefix: str, names: Iterable[str]) -> dict[str, str]:
    """A distinct PDDL identifier for every name, stable under reordering.

    >>> _identifiers("l-", ["west of house", "West-of-House", "attic (2)"])
    {'West-of-House': 'l-west-of-house', 'attic (2)': 'l-attic-2', 'west of house': 'l-west-of-house-2'}
    """
    taken: dict[str, str] = {}
    result: dict[str, str] = {}
    for name in sorted(set(names)):
        base = prefix + ("-".join(_WORDS.findall(name.lower())) or "x")
        ident, number = base, 1
        while ident in taken:
            number += 1
            ident = f"{base}-{number}"
        taken[ident] = name
        result[name] = ident
    return result


@dataclass(frozen=True)
class Naming:
    """Which identifier stands for which place and move."""

    places: dict[str, str]
    moves: dict[str, str]

    @classmethod
    def of(cls, moves: Moves) -> Naming:
        return cls(_identifiers("l-", moves.table), _identifiers("m-", moves.actions))

    def header(self) -> str:
        lines = [f"; {ident} = {name}" for name, ident in sorted(self.places.items(), key=lambda kv: kv[1])]
        lines += [f"; {ident} = {name}" for name, ident in sorted(self.moves.items(), key=lambda kv: kv[1])]
        return "\n".join(lines) + "\n"

    def read_plan(self, steps: Sequence[str]) -> tuple[Move, ...]:
        """A plan of ``(go l-a m-b l-c)`` steps as a route, checked name by name."""
        places = {ident: name for name, ident in self.places.items()}
        moves = {ident: name for name, ident in self.moves.items()}
        route = []
        for number, step in enumerate(steps, start=1):
            parts = step.strip().strip("()").split()
            if len(parts) != 4 or parts[0] != "go" or parts[1] not in places or parts[2] not in moves \
                    or parts[3] not in places:
                raise PDDLError(f"plan step {number} {step!r} is not (go <location> <move> <location>) of this task")
            route.append(Move(places[parts[1]], moves[parts[2]], places[parts[3]]))
        return tuple(route)


def problem_text(name: str, moves: Moves, src: str, dst: str) -> tuple[str, Naming]:
    """The route-finding task from ``src`` to ``dst`` on the map ``moves``, and its naming."""
    naming = Naming.of(moves)
    objects = {ident: "location" for ident in naming.places.values()} | {
        ident: "move" for ident in naming.moves.values()}
    init = {("at", naming.places[normalize(src)])} | {
        ("link", naming.places[place], naming.moves[action], naming.places[target])
        for place in moves.table for action, target in moves.out(place)}
    title = "mango-" + "-".join(_WORDS.findall(name.lower()))
    problem = Problem(title, DOMAIN_NAME, objects, frozenset(init), {}, Pred("at", (naming.places[normalize(dst)],)))
    return naming.header() + write_problem(problem, mango_domain()), naming
