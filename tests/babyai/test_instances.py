"""BabyAI instances: ids, extraction from minigrid, the Structured description, LangSuitE names."""

from __future__ import annotations

import json

import pytest

from plancheck.domains.babyai.catalog import langsuite_tasks, sample_records, select
from plancheck.domains.babyai.describe import state_text, structured
from plancheck.domains.babyai.extract import load_instance
from plancheck.domains.babyai.instance import Instance, parse_id
from plancheck.domains.babyai.levels import BABYBENCH_LEVELS, PLAN_ROOMS, minigrid_level_ids, plan_room
from plancheck.errors import InstanceNotFoundError


def test_structured_description_is_byte_identical_to_every_sample_record(shared_data):
    records = list(sample_records(shared_data))
    assert len(records) == 16
    for path, line, record in records:
        instance = load_instance(record["env_name"], record["seed"])
        assert structured(instance) == record["env_description"], f"{path.name}:{line}"
        assert state_text(instance.start) == record["initial_state"], f"{path.name}:{line}"


def test_plan_rooms_have_the_published_sizes_distractors_and_step_limit():
    assert len(PLAN_ROOMS) == 16
    for env_id in PLAN_ROOMS:
        room = plan_room(env_id)
        instance = load_instance(env_id, 3)
        assert (instance.width, instance.height) == (room.room_size, room.room_size)
        assert instance.max_steps == room.room_size ** 2
        balls = [t for t in instance.things if t.kind == "ball" and t.color == "red"]
        assert len(balls) == 1 and len(instance.things) == room.distractors + 1
        assert all(t.color == "grey" for t in instance.things if t is not balls[0])
        assert instance.mission.text == "go to the red ball"


def test_all_sixteen_levels_exist_and_extract():
    assert len(BABYBENCH_LEVELS) == 16
    for env_id in BABYBENCH_LEVELS:
        assert env_id in minigrid_level_ids()
        instance = load_instance(env_id, 1)
        assert instance.mission.text and instance.max_steps > 0


def test_instance_json_round_trip():
    for env_id, seed in (("BabyAI-BossLevel-v0", 4), ("BabyAI-PutNextLocal-v0", 2), (PLAN_ROOMS[5], 1)):
        instance = load_instance(env_id, seed)
        data = json.loads(json.dumps(instance.to_json()))
        assert Instance.from_json(data) == instance


def test_instance_ids_in_all_accepted_forms():
    assert parse_id("BabyAI-GoToLocal-v0/seed=5") == ("BabyAI-GoToLocal-v0", 5)
    assert parse_id("BabyAI-GoToLocal-v0/5") == ("BabyAI-GoToLocal-v0", 5)
    assert parse_id("GoToLocalS5N2-5") == ("BabyAI-GoToLocalS5N2-v0", 5)
    assert parse_id("1RoomS20-9") == ("BabyAI-OneRoomS20-v0", 9)
    assert parse_id("GoToObjS6-3") == ("BabyAI-GoToObjS6-v1", 3)
    with pytest.raises(InstanceNotFoundError, match="TestGoToBlocked"):
        parse_id("TestGoToBlocked-8")
    with pytest.raises(InstanceNotFoundError):
        parse_id("no seed here")


@pytest.mark.parametrize("generation", ["installed", "6e713afe"])
def test_ids_listed_without_building_are_the_ids_of_the_instances(generation):
    from plancheck.registry import get_world

    world = get_world("babyai")
    chosen = ["BabyAI-SynthSeq-v0/seed=1", "BabyAI-GoToLocal-v0/seed=1", "BabyAI-BossLevel-v0@6e713afe/seed=4"]
    ids = list(world.instance_ids(chosen, None, generation=generation))
    assert ids == [item.id for item in world.instances(chosen, None, generation=generation)]
    assert ("@6e713afe" in ids[0]) == (generation == "6e713afe") and "@" not in ids[1]


def test_selectors_name_seed_ranges_and_published_sets(shared_data):
    chosen = list(select(["BabyAI-GoTo-v0/seeds=3-5"], None))
    assert [(c.env_id, c.seed) for c in chosen] == [("BabyAI-GoTo-v0", 3), ("BabyAI-GoTo-v0", 4), ("BabyAI-GoTo-v0", 5)]
    assert sum(1 for _ in select(["babybench"], None)) == 1600
    samples = list(select(["samples"], shared_data))
    assert {c.task for c in samples} == {"predict", "plan", "decompose"} and len(samples) == 16
    with pytest.raises(InstanceNotFoundError):
        list(select(["BabyAI-NoSuchLevel-v0/seed=1"], None))


def test_langsuite_task_list_maps_to_minigrid_except_its_test_levels(shared_data):
    found, missing = langsuite_tasks(shared_data)
    assert len(found) + len(missing) == 50
    assert missing == ["TestGoToBlocked-8", "TestPutNextToCloseToDoor2-7", "TestPutNextToCloseToDoor2-9",
                       "TestPutNextToIdentical-0", "TestUnblockingLoop-9"]
    assert ("BabyAI-GoToLocalS5N2-v0", 5) in found and ("BabyAI-OneRoomS20-v0", 1) in found


def test_extraction_reads_targets_and_relative_locations_from_minigrid():
    # SynthLoc seed 2: "pick up the purple ball in front of you" -- resolved by minigrid at reset
    instance = load_instance("BabyAI-SynthLoc-v0", 2)
    desc = instance.mission.descs[0]
    assert desc.loc == "front" and len(desc.targets) >= 1
    for ref in desc.targets:
        thing = instance.things[ref]
        assert (thing.kind, thing.color) == ("ball", "purple")


def test_langsuite_as_built_gives_the_levels_its_code_really_creates(shared_data):
    found, missing = langsuite_tasks(shared_data, "as-built")
    assert len(missing) == 5
    as_built = dict(zip(langsuite_tasks(shared_data)[0], found))
    assert as_built[("BabyAI-GoToLocalS5N2-v0", 5)] == ("BabyAI-GoToLocalS8N7-v0", 5)
    assert as_built[("BabyAI-GoToObj-v0", 0)] == ("BabyAI-GoToObjS6-v1", 0)
    assert as_built[("BabyAI-GoToObjMaze-v0", 1)] == ("BabyAI-GoToObjMazeS7-v0", 1)
    assert as_built[("BabyAI-Synth-v0", 7)] == ("BabyAI-SynthS5R2-v0", 7)
    assert as_built[("BabyAI-UnblockPickup-v0", 8)] == ("BabyAI-UnblockPickup-v0", 8)
    assert parse_id("GoToLocalS5N2-5", "as-built") == ("BabyAI-GoToLocalS8N7-v0", 5)
    assert load_instance("BabyAI-GoToLocalS8N7-v0", 5).width == 8 != load_instance("BabyAI-GoToLocalS5N2-v0", 5).width
