"""The typed model of a PDDL task: domain, problem, conditions, effects, as frozen data.

Names are lower-case (PDDL is case-insensitive). A term is a plain string: a variable starts
with ``?``, anything else names an object or a constant. A ground atom is a tuple
``("on", "a", "b")``, never a formatted string. ``str()`` of every node prints PDDL, which is
how the validator quotes conditions in its messages.

Supported: STRIPS with typing (``either`` in parameters), constants, negative, disjunctive and
quantified conditions, equality, conditional effects (``when``, ``forall``) and action costs
(``increase (total-cost) <number | static function | arithmetic>``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

Atom = tuple[str, ...]
ROOT_TYPE = "object"
TOTAL_COST = "total-cost"


def atom_text(atom: Atom) -> str:
    """PDDL text of a ground atom.

    >>> atom_text(("on", "a", "b"))
    '(on a b)'
    """
    return "(" + " ".join(atom) + ")"


def is_variable(term: str) -> bool:
    return term.startswith("?")


@dataclass(frozen=True, slots=True)
class Param:
    """A typed variable; several types mean ``(either t1 t2)``."""

    name: str
    types: tuple[str, ...] = (ROOT_TYPE,)

    def __str__(self) -> str:
        kind = self.types[0] if len(self.types) == 1 else "(either " + " ".join(self.types) + ")"
        return f"{self.name} - {kind}"


def _params_text(params: tuple[Param, ...]) -> str:
    return "(" + " ".join(str(p) for p in params) + ")"


# -- conditions --------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Pred:
    """An atomic formula ``(name arg ...)``; ground when no argument is a variable."""

    name: str
    args: tuple[str, ...] = ()

    @property
    def atom(self) -> Atom:
        return (self.name, *self.args)

    def __str__(self) -> str:
        return atom_text(self.atom)


@dataclass(frozen=True, slots=True)
class Equals:
    left: str
    right: str

    def __str__(self) -> str:
        return f"(= {self.left} {self.right})"


@dataclass(frozen=True, slots=True)
class Not:
    arg: Condition

    def __str__(self) -> str:
        return f"(not {self.arg})"


@dataclass(frozen=True, slots=True)
class And:
    parts: tuple[Condition, ...] = ()

    def __str__(self) -> str:
        return "(and" + "".join(" " + str(p) for p in self.parts) + ")"


@dataclass(frozen=True, slots=True)
class Or:
    parts: tuple[Condition, ...] = ()

    def __str__(self) -> str:
        return "(or" + "".join(" " + str(p) for p in self.parts) + ")"


@dataclass(frozen=True, slots=True)
class Imply:
    condition: Condition
    consequence: Condition

    def __str__(self) -> str:
        return f"(imply {self.condition} {self.consequence})"


@dataclass(frozen=True, slots=True)
class Exists:
    params: tuple[Param, ...]
    body: Condition

    def __str__(self) -> str:
        return f"(exists {_params_text(self.params)} {self.body})"


@dataclass(frozen=True, slots=True)
class ForAll:
    params: tuple[Param, ...]
    body: Condition

    def __str__(self) -> str:
        return f"(forall {_params_text(self.params)} {self.body})"


Condition = Pred | Equals | Not | And | Or | Imply | Exists | ForAll
TRUE = And()


# -- numeric expressions (action costs only) -----------------------------------------------------

@dataclass(frozen=True, slots=True)
class Number:
    value: float

    def __str__(self) -> str:
        return f"{self.value:g}"


@dataclass(frozen=True, slots=True)
class FTerm:
    """A function term such as ``(total-cost)`` or ``(road-length ?from ?to)``."""

    name: str
    args: tuple[str, ...] = ()

    @property
    def key(self) -> Atom:
        return (self.name, *self.args)

    def __str__(self) -> str:
        return atom_text(self.key)


@dataclass(frozen=True, slots=True)
class Arith:
    op: str  # + - * /
    left: NumExpr
    right: NumExpr

    def __str__(self) -> str:
        return f"({self.op} {self.left} {self.right})"


NumExpr = Number | FTerm | Arith


# -- effects -------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Literal:
    """Add (``positive``) or delete an atom."""

    atom: Pred
    positive: bool = True

    def __str__(self) -> str:
        return str(self.atom) if self.positive else f"(not {self.atom})"


@dataclass(frozen=True, slots=True)
class When:
    condition: Condition
    effects: tuple[Effect, ...]

    def __str__(self) -> str:
        return f"(when {self.condition} (and{''.join(' ' + str(e) for e in self.effects)}))"


@dataclass(frozen=True, slots=True)
class ForAllEffect:
    params: tuple[Param, ...]
    effects: tuple[Effect, ...]

    def __str__(self) -> str:
        return f"(forall {_params_text(self.params)} (and{''.join(' ' + str(e) for e in self.effects)}))"


@dataclass(frozen=True, slots=True)
class Increase:
    """``(increase (total-cost) amount)``: the only numeric effect (action costs)."""

    target: FTerm
    amount: NumExpr

    def __str__(self) -> str:
        return f"(increase {self.target} {self.amount})"


Effect = Literal | When | ForAllEffect | Increase


# -- domain and problem ------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Action:
    name: str
    params: tuple[Param, ...]
    precondition: Condition
    effects: tuple[Effect, ...]

    @property
    def arity(self) -> int:
        return len(self.params)


@dataclass(frozen=True)
class Domain:
    """A domain. ``types`` maps each declared type to its parent (``object`` is the root)."""

    name: str
    requirements: tuple[str, ...] = ()
    types: Mapping[str, str] = field(default_factory=dict)
    constants: Mapping[str, str] = field(default_factory=dict)
    predicates: Mapping[str, tuple[Param, ...]] = field(default_factory=dict)
    functions: Mapping[str, tuple[Param, ...]] = field(default_factory=dict)
    actions: Mapping[str, Action] = field(default_factory=dict)

    def ancestors(self, kind: str) -> tuple[str, ...]:
        """``kind`` and every type above it, ending with ``object``.

        >>> Domain("d", types={"truck": "vehicle", "vehicle": "object"}).ancestors("truck")
        ('truck', 'vehicle', 'object')
        """
        chain = [kind]
        while chain[-1] != ROOT_TYPE and len(chain) <= len(self.types) + 1:
            chain.append(self.types.get(chain[-1], ROOT_TYPE))
        return tuple(chain)


@dataclass(frozen=True, slots=True)
class Metric:
    """``(:metric minimize|maximize expression)``."""

    direction: str
    expression: NumExpr

    def __str__(self) -> str:
        return f"(:metric {self.direction} {self.expression})"


@dataclass(frozen=True)
class Problem:
    """A problem: typed objects, the initial atoms and function values, the goal and the metric."""

    name: str
    domain_name: str
    objects: Mapping[str, str] = field(default_factory=dict)
    init: frozenset[Atom] = frozenset()
    values: Mapping[Atom, float] = field(default_factory=dict)
    goal: Condition = TRUE
    metric: Metric | None = None
