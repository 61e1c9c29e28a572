"""GRASP environments as PDDL: a validation model and a planning model.

**Validation model** (domain ``grasp``): every action the benchmark allows, with its exact
semantics, for checking a plan with any PDDL validator. Effectful actions are ``move``,
``take``/``take-last`` and ``drop``; the benchmark's no-ops are explicit actions of their own
(``bump``: a move into the boundary, an obstacle or a diagonal under 4 directions;
``take-nothing``, ``take-over-limit``, ``drop-nothing``, and ``noop`` for a token that names no
action), so a plan under the benchmark semantics maps to a valid PDDL plan while a strictly
valid plan uses only effectful actions. Every step advances the step counter ``t0 .. t20``; no
step follows the last one. A final ``score-paper`` or ``score-delivered`` action (the problem
names the rule) reaches the goal and costs the forgone energy, so a plan's cost is
``step * steps + unit * (N - score)``: the score can be read off the cost. Grounding it in full
is heavy (counts of units per cell x carried x steps): about 470,000 operators for a published
grid, which Fast Downward translates in 1.5 minutes.

**Planning model** (domain ``grasp-planning``): the net-benefit objective compiled for
cost-optimal classical planners (Keyder & Geffner 2009): integer costs (a unit of energy is
worth ``unit`` = 10, a step costs ``step`` = 10 x the step cost), the time-indexed horizon, and
one aggregated end action whose cost is the forgone utility ``unit * (K - counted)``. Dominated
actions are pruned, as in the native solver (:mod:`plancheck.domains.grasp.exact`, where the
pruning is proven against an exhaustive search): no no-ops, TAKE only of a cell's original unit,
DROP only on the depot (the start cell for ``delivered``; for ``paper`` the cell of the first
drop), the plan ends right after a drop unless a carry limit calls for more trips. No
conditional effects and no negative preconditions, so ``lmcut`` applies.

Identifiers: cells ``c<row>_<col>``, counts ``n<k>``, steps ``t<i>``; nothing is called ``start``
or ``end``. Domains are static, commented text (:mod:`.grasp_pddl_domains`); problems are
generated one fact per line in a fixed order, so the same environment always gives the same
bytes. The static cost functions (``step-cost``, ``forgo``) are what IPC-2008 action costs
allow and what Fast Downward and unified-planning read; the ``pddl`` library's validator
rejects any function but ``total-cost`` without ``:numeric-fluents``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from plancheck.domains.grasp.grid import ENERGY, OBSTACLE, Cell
from plancheck.domains.grasp.instance import Environment
from plancheck.domains.grasp.pddl_domains import PLANNING_DOMAIN, VALIDATION_DOMAIN
from plancheck.domains.grasp.rules import DIAGONAL, MOVES, STRAIGHT, pddl_cell, pddl_direction
from plancheck.domains.grasp.scoring import RULES

VALIDATION_DOMAIN_FILE = "grasp-validation-domain.pddl"
PLANNING_DOMAIN_FILE = "grasp-planning-domain.pddl"

@dataclass(frozen=True, slots=True)
class Scale:
    """Integer costs: a unit of energy is worth ``unit``, a step costs ``step`` (``step/unit`` = step cost)."""

    unit: int
    step: int

    @classmethod
    def of(cls, step_cost: float) -> Scale:
        """Units of 10 as in the brief (energy x10, step x3 for 0.3); finer when the cost needs it.

        >>> Scale.of(0.3), Scale.of(0.0), Scale.of(0.25)
        (Scale(unit=10, step=3), Scale(unit=10, step=0), Scale(unit=100, step=25))
        """
        cost = Fraction(str(step_cost))
        unit = 10
        while (cost * unit).denominator != 1:
            unit *= 10
        return cls(unit, int(cost * unit))

    def value(self, plan_cost: int, top: int) -> Fraction:
        """The score of a plan of cost ``plan_cost`` when the forgo costs count down from ``top``."""
        return Fraction(self.unit * top - plan_cost, self.unit)


def validation_domain() -> str:
    """The validation domain (one for every environment)."""
    return VALIDATION_DOMAIN


def planning_domain() -> str:
    """The planning domain (one for every environment and rule)."""
    return PLANNING_DOMAIN


def _fact(*words: object) -> str:
    return "(" + " ".join(str(w) for w in words) + ")"


def _successors(top: int) -> list[str]:
    """``succ`` over the counts 0 .. top (n0 and n1 are constants of the domains)."""
    return [_fact("succ", f"n{k}", f"n{k + 1}") for k in range(top)]


def _sums(top: int) -> list[str]:
    """``sum`` over the counts 0 .. top: a + b = c with b >= 1."""
    return [_fact("sum", f"n{a}", f"n{b}", f"n{a + b}") for a in range(top + 1) for b in range(1, top + 1 - a)]


def _steps(horizon: int) -> list[str]:
    return [_fact("now", "t0")] + [_fact("next", f"t{i}", f"t{i + 1}") for i in range(horizon)]


def _costs(scale: Scale, top: int) -> list[str]:
    return (["(= (total-cost) 0)", f"(= (step-cost) {scale.step})"]
            + [f"(= (forgo n{k}) {scale.unit * (top - k)})" for k in range(top + 1)])


def _problem(name: str, domain: str, objects: dict[str, list[str]], init: list[str], goal: str) -> str:
    lines = [f"(define (problem {name})", f"  (:domain {domain})", "  (:objects"]
    lines += [f"    {' '.join(names)} - {kind}" for kind, names in objects.items() if names]
    lines += ["  )", "  (:init"] + [f"    {fact}" for fact in init] + ["  )"]
    lines += [f"  (:goal {goal})", "  (:metric minimize (total-cost))", ")"]
    return "\n".join(lines) + "\n"


def problem_name(env: Environment, rule: str, model: str) -> str:
    """A PDDL-safe problem name, e.g. ``grasp-inner_random_free-3-1-0-1-paper-planning``."""
    return f"grasp-{env.info.set_name}-{env.info.index}-{env.setting.flags}-{rule}-{model}"


def _check_rule(rule: str) -> None:
    if rule not in RULES:
        raise ValueError(f"unknown scoring rule {rule!r}; known: {', '.join(RULES)}")


def count_limit(env: Environment) -> int:
    """The largest count either model needs (objects ``n0 .. n<limit>``).

    A unit is first taken from its own cell, and the agent moves before each such take, so at
    most ``horizon // 2`` units ever move: nothing carries more, and no cell holds more than
    those plus its own unit (nor more than all the energy there is).
    """
    return max(1, min(env.grid.cells.count(ENERGY), env.step_limit // 2 + 1))


def validation_problem(env: Environment, rule: str) -> str:
    """The validation problem: the whole grid, the benchmark's limits, scored under ``rule``."""
    _check_rule(rule)
    grid, setting, horizon = env.grid, env.setting, env.step_limit
    top = count_limit(env)
    allowed = STRAIGHT + (DIAGONAL if setting.directions == 8 else ())
    cells = [(r, c) for r in range(grid.rows) for c in range(grid.cols)]
    init = [_fact("at", pddl_cell(grid.start)), _fact("origin", pddl_cell(grid.start)), _fact(f"rule-{rule}")]
    init += [_fact("allowed", pddl_direction(a)) for a in allowed]
    for cell in cells:
        kind = grid.at(cell)
        if kind == OBSTACLE:
            continue
        init.append(_fact("free", pddl_cell(cell)))
        init.append(_fact("energy", pddl_cell(cell), "n1" if kind == ENERGY else "n0"))
        if kind == ENERGY:
            init.append(_fact("has-energy", pddl_cell(cell)))
    for cell in cells:
        for action, (dr, dc) in MOVES.items():
            target = (cell[0] + dr, cell[1] + dc)
            inside = grid.inside(target)
            if inside:
                init.append(_fact("adjacent", pddl_direction(action), pddl_cell(cell), pddl_cell(target)))
            if grid.at(cell) != OBSTACLE and (action not in allowed or not inside or grid.at(target) == OBSTACLE):
                init.append(_fact("blocked", pddl_direction(action), pddl_cell(cell)))
    init += _successors(top) + _sums(top) + [_fact("positive", f"n{k}") for k in range(1, top + 1)]
    init.append(_fact("carrying", "n0"))
    capacity = setting.capacity
    init += [_fact("below-limit", f"n{k}") for k in range(min(capacity, top + 1))]
    if capacity <= top:
        init.append(_fact("at-limit", f"n{capacity}"))
    init += _steps(horizon) + _costs(Scale.of(setting.step_cost), top)
    return _problem(problem_name(env, rule, "validation"), "grasp", _objects(cells, top, horizon), init, "(scored)")


def planning_problem(env: Environment, rule: str) -> str:
    """The planning problem for ``rule`` (pruned; see the module docstring)."""
    _check_rule(rule)
    grid, setting, horizon = env.grid, env.setting, env.step_limit
    top = count_limit(env)
    moves = [MOVES[a] for a in STRAIGHT + (DIAGONAL if setting.directions == 8 else ())]
    free = [(r, c) for r in range(grid.rows) for c in range(grid.cols) if grid.at((r, c)) != OBSTACLE]
    init = [_fact("at", pddl_cell(grid.start)), _fact("carrying", "n0"), _fact("delivered", "n0"), _fact("ready")]
    init.append(_fact("depot", pddl_cell(grid.start)) if rule == "delivered" else _fact("undecided"))
    init += [_fact("energy", pddl_cell(cell)) for cell in free if grid.at(cell) == ENERGY]
    for cell in free:
        for dr, dc in moves:
            target = (cell[0] + dr, cell[1] + dc)
            if grid.inside(target) and grid.at(target) != OBSTACLE:
                init.append(_fact("adjacent", pddl_cell(cell), pddl_cell(target)))
    init += _successors(top) + _sums(top)
    init += [_fact("below-limit", f"n{k}") for k in range(min(setting.capacity, top))]
    if setting.capacity < top:
        init.append(_fact("trips"))
    init += _steps(horizon) + _costs(Scale.of(setting.step_cost), top)
    return _problem(problem_name(env, rule, "planning"), "grasp-planning", _objects(free, top, horizon), init,
                    "(scored)")


def _objects(cells: list[Cell], top: int, horizon: int) -> dict[str, list[str]]:
    """The problem's objects: its cells, the counts beyond n0 and n1 (domain constants), the steps."""
    return {"cell": [pddl_cell(cell) for cell in cells],
            "count": [f"n{k}" for k in range(2, top + 1)],
            "step": [f"t{i}" for i in range(horizon + 1)]}


def validation_problem_file(env: Environment, rule: str) -> str:
    """The name :func:`export_files` gives the validation problem of ``env`` under ``rule``."""
    return f"{env.id}.{rule}.validation.pddl"


def export_files(env: Environment) -> dict[str, str]:
    """Both domains and, per rule, the validation and the planning problem: file name -> text."""
    files = {VALIDATION_DOMAIN_FILE: validation_domain(), PLANNING_DOMAIN_FILE: planning_domain()}
    for rule in RULES:
        files[validation_problem_file(env, rule)] = validation_problem(env, rule)
        files[f"{env.id}.{rule}.planning.pddl"] = planning_problem(env, rule)
    return files
