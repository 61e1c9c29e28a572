"""SmartPlay's own run tables (written as its harness writes them, by SmartPlay's own code) convert
into episode logs that check passes, replaying the seed or following the text."""

from __future__ import annotations

import json
import random

import pytest

from plancheck.domains.smartplay._convert import rows
from plancheck.domains.smartplay.bandits.world import WORLD as BANDITS
from plancheck.domains.smartplay.rps.world import WORLD as RPS
from plancheck.episodes.check import check_episode
from plancheck.errors import BadInputError

from .original import run_table


def scripted(seed: int, actions: list[str]):
    """A scripted model: a thought, then an answer that names an action, or two, or none (with its own generator).
    Of two, SmartPlay takes the one written first: the committed one ("I choose A rather than b"), or another
    ("b is tempting, but I choose A": read ambiguous, since the reply commits to A)."""
    generator = random.Random(f"model {seed}")

    def llm(messages):
        if messages[-1]["content"].startswith("What is the best"):
            return f"Let me think about {messages[-2]['content'][-30:]!r}."
        a, b = generator.sample(actions, 2)
        return generator.choice([a, f"I choose {a.upper()} rather than {b}", "no idea", a.rstrip("."),
                                 f"{b} is tempting, but I choose {a}"])
    return llm


@pytest.mark.parametrize("world", [BANDITS, RPS], ids=["bandits", "rps"])
def test_smartplay_runs_convert_and_check(world, smartplay, tmp_path):
    make = smartplay.Bandit if world is BANDITS else smartplay.RPS
    episodes = world.episodes
    actions = list(episodes.game(episodes.instance(episodes.env), 0, episodes.defaults).actions())
    reads = {"read_none": 0, "read_ambiguous": 0}
    for seed in range(40):
        table, final = run_table(smartplay, make, seed, scripted(seed, actions))
        path = tmp_path / f"run{seed}.table.json"
        path.write_text(json.dumps(table))
        [seeded] = world.convert(path, seed=seed)
        verdict = check_episode(world.episodes, seeded)
        assert verdict.valid, (seed, verdict.failure)
        assert verdict.scores["score"] == final["score"] and len(verdict.actions) == 50
        for key in reads:
            reads[key] += verdict.metrics[key]
        [unseeded] = world.convert(path)
        verdict = check_episode(world.episodes, unseeded)
        assert verdict.valid and "checked by observation" in verdict.form, (seed, verdict.failure)
        assert verdict.scores["score"] in (final["score"], None)
    assert all(reads.values()), reads  # SmartPlay's fallback and its earliest-action guess both happened


def test_a_tampered_run_is_caught(smartplay, tmp_path):
    table, _ = run_table(smartplay, smartplay.Bandit, 3, scripted(3, ["Pull slot machine 1.", "Pull slot machine 2."]))
    row = table["data"][10]
    row[2] = row[2].replace("reward 1.", "reward -1.") if "reward 1." in row[2] else row[2].replace("-1.", "1.")
    path = tmp_path / "run.json"
    path.write_text(json.dumps(table))
    [episode] = BANDITS.convert(path, seed=3)
    verdict = check_episode(BANDITS.episodes, episode)
    assert verdict.failure.step == 10 and verdict.failure.reason.startswith("the observation is")
    assert "and the draw was u=" in verdict.failure.reason
    [episode] = BANDITS.convert(path)
    failure = check_episode(BANDITS.episodes, episode).failure
    assert failure.step == 10 and failure.reason.startswith("the observation says reward")


def test_other_shapes_of_run_logs(tmp_path):
    table = {"columns": ["Step"], "data": [[0]]}
    path = tmp_path / "run.json"
    path.write_text(json.dumps(table))
    with pytest.raises(BadInputError, match="lacks the column"):
        list(BANDITS.convert(path))
    path = tmp_path / "rows.jsonl"
    path.write_text('{"Step": 0}\n{oops\n')
    with pytest.raises(BadInputError, match="line 2"):
        list(rows(path))
