"""One contract over every registered world, from the examples each world ships (its ``examples.py``).

As unified-planning's shared test corpus and Minigrid's test over every registered environment do:
a new world passes these or it is not done. Per world: the package has the fixed module names,
the facade declares its options and capabilities as data, every example answer gets the verdict
the corpus says (validity, the failing step and its reason, the goal, scores), every optimum is
found by ``solve``, proven, and its plan passes ``check``; exports parse as PDDL; whatever a
world does not declare is refused with a clear error.
"""

from __future__ import annotations

import importlib
import json
import math
import re
from pathlib import Path

import pytest

from plancheck.errors import UnsupportedError
from plancheck.registry import get_world, world_names, world_package
from plancheck.translators.pddl_reader import read_domain, read_problem
from plancheck.verifier.verdict import Semantics
from plancheck.world import COMMANDS, Capability, Example, Optimum, Option, Prompt, WorldBase

REQUIRED = ("world", "instance", "rules", "prompts", "parse", "records", "check", "scoring", "report", "examples")
BY_CAPABILITY = {Capability.EXPORT: "pddl", Capability.SOLVE: "solve"}


def _examples(name: str):
    return importlib.import_module(world_package(name) + ".examples")


def _cases(kind: str) -> list:
    return [pytest.param(name, item, id=f"{name}-{i}") for name in world_names()
            for i, item in enumerate(getattr(_examples(name), kind))]


def _instance(name: str, instance_id: str, data: Path):
    world = get_world(name)
    found = list(world.instances([instance_id], data))
    assert len(found) == 1, f"{instance_id!r} must name exactly one instance"
    return world, found[0]


@pytest.mark.parametrize("name", world_names())
def test_a_world_is_one_package_with_the_fixed_module_names(name):
    package = Path(importlib.import_module(world_package(name)).__file__).parent
    world = get_world(name)
    wanted = REQUIRED + tuple(module for capability, module in BY_CAPABILITY.items() if world.supports(capability))
    missing = [module for module in wanted if not (package / f"{module}.py").is_file()]
    assert not missing, f"{name}: missing modules {missing} in {package}"
    assert list(package.glob("*.lark")), f"{name}: the answer grammar lives beside parse.py"


@pytest.mark.parametrize("name", world_names())
def test_the_facade_declares_what_it_offers_as_data(name):
    world = get_world(name)
    assert isinstance(world, WorldBase) and world.name == name and world.title
    assert world.capabilities <= set(Capability) and {Capability.INSTANCES, Capability.CHECK} <= world.capabilities
    flags: dict[str, set[str]] = {}
    for option in world.options:
        assert isinstance(option, Option) and set(option.commands) <= set(COMMANDS), option
        for command in option.commands:
            assert option.flag not in flags.setdefault(command, set()), f"{option.flag} twice on {command}"
            flags[command].add(option.flag)
        if option.choices is not None and option.default is not None:
            assert option.default in option.choices, option


@pytest.mark.parametrize("name", world_names())
def test_what_a_world_does_not_offer_is_refused_plainly(name, shared_data):
    world = get_world(name)
    example = _examples(name).EXAMPLES[0]
    _, instance = _instance(name, example.instance, shared_data)
    calls = {Capability.SOLVE: lambda: world.solve(instance),
             Capability.EXPORT: lambda: world.export(instance),
             Capability.PDDL_PLAN: lambda: world.pddl_plan(instance, example.answer),
             Capability.STATS: lambda: world.stats([example.instance], shared_data)}
    for capability, call in calls.items():
        if not world.supports(capability):
            with pytest.raises(UnsupportedError, match=f"the {name} world does not offer"):
                call()


@pytest.mark.parametrize(("name", "example"), _cases("EXAMPLES"))
def test_every_example_gets_the_verdict_its_world_promises(name, example: Example, shared_data):
    world, instance = _instance(name, example.instance, shared_data)
    verdict = world.check(instance, example.answer, **example.options)
    assert verdict.world == name and verdict.instance == world.instance_id(instance)
    assert verdict.parsed == example.parsed, verdict.parse_error
    assert verdict.valid == example.valid, verdict.failure
    if example.goal_reached is not None:
        assert verdict.goal_reached == example.goal_reached
    if example.failure_step is not None:
        assert verdict.failure is not None and verdict.failure.step == example.failure_step, verdict.failure
        assert example.failure in verdict.failure.reason
    elif example.valid:
        assert verdict.failure is None
    for rule, value in example.scores.items():
        assert math.isclose(verdict.scores[rule], value, abs_tol=1e-9), (rule, verdict.scores)
    if example.read is not None:
        assert verdict.read.status.value == example.read, verdict.read
    assert verdict.passed(Semantics.STRICT) == (example.valid and example.parsed and example.goal_reached is not False)
    again = world.check(instance, example.answer, **example.options)
    assert json.dumps(again.to_json()) == json.dumps(verdict.to_json())  # deterministic, and JSON all through


@pytest.mark.parametrize("name", world_names())
def test_every_world_renders_its_prompt(name, shared_data):
    world = get_world(name)
    if not world.supports(Capability.PROMPT):
        pytest.skip(f"{name} declares no prompt")
    _, instance = _instance(name, _examples(name).EXAMPLES[0].instance, shared_data)
    prompt = world.prompt(instance)
    assert isinstance(prompt, Prompt) and prompt.user.strip()
    assert all(isinstance(m["content"], str) and m["content"] for m in prompt.messages())


@pytest.mark.parametrize(("name", "optimum"), _cases("OPTIMA"))
def test_every_optimum_is_found_proven_and_passes_its_own_check(name, optimum: Optimum, shared_data):
    world, instance = _instance(name, optimum.instance, shared_data)
    result = world.solve(instance, **optimum.options)
    assert result.status.value == "solved" and result.proven_optimal, result.message
    for rule, value in optimum.values.items():
        assert math.isclose(result.values[rule], value, abs_tol=1e-9), (rule, result.values)
    verdict = world.check(instance, world.reference_answer(result))
    assert verdict.parsed and verdict.valid and verdict.goal_reached is not False, verdict.failure


@pytest.mark.parametrize("name", [n for n in world_names() if get_world(n).supports(Capability.EXPORT)])
def test_exported_pddl_reads_back(name, shared_data):
    world = get_world(name)
    _, instance = _instance(name, _examples(name).OPTIMA[0].instance, shared_data)
    files = world.export(instance)
    domains = {file: text for file, text in files.items() if "(domain" in text and "(:action" in text}
    problems = {file: text for file, text in files.items() if "(problem" in text}
    assert domains and problems, sorted(files)
    read = {domain.name: domain for domain in (read_domain(d, source=n) for n, d in domains.items())}
    for file, text in problems.items():
        named = re.search(r"\(:domain\s+([^\s()]+)\s*\)", text, re.IGNORECASE)
        assert named and named.group(1).lower() in read, f"{file} names no exported domain"
        problem = read_problem(text, read[named.group(1).lower()], source=file)
        assert problem.domain_name == named.group(1).lower() and problem.objects is not None
