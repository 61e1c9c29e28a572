"""Messenger runs logged as SmartPlay's harness logs them (its wandb table: a row before each step, the
last outcome never written) convert into episode logs that check passes, by replay or by observation."""

from __future__ import annotations

import json
import random

import pytest

from plancheck.domains.smartplay import _frame
from plancheck.domains.smartplay.messenger.world import WORLD_L1, WORLD_L2, WORLD_L3
from plancheck.episodes.check import check_episode

COLUMNS = ["Context", "Step", "OBS", "History", "Score", "Reward", "Total Reward", *_frame.QUESTIONS, "Action"]


def harness_table(world, seed: int) -> dict:
    """The table SmartPlay's ``run`` (examples/experiment.py) writes for one episode, with a scripted model
    that thinks, then names an action (sometimes two, sometimes none: SmartPlay then takes Move North)."""
    episodes = world.episodes
    game = episodes.game(episodes.instance(episodes.env), seed, episodes.defaults)
    observation = game.reset()
    model = random.Random(f"model {seed}")
    actions = list(game.actions())
    score = reward = total = 0
    rows, done, step = [], False, 0
    while step < game.horizon:
        row = [game.manual, step, observation, _frame.history(game.observations[:-1], game.window), score, reward,
               total]
        if done:
            break
        a, b = model.sample(actions, 2)
        answer = model.choice([a, f"{a} then {b}", "no idea", a.lower()])
        row += ["Let me think.", answer, actions[_frame.match_act(answer, actions)]]
        transition = game.step(row[-1])
        observation, reward, score, done = transition.observation, transition.reward, transition.score, transition.done
        total += reward
        step += 1
        rows.append(row)
    return {"_type": "table", "columns": COLUMNS, "data": rows}


@pytest.mark.parametrize("world", [WORLD_L1, WORLD_L2, WORLD_L3], ids=["l1", "l2", "l3"])
def test_harness_tables_convert_and_check(world, tmp_path):
    for seed in range(15):
        path = tmp_path / f"run{seed}.json"
        path.write_text(json.dumps(harness_table(world, seed)))
        [seeded] = world.convert(path, seed=seed)
        verdict = check_episode(world.episodes, seeded)
        assert verdict.valid, (seed, verdict.failure)
        [unseeded] = world.convert(path)
        verdict = check_episode(world.episodes, unseeded)
        assert verdict.valid and "checked by observation" in verdict.form, (seed, verdict.failure)


def test_a_run_that_stops_early_must_have_ended(tmp_path):
    table = harness_table(WORLD_L2, 1)
    while len(table["data"]) > 3:
        table["data"].pop()
        path = tmp_path / "cut.json"
        path.write_text(json.dumps(table))
        [log] = WORLD_L2.convert(path)
        verdict = check_episode(WORLD_L2.episodes, log)
        if not verdict.valid:
            assert "so this step ended the episode, but" in str(verdict.failure)
            return
    pytest.fail("cutting the run short was never caught")
