"""Rock Paper Scissors' rules and texts, and its draws against the draw order the facts document
(``random.shuffle`` when made and at the reset, one ``numpy.random.choice`` per round), on numpy itself."""

from __future__ import annotations

import random

import numpy as np

from plancheck.domains.smartplay.rps import prompts, rules
from plancheck.domains.smartplay.rps.world import WORLD

EPISODES = WORLD.episodes
INSTANCE = EPISODES.instance("rockpaperscissorbasic")
SETTINGS = EPISODES.settings({})[0]
NAMES = ["Rock", "Paper", "Scissor"]


def documented(seed: int, moves: list[int]) -> list[tuple[str, int, int]]:
    """The facts' draw order, written out with the global generators."""
    random.seed(seed)
    np.random.seed(seed)
    pairs = list(zip([0.2, 0.2, 0.6], [1, 1, 1]))
    random.shuffle(pairs)  # __init__
    random.shuffle(pairs)  # reset
    probabilities = [p for p, _ in pairs]
    favoured = probabilities.index(0.6)
    best = (favoured + 1) % 3  # the move that beats the favoured one
    out, score = [], 0
    for move in moves:
        opponent = int(np.random.choice(3, p=probabilities))
        lost = (move, opponent) in ((0, 1), (1, 2), (2, 0))
        result, reward = ("tied", 0) if move == opponent else ("lost", -1) if lost else ("won", 1)
        score += move == best
        out.append((f"You chose {NAMES[move]}, and the opponent chose {NAMES[opponent]}. You {result} and received "
                    f"score {reward}.\nNew round begins.", reward, score))
    return out


def test_500_seeds_follow_the_documented_draw_order():
    for seed in range(500):
        moves = [random.Random(seed + 10 ** 6).randrange(3) for _ in range(50)]
        game = EPISODES.game(INSTANCE, seed, SETTINGS)
        assert game.reset() == "New round begins."
        ours = [(t.observation, t.reward, t.score) for t in (game.step(NAMES[m]) for m in moves)]
        assert ours == documented(seed, moves), seed


def test_the_rules_cycle():
    assert [rules.result(0, o) for o in range(3)] == ["tied", "lost", "won"]
    assert [rules.beaten_by(m) for m in range(3)] == [2, 0, 1]
    for favoured in range(3):
        probabilities = tuple(0.6 if i == favoured else 0.2 for i in range(3))
        assert rules.Opponent(probabilities, (1, 1, 1)).optimal == (favoured + 1) % 3


def test_the_manual_is_smartplays():
    assert prompts.manual((1, 1, 1)) == (
        "For the game Rock Paper Scissors, you and the opponent choose one of three options: rock, paper, or scissors."
        "\nAfter both players have chosen, the winner is determined as follows:\nRock crushes scissors (Rock wins, "
        "score 1)\nScissors cut paper (Scissors win, score 1)\nPaper covers rock (Paper wins, score 1)\nIf you lose, "
        "your score is the negative of the winner's score.\nIf both players choose the same option, it's a draw "
        "(score 0).\nYour goal is to maximize your score.\n\nList of all actions:\n1. Rock\n2. Paper\n3. Scissor")
    assert prompts.read_observation(prompts.observation(1, 2, "lost", -1)) == (1, 2, "lost", -1)
