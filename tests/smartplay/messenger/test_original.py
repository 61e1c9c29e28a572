"""plancheck's Messenger against SmartPlay's own environment, step for step.

The recorded episodes (``original_episodes.jsonl.gz``, made by ``fixtures.py`` from SmartPlay's code) are
replayed here: the same seed gives the same manual, and the same actions the same observations, histories,
rewards and ends. L1 is SmartPlay's exact episode for ``random.seed(seed)``; L2/L3 are SmartPlay's episodes
with the VGDL file lists sorted and the VGDL level's generator seeded with the seed (see plancheck's docs).
With SmartPlay and py-vgdl checkouts named in ``SMARTPLAY_SRC`` and ``PYVGDL_SRC``,
a further test runs the original code live on other seeds and compares the full texts.
"""

from __future__ import annotations

import gzip
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from plancheck.domains.smartplay._frame import history
from plancheck.domains.smartplay.messenger.instance import STEP_LIMITS, start
from plancheck.domains.smartplay.messenger.prompts import HISTORY_WINDOW
from plancheck.domains.smartplay.messenger.run import Runner

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from fixtures import FIXTURE, digest  # noqa: E402


def play(level: int, seed: int, actions: list[int]) -> dict:
    """plancheck's episode in the harness's shape: manual, observations, histories, rewards, dones."""
    game = Runner(start(level, seed))
    observations = [game.reset()]
    result = {"manual": game.manual, "rewards": [], "dones": []}
    for action in actions:
        step = game.step(action)
        observations.append(step.observation)
        result["rewards"].append(step.reward)
        result["dones"].append(step.done)
        if step.done:
            break
    result["observations"] = observations
    result["histories"] = [history(observations[:k], HISTORY_WINDOW) for k in range(len(observations))]
    return result


def recorded() -> list[dict]:
    with gzip.open(FIXTURE, "rt", encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


def test_the_recording_covers_every_level_and_outcome():
    episodes = recorded()
    assert {(e["level"], e["source"]) for e in episodes} == {(level, source) for level in (1, 2, 3)
                                                             for source in ("random", "policy")}
    final = {(e["level"], e["rewards"][-1]) for e in episodes if e["dones"] and e["dones"][-1]}
    assert {(1, 1.0), (1, -1.0), (2, 1.0), (2, -1.0), (3, 1.0), (3, -1.0), (3, -2.0)} <= final
    assert any(0.5 in e["rewards"] for e in episodes if e["level"] == 2)  # the message picked up


@pytest.mark.parametrize("level", [1, 2, 3])
def test_recorded_original_episodes_replay_step_for_step(level):
    checked = 0
    for episode in (e for e in recorded() if e["level"] == level):
        mine = play(level, episode["seed"], episode["actions"])
        where = f"L{level} seed {episode['seed']} ({episode['source']})"
        assert digest(mine["manual"]) == episode["manual"], f"{where}: the manual differs"
        steps = [[digest(o, h)] for o, h in zip(mine["observations"], mine["histories"], strict=True)]
        for k, (ours, theirs) in enumerate(zip(steps, episode["steps"], strict=True)):
            assert ours == theirs, f"{where}: step {k}'s observation or history differs:\n{mine['observations'][k]}"
        assert mine["rewards"] == episode["rewards"] and mine["dones"] == episode["dones"], where
        checked += 1
    assert checked >= 200


def _sources() -> tuple[str, str] | None:
    smartplay, pyvgdl = os.environ.get("SMARTPLAY_SRC"), os.environ.get("PYVGDL_SRC")
    return (smartplay, pyvgdl) if smartplay and pyvgdl else None


@pytest.mark.slow
@pytest.mark.skipif(_sources() is None, reason="set SMARTPLAY_SRC and PYVGDL_SRC to checkouts")
def test_live_original_agrees_on_new_seeds():
    smartplay, pyvgdl = _sources()
    wanted = []
    for level in (1, 2, 3):
        for seed in range(5000, 5100):
            rng = random.Random(seed)
            wanted.append({"level": level, "seed": seed, "actions": [rng.randrange(5) for _ in
                                                                     range(STEP_LIMITS[level])]})
    done = subprocess.run([sys.executable, str(HERE / "original.py"), "--smartplay", smartplay, "--pyvgdl", pyvgdl],
                          input="".join(json.dumps(r) + "\n" for r in wanted), capture_output=True, text=True,
                          check=True)
    for request, line in zip(wanted, done.stdout.splitlines(), strict=True):
        theirs = json.loads(line)
        mine = play(request["level"], request["seed"], request["actions"])
        for key in ("manual", "observations", "histories", "rewards", "dones"):
            assert mine[key] == theirs[key], f"L{request['level']} seed {request['seed']}: {key} differs"
