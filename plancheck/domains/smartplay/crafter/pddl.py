"""Crafter's tech tree as PDDL (STRIPS with typing), and tech-tree actions <-> PDDL plan steps.

Inventory counts are levels: constants ``n0`` .. ``n9`` with static arithmetic relations
(``succ-capped a b``: b = min(a + 1, 9); ``minus-k a b``: b = a - k; ``at-most-k a``; ``positive a``),
and ``(has ?item ?level)`` holds for exactly one level per item. Each recipe of crafter 1.8.3 is one
action (``collect-stone``, ``place-table``, ``make-iron-pickaxe``, ...): its parameters are the levels
before and after of every item it reads or changes. ``(placed-table)`` and ``(placed-furnace)`` stand
for "nearby" (walking is abstracted away). A fight is ``hit-<creature>-<sword>`` (the creature
survives) or ``kill-<creature>-<sword>`` (it dies, the achievement is unlocked and the next one is
at full health), one pair per damage tier: the best sword held (bare hands 1, wood 2, stone 3, iron 5).
The goal is ``(unlocked <achievement>)``. The same domain serves every goal.
"""

from __future__ import annotations

from collections.abc import Sequence

from plancheck.domains.smartplay.crafter import rules
from plancheck.domains.smartplay.crafter.rules import CAP, CREATURES, ITEMS, RECIPES, SWORD_DAMAGE, TreeState
from plancheck.errors import PDDLError
from plancheck.translators.pddl_model import Action, And, Atom, Condition, Domain, Literal, Param, Pred, Problem
from plancheck.translators.pddl_writer import domain_text, problem_text

DOMAIN_FILE = "crafter-domain.pddl"
LEVELS = tuple(f"n{i}" for i in range(CAP + 1))
_AMOUNTS = (1, 2, 3, 4, 5)
_TIERS = (("bare", 1), ("wood-sword", 2), ("stone-sword", 3), ("iron-sword", 5))


def _name(text: str) -> str:
    return text.replace("_", "-")


def _has(item: str, level: str) -> Pred:
    return Pred("has", (_name(item), level))


def _level(param: str) -> Param:
    return Param(param, ("level",))


def _recipe_action(name: str, recipe: rules.Recipe) -> Action:
    params: list[Param] = []
    pre: list[Condition] = [Pred(f"placed-{u}") for u in recipe.nearby]
    effects: list[Literal] = [Literal(Pred("unlocked", (_name(recipe.unlocks),)))]
    for item in recipe.requires:
        params.append(_level(f"?{_name(item)}"))
        pre += [_has(item, f"?{_name(item)}"), Pred("positive", (f"?{_name(item)}",))]
    for item, amount in recipe.uses.items():
        before, after = f"?{_name(item)}", f"?{_name(item)}-left"
        params += [_level(before), _level(after)]
        pre += [_has(item, before), Pred(f"minus-{amount}", (before, after))]
        effects += [Literal(_has(item, before), False), Literal(_has(item, after))]
    if recipe.gives is not None:
        before, after = f"?{_name(recipe.gives)}", f"?{_name(recipe.gives)}-new"
        params += [_level(before), _level(after)]
        pre += [_has(recipe.gives, before), Pred("succ-capped", (before, after))]
        effects += [Literal(_has(recipe.gives, before), False), Literal(_has(recipe.gives, after))]
    if recipe.places in ("table", "furnace", "plant"):
        effects.append(Literal(Pred(f"placed-{recipe.places}")))
    return Action(_name(name), tuple(params), And(tuple(pre)), tuple(effects))


def _tier(tier: str) -> tuple[list[Param], list[Condition]]:
    """The parameters and conditions that make ``tier`` the best sword held."""
    order = [sword for sword, _ in SWORD_DAMAGE][::-1]  # wood, stone, iron
    params: list[Param] = []
    pre: list[Condition] = []
    better = order if tier == "bare" else order[order.index(tier.replace("-", "_")) + 1:]
    pre += [_has(sword, "n0") for sword in better]
    if tier != "bare":
        params.append(_level("?sword"))
        pre += [_has(tier.replace("-", "_"), "?sword"), Pred("positive", ("?sword",))]
    return params, pre


def _fight_actions(creature: str) -> list[Action]:
    achievement, full = CREATURES[creature]
    health = Pred(f"health-{creature}", ("?h",))
    actions = []
    for tier, hit in _TIERS:
        params, pre = _tier(tier)
        wound = Action(f"hit-{creature}-{tier}", (*params, _level("?h"), _level("?h-left")),
                       And((*pre, health, Pred(f"minus-{hit}", ("?h", "?h-left")), Pred("positive", ("?h-left",)))),
                       (Literal(health, False), Literal(Pred(f"health-{creature}", ("?h-left",)))))
        kill = Action(f"kill-{creature}-{tier}", (*params, _level("?h")),
                      And((*pre, health, Pred(f"at-most-{hit}", ("?h",)))),
                      (Literal(health, False), Literal(Pred(f"health-{creature}", (f"n{full}",))),
                       Literal(Pred("unlocked", (_name(achievement),)))))
        actions += [wound, kill]
    return actions


def tree_domain(only: Sequence[str] | None = None) -> Domain:
    """The tech tree domain (one for every goal); ``only`` keeps the PDDL actions of these tree actions."""
    level2 = (_level("?a"), _level("?b"))
    predicates = {"has": (Param("?i", ("item",)), _level("?n")), "succ-capped": level2, "positive": (_level("?a"),),
                  "unlocked": (Param("?x", ("achievement",)),)}
    predicates |= {f"minus-{k}": level2 for k in _AMOUNTS} | {f"at-most-{k}": (_level("?a"),) for k in _AMOUNTS}
    predicates |= {f"placed-{u}": () for u in ("table", "furnace", "plant")}
    predicates |= {f"health-{c}": (_level("?h"),) for c in CREATURES}
    actions = [_recipe_action(name, recipe) for name, recipe in RECIPES.items()]
    actions += [a for creature in CREATURES for a in _fight_actions(creature)]
    if only is not None:
        keep = set(only)
        actions = [a for a in actions if from_pddl_steps([(a.name,)])[0] in keep]
    constants = {level: "level" for level in LEVELS} | {_name(i): "item" for i in ITEMS}
    constants |= {_name(a): "achievement" for a in rules.TREE_ACHIEVEMENTS}
    return Domain(name="crafter-tech-tree", requirements=(":strips", ":typing"),
                  types={"item": "object", "level": "object", "achievement": "object"}, constants=constants,
                  predicates=predicates, actions={a.name: a for a in actions})


def state_atoms(state: TreeState) -> frozenset[Atom]:
    """The fluent atoms of a tech-tree state."""
    atoms = {("has", _name(item), f"n{n}") for item, n in zip(ITEMS, state.counts, strict=True)}
    atoms |= {(f"placed-{u}",) for u in ("table", "furnace", "plant") if state.placed(u)}
    atoms |= {(f"health-{c}", f"n{h}") for c, h in zip(CREATURES, state.foes, strict=True)}
    atoms |= {("unlocked", _name(a)) for a in state.unlocked}
    return frozenset(atoms)


def _static() -> set[Atom]:
    atoms: set[Atom] = {("succ-capped", f"n{i}", f"n{min(i + 1, CAP)}") for i in range(CAP + 1)}
    atoms |= {("positive", f"n{i}") for i in range(1, CAP + 1)}
    for k in _AMOUNTS:
        atoms |= {(f"minus-{k}", f"n{i}", f"n{i - k}") for i in range(k, CAP + 1)}
        atoms |= {(f"at-most-{k}", f"n{i}") for i in range(0, k + 1)}
    return atoms


def tree_problem(achievement: str, start: TreeState | None = None) -> Problem:
    """Unlock ``achievement`` from ``start`` (default: crafter's start, nothing held or placed)."""
    if achievement not in rules.TREE_ACHIEVEMENTS:
        raise ValueError(f"{achievement!r} is not in Crafter's tech tree")
    init = frozenset(_static() | state_atoms(start or TreeState()))
    return Problem(f"crafter-{_name(achievement)}", "crafter-tech-tree", {}, init, {},
                   And((Pred("unlocked", (_name(achievement),)),)))


def export(achievement: str, *, prune: bool = False) -> dict[str, str]:
    """The PDDL files for one goal: file name -> text (``prune``: only the goal's relevant actions)."""
    domain = tree_domain(rules.relevant_actions(achievement) if prune else None)
    return {DOMAIN_FILE: domain_text(domain),
            f"crafter-{_name(achievement)}.pddl": problem_text(tree_problem(achievement), domain)}


def _candidate(level: int) -> str:
    return f"n{level}" if 0 <= level <= CAP else "n0"  # an impossible result fails its minus- relation


def to_pddl_step(state: TreeState, action: str) -> Atom:
    """The PDDL step for ``action`` in ``state``: the one grounding its ``has`` facts allow.

    For an action the rules reject, this is the grounding that fails (the PDDL rejects it too).
    """
    if action.startswith("hit_"):
        creature = action[4:]
        if creature not in CREATURES:
            raise PDDLError(f"{action!r} is not a tech-tree action")
        hit = rules.damage(state)
        tier = next(t for t, h in _TIERS if h == hit)
        sword = [] if tier == "bare" else [f"n{state.count(tier.replace('-', '_'))}"]
        health = state.foes[list(CREATURES).index(creature)]
        if health - hit > 0:
            return (f"hit-{creature}-{tier}", *sword, f"n{health}", f"n{health - hit}")
        return (f"kill-{creature}-{tier}", *sword, f"n{health}")
    recipe = RECIPES.get(action)
    if recipe is None:
        raise PDDLError(f"{action!r} is not a tech-tree action")
    args = [f"n{state.count(item)}" for item in recipe.requires]
    for item, amount in recipe.uses.items():
        args += [f"n{state.count(item)}", _candidate(state.count(item) - amount)]
    if recipe.gives is not None:
        args += [f"n{state.count(recipe.gives)}", f"n{min(CAP, state.count(recipe.gives) + 1)}"]
    return (_name(action), *args)


def from_pddl_steps(steps: Sequence[Sequence[str]]) -> list[str]:
    """The tech-tree actions of PDDL plan steps (``hit-``/``kill-`` steps are ``hit_<creature>``)."""
    actions = []
    for step in steps:
        name = step[0].lower()
        if name.startswith(("hit-", "kill-")) and name.split("-")[1] in CREATURES:
            actions.append(f"hit_{name.split('-')[1]}")
        elif name.replace("-", "_") in RECIPES:
            actions.append(name.replace("-", "_"))
        else:
            raise PDDLError(f"{' '.join(step)!r} is not a step of the Crafter tech-tree domain")
    return actions
