"""Two minigrid generators (issue 21, item 6): the installed one and the commit LLM-BabyBench made its data with.

LLM-BabyBench pins minigrid at commit 6e713afe (6e713afef8d2, Feb 2025; version string "2.5.0"); plancheck
runs on minigrid 3.2.0. Run side by side on the 16 levels x seeds 1-500 (8,000 resets, during the work on
this issue), the two generated different worlds for exactly 5 level-seed pairs; their missions under
6e713afe are below (the oracle: the old minigrid itself, run from its source at that commit), and the
pinned generator here reproduces all 8,000 (a run, not repeated in the tests: it needs that source).
A record made on one world is never scored on the other.
"""

from __future__ import annotations

import json

import pytest

from plancheck.cli import main
from plancheck.domains.babyai.describe import published_mismatch, state_text, structured
from plancheck.domains.babyai.extract import load_instance
from plancheck.domains.babyai.instance import parse_id
from plancheck.domains.babyai.levels import BABYBENCH_LEVELS, build_env, known_env_id, with_generation
from plancheck.domains.babyai.references import expert
from plancheck.domains.babyai.world import WORLD
from plancheck.errors import BadInputError, InstanceNotFoundError
from plancheck.world import Record

# (level, seed): (mission under minigrid 6e713afe, mission under minigrid 3.2.0)
DIFFERENT = {
    ("BabyAI-SynthLoc-v0", 3): ("go to the red box", "go to a door on your right"),
    ("BabyAI-SynthLoc-v0", 277): ("open a door", "open a purple door"),
    ("BabyAI-SynthSeq-v0", 3): ("put the purple box next to the grey box and go to the door on your right",
                                "put the purple box next to the green key and open the door in front of you"),
    ("BabyAI-SynthSeq-v0", 236): ("pick up the blue box behind you after you open a door and pick up a red ball",
                                  "pick up the blue box behind you, then open the red door and open a blue door"),
    ("BabyAI-SynthSeq-v0", 422): ("put a key next to a yellow door", "put a key next to the door on your left"),
}


@pytest.mark.parametrize("level, seed", sorted(DIFFERENT))
def test_the_pinned_generator_makes_the_published_worlds(level, seed):
    pinned, installed = DIFFERENT[level, seed]
    assert load_instance(with_generation(level, "6e713afe"), seed).mission.text == pinned
    assert load_instance(level, seed).mission.text == installed


def test_elsewhere_both_generators_make_the_same_worlds():
    for level in ("BabyAI-SynthSeq-v0", "BabyAI-SynthLoc-v0", "BabyAI-BossLevel-v0", "BabyAI-Synth-v0"):
        for seed in (1, 2, 4, 5):
            mine, theirs = load_instance(level, seed), load_instance(with_generation(level, "6e713afe"), seed)
            assert structured(mine) == structured(theirs) and mine.id != theirs.id


def test_only_the_levels_that_add_locked_rooms_have_a_pinned_id():
    pinned = [level for level in BABYBENCH_LEVELS if with_generation(level, "6e713afe") != level]
    assert pinned == ["BabyAI-Synth-v0", "BabyAI-SynthLoc-v0", "BabyAI-SynthSeq-v0", "BabyAI-BossLevel-v0"]
    assert parse_id("BabyAI-SynthSeq-v0@6e713afe/seed=3") == ("BabyAI-SynthSeq-v0@6e713afe", 3)
    assert known_env_id("BabyAI-SynthSeq-v0@6e713afe") and not known_env_id("BabyAI-GoToSeq-v0@6e713afe")
    with pytest.raises(InstanceNotFoundError, match="name it BabyAI-GoToSeq-v0"):
        build_env("BabyAI-GoToSeq-v0@6e713afe")
    assert json.loads(json.dumps(WORLD.instance_json(next(WORLD.instances(
        ["BabyAI-SynthSeq-v0/seed=3"], None, generation="6e713afe")))))["generator"] == "minigrid 6e713afe"


def _record(level: str, seed: int, generation: str) -> dict:
    """A Predict record as LLM-BabyBench's generator writes it, made on the world of ``generation``."""
    env_id = with_generation(level, generation)
    instance = load_instance(env_id, seed)
    run = expert(env_id, seed)
    return {"env_name": level, "seed": seed, "env_description": structured(instance),
            "initial_state": state_text(instance.start), "action_sequence": ", ".join(map(str, run.actions)),
            "response": "The agent's final state is: ((1, 1), 0)"}


def test_a_record_made_on_the_other_world_is_flagged_not_scored(tmp_path, capsys):
    answers = tmp_path / "predict.jsonl"
    answers.write_text("\n".join(json.dumps(_record(level, seed, "6e713afe")) for level, seed in sorted(DIFFERENT)))
    assert main(["evaluate", "babyai", str(answers), "--no-progress", "--no-optimal"]) == 2  # nothing scored
    err = capsys.readouterr().err
    assert err.count("broken record") == 5 and "it is not scored on another world" in err
    assert "Mission: 'put a key next to a yellow door'" in err and "pass --generation 6e713afe" in err
    assert main(["evaluate", "babyai", str(answers), "--no-progress", "--no-optimal", "--generation", "6e713afe",
                 "-o", str(tmp_path / "out.jsonl")]) == 0
    verdicts = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert len(verdicts) == 5 and all(v["verdict"]["parsed"] for v in verdicts)
    assert verdicts[0]["instance"] == "BabyAI-SynthLoc-v0/seed=3"
    assert verdicts[0]["verdict"]["instance"] == "BabyAI-SynthLoc-v0@6e713afe/seed=3"


def test_a_record_whose_text_disagrees_names_the_line(shared_data):
    line = (shared_data / "babybench" / "regenerated_plan_sample.jsonl").read_text().splitlines()[0]
    record = json.loads(line)
    assert published_mismatch(load_instance(record["env_name"], record["seed"]), record) is None
    record["env_description"] = record["env_description"].replace("- Agent initial position: (3, 4)",
                                                                  "- Agent initial position: (4, 4)")
    assert published_mismatch(load_instance(record["env_name"], record["seed"]), record) == (
        "env_description line 9: the record says '- Agent initial position: (4, 4)', "
        "regenerated '- Agent initial position: (3, 4)'")
    with pytest.raises(BadInputError, match="not scored on another world"):
        WORLD.resolve(Record(1, f"{record['env_name']}/seed={record['seed']}", meta=record), shared_data)
    record = json.loads(line)
    record["target_subgoal"] = "(2, 6)"
    assert published_mismatch(load_instance(record["env_name"], record["seed"]), record) == (
        "target_subgoal: the record says '(2, 6)', regenerated '(1, 6)'")
