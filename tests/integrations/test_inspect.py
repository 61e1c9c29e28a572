"""The inspect-ai integration, run end to end by inspect itself with its built-in mock model (mockllm): a task for
every world, the verdict as a Score, backprompting with the verifier's feedback, and the interactive worlds played
turn by turn (each episode the same as `plancheck play` gives for the same replies)."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.extras import INSPECT

inspect_ai = pytest.importorskip("inspect_ai", reason=INSPECT)

from inspect_ai import eval as inspect_eval  # noqa: E402
from inspect_ai.model import ModelOutput, ModelUsage  # noqa: E402

from plancheck import api  # noqa: E402
from plancheck.episodes.check import check_episode  # noqa: E402
from plancheck.episodes.game import Replies  # noqa: E402
from plancheck.episodes.log import episode_lines, read_episodes  # noqa: E402
from plancheck.episodes.play import play  # noqa: E402
from plancheck.episodes.policies import ReplayPolicy  # noqa: E402
from plancheck.errors import BadInputError  # noqa: E402
from plancheck.integrations.inspect_tasks import EPISODE_LOG, FEEDBACK_TEMPLATE, plancheck_task  # noqa: E402
from plancheck.registry import get_world, world_names, world_package  # noqa: E402
from plancheck.world import Capability, Example  # noqa: E402

LONG = {"bandits", "rps", "rearrangement", "household"}  # 50 to 100 steps of one or two questions: marked slow
MOCK_DEFAULT = "Default output from mockllm/model"  # what inspect's mock model says by default
GRASP = "gen7_outer_spiral_block-0-0-1-1"


def _mock(reply: Callable[[list], str]) -> dict:
    """inspect's mock model answering with ``reply(messages)``; token usage is given, so the mock counts none
    (its own counting fetches a tokenizer from the network)."""
    def output(messages, tools, tool_choice, config):
        found = ModelOutput.from_content(model="mockllm", content=reply(messages))
        found.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return found
    return {"custom_outputs": output}


def _run(task, reply: Callable[[list], str], tmp_path: Path):
    [log] = inspect_eval(task, model="mockllm/model", model_args=_mock(reply), display="none",
                         log_dir=str(tmp_path / "logs"))
    assert log.status == "success", log.error
    return log


def _scores(log) -> dict:
    return {sample.id: sample.scores["verdict_scorer"] for sample in log.samples}


def _corpus(name: str) -> list[Example]:
    found = importlib.import_module(world_package(name) + ".examples").EXAMPLES
    return [e for e in (found.get(name, ()) if isinstance(found, dict) else found) if isinstance(e, Example)]


ONE_SHOT = [name for name in world_names() if not get_world(name).supports(Capability.PLAY)]
EPISODIC = [pytest.param(name, marks=[pytest.mark.slow] if name in LONG else [])
            for name in world_names() if get_world(name).supports(Capability.PLAY)]
REPLIES = {"bandits": "Pull slot machine 2.", "rps": "I choose: Paper", "messenger-l1": "Move North",
           "messenger-l2": "Move East", "messenger-l3": "Do Nothing", "rearrangement": "Action: turn_left[]",
           "crafter": "Move North", "iqa": "Thought: I look around.\nAct: turn_left",
           "household": "Thought: I look around.\nAct: turn_left"}
PLAY = {"crafter": {"steps": 12}}  # Crafter's episodes run up to 9,999 steps; a short rollout is played here


@pytest.mark.parametrize("name", ONE_SHOT)
def test_a_one_shot_world_runs_in_inspect_and_its_score_is_plancheck_verdict(name, shared_data, tmp_path):
    world = get_world(name)
    if world.missing():
        pytest.skip(f"the {name} world needs {', '.join(world.missing())}")
    example = next(e for e in _corpus(name) if e.valid and e.goal_reached is not False)
    options = dict(example.options)
    task = plancheck_task(world=name, instances=example.instance, data=str(shared_data), **options)
    [sample] = task.dataset
    prompt = api.prompt(name, example.instance, data=shared_data)
    assert [(m.role, m.text) for m in sample.input] == [(m["role"], m["content"]) for m in prompt.messages()]
    for answer in (example.answer, MOCK_DEFAULT):
        text = answer if isinstance(answer, str) else ", ".join(answer)
        log = _run(task, lambda messages, text=text: text, tmp_path)
        [score] = _scores(log).values()
        verdict = api.check(name, example.instance, text, data=shared_data, **options)
        assert score.value == {"passed": 1.0 if verdict.passed() else 0.0}
        assert score.value["passed"] == (1.0 if answer is example.answer else 0.0)
        assert score.answer == text and score.explanation == verdict.feedback()
        assert score.metadata["verdict"] == verdict.to_json(with_steps=False)
        assert score.metadata["versions"] == world.versions() and score.metadata["semantics"] == "strict"
        metrics = {m: v.value for s in log.results.scores for m, v in s.metrics.items()}
        assert metrics["accuracy"] == score.value["passed"]


def test_backprompting_gives_the_verifier_feedback_until_the_answer_passes(tmp_path):
    wrong, right = "[RIGHT, RIGHT, RIGHT, DOWN]", "[UP, TAKE, LEFT, TAKE, LEFT, DROP]"
    feedback = api.check("grasp", GRASP, wrong).feedback()
    prompt = FEEDBACK_TEMPLATE.format(feedback=feedback)
    log = _run(plancheck_task(world="grasp", instances=GRASP, feedback=3), lambda messages: (
        right if messages[-1].text == prompt else wrong), tmp_path)
    [sample] = log.samples
    score = sample.scores["verdict_scorer"]
    assert score.value == {"passed": 1.0} and score.metadata["feedback_rounds"] == 1
    assert [m.role for m in sample.messages] == ["system", "user", "assistant", "user", "assistant"]
    assert sample.messages[3].text == prompt and sample.messages[4].text == right
    stubborn = _run(plancheck_task(world="grasp", instances=GRASP, feedback=2), lambda messages: wrong, tmp_path)
    [sample] = stubborn.samples
    assert sample.scores["verdict_scorer"].value == {"passed": 0.0}
    assert sample.scores["verdict_scorer"].metadata["feedback_rounds"] == 2
    assert [m.role for m in sample.messages].count("assistant") == 3
    assert sample.scores["verdict_scorer"].explanation == feedback


def test_the_benchmark_semantics_and_the_rule_reach_the_score(tmp_path):
    wrong = "[RIGHT, RIGHT, RIGHT, DOWN]"
    log = _run(plancheck_task(world="grasp", instances=GRASP, semantics="benchmark", rule="delivered"),
               lambda messages: wrong, tmp_path)
    [score] = _scores(log).values()
    assert score.value == {"passed": 1.0}  # under the benchmark's rules a blocked move is a no-op
    assert (score.metadata["rule"], score.metadata["score"]) == ("delivered", -1.2)


@pytest.mark.parametrize("name", EPISODIC)
def test_an_interactive_world_is_played_turn_by_turn_as_plancheck_play_would(name, tmp_path):
    world = get_world(name)
    if world.missing():
        pytest.skip(f"the {name} world needs {', '.join(world.missing())}")
    instance_id = world.instance_id(next(iter(world.instances(["all"], None))))
    calls: list[list] = []

    def reply(messages):
        calls.append(messages)
        return REPLIES[name]

    log = _run(plancheck_task(world=name, instances=instance_id, seed=3, **PLAY.get(name, {})), reply, tmp_path)
    [sample] = log.samples
    assert sample.id == f"{instance_id}@3"
    [episode] = list(read_episodes(Path("x.jsonl"), sample.metadata[EPISODE_LOG]))
    assert episode.header.seed == 3 and episode.header.model == "mockllm/model"
    assert len(calls) == sum(1 + len(step.earlier) for step in episode.steps) > 0
    assert all(step.reply == REPLIES[name] for step in episode.steps)
    # each step logs the messages of its last question, as the model was shown them
    asked = iter(calls)
    for step in episode.steps:
        for _ in step.earlier:
            next(asked)
        assert [dict(m) for m in step.prompt] == [{"role": m.role, "content": m.text} for m in next(asked)]
    # the same replies played by plancheck's own loop give the same episode, step for step
    episodes = world.episodes
    settings, _ = episodes.settings(PLAY.get(name, {}))
    replay = ReplayPolicy([Replies(step.reply, step.earlier) for step in episode.steps], "test")
    again = play(episodes, episodes.instance(instance_id), 3, settings, replay, policy_name="inspect:mockllm/model",
                 model="mockllm/model")
    assert _steps(again) == _steps(episode) and again.header.to_json() == episode.header.to_json()
    score = sample.scores["verdict_scorer"]
    verdict = check_episode(episodes, episode)
    assert score.metadata["verdict"] == verdict.to_json(with_steps=False)
    assert score.explanation == verdict.feedback() and verdict.consistent
    assert score.value == {"passed": 1.0 if verdict.passed() else 0.0}


def _steps(episode) -> list[dict]:
    """An episode's step lines without their prompts (a replay records none)."""
    return [{k: v for k, v in line.items() if k != "prompt"} for line in episode_lines(episode)][1:]


def test_the_task_refuses_what_it_cannot_do(tmp_path):
    with pytest.raises(BadInputError, match="has no option 'colour'"):
        plancheck_task(world="hanoi", colour="red")
    with pytest.raises(BadInputError, match="played step by step"):
        plancheck_task(world="bandits", feedback=2)
    with pytest.raises(BadInputError, match="unknown world"):
        plancheck_task(world="chess")
