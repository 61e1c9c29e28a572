"""plancheck in inspect-ai: a task for every world, a scorer that returns the verdict, backprompting with the
verifier's feedback, and the interactive worlds played turn by turn (``pip install 'plancheck[inspect]'``).

    inspect eval plancheck/integrations/inspect_tasks.py@plancheck -T world=hanoi --model openai/gpt-4o
    inspect eval ...inspect_tasks.py@plancheck -T world=grasp -T instances=inner_random_free.jsonl-0 -T feedback=3

One-shot worlds (GRASP, BabyAI, Hanoi, MANGO): one sample per selected instance, its input the
benchmark's chat messages byte for byte; the model answers once (``generate``), or, with
``feedback=k``, is re-prompted with the verifier's feedback until its answer passes or ``k`` rounds
are used, as PlanBench's backprompting does (it stops at 15). Interactive worlds (SmartPlay's games,
LangSuitE's Rearrangement): one sample per instance and seed; :func:`play_episode` plays the episode
with the model answering every question of every step (the benchmark's messages byte for byte, as
``plancheck play`` sends them to an agent), and the episode log is kept in the sample's metadata.

:func:`verdict_scorer` checks the answer (or re-verifies the episode log step by step) and returns
the verdict as a Score: ``passed`` (under the task's semantics) as the value, the verifier's
feedback as the explanation, and as metadata the verdict's JSON, the headline score and its rule,
and the versions the result depends on. Metrics: the pass rate with its standard error, and the
mean headline score (over the answers that have one) with its standard error.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import anyio
from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessage, ChatMessageAssistant, ChatMessageSystem, ChatMessageUser
from inspect_ai.scorer import Metric, SampleScore, Score, Scorer, Target, accuracy, metric, scorer, stderr
from inspect_ai.solver import Generate, Solver, TaskState, generate, solver

from plancheck import api
from plancheck.episodes.check import check_episode
from plancheck.episodes.game import Game, Replies
from plancheck.episodes.log import BrokenEpisode, dump_episodes, read_episodes
from plancheck.episodes.play import play
from plancheck.errors import BadInputError
from plancheck.registry import get_world
from plancheck.verifier.rows import headline
from plancheck.verifier.verdict import Semantics, Verdict
from plancheck.world import Capability, World

BACKPROMPTS = 15  # PlanBench's backprompting re-prompts up to 15 times
FEEDBACK_TEMPLATE = ("{feedback}\n\nPlease answer again: give your whole corrected answer, in the same format as "
                     "your first answer.")
EPISODE_LOG = "episode_log"  # the state's metadata key of a played episode (JSON lines)
_ROLES = {"system": ChatMessageSystem, "user": ChatMessageUser, "assistant": ChatMessageAssistant}


def chat(messages: Sequence[Mapping[str, str]]) -> list[ChatMessage]:
    """A benchmark's chat messages (``Prompt.messages()``, a game's question) as inspect messages."""
    return [_ROLES[message["role"]](content=message["content"]) for message in messages]


def _world(name: str, options: Mapping[str, Any]) -> World:
    """The world, its extra known to be installed, and every option one it declares."""
    world = get_world(name)
    world.require()
    known = {option.name for option in world.options}
    unknown = sorted(set(options) - known)
    if unknown:
        raise BadInputError(f"the {name} world has no option {', '.join(map(repr, unknown))}; its options: "
                            f"{', '.join(sorted(known)) or 'none'}")
    return world


def _options(world: World, command: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """The options the world's ``command`` takes, out of the task's options."""
    names = {option.name for option in world.options if command in option.commands}
    return {name: value for name, value in options.items() if name in names}


def episodic(world: World) -> bool:
    """Whether the world is played step by step (then a sample is an instance and a seed)."""
    return world.supports(Capability.PLAY)


def dataset(world_name: str, instances: str | Sequence[str] = "all", *, data: str | None = None, episodes: int = 1,
            seed: int = 0, **options: Any) -> MemoryDataset:
    """The samples of a world: per selected instance, its prompt (one-shot worlds) or ``episodes`` seeds from
    ``seed`` on (interactive worlds). ``instances`` is a selector or a list of them, as ``plancheck instances``
    takes; ``options`` are the world's own (``setting``, ``indices``, ...)."""
    world = _world(world_name, options)
    chosen = api.instances(world_name, instances, data=data, **_options(world, "instances", options))
    samples = []
    for instance in chosen:
        instance_id = world.instance_id(instance)
        if episodic(world):
            for number in range(episodes):
                samples.append(Sample(
                    id=f"{instance_id}@{seed + number}",
                    input=f"Play one episode of {world.title}: instance {instance_id}, seed {seed + number}.",
                    metadata={"world": world_name, "instance": instance_id, "seed": seed + number}))
        else:
            prompt = world.prompt(instance, **_options(world, "prompt", options))
            samples.append(Sample(id=instance_id, input=chat(prompt.messages()),
                                  metadata={"world": world_name, "instance": instance_id}))
    if not samples:
        raise BadInputError(f"no {world_name} instance matches {instances!r}")
    return MemoryDataset(samples, name=f"plancheck-{world_name}")


@lru_cache(maxsize=4096)
def _instance(world_name: str, instance_id: str, data: str | None, options: tuple[tuple[str, Any], ...]) -> Any:
    return api.instance(world_name, instance_id, data=data, **dict(options))


def _check(state: TaskState, answer: str, data: str | None, options: Mapping[str, Any]) -> Verdict:
    """The verdict on ``answer`` (one-shot) or on the episode the state holds (interactive)."""
    world = _world(state.metadata["world"], options)
    if episodic(world):
        log = state.metadata.get(EPISODE_LOG)
        if not log:
            raise BadInputError(f"sample {state.sample_id} holds no episode log: play it with play_episode()")
        [episode] = list(read_episodes(Path(f"the episode of sample {state.sample_id}"), log))
        if isinstance(episode, BrokenEpisode):
            raise BadInputError(episode.reason)
        return check_episode(world.episodes, episode)
    selecting = tuple(sorted(_options(world, "instances", options).items()))
    instance = _instance(state.metadata["world"], state.metadata["instance"], data, selecting)
    return world.check(instance, answer, **_options(world, "check", options))


def _scored(sample_scores: list[SampleScore]) -> list[float]:
    return [float(s.score.metadata["score"]) for s in sample_scores
            if s.score.metadata is not None and s.score.metadata.get("score") is not None]


@metric
def score_mean() -> Metric:
    """The mean headline score over the answers that have one (an unreadable answer has none)."""
    def compute(sample_scores: list[SampleScore]) -> float:
        values = _scored(sample_scores)
        return math.fsum(values) / len(values) if values else math.nan
    return compute


@metric
def score_stderr() -> Metric:
    """The standard error of :func:`score_mean` (sample standard deviation over the square root of n)."""
    def compute(sample_scores: list[SampleScore]) -> float:
        values = _scored(sample_scores)
        if len(values) < 2:
            return math.nan
        mean = math.fsum(values) / len(values)
        return math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (len(values) - 1) / len(values))
    return compute


@scorer(metrics=[{"passed": [accuracy(), stderr()]}, score_mean(), score_stderr()])
def verdict_scorer(semantics: str = "strict", data: str | None = None, **options: Any) -> Scorer:
    """Checks the sample's answer (or re-verifies its episode log) with plancheck: the value says whether it
    passed under ``semantics``, the explanation is the verifier's feedback, the metadata the verdict's JSON, the
    headline score (``score``, under the world's ``rule`` option where it has one) and the versions."""
    chosen = Semantics(semantics)

    async def score(state: TaskState, target: Target) -> Score:
        answer = state.output.completion
        verdict = _check(state, answer, data, options)
        world = get_world(state.metadata["world"])
        rule, value = headline(verdict, options.get("rule"))
        passed = verdict.passed(chosen)
        return Score(value={"passed": 1.0 if passed else 0.0}, answer=answer, explanation=verdict.feedback(),
                     metadata={"world": world.name, "instance": state.metadata["instance"], "passed": passed,
                               "semantics": chosen.value, "rule": rule, "score": value,
                               "feedback_rounds": state.metadata.get("feedback_rounds"),
                               "versions": world.versions(), "verdict": verdict.to_json(with_steps=False)})
    return score


@solver
def backprompt(rounds: int = BACKPROMPTS, semantics: str = "strict", template: str = FEEDBACK_TEMPLATE,
               data: str | None = None, **options: Any) -> Solver:
    """Generate an answer, then, while plancheck finds it does not pass under ``semantics``, give the model the
    verifier's feedback (``template`` with ``{feedback}``) and let it answer again, at most ``rounds`` times. The
    rounds used are the state's ``feedback_rounds``; the scorer checks the last answer."""
    chosen = Semantics(semantics)

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        state = await generate(state)
        used = 0
        while used < rounds:
            verdict = _check(state, state.output.completion, data, options)
            if verdict.passed(chosen):
                break
            state.messages.append(ChatMessageUser(content=template.format(feedback=verdict.feedback())))
            state = await generate(state)
            used += 1
        state.metadata["feedback_rounds"] = used
        return state
    return solve


class _ModelPlayer:
    """An episode's policy whose replies come from the model under evaluation: every question of every step
    (SmartPlay asks several) is one generate call on the benchmark's messages; the last reply is the one read."""

    def __init__(self, ask: Callable[[list[dict[str, str]]], str]):
        self.ask = ask

    def replies(self, step: int, game: Game) -> Replies:
        earlier: list[str] = []
        messages: list[dict[str, str]] = []
        for _ in range(game.turns):
            messages = game.messages(earlier)
            earlier.append(self.ask(messages))
        return Replies(earlier[-1], tuple(earlier[:-1]), tuple(messages))


@solver
def play_episode(**options: Any) -> Solver:
    """Play the sample's episode (its instance and seed) with the model as the player, under the world's play
    settings in ``options`` (SmartPlay's ``reading``, ``history``, ``steps``; Rearrangement's ``level``). The
    episode runs plancheck's own loop (``plancheck play``) in a worker thread that asks the model through inspect;
    its log goes to the state's metadata (``episode_log``), and the last question and reply stay as messages."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        world = _world(state.metadata["world"], options)
        episodes = world.episodes
        instance = episodes.instance(state.metadata["instance"])
        settings, _ = episodes.settings(_options(world, "play", options))
        current = state

        async def turn(messages: list[dict[str, str]]) -> str:
            nonlocal current
            current.messages = chat(messages)
            current = await generate(current)
            return current.output.completion

        def run() -> Any:
            player = _ModelPlayer(lambda messages: anyio.from_thread.run(turn, messages))
            return play(episodes, instance, state.metadata["seed"], settings, player,
                        policy_name=f"inspect:{state.model}", model=str(state.model))

        episode = await anyio.to_thread.run_sync(run)
        log = io.StringIO()
        dump_episodes([episode], log)
        current.metadata[EPISODE_LOG] = log.getvalue()
        return current
    return solve


@task(name="plancheck")
def plancheck_task(world: str, instances: str | list[str] = "all", semantics: str = "strict", feedback: int = 0,
                   episodes: int = 1, seed: int = 0, data: str | None = None, **options: Any) -> Task:
    """The benchmark of ``world`` as an inspect task: the selected ``instances`` (a selector or a list), answered
    once or re-prompted up to ``feedback`` times with the verifier's feedback (one-shot worlds), or played for
    ``episodes`` seeds from ``seed`` (interactive worlds); scored by :func:`verdict_scorer` under ``semantics``.
    ``data`` is the data folder (else $PLANCHECK_DATA); other arguments are the world's options (``-T
    setting=0-1-1``, ``-T rule=delivered``, ``-T history=5``)."""
    found = _world(world, options)
    if episodic(found):
        if feedback:
            raise BadInputError(f"the {world} world is played step by step: its feedback is the game's own "
                                "observations (feedback applies to one-shot worlds)")
        plan: Solver = play_episode(**options)
    else:
        plan = backprompt(feedback, semantics, data=data, **options) if feedback else generate()
    return Task(dataset=dataset(world, instances, data=data, episodes=episodes, seed=seed, **options), solver=plan,
                scorer=verdict_scorer(semantics, data=data, **options))
