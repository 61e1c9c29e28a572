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

from plancheck.episodes.check import check_episode, replay_episode
from plancheck.episodes.play import play
from plancheck.errors import LimitError, UnsupportedError
from plancheck.limits import Limits
from plancheck.registry import get_world, world_names, world_package
from plancheck.translators.pddl_reader import read_domain, read_problem
from plancheck.verifier.verdict import Semantics
from plancheck.world import (
    COMMANDS,
    Capability,
    EpisodeExample,
    Example,
    Optimum,
    Option,
    Prompt,
    Record,
    WorldBase,
)

REQUIRED = ("world", "instance", "rules", "prompts", "check", "scoring", "report", "examples")
BY_CAPABILITY = {Capability.ANSWERS: ("parse", "records"), Capability.PLAY: ("game",), Capability.EXPORT: ("pddl",),
                 Capability.SOLVE: ("solve",)}


def _examples(name: str):
    return importlib.import_module(world_package(name) + ".examples")


def _corpus(name: str, kind: str) -> tuple:
    """A world's ``EXAMPLES`` or ``OPTIMA`` (a package holding several worlds keys them by world name)."""
    found = getattr(_examples(name), kind)
    return tuple(found.get(name, ()) if isinstance(found, dict) else found)


def _cases(kind: str, capability: Capability, played: bool | None = None) -> list:
    """The corpus entries of every world with ``capability``: answers (Example) for ANSWERS, episode logs
    (EpisodeExample) for PLAY; optima solved, or played by a reference policy (``played``)."""
    wanted = {Capability.ANSWERS: Example, Capability.PLAY: EpisodeExample}.get(capability, object)
    cases = []
    for name in world_names():
        world = get_world(name)
        if not world.supports(capability):
            continue
        if world.missing():  # its corpus cannot even be built: one case, skipped, naming the extra
            reason = f"needs {', '.join(world.missing())}: pip install 'plancheck[{world.extra}]'"
            cases.append(pytest.param(name, None, id=f"{name}-extra", marks=pytest.mark.skip(reason=reason)))
            continue
        cases += [pytest.param(name, item, id=f"{name}-{i}") for i, item in enumerate(_corpus(name, kind))
                  if (kind != "EXAMPLES" or isinstance(item, wanted))
                  and (played is None or ("policy" in item.options) == played)]
    return cases


def _instance(name: str, instance_id: str, data: Path):
    world = get_world(name)
    if world.missing():
        pytest.skip(f"the {name} world needs {', '.join(world.missing())}: pip install 'plancheck[{world.extra}]'")
    found = list(world.instances([instance_id], data))
    assert len(found) == 1, f"{instance_id!r} must name exactly one instance"
    return world, found[0]


@pytest.mark.parametrize("name", world_names())
def test_every_world_s_corpus_has_cases_for_the_contract_below(name):
    """The contract tests are parametrised over the corpora: a world whose corpus lost its cases would pass them
    by running none. Each world keeps a valid and an invalid case of what it checks, an optimum with values for
    what it solves, and no optimum without values (its check would compare nothing)."""
    world = get_world(name)
    examples = _corpus(name, "EXAMPLES")
    kind = EpisodeExample if world.supports(Capability.PLAY) else Example
    cases = [e for e in examples if isinstance(e, kind)]
    assert any(e.valid for e in cases) and any(not e.valid for e in cases), (name, len(cases))
    optima = _corpus(name, "OPTIMA")
    assert all(o.values for o in optima), name
    if world.supports(Capability.SOLVE):
        assert [o for o in optima if "policy" not in o.options], f"{name} solves, but its corpus names no optimum"


@pytest.mark.parametrize("name", world_names())
def test_a_world_is_one_package_with_the_fixed_module_names(name):
    package = Path(importlib.import_module(world_package(name)).__file__).parent
    world = get_world(name)
    wanted = REQUIRED + tuple(module for capability, modules in BY_CAPABILITY.items() if world.supports(capability)
                              for module in modules)
    missing = [module for module in wanted if not (package / f"{module}.py").is_file()]
    assert not missing, f"{name}: missing modules {missing} in {package}"
    if world.supports(Capability.ANSWERS) and not world.supports(Capability.PLAY):  # free text -> plan
        assert list(package.glob("*.lark")), f"{name}: the answer grammar lives beside parse.py"
    if world.supports(Capability.PLAY):
        assert world.episodes is not None, f"{name} plays episodes but has none"


@pytest.mark.parametrize("name", world_names())
def test_the_facade_declares_what_it_offers_as_data(name):
    world = get_world(name)
    assert isinstance(world, WorldBase) and world.name == name and world.title
    assert world.capabilities <= set(Capability) and {Capability.INSTANCES, Capability.CHECK} <= world.capabilities
    assert world.supports(Capability.ANSWERS) or world.supports(Capability.PLAY), "answers, episodes, or both"
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
    instance_id = _first_instance(name)
    _, instance = _instance(name, instance_id, shared_data)
    calls = {Capability.SOLVE: lambda: world.solve(instance),
             Capability.EXPORT: lambda: world.export(instance),
             Capability.PDDL_PLAN: lambda: world.pddl_plan(instance, "an answer"),
             Capability.STATS: lambda: world.stats([instance_id], shared_data),
             Capability.CONVERT: lambda: list(world.convert(Path("runs.json")))}
    for capability, call in calls.items():
        if not world.supports(capability):
            with pytest.raises(UnsupportedError, match=f"the {name} world does not offer"):
                call()


def _first_instance(name: str) -> str:
    example = _corpus(name, "EXAMPLES")[0]
    return example.instance if isinstance(example, Example) else example.episode.header.instance


@pytest.mark.parametrize(("name", "example"), _cases("EXAMPLES", Capability.ANSWERS))
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
    _, instance = _instance(name, _first_instance(name), shared_data)
    prompt = world.prompt(instance)
    messages = prompt.messages()
    assert isinstance(prompt, Prompt) and messages and (prompt.user is None or prompt.user.strip())
    assert all(isinstance(m["content"], str) and m["content"] for m in messages)


@pytest.mark.parametrize(("name", "example"), _cases("EXAMPLES", Capability.PLAY))
def test_every_episode_example_gets_the_verdict_its_world_promises(name, example: EpisodeExample):
    world = get_world(name)
    verdict = check_episode(world.episodes, example.episode)
    assert verdict.world == name and verdict.valid == example.valid, (example.name, verdict.failure)
    assert verdict.consistent == example.consistent, example.name
    if example.step is not None:
        assert verdict.failure is not None and verdict.failure.step == example.step, (example.name, verdict.failure)
        assert example.failure in verdict.failure.reason, (example.name, verdict.failure)
    assert verdict.passed("strict") == (example.valid and example.consistent and verdict.goal_reached is not False)
    reads = {status: verdict.metrics[f"read_{status}"] for status in ("clear", "ambiguous", "none")}
    guessed = [step.index for step in replay_episode(world.episodes, example.episode)
               if step.read is not None and step.read.guessed]  # e.g. SmartPlay's fallback to action 0
    expected = "ambiguous" if reads["ambiguous"] or guessed else "none" if reads["none"] == sum(reads.values()) \
        else "clear"
    assert verdict.read.status.value == expected, (verdict.read, reads)
    assert ("the benchmark's rule took an action the reply does not commit to" in verdict.read.why) == bool(guessed)
    assert verdict.read.why.startswith(f"{reads['clear']} of {sum(reads.values())} replies read clearly")
    again = check_episode(world.episodes, example.episode)
    assert json.dumps(again.to_json()) == json.dumps(verdict.to_json())


@pytest.mark.parametrize(("name", "optimum"), _cases("OPTIMA", Capability.PLAY, played=True))
def test_every_reference_policy_scores_its_optimum_and_its_log_checks(name, optimum: Optimum):
    world = get_world(name)
    episodes = world.episodes
    instance = episodes.instance(optimum.instance)
    settings, _ = episodes.settings({})
    seed = optimum.options.get("seed", 0)
    game = episodes.game(instance, seed, settings)
    policy = episodes.policy(optimum.options["policy"], game, seed)
    episode = play(episodes, instance, seed, settings, policy, policy_name=optimum.options["policy"], game=game)
    verdict = check_episode(episodes, episode)
    assert verdict.valid and verdict.consistent, verdict.failure
    for rule, value in optimum.values.items():
        assert math.isclose(verdict.scores[rule], value, abs_tol=1e-9), (rule, verdict.scores)


@pytest.mark.parametrize(("name", "optimum"), _cases("OPTIMA", Capability.SOLVE, played=False))
def test_every_optimum_is_found_proven_and_passes_its_own_check(name, optimum: Optimum, shared_data):
    world, instance = _instance(name, optimum.instance, shared_data)
    result = world.solve(instance, **optimum.options)
    assert result.status.value == "solved" and result.proven_optimal, result.message
    for rule, value in optimum.values.items():
        assert math.isclose(result.values[rule], value, abs_tol=1e-9), (rule, result.values)
    if world.supports(Capability.ANSWERS):  # an interactive world checks episodes, not plans
        verdict = world.check(instance, world.reference_answer(result))
        assert verdict.parsed and verdict.valid and verdict.goal_reached is not False, verdict.failure


@pytest.mark.parametrize("name", [n for n in world_names() if get_world(n).supports(Capability.EXPORT)])
def test_exported_pddl_reads_back(name, shared_data):
    world = get_world(name)
    solved = [o for o in _corpus(name, "OPTIMA") if "policy" not in o.options]
    if not solved:
        pytest.skip(f"{name}'s corpus names no solved instance to export")
    _, instance = _instance(name, solved[0].instance, shared_data)
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


@pytest.mark.parametrize("name", ["grasp", "hanoi", "mango", "babyai"])  # the worlds that lex a whole answer
def test_free_text_answers_are_refused_unread_beyond_max_answer_words(name, shared_data):
    instance_id, text, options, _ = _answer(name)
    world, instance = _instance(name, instance_id, shared_data)
    words, marks = len(re.findall(r"\w+", text)), len(re.findall(r"\w+|[^\w\s]|\n", text))
    assert world.check(instance, text, limits=Limits(answer_words=max(words, -(-marks // 4))), **options).actions
    with pytest.raises(LimitError, match=f"max_answer_words {words - 1} exceeded: the answer holds {words} words$"):
        world.check(instance, text, limits=Limits(answer_words=words - 1), **options)
    padded = text + "\n" * (4 * words + 1 - marks)  # as many words, one mark too many
    with pytest.raises(LimitError, match=f"the answer holds {4 * words + 1} words, marks and line breaks"):
        world.check(instance, padded, limits=Limits(answer_words=words), **options)


def _answer(name: str) -> tuple[str, str, dict, dict]:
    """An instance, an answer to it as text, the options to check it with, and its record in an answer file."""
    example = _corpus(name, "EXAMPLES")[0]
    if isinstance(example, EpisodeExample):  # an interactive world that also takes the list of replies
        replies = [step.reply for step in example.episode.steps]
        instance = example.episode.header.instance
        return instance, json.dumps(replies), {}, {"instance": instance, "replies": replies}
    return example.instance, example.answer, dict(example.options), {"instance": example.instance,
                                                                     "response": example.answer}


@pytest.mark.parametrize("name", [n for n in world_names() if get_world(n).supports(Capability.ANSWERS)])
def test_every_world_reads_answers_within_the_shared_limits(name, shared_data, tmp_path):
    instance_id, text, options, record = _answer(name)
    world, instance = _instance(name, instance_id, shared_data)
    count = len(world.check(instance, text, **options).actions)
    with pytest.raises(LimitError, match="max_answer_bytes"):
        world.check(instance, text, limits=Limits(answer_bytes=len(text.encode()) - 1), **options)
    with pytest.raises(LimitError, match="max_list_length 2 exceeded: the answer's list holds 3 elements"):
        world.check(instance, ["x"] * 3, limits=Limits(list_length=2), **options)
    with pytest.raises(LimitError, match=f"max_list_length {count - 1} exceeded"):
        world.check(instance, text, limits=Limits(list_length=count - 1), **options)
    path = tmp_path / "answers.jsonl"
    path.write_text(json.dumps(record) + '\n{"x": [[[1]]]}\n')
    first, second = world.read_answers(path, shared_data, limits=Limits(nesting=2))
    assert isinstance(first, Record) and first.line == 1
    assert second.line == 2 and "max_nesting 2 exceeded: field 'x' nests deeper than 2 levels" in second.reason
