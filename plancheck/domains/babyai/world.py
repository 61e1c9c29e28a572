"""The BabyAI world's facade: instances, prompts, checking, batch reading, summaries, solving, PDDL.

Tasks (``--task``): ``plan`` (default), ``predict``, ``decompose`` (LLM-BabyBench) and ``ig``
(LangSuitE). A record's own task wins over the option. minigrid is imported only when an instance
is built, not when the CLI builds its parser.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from statistics import fmean
from typing import TYPE_CHECKING, Any

from plancheck.domains.babyai import catalog
from plancheck.domains.babyai.check import OPTIMAL_TIMEOUT, WORLDS, Reading, TaskInstance, check
from plancheck.domains.babyai.describe import published_mismatch, structured
from plancheck.domains.babyai.extract import load_instance
from plancheck.domains.babyai.instance import parse_id
from plancheck.domains.babyai.langsuite import STEP_LIMITS
from plancheck.domains.babyai.levels import (
    GENERATIONS,
    INSTALLED,
    LANGSUITE_RESOLUTIONS,
    PINNED,
    generator_name,
    split_generation,
    with_generation,
)
from plancheck.domains.babyai.parse import OPENINGS
from plancheck.domains.babyai.prompts import PROMPTERS, babybench_prompt, langsuite_start, langsuite_system
from plancheck.domains.babyai.report import summarize
from plancheck.domains.babyai.rules import ACTION_NAMES
from plancheck.domains.babyai.solve import PLANNERS, solve
from plancheck.domains.babyai.tasks import Task
from plancheck.errors import BadInputError
from plancheck.limits import DEFAULT, Limits
from plancheck.verifier.verdict import Verdict
from plancheck.verifier.verdict import strict_read as verdict_strict_read
from plancheck.world import (
    ONE_SHOT,
    READING,
    BrokenRecord,
    Capability,
    Option,
    Prompt,
    Record,
    Summary,
    WorldBase,
    shared_option,
)

if TYPE_CHECKING:  # annotations only: keeps the drawing code out of a plain check's start-up
    from plancheck.drawing.shapes import Picture

_TASKS = tuple(t.value for t in Task)
_ALL = ("instances", "prompt", "check", "evaluate", "solve", "export", "stats")
OPTIONS = (
    Option("task", "which task the answers are to: plan, predict, decompose (LLM-BabyBench) or ig (LangSuitE)",
           ("prompt",) + READING, "plan", _TASKS),
    Option("prompter", "LLM-BabyBench prompt style", ("prompt",), "zero_shot", PROMPTERS),
    shared_option("unknown", "skipped or a no-op step (default: skip for plan, LLM-BabyBench's rule; noop for "
                             "ig, as LangSuitE counts every response)", choices=("skip", "noop")),
    Option("read", "how Plan and Decompose answers are read: committed (a careful reader: the list after the "
                   "last marker or the one introduced as the answer, action words in any spelling, repetition "
                   "words expanded, explanations after it left out) or harness (LLM-BabyBench's rule: everything "
                   "after the first marker, split at commas, exact names only)", READING, "committed",
           ("committed", "harness")),
    Option("marker", "answers without the format's marker (Plan: \"The LLM's action sequence is:\", Decompose: "
                     "<START>): unreadable (the harness's rule) or read anyway (harness: the whole text)",
           READING, "required", ("required", "optional")),
    shared_option("unclosed", "(committed reading)"),
    shared_option("strict_read"),
    Option("opening", "LangSuitE (ig) answers: which first responses answer its opening question rather than act: "
                      "langsuite (the whole conversation: up to the first reply holding neither \"not\" nor "
                      "\"don't\", its released code's rule), none (the answers start after it), auto (the "
                      "langsuite rule unless the first response names an action)", READING, "auto",
           OPENINGS),
    Option("no_optimal", "do not compute the optimal plan (Plan efficiency against the bot only)",
           READING, kind=bool),
    Option("optimal_timeout", "seconds to prove the optimum an answer is compared with (once per instance); "
                              "unproven, Plan efficiency against it is left out", READING,
           OPTIMAL_TIMEOUT, kind=float),
    shared_option("planner", "astar (optimal, native), abstraction (optimal, native: forgets where unneeded "
                             "objects were put, refined until its plan is concrete; faster on large missions), "
                             "wastar (weighted A*: at most --weight times the optimum), bfs (optimal, blind), "
                             "fast-downward (optimal, on the PDDL), bot or omniscient-bot (minigrid's BabyAIBot)",
                  default="astar", choices=PLANNERS),
    Option("weight", "wastar's weight w >= 1: its plan is at most w times the optimum", ("solve",), 2.0,
           kind=float),
    shared_option("timeout"),
    Option("langsuite_levels", "LangSuitE level names (GoToLocalS5N2-5): the minigrid level of that name, or the "
                               "level LangSuitE's code actually builds for it", _ALL, "by-name", LANGSUITE_RESOLUTIONS),
    Option("langsuite_world", "LangSuitE (ig) answers: the world they are checked on: seeded (the task's seeded "
                              "world), played (the world LangSuitE's code plays: the seeded one reset once more "
                              "without the seed) or auto (for an episode with a recorded mission or views: the first "
                              "of the two it agrees with)", ("prompt",) + READING, "seeded", WORLDS),
    Option("step_limit", "LangSuitE (ig) answers: its step limit: released (its released code, v1.0.x: 100 "
                         "responses) or dev (its development branch: 50)", READING, "released", tuple(STEP_LIMITS)),
    Option("generation", f"which minigrid generates the worlds: installed (the minigrid plancheck runs on) or {PINNED} "
                         "(the minigrid commit LLM-BabyBench pinned and made its data with; other worlds for 5 of its "
                         "8,000 level-seed pairs, of Synth, SynthLoc, SynthSeq and BossLevel)", _ALL, INSTALLED,
           GENERATIONS),
)


def _actions(text: Any) -> tuple | None:
    if not isinstance(text, str):
        return None
    names = [t.strip().lower() for t in text.split(",") if t.strip()]
    if any(name not in ACTION_NAMES for name in names):
        raise BadInputError(f"the record's action sequence {text!r} names unknown actions")
    return tuple(ACTION_NAMES[name] for name in names)


def _task_instance(env_id: str, seed: int, task: str, record: dict[str, Any],
                   generation: str = INSTALLED) -> TaskInstance:
    """The instance a task asks about; a record whose stored world text disagrees with it is bad input."""
    if generation != INSTALLED and split_generation(env_id)[1] == INSTALLED:
        env_id = with_generation(env_id, generation)
    instance = load_instance(env_id, seed)
    mismatch = published_mismatch(instance, record)
    if mismatch is not None:
        hint = _other_world(env_id, seed, record)
        raise BadInputError(f"the record was not made on the world {generator_name(env_id)} generates for "
                            f"{instance.id} ({mismatch}); it is not scored on another world{hint}")
    return TaskInstance(instance, Task(task), actions=_actions(record.get("action_sequence")),
                        reference=_actions(record.get("expert_action_sequence")),
                        expert_help=record.get("help_count") if isinstance(record.get("help_count"), int) else None)


def _other_world(env_id: str, seed: int, record: dict[str, Any]) -> str:
    """A hint naming the generator whose world the record matches, if another one does."""
    for generation in GENERATIONS:
        other = with_generation(env_id, generation)
        if other != env_id and published_mismatch(load_instance(other, seed), record) is None:
            return (f"; it matches {generator_name(other)}'s world ({other}/seed={seed}): pass --generation "
                    f"{generation}")
    return ""


class BabyAIWorld(WorldBase):
    name = "babyai"
    title = "BabyAI on minigrid: LLM-BabyBench (Predict, Plan, Decompose) and LangSuitE instruction grounding"
    options = OPTIONS
    capabilities = ONE_SHOT | {Capability.SOLVE, Capability.EXPORT, Capability.STATS,
                               Capability.GENERATE, Capability.RENDER}  # generate: any level and seed
    requires = ("minigrid", "gymnasium")
    data_release = "generated from minigrid levels and seeds"
    extra = "babyai"

    # -- instances ------------------------------------------------------------------------------
    def instances(self, selectors: Sequence[str], data: Path | None, *, task: str = "plan",
                  langsuite_levels: str = "by-name", generation: str = INSTALLED, **_: Any) -> Iterator[TaskInstance]:
        for chosen in catalog.select(selectors, data, langsuite_levels):
            yield _task_instance(chosen.env_id, chosen.seed, chosen.task or task, chosen.record, generation)

    def instance_id(self, item: TaskInstance) -> str:
        return item.id

    def instance_ids(self, selectors: Sequence[str], data: Path | None, *, langsuite_levels: str = "by-name",
                     generation: str = INSTALLED, **_: Any) -> Iterator[str]:
        """The ids, without building a minigrid environment (a level is built only when an instance is)."""
        for chosen in catalog.select(selectors, data, langsuite_levels):
            env_id = chosen.env_id
            if generation != INSTALLED and split_generation(env_id)[1] == INSTALLED:
                env_id = with_generation(env_id, generation)
            yield f"{env_id}/seed={chosen.seed}"

    def instance_json(self, item: TaskInstance) -> dict:
        return {**item.instance.to_json(), "task": item.task.value, "generator": generator_name(item.instance.env_id)}

    def prompt(self, item: TaskInstance, *, prompter: str = "zero_shot", langsuite_world: str = "seeded",
               **_: Any) -> Prompt:
        if item.task is Task.IG:
            from plancheck.domains.babyai.langsuite import observation
            from plancheck.domains.babyai.levels import reset_env, split_resets, with_resets

            env_id = item.instance.env_id
            if langsuite_world == "played" and not split_resets(env_id)[1]:
                env_id = with_resets(env_id, 1)
            env = reset_env(env_id, item.instance.seed)
            return Prompt(item.id, langsuite_system(int(env.unwrapped.agent_view_size)),
                          langsuite_start(env.unwrapped.mission, observation(env)))
        actions = ", ".join(str(a) for a in item.predict_actions()) if item.task is Task.PREDICT else ""
        return Prompt(item.id, None, babybench_prompt(item.task, structured(item.instance), actions, prompter))

    # -- checking -------------------------------------------------------------------------------
    def check(self, item: TaskInstance, answer: str | Sequence[str], *, unknown: str | None = None,
              read: str = "committed", marker: str = "required", unclosed: str = "accept", strict_read: bool = False,
              no_optimal: bool = False, optimal_timeout: float = OPTIMAL_TIMEOUT, opening: str = "auto",
              langsuite_world: str = "seeded", step_limit: str = "released", source: str | None = None,
              limits: Limits = DEFAULT, **_: Any) -> Verdict:
        """Verdict for one answer; ``source`` names it in parse errors (a file name)."""
        verdict = check(item, answer, unknown=unknown, reading=Reading(read, marker, unclosed), optimal=not no_optimal,
                        source=source, optimal_timeout=optimal_timeout, opening=opening, world=langsuite_world,
                        limit=step_limit, limits=limits)
        return verdict_strict_read(verdict, strict_read)

    # -- batches --------------------------------------------------------------------------------
    def read_answers(self, path: Path, data: Path | None, *, limits: Limits = DEFAULT,
                     **_: Any) -> Iterator[Record | BrokenRecord]:
        from plancheck.domains.babyai.records import read_answers

        return read_answers(path, limits)

    def resolve(self, record: Record, data: Path | None, *, task: str = "plan", langsuite_levels: str = "by-name",
                generation: str = INSTALLED, **_: Any) -> TaskInstance:
        env_id, seed = parse_id(record.instance, langsuite_levels)
        return _task_instance(env_id, seed, str(record.meta.get("task", task)), dict(record.meta), generation)

    def answer_key(self, record: Record, item: TaskInstance) -> tuple[str, str, str]:
        """Who answered, the instance, and the task asked about it."""
        return record.model, item.id, item.task.value

    def summarize(self, results: Iterable[tuple[Record, Verdict]], *, task: str = "plan", **_: Any) -> Summary:
        return summarize(results, task)

    # -- solving --------------------------------------------------------------------------------
    def solve(self, item: TaskInstance, *, planner: str = "astar", timeout: float = 300.0, weight: float = 2.0,
              report: Callable[[int, int | None], None] | None = None, **_: Any):
        return solve(item.instance, planner, timeout=timeout, weight=weight, report=report)

    def export(self, item: TaskInstance, **_: Any) -> dict[str, str]:
        from plancheck.domains.babyai.pddl import domain_text, problem_text

        name = item.id.replace("/seed=", "-seed").replace("/", "-")
        return {"babyai-domain.pddl": domain_text(), f"{name}.pddl": problem_text(item.instance)}

    def render(self, item: TaskInstance, answer: str | Sequence[str] | None = None, *,
               verdict: Verdict | None = None, **options: Any) -> Picture:
        """minigrid's start frame with the answer's path (the optimum's beside it); frames: the episode."""
        from plancheck.domains.babyai.render import render

        if verdict is None and answer is not None:
            verdict = self.check(item, answer, **options)
        return render(item, answer, verdict, options)

    def setting(self, record: Record, verdict: Verdict) -> str:
        """The level, e.g. ``BabyAI-GoToLocal-v0``."""
        return verdict.instance.split("/seed=")[0]

    def stats(self, selectors: Sequence[str], data: Path | None, *, langsuite_levels: str = "by-name",
              generation: str = INSTALLED, report: Callable[[], None] | None = None, **_: Any) -> Summary:
        per_env: dict[str, list] = {}
        for chosen in catalog.select(selectors, data, langsuite_levels):
            env_id = with_generation(chosen.env_id, generation)
            per_env.setdefault(env_id, []).append(load_instance(env_id, chosen.seed))
            if report is not None:
                report()
        rows = tuple((env, len(items), f"{items[0].width}x{items[0].height}",
                      round(fmean(sum(c is not None for c in i.start.objects) for i in items), 2),
                      round(fmean(len(i.doors) for i in items), 2),
                      round(fmean(sum(s == 2 for s in i.start.doors) for i in items), 2),
                      round(fmean(i.max_steps for i in items), 1))
                     for env, items in per_env.items())
        data_out: dict[str, Any] = {"environments": {r[0]: dict(zip(("instances", "grid", "objects", "doors",
                                                                     "locked", "max_steps"), r[1:])) for r in rows}}
        if "langsuite" in selectors:
            data_out["langsuite_missing"] = catalog.langsuite_tasks(data, langsuite_levels)[1]
        return Summary("BabyAI instances", ("environment", "instances", "grid", "mean objects", "mean doors",
                                            "mean locked", "mean max steps"), rows, data_out)


WORLD = BabyAIWorld()
