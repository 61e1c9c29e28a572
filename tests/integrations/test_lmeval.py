"""The lm-evaluation-harness integration, run end to end by lm-eval itself: every task config loads from the
include path and runs with lm-eval's dummy model, its metric is plancheck's verdict, and a model that gives the
certified reference answer passes."""

from __future__ import annotations

import importlib

import pytest

from tests.extras import LMEVAL

lm_eval = pytest.importorskip("lm_eval", reason=LMEVAL)
pytest.importorskip("lm_eval.models", reason=LMEVAL)  # the built-in models (the dummy one), before ours is registered

from lm_eval.api.model import LM  # noqa: E402
from lm_eval.api.registry import register_model  # noqa: E402
from lm_eval.tasks import TaskManager  # noqa: E402

from plancheck import api  # noqa: E402
from plancheck.errors import BadInputError  # noqa: E402
from plancheck.integrations.lmeval import TASKS, WORLDS, documents, process_results  # noqa: E402
from plancheck.registry import get_world, world_names, world_package  # noqa: E402
from plancheck.world import Capability, Example  # noqa: E402

DUMMY = "lol"  # what lm-eval's dummy model generates
ANSWERS: dict[str, str] = {}  # prompt -> the answer the test model gives


@register_model("plancheck-test-oracle")
class Oracle(LM):
    """A model that answers a prompt from ANSWERS (else as the dummy model does)."""

    def generate_until(self, requests, disable_tqdm: bool = False):
        return [ANSWERS.get(request.arguments[0], DUMMY) for request in requests]

    def loglikelihood(self, requests, disable_tqdm: bool = False):
        raise NotImplementedError

    def loglikelihood_rolling(self, requests, disable_tqdm: bool = False):
        raise NotImplementedError


def _example(name: str) -> Example:
    found = importlib.import_module(world_package(name) + ".examples").EXAMPLES
    found = found.get(name, ()) if isinstance(found, dict) else found
    return next(e for e in found if isinstance(e, Example) and e.valid and e.goal_reached is not False)


def _run(name: str, model: str, data, **metadata):
    manager = TaskManager(include_path=str(TASKS), include_defaults=False,
                          metadata={"data": str(data), **metadata})
    return lm_eval.simple_evaluate(model=model, tasks=[f"plancheck_{name}"], task_manager=manager, log_samples=True)


def test_there_is_a_config_for_every_one_shot_world():
    one_shot = [n for n in world_names() if get_world(n).supports(Capability.ANSWERS)
                and not get_world(n).supports(Capability.PLAY)]
    assert list(WORLDS) == one_shot
    assert sorted(p.stem for p in TASKS.glob("*.yaml")) == sorted(f"plancheck_{n}" for n in WORLDS)


@pytest.mark.parametrize("name", WORLDS)
def test_every_config_runs_with_the_dummy_model_and_is_scored_by_plancheck(name, shared_data):
    world = get_world(name)
    if world.missing():
        pytest.skip(f"the {name} world needs {', '.join(world.missing())}")
    example = _example(name)
    results = _run(name, "dummy", shared_data, instances=example.instance, **example.options)
    [sample] = results["samples"][f"plancheck_{name}"]
    full_id = api.instance(name, example.instance, data=shared_data)
    assert sample["doc"]["instance"] == world.instance_id(full_id) and sample["resps"] == [[DUMMY]]
    prompt = api.prompt(name, example.instance, data=shared_data)
    assert sample["arguments"][0][0] == "\n\n".join(m["content"] for m in prompt.messages())
    verdict = api.check(name, example.instance, DUMMY, data=shared_data, **example.options)
    assert sample["passed"] == (1.0 if verdict.passed() else 0.0) == 0.0
    assert results["results"][f"plancheck_{name}"]["passed,none"] == 0.0


@pytest.mark.parametrize("name", ["hanoi", "grasp"])
def test_a_model_giving_the_reference_answer_passes(name, shared_data):
    example = _example(name)
    docs = documents(name, example.instance, data=str(shared_data))
    answer = example.answer if isinstance(example.answer, str) else ", ".join(example.answer)
    ANSWERS[docs[0]["prompt"]] = answer
    other = "hanoi-4" if name == "hanoi" else "inner_random_free.jsonl-0-0-0-0"
    results = _run(name, "plancheck-test-oracle", shared_data, instances=[example.instance, other])
    scores = results["results"][f"plancheck_{name}"]
    verdict = api.check(name, example.instance, answer, data=shared_data)
    assert scores["passed,none"] == 0.5
    expected = {"passed": 1.0, "score": float(next(iter(verdict.scores.values())))}
    by_instance = {s["doc"]["instance"]: s for s in results["samples"][f"plancheck_{name}"]}
    assert {k: by_instance[docs[0]["instance"]][k] for k in expected} == expected
    assert process_results(docs[0], [answer]) == expected


def test_documents_refuse_interactive_worlds_and_keep_the_check_options(shared_data):
    with pytest.raises(BadInputError, match="played step by step"):
        documents("bandits")
    [doc] = documents("grasp", "gen7_outer_spiral_block-0-0-1-1", rule="delivered", version=1.0, pretrained="x")
    assert '"rule": "delivered"' in doc["options"] and "pretrained" not in doc["options"]
    assert process_results(doc, ["[UP, TAKE, LEFT, TAKE, LEFT, DROP]"]) == {"passed": 1.0, "score": -1.8}
