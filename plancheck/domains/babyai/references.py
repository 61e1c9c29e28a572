"""Reference solutions of an instance, computed once and cached: the optimum, the bots' plans.

The optimum comes from the native A* search (:mod:`plancheck.domains.babyai.search.astar`), on the
abstraction of :mod:`plancheck.domains.babyai.search.abstract` where it is compared with answers, or, for
the three LLM-BabyBench instances whose proof takes an hour or a bespoke bound, from the plans
shipped in ``data/babyai_proven.json``; it is certified by replaying it in the live minigrid
environment, where it must succeed exactly on its last action. The expert sequence of
LLM-BabyBench's records comes from its own modified, omniscient bot; when a record does not carry
it, plancheck's reproduction of that bot (:mod:`.harness_bot`) computes it.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from plancheck.domains.babyai.bot import BotRun, run_bot
from plancheck.domains.babyai.extract import load_instance
from plancheck.domains.babyai.instance import Instance
from plancheck.domains.babyai.levels import reset_env
from plancheck.domains.babyai.rules import Action, BabyAIRules
from plancheck.domains.babyai.search.abstract import abstract_optimum
from plancheck.domains.babyai.search.astar import INF, Model, astar, mission_goal
from plancheck.domains.babyai.search.heuristic import MissionHeuristic
from plancheck.errors import CertificationError
from plancheck.solvers.result import SearchResult, Status


@dataclass(frozen=True, slots=True)
class Replay:
    """A plan replayed in minigrid: the step at which it succeeded (None: never), and its length."""

    success_step: int | None
    length: int

    @property
    def exact(self) -> bool:
        """Success on the last action, not before."""
        return self.success_step == self.length


def replay_in_minigrid(instance: Instance, actions: tuple[Action, ...]) -> Replay:
    """Run ``actions`` in a freshly reset minigrid environment; stop at termination or truncation."""
    env = reset_env(instance.env_id, instance.seed)
    for step, action in enumerate(actions, start=1):
        _, reward, terminated, truncated, _ = env.step(int(action))
        if terminated:  # success pays 1 - 0.9 * step / max_steps > 0; a strict failure pays 0
            return Replay(step if reward > 0 else None, len(actions))
        if truncated:
            return Replay(None, len(actions))
    return Replay(None, len(actions))


def optimal_plan(instance: Instance, *, timeout: float | None = None, weight: float = 1.0,
                 report: Callable[[int, int], None] | None = None) -> SearchResult:
    """The shortest action sequence (A* with the admissible mission heuristic).

    With ``weight`` w > 1, weighted A* (f = g + w h, reopening states): usually much faster, and the
    plan is at most w times as long as the shortest one.
    """
    model = Model(BabyAIRules(instance))
    deadline = None if timeout is None else time.monotonic() + timeout
    heuristic = MissionHeuristic(model)
    if weight != 1.0:
        unweighted = heuristic

        def heuristic(cid: int, pose: int) -> int:
            h = unweighted(cid, pose)
            return h if h >= INF else int(weight * h)
    return astar(model, instance.start, heuristic, mission_goal(model), horizon=instance.max_steps,
                 deadline=deadline, report=report)


@lru_cache(maxsize=1)
def proven_offline() -> dict[str, tuple[Action, ...]]:
    """The optimal plans shipped in ``data/babyai_proven.json`` by instance id: proven by searches
    too long to run on demand (docs/babyai.md says how each was proven)."""
    data = json.loads(resources.files("plancheck").joinpath("data/babyai_proven.json").read_text(encoding="utf-8"))
    plans = {}
    for entry in data["optima"]:
        plan = tuple(Action[name] for name in entry["plan"].split())
        if len(plan) != entry["length"]:
            raise CertificationError(f"{entry['instances'][0]}: the shipped plan has {len(plan)} actions, "
                                     f"not {entry['length']}")
        plans.update(dict.fromkeys(entry["instances"], plan))
    return plans


@lru_cache(maxsize=256)
def certified_optimum(env_id: str, seed: int, timeout: float | None = None) -> SearchResult:
    """The optimum (shipped where it was proven offline, else by abstraction refinement: the
    concrete optimum, faster on large missions), replayed in minigrid (raises
    :class:`CertificationError` if minigrid disagrees)."""
    instance = load_instance(env_id, seed)
    shipped = proven_offline().get(instance.id)
    if shipped is not None:
        result = SearchResult(Status.SOLVED, shipped, len(shipped), 0, 0.0)  # no search
    else:
        result = abstract_optimum(instance, deadline=None if timeout is None else time.monotonic() + timeout)
    if result.status is Status.SOLVED:
        replay = replay_in_minigrid(instance, result.plan)
        if not replay.exact:
            raise CertificationError(f"{instance.id}: the optimal plan does not succeed exactly on its last action "
                                     f"in minigrid (success at {replay.success_step} of {replay.length})")
    return result


@lru_cache(maxsize=256)
def expert(env_id: str, seed: int) -> BotRun:
    """LLM-BabyBench's expert run: its bot's actions (those of the records), help count, or why it gave up."""
    return run_bot(load_instance(env_id, seed), "babybench")


def some_bot_plan(env_id: str, seed: int) -> tuple[Action, ...]:
    """A plan that reaches the goal from a bot: the benchmark's, else minigrid's exploring bot's."""
    run = expert(env_id, seed)
    return run.actions if run.success else run_bot(load_instance(env_id, seed), "minigrid").actions
