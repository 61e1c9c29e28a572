"""minigrid's expert, ``BabyAIBot``, run on the live environment, and LLM-BabyBench's version of it.

Three variants:

* ``babybench``: LLM-BabyBench's own modified, omniscient bot (:mod:`.harness_bot`), which made the
  benchmark's Predict action sequences, Plan references and Decompose help counts. The driver is
  its generators': ``replan()`` without the action taken, at most 1,000 actions, until minigrid ends
  the episode. Where it gives up, the benchmark has no record for the instance.
* ``minigrid``: the bot as minigrid ships it. It sees only what the agent has seen (it explores),
  solves all 16 LLM-BabyBench levels, and is not optimal.
* ``omniscient``: minigrid's bot given the whole map from the start (its visibility mask all true, no
  observation updates), without the benchmark's changes: in multi-room levels it mostly asserts.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import cache

from plancheck.domains.babyai.instance import Instance
from plancheck.domains.babyai.levels import reset_env
from plancheck.domains.babyai.rules import Action

VARIANTS = ("babybench", "minigrid", "omniscient")
BABYBENCH_LIMIT = 1000  # the benchmark's generators stop its bot after this many actions


@dataclass(frozen=True, slots=True)
class BotRun:
    """What the bot did: its actions, whether minigrid reported success on the last one, time; the help
    it counted (``babybench``: the records' ``help_count``); why it gave up, if it did."""

    variant: str
    actions: tuple[Action, ...]
    success: bool
    seconds: float
    error: str | None = None
    help: int | None = None

    @property
    def gave_up(self) -> bool:
        """The bot stopped by itself (an assertion in its code), not by minigrid's step limit."""
        return self.error is not None and self.error.startswith("the bot gave up")


@cache
def _omniscient_class() -> type:
    import numpy as np
    from minigrid.utils.baby_ai_bot import BabyAIBot

    class OmniscientBot(BabyAIBot):
        """BabyAIBot that knows the whole grid from the start."""

        def __init__(self, env):
            super().__init__(env)
            self.vis_mask = np.ones((env.unwrapped.width, env.unwrapped.height), dtype=bool)

        def _process_obs(self) -> None:
            return None

    return OmniscientBot


def run_bot(instance: Instance, variant: str = "minigrid", max_steps: int | None = None) -> BotRun:
    """Run the bot until minigrid ends the episode (success or step limit) or the bot gives up."""
    if variant == "babybench":
        return _run_harness_bot(instance, BABYBENCH_LIMIT if max_steps is None else max_steps)
    from minigrid.utils.baby_ai_bot import BabyAIBot

    env = reset_env(instance.env_id, instance.seed)
    limit = max_steps if max_steps is not None else instance.max_steps
    began = time.perf_counter()
    actions: list[Action] = []
    try:
        bot = _omniscient_class()(env) if variant == "omniscient" else BabyAIBot(env)
        while len(actions) < limit:
            action = Action(int(bot.replan()))
            actions.append(action)
            _, _, terminated, truncated, _ = env.step(int(action))
            if terminated or truncated:
                return BotRun(variant, tuple(actions), bool(terminated), time.perf_counter() - began)
    except Exception as error:  # the bot asserts or raises when it cannot cope; that is its verdict
        reason = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__  # its asserts say nothing
        return BotRun(variant, tuple(actions), False, time.perf_counter() - began,
                      f"the bot gave up after {len(actions)} action(s) ({reason} in BabyAIBot)")
    return BotRun(variant, tuple(actions), False, time.perf_counter() - began,
                  f"step limit: {len(actions)} actions without success")


def _run_harness_bot(instance: Instance, limit: int) -> BotRun:
    from plancheck.domains.babyai.harness_bot import BotGaveUp, HarnessBot

    env = reset_env(instance.env_id, instance.seed)
    began = time.perf_counter()
    actions: list[Action] = []
    bot = HarnessBot(env)
    try:
        bot.plan_mission()
        while len(actions) < limit:
            action = Action(bot.next_action())
            actions.append(action)
            _, _, terminated, truncated, _ = env.step(int(action))
            if terminated or truncated:
                return BotRun("babybench", tuple(actions), bool(terminated), time.perf_counter() - began,
                              None if terminated else f"minigrid's step limit after {len(actions)} actions", bot.help)
    except BotGaveUp as error:
        return BotRun("babybench", tuple(actions), False, time.perf_counter() - began,
                      f"the bot gave up after {len(actions)} action(s) ({error})", bot.help)
    return BotRun("babybench", tuple(actions), False, time.perf_counter() - began,
                  f"step limit: {len(actions)} actions without success", bot.help)
