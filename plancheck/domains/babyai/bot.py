"""minigrid's expert, ``BabyAIBot``, run on the live environment: the published reference plans.

Two variants:

* ``minigrid``: the bot as minigrid ships it. It sees only what the agent has seen (it explores),
  solves all 16 LLM-BabyBench levels, and is not optimal.
* ``omniscient``: the same bot given the whole map from the start (its visibility mask all true,
  no observation updates). LLM-BabyBench's harness uses an omniscient, modified bot; this variant
  reproduces every expert sequence of the sample Plan and Predict records of the one-room levels
  (the harness's modifications matter in multi-room levels, where this variant can fail).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import cache

from plancheck.domains.babyai.instance import Instance
from plancheck.domains.babyai.levels import reset_env
from plancheck.domains.babyai.rules import Action

VARIANTS = ("minigrid", "omniscient")


@dataclass(frozen=True, slots=True)
class BotRun:
    """What the bot did: its actions, whether minigrid reported success on the last one, time."""

    variant: str
    actions: tuple[Action, ...]
    success: bool
    seconds: float
    error: str | None = None


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
