"""LLM-BabyBench's own bot, reproduced (issue 21, item 6): the records' action sequences and help counts.

The oracle below holds, per level and seed, what the benchmark's own bot (its repository's
``omniscient_fixed_plan_baby_ai_bot.py``, run unchanged on minigrid 3.2.0 during the work on this issue)
produced: the first 12 hex digits of the sha256 of its action sequence as the records write it
("forward, left, ..."), its length, and its help count. A wider run (16 levels x seeds 1-500 and the 16
Plan rooms x seeds 1-100) is reported in docs/babyai.md.
"""

from __future__ import annotations

import hashlib
import json

import pytest

from plancheck.domains.babyai.bot import run_bot
from plancheck.domains.babyai.extract import load_instance
from plancheck.domains.babyai.levels import BABYBENCH_LEVELS
from plancheck.domains.babyai.references import expert
from plancheck.domains.babyai.world import WORLD

# per level, seeds 1-5: "digest/length/help"
_ORACLE = """
GoToObj: f333f0b619aa/5/1 49edf628de70/7/1 9ab9a4f63d23/5/1 6888d3fbe9d6/3/1 34df8ea5e78e/3/1
GoToRedBallGrey: 9f2faa599306/7/1 9583328635ff/9/1 6109e435755d/14/1 6888d3fbe9d6/3/1 5c37619adcca/4/1
GoToRedBall: 9f2faa599306/7/1 49edf628de70/7/1 6109e435755d/14/1 6888d3fbe9d6/3/1 5c37619adcca/4/1
GoToLocal: 740d086559c6/2/1 f187c1879708/6/1 73c31df747de/6/1 56421ec00702/5/1 33e89f0a867b/5/1
PutNextLocal: dfd0c95d66f8/10/4 153c656f2681/18/4 a4bb011f5b58/13/4 7b6c261a74dc/14/4 1e42dd615e05/16/4
PickupLoc: 22a7e8a08398/4/3 73f4a150e21d/6/3 72e34728437b/8/3 b5ccec8182cd/2/3 27f675c796f3/2/3
GoToObjMaze: a28516f88c8d/20/2 3ed180ef4833/23/3 6477448d20c3/12/3 b8ab8486aebb/7/1 d7d55701c7f5/24/3
GoTo: 93f9314173ee/3/1 8e62d70e0482/29/3 b74dc9e41de5/4/1 1dbdd41784de/26/4 36ba1cdacf51/50/6
Pickup: 9cf0af7b56d6/4/3 cca9032ea4bb/30/5 863c6c64d697/5/3 9422ce2f2880/27/6 4a0e92afec98/51/8
UnblockPickup: 1a091b45e356/6/3 944ccd031636/29/8 8c6dabd3ed5f/14/4 4959c924879c/20/4 8a8e2e61769a/18/4
Open: 36315d12f5ae/18/3 e8b7b834c6bd/15/3 c5638d8450d9/50/6 164f05fede12/3/2 763a78324c23/24/4
Synth: 9bf1a40754ff/5/3 39ec2af4edea/5/3 4750e68b2fe2/63/11 2cd9749ac0ff/30/5 5485c892b7d7/8/1
SynthLoc: af7ecf5b3c3b/5/3 39ec2af4edea/5/3 9e903e30b842/3/1 bf65131a5326/40/6 5485c892b7d7/8/1
GoToSeq: 67dc08fec112/29/5 5da394766c93/36/4 b31c169fa682/88/7 280e3193baaa/24/5 e33339783e40/58/5
SynthSeq: 57424a4bb7c4/24/6 daaec01b54de/22/6 d1cfff03473c/86/8 b4ad444d9aa0/94/12 a258585a7b23/16/4
BossLevel: 57424a4bb7c4/24/6 daaec01b54de/22/6 d1cfff03473c/86/8 b4ad444d9aa0/94/12 a258585a7b23/16/4
"""
ORACLE = {f"BabyAI-{level}-v0": {seed: (digest, int(length), int(help_)) for seed, (digest, length, help_) in
                                 enumerate((entry.split("/") for entry in entries.split()), start=1)}
          for level, entries in (line.split(": ") for line in _ORACLE.strip().splitlines())}


def _digest(actions) -> str:
    return hashlib.sha256(", ".join(map(str, actions)).encode()).hexdigest()[:12]


@pytest.mark.parametrize("level", BABYBENCH_LEVELS)
def test_the_bot_acts_as_the_benchmarks_bot(level):
    for seed, (digest, length, help_) in ORACLE[level].items():
        run = run_bot(load_instance(level, seed), "babybench")
        assert run.success and (_digest(run.actions), len(run.actions), run.help) == (digest, length, help_), seed


def test_the_sample_records_action_sequences_and_help_counts(shared_data):
    """Every Predict sequence (BossLevel 1 and 2 are multi-room), Plan reference and Decompose help count."""
    checked = 0
    for path in sorted((shared_data / "babybench").glob("*.jsonl")):
        for line in path.read_text().splitlines():
            record = json.loads(line)
            run = expert(record["env_name"], record["seed"])
            sequence = record.get("action_sequence", record.get("expert_action_sequence"))
            if sequence is not None:
                assert ", ".join(map(str, run.actions)) == sequence, (path.name, record["seed"])
            else:
                assert run.help == record["help_count"], (path.name, record["seed"])
            checked += 1
    assert checked == 16


def test_minigrids_omniscient_bot_is_not_the_benchmarks_on_multi_room_levels():
    """What stood in before: minigrid's bot with the whole map gives up where the benchmark's succeeds."""
    for level in ("BabyAI-GoTo-v0", "BabyAI-Open-v0", "BabyAI-BossLevel-v0"):
        for seed in (1, 2):
            stand_in, benchmark = run_bot(load_instance(level, seed), "omniscient"), expert(level, seed)
            assert benchmark.success and not stand_in.success and stand_in.actions != benchmark.actions


def test_predict_prompts_without_a_record_carry_the_benchmarks_sequence():
    item = next(WORLD.instances(["BabyAI-BossLevel-v0/seed=1"], None, task="predict"))
    prompt = WORLD.prompt(item).user
    assert ", ".join(map(str, expert("BabyAI-BossLevel-v0", 1).actions)) in prompt
    assert _digest(item.predict_actions()) == ORACLE["BabyAI-BossLevel-v0"][1][0]
