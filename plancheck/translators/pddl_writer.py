"""Print the typed PDDL model as PDDL text that Fast Downward, pyperplan, VAL and our reader accept.

Worlds build a :class:`~plancheck.translators.pddl_model.Domain` and
:class:`~plancheck.translators.pddl_model.Problem` and print them here instead of filling string
templates. The output is deterministic (declared order for types, predicates and actions; sorted
objects and initial facts), and reading it back gives an equal model.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from plancheck.translators.pddl_model import Action, Domain, Param, Problem, atom_text


def _typed(names: Iterable[tuple[str, str]]) -> str:
    """``a b - t c - u``: names grouped by type, in order of first appearance."""
    groups: dict[str, list[str]] = {}
    for name, kind in names:
        groups.setdefault(kind, []).append(name)
    return " ".join(" ".join(group) + f" - {kind}" for kind, group in groups.items())


def _params(params: tuple[Param, ...]) -> str:
    return "(" + " ".join(str(p) for p in params) + ")"


def _action(action: Action) -> str:
    lines = [f"  (:action {action.name}", f"    :parameters {_params(action.params)}",
             f"    :precondition {action.precondition}"]
    effects = [str(e) for e in action.effects]
    lines.append(f"    :effect {effects[0]})" if len(effects) == 1 else f"    :effect (and {' '.join(effects)}))")
    return "\n".join(lines)


def _skeletons(section: str, skeletons: Mapping[str, tuple[Param, ...]], suffix: str = "") -> list[str]:
    if not skeletons:
        return []
    items = " ".join("(" + " ".join([name, *(str(p) for p in params)]) + ")" + suffix
                     for name, params in skeletons.items())
    return [f"  ({section} {items})"]


def domain_text(domain: Domain) -> str:
    """PDDL text of ``domain``.

    >>> from plancheck.translators.pddl_model import Literal, Pred, TRUE
    >>> d = Domain("lamp", (":strips",), predicates={"on": ()},
    ...            actions={"switch": Action("switch", (), TRUE, (Literal(Pred("on")),))})
    >>> print(domain_text(d), end="")
    (define (domain lamp)
      (:requirements :strips)
      (:predicates (on))
      (:action switch
        :parameters ()
        :precondition (and)
        :effect (on)))
    """
    lines = [f"(define (domain {domain.name})"]
    if domain.requirements:
        lines.append(f"  (:requirements {' '.join(domain.requirements)})")
    if domain.types:
        lines.append(f"  (:types {_typed(domain.types.items())})")
    if domain.constants:
        lines.append(f"  (:constants {_typed(sorted(domain.constants.items()))})")
    lines += _skeletons(":predicates", domain.predicates)
    lines += _skeletons(":functions", domain.functions, " - number")
    lines += [_action(action) for action in domain.actions.values()]
    return "\n".join(lines) + ")\n"


def problem_text(problem: Problem, domain: Domain | None = None) -> str:
    """PDDL text of ``problem``; objects that are constants of ``domain`` are not repeated."""
    constants = domain.constants if domain is not None else {}
    objects = sorted((name, kind) for name, kind in problem.objects.items() if name not in constants)
    init = [atom_text(atom) for atom in sorted(problem.init)]
    init += [f"(= {atom_text(key)} {value:g})" for key, value in sorted(problem.values.items())]
    lines = [f"(define (problem {problem.name})", f"  (:domain {problem.domain_name})"]
    if objects:
        lines.append(f"  (:objects {_typed(objects)})")
    lines.append("  (:init" + "".join(f"\n    {fact}" for fact in init) + ")")
    lines.append(f"  (:goal {problem.goal})")
    if problem.metric is not None:
        lines.append(f"  {problem.metric}")
    return "\n".join(lines) + ")\n"
