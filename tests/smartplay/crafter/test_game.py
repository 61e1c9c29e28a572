"""SmartPlay's Crafter episode (reset protocol, texts, history, score) against SmartPlay's own wrapper code."""

from __future__ import annotations

import pytest

from plancheck.domains.smartplay.crafter import prompts
from plancheck.domains.smartplay.crafter.game import CrafterGame


def _compare(records: list[dict], history: int = 2) -> tuple[int, int]:
    """Replay the wrapper's records with plancheck's game; (steps compared, episodes)."""
    game, steps, episodes = None, 0, 0
    for record in records:
        if "seed" in record:
            game = CrafterGame(record["seed"], record["episode"], history=history)
            assert (game.reset(), game.history, game.score) == (record["obs"], record["history"], record["score"])
            episodes += 1
        else:
            step = game.step(record["action"])
            assert (step.observation, game.history, step.score, step.reward, step.done) == (
                record["obs"], record["history"], record["score"], record["reward"], record["done"]), steps
            steps += 1
    return steps, episodes


def test_episodes_match_smartplays_wrapper(original):
    records = original.run("episodes", "--seeds", "0,7", "--episodes", "2", "--steps", "200")
    steps, episodes = _compare(records)
    assert episodes == 4 and steps > 500
    texts = " ".join(r["obs"] for r in records)
    assert prompts.SLEEPING.strip() in texts and "You died." in texts


@pytest.mark.slow
def test_many_episodes_match_smartplays_wrapper(original):
    seeds = ",".join(str(s) for s in range(20))
    steps, episodes = _compare(original.run("episodes", "--seeds", seeds, "--episodes", "2", "--steps", "10000"))
    assert episodes == 40 and steps > 4000


def test_reset_runs_one_noop_and_pushes_two_observations():
    game = CrafterGame(3)
    first = game.reset()
    assert game.crafter_step == 1 and not first.startswith("You took action")
    assert game.history.startswith("Most recent 1 steps of the player's in-game observation:\n\n"
                                   "Player Observation Step 0:\nYou took action noop.\n\n")
    step = game.step("Move West")
    assert step.observation.startswith("You took action move_west.")
    assert game.history.startswith("Most recent 2 steps")
    assert "Player Observation Step 1:\n" + first in game.history
    assert game.crafter_step == 2


def test_the_paper_history_keeps_five_observations():
    game = CrafterGame(3, history=prompts.HISTORY["paper"])
    game.reset()
    for _ in range(6):
        game.step(0)
    assert game.history.startswith("Most recent 5 steps") and "Player Observation Step 2:" in game.history
    assert "Player Observation Step 6:" in game.history and "Step 7:" not in game.history


def test_the_agent_gets_one_action_less_than_crafters_length():
    game = CrafterGame(3, length=30)  # crafter's length; SmartPlay's loop would allow 10000
    game.reset()
    actions = 0
    while not game.done:
        game.step(0)
        actions += 1
    assert actions == 29
    with pytest.raises(RuntimeError):
        game.step(0)
