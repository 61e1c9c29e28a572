"""One Messenger episode on the rules, as SmartPlay's ``MessengerEnv`` plays it: reset, step, texts.

``reset()`` gives the first observation; ``step(action)`` the next observation, the reward, whether
the episode is done and SmartPlay's ``info["score"]`` (the step's reward). L1 runs on
:mod:`.rules`, L2/L3 on :mod:`.engine` with the VGDL variant and start layout the episode drew;
the entity movement of L2/L3 draws from ``random.Random(dynamics_seed)`` (the episode's seed by
default; see :mod:`.engine` for why SmartPlay's own runs cannot be replayed draw for draw).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache

from plancheck.domains.smartplay.messenger import data, prompts
from plancheck.domains.smartplay.messenger.engine import Level
from plancheck.domains.smartplay.messenger.instance import Episode
from plancheck.domains.smartplay.messenger.rules import Action, L1State, l1_step
from plancheck.domains.smartplay.messenger.vgdl import Domain, parse_level, read_domain

ENTITY_KEYS = ("enemy", "message", "goal", "decoy_message", "decoy_goal")


@dataclass(frozen=True, slots=True)
class Step:
    """What one step returns: the observation text, reward, done, and SmartPlay's score (= reward)."""

    observation: str
    reward: float
    done: bool

    @property
    def score(self) -> float:
        return self.reward


@cache
def domain(level: int, variant: str) -> Domain:
    return read_domain(data.variant_files(level)[0].parent / variant)


@cache
def layout(level: int, variant: str, init_state: str) -> tuple[tuple[str, int, int], ...]:
    path = data.init_state_files(level)[0].parent / init_state
    return parse_level(path.read_text(encoding="utf-8"), domain(level, variant), path.name)


def entity_ids(episode: Episode) -> dict[str, int]:
    """The entity id each VGDL sprite key shows as (a decoy looks like the real message or goal)."""
    game = episode.game
    return {"enemy": data.ENTITY_ID[game.enemy], "message": data.ENTITY_ID[game.message],
            "goal": data.ENTITY_ID[game.goal], "decoy_message": data.ENTITY_ID[game.message],
            "decoy_goal": data.ENTITY_ID[game.goal]}


def new_level(episode: Episode, dynamics_seed: int | None) -> Level:
    """The VGDL level of an L2/L3 episode at its start."""
    assert episode.variant is not None and episode.init_state is not None
    rng = random.Random(episode.seed if dynamics_seed is None else dynamics_seed)
    return Level(domain(episode.level, episode.variant.name),
                 layout(episode.level, episode.variant.name, episode.init_state), rng)


def level_frame(level: Level, ids: dict[str, int]) -> str | None:
    """``describe_frame`` of a VGDL level (None when the avatar is gone)."""
    avatar = level.avatar()
    if avatar is None:
        return None
    size = level.size
    entities = [(ids[key], (s.y // size, s.x // size)) for key in ENTITY_KEYS if key in level.live
                for s in level.live[key][:1]]
    return prompts.describe((avatar.y // size, avatar.x // size), avatar.key == "with_message", entities)


class Runner:
    """One episode: ``reset()`` then ``step(action)`` until done or the step limit."""

    def __init__(self, episode: Episode, dynamics_seed: int | None = None):
        self.episode = episode
        self.dynamics_seed = dynamics_seed
        self.manual = prompts.manual(episode.sentences)
        self._ids = entity_ids(episode)
        self.reset()

    def reset(self) -> str:
        """The first observation (the episode starts again)."""
        self.steps = 0
        if self.episode.layout is not None:
            self.state = L1State(has_message=self.episode.layout.has_message)
            self.level = None
        else:
            self.level = new_level(self.episode, self.dynamics_seed)
        return prompts.observation(self.frame())

    def frame(self) -> str | None:
        if self.level is not None:
            return level_frame(self.level, self._ids)
        lay = self.episode.layout
        assert lay is not None
        entities = [(self._ids[role], lay.cell(role)) for role in data.ROLES]
        return prompts.describe(self.state.avatar, self.state.has_message, entities)

    def describe_state(self) -> str:
        """Where everything is now, in words (for failure messages)."""
        def where(y: float, x: float) -> str:
            return f"row {y:g}, column {x:g}"

        if self.level is not None:
            size = self.level.size
            parts = [f"{s.key} at {where(s.y / size, s.x / size)}" for key in self.level.keys
                     for s in self.level.live[key] if key != "wall"]
            return "after the move: " + "; ".join(parts)
        lay = self.episode.layout
        assert lay is not None
        held = "with" if self.state.has_message else "without"
        return (f"the avatar is at {where(*self.state.avatar)} {held} the message; the enemy is at "
                f"{where(*lay.enemy)}, the message at {where(*lay.message)}, the goal at {where(*lay.goal)}")

    @property
    def done(self) -> bool:
        return self.level.ended if self.level is not None else self.state.ended

    def step(self, action: Action | int) -> Step:
        """One SmartPlay step (an episode that has ended stays as it is, reward 0)."""
        action = Action(action)
        self.steps += 1
        if self.level is not None:
            reward = self.level.tick(action.value)
        elif self.state.ended:
            reward = 0.0
        else:
            self.state = l1_step(self.episode.layout, self.state, action)
            reward = self.state.reward
        return Step(prompts.observation(self.frame(), action.value), reward, self.done)
