"""A toy interactive world for the generic episode layer's tests (no benchmark behind it).

Guess a coin: each step the player says heads or tails; the coin is drawn from ``random.Random(seed)``;
a right guess scores 1; the episode ends when the score reaches 3 (the goal), or after 6 steps.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from typing import Any

from plancheck.episodes.game import CLEAR, NONE, CheckedStep, Outcome, Read, Replies, Transition
from plancheck.episodes.log import Step
from plancheck.errors import BadInputError, InstanceNotFoundError

ACTIONS = ("heads", "tails")


class Exact:
    name = "exact"

    def read(self, reply: str, actions: Sequence[str]) -> Read:
        word = reply.strip().lower()
        return Read(CLEAR, word) if word in actions else Read(NONE, None, (f"{reply!r} is not heads or tails",))


class Lenient:
    name = "lenient"

    def read(self, reply: str, actions: Sequence[str]) -> Read:
        word = reply.strip().lower()
        return Read(CLEAR, word) if word in actions else Read(NONE, "heads", ("no guess; heads taken",))


class Coin:
    turns, horizon = 1, 6

    def __init__(self, seed: int | None):
        self.random = random.Random(seed)
        self.last, self.score = "", 0

    def reset(self) -> str:
        self.last, self.score = "Toss.", 0
        return self.last

    def actions(self) -> tuple[str, ...]:
        return ACTIONS

    def step(self, action: str, reply: str | None = None) -> Transition:
        coin = ACTIONS[self.random.random() < 0.5]
        right = action == coin
        self.score += right
        self.last = f"It was {coin}."
        return Transition(self.last, int(right), self.score >= 3, self.score, {"coin": coin},
                          lambda: f"the coin fell {coin}")

    def messages(self, earlier: Sequence[str] = ()) -> list[dict[str, str]]:
        return [{"role": "user", "content": f"{self.last} Heads or tails?"}]


class CoinFollower(Coin):
    def follow(self, action: str, logged: Step) -> tuple[Transition, str | None]:
        seen = re.fullmatch(r"It was (heads|tails)\.", logged.observation or "")
        if seen is None:
            return Transition(logged.observation, logged.reward), f"{logged.observation!r} names no coin"
        right = action == seen[1]
        self.score += right
        self.last = logged.observation
        problem = None if logged.reward == int(right) else f"guessing {action} when it was {seen[1]} pays {int(right)}"
        return Transition(logged.observation, int(right), self.score >= 3, self.score, {"coin": seen[1]}), problem


class Policy:
    """Replies from a list (played in order)."""

    def __init__(self, replies: Sequence[str]):
        self.replies_left = list(replies)

    def replies(self, step: int, game) -> Replies:
        return Replies(self.replies_left.pop(0))


class CoinEpisodes:
    world = "coin"
    readings = {"exact": Exact(), "lenient": Lenient()}
    policies = ("heads",)
    has_goal = True

    def instance(self, name: str) -> str:
        if name != "coin":
            raise InstanceNotFoundError(f"no instance {name!r}")
        return name

    def instance_id(self, instance: str) -> str:
        return instance

    def settings(self, given: Mapping[str, Any]) -> tuple[dict[str, Any], tuple[str, ...]]:
        if set(given) - {"reading"}:
            raise BadInputError(f"unknown setting(s) {sorted(set(given) - {'reading'})}")
        if "reading" not in given:
            return {"reading": "exact"}, ("reading not logged: exact",)
        return dict(given), ()

    def game(self, instance: str, seed: int, settings: Mapping[str, Any]) -> Coin:
        return Coin(seed)

    def follower(self, instance: str, settings: Mapping[str, Any]) -> CoinFollower:
        return CoinFollower(None)

    def policy(self, name: str, game, seed: int) -> Policy:
        return Policy(["heads"] * 6)

    def describe(self, step: CheckedStep) -> str:
        return "" if step.transition is None else f"coin {step.transition.info.get('coin')}"

    def outcome(self, instance: str, settings: Mapping[str, Any], steps: Sequence[CheckedStep]) -> Outcome:
        taken = [s for s in steps if s.transition is not None]
        score = taken[-1].transition.score if taken else 0
        reached = next((s.index for s in taken if s.transition.done), None)
        return Outcome({"score": score}, {"guesses": len(taken)}, {"score": 3}, reached is not None, reached)


EPISODES = CoinEpisodes()
