"""Read PDDL domain and problem text into the typed model of :mod:`plancheck.translators.pddl_model`.

Sections may come in any order; each may appear once. Every name is checked where it is used
(types, constants, predicates, functions, objects), and every problem is a
:class:`~plancheck.errors.PDDLError` with the file, line and column. Requirements outside what
the validator executes (durative actions, derived predicates, numeric fluents beyond action
costs, preferences, timed literals) are refused by name rather than half-supported.
"""

from __future__ import annotations

from pathlib import Path

from plancheck.errors import Location, PDDLError
from plancheck.limits import DEFAULT, Limits
from plancheck.translators.pddl_formulas import (
    Scope,
    expect_list,
    number_of,
    read_atom,
    read_condition,
    read_effect,
    read_fterm,
    read_numexpr,
    read_params,
    read_typed_list,
)
from plancheck.translators.pddl_model import ROOT_TYPE, TRUE, Action, Atom, Domain, Metric, Param, Problem
from plancheck.translators.pddl_sexpr import Node, SList, Sym, parse_sexprs, where

SUPPORTED_REQUIREMENTS = frozenset({
    ":strips", ":typing", ":negative-preconditions", ":disjunctive-preconditions", ":equality",
    ":existential-preconditions", ":universal-preconditions", ":quantified-preconditions",
    ":conditional-effects", ":adl", ":action-costs", ":numeric-fluents", ":fluents"})
UNSUPPORTED_REQUIREMENTS = frozenset({
    ":durative-actions", ":derived-predicates", ":timed-initial-literals", ":preferences", ":constraints",
    ":duration-inequalities", ":continuous-effects", ":object-fluents", ":time"})
_DOMAIN_SECTIONS = (":requirements", ":types", ":constants", ":predicates", ":functions")
_PROBLEM_SECTIONS = (":domain", ":requirements", ":objects", ":init", ":goal", ":metric")


def _define(nodes: tuple[Node, ...], kind: str, source: str | None) -> tuple[str, SList, list[SList]]:
    """Check ``(define (kind name) section ...)``; return the name, the define list and its sections."""
    if not nodes:
        raise PDDLError(f"the text is empty; expected (define ({kind} name) ...)", Location(source, 1, 1))
    if len(nodes) != 1 or not isinstance(nodes[0], SList):
        at = nodes[1] if len(nodes) > 1 else nodes[0]
        raise PDDLError(f"expected exactly one (define ({kind} ...) ...) form", where(at, source))
    define = nodes[0]
    if define.head != "define" or len(define.items) < 2:
        raise PDDLError(f"expected (define ({kind} name) ...)", where(define, source))
    header = define.items[1]
    if not (isinstance(header, SList) and header.head == kind and len(header.items) == 2
            and isinstance(header.items[1], Sym)):
        raise PDDLError(f"expected ({kind} name) after define", where(header, source))
    sections: list[SList] = []
    for item in define.items[2:]:
        if not isinstance(item, SList) or item.head is None or not item.head.startswith(":"):
            raise PDDLError("expected a section such as (:predicates ...)", where(item, source))
        sections.append(item)
    return header.items[1].text, define, sections


def _single(sections: list[SList], allowed: tuple[str, ...], source: str | None) -> dict[str, SList]:
    found: dict[str, SList] = {}
    for section in sections:
        head = section.head
        if head not in allowed:
            raise PDDLError(f"unknown or unsupported section {head}", where(section, source))
        if head in found:
            raise PDDLError(f"section {head} appears twice", where(section, source))
        found[head] = section
    return found


def _requirements(section: SList | None, source: str | None) -> tuple[str, ...]:
    if section is None:
        return ()
    names = []
    for item in section.items[1:]:
        if not isinstance(item, Sym):
            raise PDDLError("expected a requirement such as :typing", where(item, source))
        if item.text in UNSUPPORTED_REQUIREMENTS:
            raise PDDLError(f"requirement {item.text} is not supported", where(item, source))
        if item.text not in SUPPORTED_REQUIREMENTS:
            raise PDDLError(f"unknown requirement {item.text}", where(item, source))
        names.append(item.text)
    return tuple(names)


def _scope(source: str | None, types: dict[str, str], objects: dict[str, str],
           predicates=None, functions=None) -> Scope:
    return Scope(source, predicates or {}, functions or {}, objects,
                 lambda name: name == ROOT_TYPE or name in types)


def _types(section: SList | None, source: str | None) -> dict[str, str]:
    """Each declared type's parent. Parents that are only named become types under ``object``."""
    types: dict[str, str] = {}
    if section is None:
        return types
    scope = Scope(source, {}, {}, {}, lambda name: True)  # any name may serve as a parent type
    for name, parents in read_typed_list(scope, section.items[1:], variables=False, what="type list"):
        if len(parents) != 1:
            raise PDDLError("(either ...) is not supported as a supertype", where(name, source))
        if name.text == ROOT_TYPE:
            if parents != (ROOT_TYPE,):
                raise PDDLError("the type object has no parent", where(name, source))
            continue
        types[name.text] = parents[0]
    for parent in list(types.values()):
        if parent != ROOT_TYPE:
            types.setdefault(parent, ROOT_TYPE)
    for start in types:  # reject cycles
        seen, kind = {start}, types[start]
        while kind != ROOT_TYPE:
            if kind in seen:
                raise PDDLError(f"the types above {start} form a cycle", where(section, source))
            seen.add(kind)
            kind = types[kind]
    return types


def _typed_names(section: SList | None, scope: Scope, what: str, into: dict[str, str]) -> None:
    if section is None:
        return
    for name, types in read_typed_list(scope, section.items[1:], variables=False, what=what):
        if len(types) != 1:
            raise scope.error(name, f"(either ...) is not supported for {what}s")
        if name.text in into and into[name.text] != types[0]:
            raise scope.error(name, f"{name.text} is declared twice with different types")
        into[name.text] = types[0]


def _skeletons(section: SList | None, scope: Scope, what: str, numeric: bool) -> dict[str, tuple[Param, ...]]:
    """``(:predicates (p ?x - t) ...)`` or ``(:functions (f ?x) - number ...)``."""
    result: dict[str, tuple[Param, ...]] = {}
    if section is None:
        return result
    items = section.items[1:]
    index = 0
    while index < len(items):
        item = items[index]
        if numeric and isinstance(item, Sym) and item.text == "-":
            kind = items[index + 1] if index + 1 < len(items) else item
            if not (isinstance(kind, Sym) and kind.text == "number"):
                raise scope.error(kind, "only numeric functions (- number) are supported")
            index += 2
            continue
        skeleton = expect_list(scope, item, f"a {what} declaration")
        if skeleton.head is None:
            raise scope.error(skeleton, f"expected a {what} name")
        if skeleton.head in result:
            raise scope.error(skeleton, f"{what} {skeleton.head} is declared twice")
        result[skeleton.head] = read_params(scope, SList(skeleton.items[1:], skeleton.line, skeleton.column),
                                            f"{what} declaration")
        index += 1
    return result


def _action(node: SList, scope: Scope) -> Action:
    if len(node.items) < 2 or not isinstance(node.items[1], Sym):
        raise scope.error(node, "expected (:action name :parameters (...) :precondition ... :effect ...)")
    name = node.items[1].text
    keys = node.items[2:]
    if len(keys) % 2:
        raise scope.error(keys[-1], f"{str(keys[-1])!r} has no value in action {name}")
    fields: dict[str, Node] = {}
    for key, value in zip(keys[::2], keys[1::2]):
        if not isinstance(key, Sym) or key.text not in (":parameters", ":precondition", ":effect"):
            raise scope.error(key, f"expected :parameters, :precondition or :effect in action {name}")
        if key.text in fields:
            raise scope.error(key, f"{key.text} appears twice in action {name}")
        fields[key.text] = value
    params = read_params(scope, fields[":parameters"], "parameter list") if ":parameters" in fields else ()
    inner = scope.bind(params)
    precondition = read_condition(inner, fields[":precondition"]) if ":precondition" in fields else TRUE
    effects = read_effect(inner, fields[":effect"]) if ":effect" in fields else ()
    return Action(name, params, precondition, effects)


def read_domain(text: str, source: str | None = None, limits: Limits = DEFAULT) -> Domain:
    """The domain in ``text`` (within ``limits``: nesting, digits); ``source`` names it in error messages.

    >>> d = read_domain("(define (domain b) (:predicates (on ?x ?y)) (:action stack :parameters (?x ?y) "
    ...                 ":precondition (not (on ?x ?y)) :effect (on ?x ?y)))")
    >>> d.name, list(d.actions), str(d.actions["stack"].precondition)
    ('b', ['stack'], '(not (on ?x ?y))')
    """
    name, _, sections = _define(parse_sexprs(text, source, limits), "domain", source)
    actions_nodes = [s for s in sections if s.head == ":action"]
    for section in sections:
        if section.head in (":derived", ":durative-action", ":constraints"):
            raise PDDLError(f"{section.head} is not supported", where(section, source))
    found = _single([s for s in sections if s.head != ":action"], _DOMAIN_SECTIONS, source)
    requirements = _requirements(found.get(":requirements"), source)
    types = _types(found.get(":types"), source)
    constants: dict[str, str] = {}
    _typed_names(found.get(":constants"), _scope(source, types, {}), "constant", constants)
    scope = _scope(source, types, constants)
    predicates = _skeletons(found.get(":predicates"), scope, "predicate", numeric=False)
    functions = _skeletons(found.get(":functions"), scope, "function", numeric=True)
    scope = _scope(source, types, constants, predicates, functions)
    actions: dict[str, Action] = {}
    for node in actions_nodes:
        action = _action(node, scope)
        if action.name in actions:
            raise scope.error(node, f"action {action.name} is declared twice")
        actions[action.name] = action
    return Domain(name, requirements, types, constants, predicates, functions, actions)


def _init(section: SList | None, scope: Scope) -> tuple[frozenset[Atom], dict[Atom, float]]:
    atoms: set[Atom] = set()
    values: dict[Atom, float] = {}
    arity = {name: len(params) for name, params in scope.predicates.items() if name not in ("=", "not")}
    objects = scope.objects
    for item in section.items[1:] if section is not None else ():
        if type(item) is SList and item.items and type(item.items[0]) is Sym and \
                len(item.items) - 1 == arity.get(item.items[0].text) and \
                all(type(arg) is Sym and arg.text in objects for arg in item.items[1:]):
            atoms.add(tuple(arg.text for arg in item.items))  # a plain atom, all checks passed: read_atom's
            continue
        fact = expect_list(scope, item, "an initial fact")
        if fact.head == "=":
            if len(fact.items) != 3 or not isinstance(fact.items[1], SList):
                raise scope.error(fact, "expected (= (function object ...) number)")
            key = read_fterm(scope, fact.items[1]).key
            value = number_of(fact.items[2])
            if value is None:
                raise scope.error(fact.items[2], "expected a number")
            values[key] = value
        elif fact.head == "not":
            continue  # closed world: a negative initial fact is false anyway
        elif fact.head == "at" and fact.head not in scope.predicates:
            raise scope.error(fact, "timed initial literals are not supported")
        else:
            atoms.add(read_atom(scope, fact).atom)
    return frozenset(atoms), values


def read_problem(text: str, domain: Domain, source: str | None = None, limits: Limits = DEFAULT) -> Problem:
    """The problem in ``text`` (within ``limits``), checked against ``domain``."""
    name, define, sections = _define(parse_sexprs(text, source, limits), "problem", source)
    found = _single(sections, _PROBLEM_SECTIONS, source)
    domain_name = domain.name
    if ":domain" in found:
        node = found[":domain"]
        if len(node.items) != 2 or not isinstance(node.items[1], Sym):
            raise PDDLError("expected (:domain name)", where(node, source))
        domain_name = node.items[1].text
    _requirements(found.get(":requirements"), source)
    objects: dict[str, str] = dict(domain.constants)
    _typed_names(found.get(":objects"), _scope(source, dict(domain.types), {}), "object", objects)
    scope = _scope(source, dict(domain.types), objects, domain.predicates, domain.functions)
    init, values = _init(found.get(":init"), scope)
    if ":goal" not in found:
        raise PDDLError("the problem has no (:goal ...)", where(define, source))
    goal_node = found[":goal"]
    if len(goal_node.items) != 2:
        raise PDDLError("expected (:goal condition)", where(goal_node, source))
    goal = read_condition(scope, goal_node.items[1])
    metric = None
    if ":metric" in found:
        node = found[":metric"]
        if len(node.items) != 3 or not isinstance(node.items[1], Sym) or \
                node.items[1].text not in ("minimize", "maximize"):
            raise PDDLError("expected (:metric minimize|maximize expression)", where(node, source))
        metric = Metric(node.items[1].text, read_numexpr(scope, node.items[2]))
    return Problem(name, domain_name, objects, init, values, goal, metric)


def read_text_file(path: Path) -> str:
    """A file's text (a UTF-8 byte-order mark is dropped); a missing or unreadable file is bad input."""
    try:
        return path.read_bytes().decode("utf-8-sig", errors="replace")
    except OSError as error:
        raise PDDLError(f"cannot read {path}: {error.strerror or error}") from None


def read_task(domain_path: Path, problem_path: Path) -> tuple[Domain, Problem]:
    """Read a domain file and a problem file."""
    domain = read_domain(read_text_file(domain_path), str(domain_path))
    return domain, read_problem(read_text_file(problem_path), domain, str(problem_path))
