"""One running SmartPlay Crafter episode on the real crafter: SmartPlay's reset protocol, texts and score.

SmartPlay's ``Crafter.reset`` builds the world, then executes one Noop (crafter step 1) and pushes
its observation (``You took action noop. ...``) into the history, then pushes the reset's own
observation (the same state, no action line). So the history shown with the first observation
holds the Noop's as step 0, the first observation is step 1, and the agent's first action is crafter
step 2: as crafter ends the episode at step 10000, the agent gets at most 9999 actions. The score
adds, after every step (the reset's Noop included, which starts it), the number of achievements
unlocked so far. The history lists the last 2 observations before the current one (SmartPlay's
code; 5 in the paper: :data:`~plancheck.domains.smartplay.crafter.prompts.HISTORY`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from plancheck.domains.smartplay import _frame
from plancheck.domains.smartplay._game import SmartPlayGame
from plancheck.domains.smartplay.crafter import engine, prompts
from plancheck.episodes.game import Transition


class CrafterGame(SmartPlayGame):
    """Episode ``episode`` of SmartPlay's ``Crafter-v0`` built with crafter seed ``seed``.

    ``history`` is the number of past observations shown (2 = SmartPlay's code, 5 = the paper).
    ``render`` draws crafter's pictures too (slower; the dynamics are the same either way).
    ``step`` takes an action text (or its index); its transition's ``info["unlocked"]`` lists the
    achievements unlocked for the first time at that step, in crafter's order.
    """

    def __init__(self, seed: int, episode: int = 1, *, history: int = prompts.HISTORY["code"],
                 render: bool = False, length: int = 10000, horizon: int = 10000):
        super().__init__(prompts.manual(), prompts.ACTIONS, horizon, history)
        self.seed, self.episode, self._render, self._length = seed, episode, render, length
        self._env = None
        self.score = 0.0
        self.done = False

    @property
    def env(self) -> Any:
        """The crafter env underneath, once reset (read it; step it only through :meth:`step`)."""
        return self._env

    @property
    def crafter_step(self) -> int:
        return int(self._env._step)

    @property
    def observation(self) -> str:
        return self.observations[-1]

    @property
    def history(self) -> str:
        """``info['history']`` as SmartPlay shows it with the current observation."""
        shown = self._entries[max(0, len(self._entries) - 1 - self.window):-1] if self.window > 0 else []
        return _frame.history_text(shown)

    def _text(self, action: str | None) -> str:
        player = self._env._player
        return prompts.describe(self._env._sem_view(), (int(player.pos[0]), int(player.pos[1])),
                                (int(player.facing[0]), int(player.facing[1])), player.inventory,
                                bool(player.sleeping), bool(player.health <= 0), action)

    def _unlocked_count(self) -> int:
        return sum(1 for count in self._env._player.achievements.values() if count > 0)

    def reset(self) -> str:
        """Build the world, run SmartPlay's extra Noop, and return the first observation."""
        self._env = engine.reset_env(self.seed, self.episode, render=self._render, length=self._length)
        noop = self._crafter_step(0)
        self.score = float(self._unlocked_count())
        first = self._text(None)
        self.observations = [noop.observation or "", first]
        self._entries = [_frame.history_entry(0, self.observations[0]), _frame.history_entry(1, first)]
        self.done = noop.done
        return first

    def _crafter_step(self, index: int) -> Transition:
        env = self._env
        before = set(env._unlocked)
        _, reward, done, _ = env.step(index)
        self.score += self._unlocked_count()
        unlocked = [name for name in env._player.achievements if name in env._unlocked and name not in before]
        return Transition(self._text(env._player.action), float(reward), bool(done), self.score,
                          {"unlocked": unlocked})

    def step(self, action: str | int, reply: str | None = None) -> Transition:
        """Take a SmartPlay action (its text or index 0-16); the episode must not be over."""
        if self.done:
            raise RuntimeError("the episode is over")
        index = action if isinstance(action, int) else self.index(action)
        if not 0 <= index < len(prompts.ACTIONS):
            raise ValueError(f"action index {index} outside 0..{len(prompts.ACTIONS) - 1}")
        transition = self._crafter_step(index)
        self.observe(transition.observation or "")
        self.done = transition.done
        return transition


def settings_game(seed: int, settings: Mapping[str, Any]) -> CrafterGame:
    """The game a log's settings describe (see :mod:`~plancheck.domains.smartplay.crafter.instance`)."""
    crafter_seed = engine.smartplay_crafter_seed(seed) if settings["seeding"] == "numpy" else seed
    return CrafterGame(crafter_seed, settings["episode"], history=settings["history"], horizon=settings["steps"])
