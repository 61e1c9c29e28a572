"""One running SmartPlay Crafter episode on the real crafter: SmartPlay's reset protocol, texts and score.

SmartPlay's ``Crafter.reset`` builds the world, then executes one Noop (crafter step 1) and pushes
its observation (``You took action noop. ...``) into the history, then pushes the reset's own
observation (the same state, no action line). The agent's first action is therefore crafter step 2,
and as crafter ends the episode at step 10000 the agent gets at most 9999 actions. The score adds,
after every step (the reset's Noop included, which starts it), the number of achievements unlocked
so far. The history message shown with an observation lists the observations before it (the last
2 in SmartPlay's code, 5 in the paper: :data:`~plancheck.domains.smartplay.crafter.prompts.HISTORY`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from plancheck.domains.smartplay.crafter import engine, prompts


@dataclass(frozen=True, slots=True)
class Step:
    """What one agent action produced, as SmartPlay's ``step`` returns it (``score`` is cumulative)."""

    observation: str
    reward: float
    done: bool
    score: float
    history: str
    unlocked: tuple[str, ...]  # achievements unlocked for the first time at this step, crafter's order


class CrafterGame:
    """SmartPlay's ``Crafter-v0`` episode ``episode`` of an env seeded ``seed``, one action at a time.

    ``history`` is the number of past observations shown (2 = SmartPlay's code, 5 = the paper).
    ``render`` draws crafter's pictures too (slower; the dynamics are the same either way).
    """

    def __init__(self, seed: int, episode: int = 1, *, history: int = prompts.HISTORY["code"],
                 render: bool = False, length: int = 10000):
        self.seed, self.episode, self.length = seed, episode, length
        self._env = engine.make_env(seed, episode, render=render, length=length)
        self._kept: deque[str] = deque(maxlen=history)
        self._game_step = 0
        self._score = 0.0
        self.observation = ""
        self.history = ""
        self.done = False

    @property
    def env(self) -> Any:
        """The crafter env underneath (read it, do not step it)."""
        return self._env

    @property
    def score(self) -> float:
        return self._score

    @property
    def crafter_step(self) -> int:
        return int(self._env._step)

    def snapshot(self) -> engine.Snapshot:
        return engine.snapshot(self._env)

    def _text(self, action: str | None) -> str:
        player = self._env._player
        return prompts.describe(self._env._sem_view(), (int(player.pos[0]), int(player.pos[1])),
                                (int(player.facing[0]), int(player.facing[1])), player.inventory,
                                bool(player.sleeping), bool(player.health <= 0), action)

    def _unlocked_count(self) -> int:
        return sum(1 for count in self._env._player.achievements.values() if count > 0)

    def _push(self, observation: str) -> None:
        self._kept.append(observation)
        self._game_step += 1

    def reset(self) -> str:
        """Build the world, run SmartPlay's extra Noop, and return the first observation."""
        self._kept.clear()
        self._game_step = 0
        self._env.reset()
        first = self._advance(0)
        self._score = float(self._unlocked_count())
        self.observation = self._text(None)
        self.history = self._history()
        self.done = first.done
        self._push(self.observation)
        return self.observation

    def _history(self) -> str:
        return prompts.history_text(tuple(self._kept), self._game_step)

    def _advance(self, index: int) -> Step:
        env = self._env
        before = set(env._unlocked)
        _, reward, done, _ = env.step(index)
        self._score += self._unlocked_count()
        observation = self._text(env._player.action)
        history = self._history()
        self._push(observation)
        unlocked = tuple(name for name in env._player.achievements if name in env._unlocked - before)
        return Step(observation, float(reward), bool(done), self._score, history, unlocked)

    def step(self, index: int) -> Step:
        """Take SmartPlay action ``index`` (0-16); the episode must not be over."""
        if self.done:
            raise RuntimeError("the episode is over")
        if not 0 <= index < len(prompts.ACTIONS):
            raise ValueError(f"action index {index} outside 0..{len(prompts.ACTIONS) - 1}")
        result = self._advance(index)
        self.observation, self.history, self.done = result.observation, result.history, result.done
        return result

    def messages(self, question: int = 0, past: Sequence[tuple[str, str]] = ()) -> list[dict[str, str]]:
        """The chat SmartPlay sends before the next action (question 0, then 1 with the first answer)."""
        return prompts.chat(prompts.manual(), self.history, self.observation, prompts.QUESTIONS[question], past)
