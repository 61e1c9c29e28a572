"""The bandit's rules and texts, and its draws against the draw order the facts document
(``random.shuffle`` at the reset, one ``numpy.random.uniform()`` per pull), on numpy itself."""

from __future__ import annotations

import random

import numpy as np

from plancheck.domains.smartplay.bandits import prompts
from plancheck.domains.smartplay.bandits.world import WORLD

EPISODES = WORLD.episodes
INSTANCE = EPISODES.instance("BanditTwoArmedHighLowFixed-v0")
SETTINGS = EPISODES.settings({})[0]


def documented(seed: int, pulls: list[int]) -> list[tuple[str, int, int, int]]:
    """The facts' draw order, written out with the global generators."""
    random.seed(seed)
    np.random.seed(seed)
    order = [0, 1]
    random.shuffle(order)
    payouts = [(0.8, 0.2)[i] for i in order]
    best = int(np.argmax([p - (1 - p) for p in payouts]))
    out, score = [], 0
    for machine in pulls:
        reward = 1 if np.random.uniform() < payouts[machine] else -1
        score += machine == best
        out.append((f"You pulled slot machine {machine + 1}, you received reward {reward}.", reward, score, best))
    return out


def test_500_seeds_follow_the_documented_draw_order():
    for seed in range(500):
        pulls = [random.Random(seed + 10 ** 6).randrange(2) for _ in range(50)]
        game = EPISODES.game(INSTANCE, seed, SETTINGS)
        game.reset()
        ours = []
        for machine in pulls:
            t = game.step(game.actions()[machine])
            ours.append((t.observation, t.reward, t.score, t.info["optimal"]))
        assert ours == documented(seed, pulls), seed


def test_the_manual_and_observations_are_smartplays():
    assert prompts.MANUAL == ("You are in the casino with 2 slot machines in front of you. Your goal is to try to "
                              "earn the most from those slot machines.\n\nList of all actions:\n1. Pull slot machine "
                              "1.\n2. Pull slot machine 2.")
    assert prompts.RESET == "A new round begins."
    assert prompts.read_observation("You pulled slot machine 2, you received reward -1.") == (1, -1)
    assert prompts.read_observation("You pulled slot machine 2, you received reward +1.") is None


def test_history_at_step_2_is_the_documented_one():
    game = EPISODES.game(INSTANCE, 0, SETTINGS)
    game.reset()
    game.step("Pull slot machine 1.")
    first = game.observations[1]
    game.step("Pull slot machine 1.")
    assert game.messages()[2]["content"] == ("Most recent 2 steps of the player's in-game observation:\n\n"
                                             "Player Observation Step 0:\nA new round begins.\n\n"
                                             f"Player Observation Step 1:\n{first}")
