"""The episode machinery every SmartPlay game shares: the running game (observations, prompt, two
questions per step), the log follower's bookkeeping, and the settings every game declares.

A game subclasses :class:`SmartPlayGame` and writes ``_start`` (the reset observation, drawing as
SmartPlay's ``reset`` does) and ``_take`` (one step, drawing as its ``step`` does).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from plancheck.domains.smartplay import _frame
from plancheck.episodes.game import Transition, logged_settings
from plancheck.episodes.log import Step


class SmartPlayGame:
    """One SmartPlay episode: SmartPlay's prompt at every step (``info['manual']``, ``info['history']``
    over the last ``window`` observations, ``info['obs']``), two questions per step."""

    turns = len(_frame.QUESTIONS)

    def __init__(self, manual: str, actions: Sequence[str], horizon: int, window: int):
        self.manual, self._actions, self.horizon, self.window = manual, tuple(actions), horizon, window
        self._index = {action: index for index, action in enumerate(self._actions)}
        self.observations: list[str] = []
        self._entries: list[str] = []  # each observation as the history writes it (built once)

    def reset(self) -> str:
        observation = self._start()
        self.observations = [observation]
        self._entries = [_frame.history_entry(0, observation)]
        return observation

    def actions(self) -> tuple[str, ...]:
        return self._actions

    def index(self, action: str) -> int:
        """The action's index in SmartPlay's ``action_list``."""
        try:
            return self._index[action]
        except KeyError:
            raise ValueError(f"{action!r} is not an action of this game") from None

    def step(self, action: str, reply: str | None = None) -> Transition:
        transition = self._take(self.index(action))
        self.observe(transition.observation or "")
        return transition

    def observe(self, observation: str) -> None:
        """Add the observation that follows a step (a follower adds the logged one)."""
        self._entries.append(_frame.history_entry(len(self.observations), observation))
        self.observations.append(observation)

    def messages(self, earlier: Sequence[str] = ()) -> list[dict[str, str]]:
        if len(earlier) >= len(_frame.QUESTIONS):
            raise ValueError(f"SmartPlay asks {len(_frame.QUESTIONS)} questions per step; {len(earlier)} were answered")
        shown = self._entries[max(0, len(self._entries) - 1 - self.window):-1] if self.window > 0 else []
        history = _frame.history_text(shown)
        return _frame.messages(self.manual, history, self.observations[-1], _frame.QUESTIONS[len(earlier)],
                               zip(_frame.QUESTIONS, earlier))

    def _start(self) -> str:
        raise NotImplementedError

    def _take(self, index: int) -> Transition:
        raise NotImplementedError


class ScoreTracker:
    """What a follower can infer about SmartPlay's hidden best action from the logged scores: the
    score rises by one exactly on the steps whose action is the hidden best one."""

    def __init__(self, actions: Sequence[str]):
        self.actions = tuple(actions)
        self.score: float | None = 0
        self.best: dict[int, int] = {}  # action -> the step that shows it is the best one
        self.not_best: dict[int, int] = {}  # action -> the step that shows it is not

    def known_best(self) -> int | None:
        """The hidden best action, once the scores tell it."""
        if self.best:
            return next(iter(self.best))
        left = [i for i in range(len(self.actions)) if i not in self.not_best]
        return left[0] if len(left) == 1 else None

    def follow(self, step: int, action: int, logged: float | None) -> tuple[float | None, str | None]:
        """The score after ``step`` (the logged one, or the inferred one when not logged) and the
        inconsistency, if any."""
        previous = self.score
        if logged is None:
            best = self.known_best()
            self.score = None if previous is None or best is None else previous + (action == best)
            return self.score, None
        self.score = logged
        if previous is None:
            return logged, None
        rise = logged - previous
        name = self.actions[action]
        if rise not in (0, 1):
            return logged, f"the score goes from {previous!r} to {logged!r}; SmartPlay's score rises by 0 or 1 a step"
        if rise == 1:
            other = next((b for b in self.best if b != action), None)
            if other is not None:
                return logged, (f"the score rises for {name} here and for {self.actions[other]} at step "
                                f"{self.best[other]}: SmartPlay's score counts one hidden best action")
            if action in self.not_best:
                return logged, (f"the score rises for {name} here but not at step {self.not_best[action]}: "
                                "SmartPlay's score counts one hidden best action")
            self.best.setdefault(action, step)
        else:
            if action in self.best:
                return logged, (f"the score does not rise for {name} here but did at step {self.best[action]}: "
                                "SmartPlay's score counts one hidden best action")
            self.not_best.setdefault(action, step)
            if len(self.not_best) == len(self.actions):
                return logged, ("by this step the score has stayed put for every action: SmartPlay's score counts "
                                "one hidden best action")
        return logged, None


class SmartPlayEpisodes:
    """The settings and readings every SmartPlay game shares (a world subclasses it and adds its
    game, follower, policies and scores).

    Settings: ``reading`` (``smartplay`` or ``strict``), ``history`` (observations shown) and
    ``steps`` (the rollout; default: the game's recorded setting, else ``steps``), SmartPlay's values
    by default. A game adds its own in ``extra`` (name -> default); a text setting's values are
    listed in ``choices``, a number must be a positive integer.
    """

    readings = _frame.READINGS
    has_goal = False
    world = ""
    env = ""
    history = 0
    steps: int | None = None
    extra: Mapping[str, Any] = {}
    choices: Mapping[str, tuple[str, ...]] = {}

    @property
    def defaults(self) -> dict[str, Any]:
        steps = self.steps if self.steps is not None else _frame.RECORDED[self.env].steps
        return {"reading": "smartplay", "history": self.history, "steps": steps, **self.extra}

    def settings(self, given: Mapping[str, Any]) -> tuple[dict[str, Any], tuple[str, ...]]:
        return logged_settings(self.world, given, self.defaults, {"reading": tuple(self.readings), **self.choices},
                               "SmartPlay's")


def observation_missing(step: Step, horizon: int) -> str | None:
    """A follower's complaint when a step other than the last logs no observation (a converted
    SmartPlay run lacks only the last one: its table row is written before the step)."""
    if step.observation is None and step.step < horizon:
        return "the observation is not logged (only the last step's may be missing)"
    return None
