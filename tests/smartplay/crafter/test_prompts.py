"""SmartPlay's Crafter texts: the manual, the action names, and describe_frame against SmartPlay's own code."""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from plancheck.domains.smartplay.crafter import prompts


def test_the_manual_is_smartplays_text_exactly(shared_data):
    text = prompts.manual()
    assert hashlib.sha256(text.encode()).hexdigest() == prompts.MANUAL_SHA256
    assert (len(text), text.count("\n") + 1, text.endswith("\n")) == (4603, 104, False)
    assert text == (shared_data / "smartplay" / "crafter_manual.txt").read_text(encoding="utf-8")


def test_the_manual_is_what_smartplays_wrapper_sends(original):
    first = original.run("episodes", "--seeds", "5", "--steps", "0")[0]
    assert first["manual"] == prompts.manual()


def test_action_names_follow_crafters_order():
    import crafter

    assert prompts.CRAFTER_ACTIONS == tuple(crafter.Env().action_names)
    assert len(prompts.ACTIONS) == 17
    assert [prompts.ECHOED[a] for a in prompts.CRAFTER_ACTIONS[:5]] == [
        "noop", "move_west", "move_east", "move_north", "move_south"]


def test_history_numbers_the_kept_observations():
    assert prompts.history_text((), 0) == ""
    assert prompts.history_text(("a", "b"), 7) == (
        "Most recent 2 steps of the player's in-game observation:\n\n"
        "Player Observation Step 5:\na\n\nPlayer Observation Step 6:\nb")
    assert prompts.history_text(("a",), 1).startswith("Most recent 1 steps")


def _case(rng: random.Random) -> dict:
    """A random frame: ids anywhere (with runs of equal ids for distance ties), edges and corners often."""
    semantic = [[rng.choice((1, 2, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 15, 16, 17, 18)) for _ in range(64)]
                for _ in range(64)]
    edge = rng.random() < 0.5
    coordinate = (lambda: rng.choice((0, 1, 2, 3, 4, 5, 58, 59, 60, 61, 62, 63))) if edge else \
        (lambda: rng.randrange(64))
    x, y = coordinate(), coordinate()
    if rng.random() < 0.3:  # few kinds: many ties in distance
        kinds = rng.sample(range(1, 19), 2)
        semantic = [[rng.choice(kinds) if v != 13 else 2 for v in column] for column in semantic]
    semantic[x][y] = 13 if rng.random() < 0.97 else 2  # SmartPlay asserts the player is there
    inventory = {name: rng.choice((0, 0, 1, 9)) for name in (
        "health", "food", "drink", "energy", "sapling", "wood", "stone", "coal", "iron", "diamond",
        "wood_pickaxe", "stone_pickaxe", "iron_pickaxe", "wood_sword", "stone_sword", "iron_sword")}
    return {"semantic": semantic, "position": [x, y], "facing": rng.choice(((0, 1), (0, -1), (1, 0), (-1, 0))),
            "inventory": inventory, "sleeping": rng.random() < 0.2, "dead": rng.random() < 0.2,
            "action": rng.choice((None, *prompts.CRAFTER_ACTIONS))}


def test_describe_matches_smartplays_describe_frame_on_random_frames(original):
    rng = random.Random(20)
    cases = [_case(rng) for _ in range(600)]
    theirs = original.run("describe", stdin="".join(json.dumps(c) + "\n" for c in cases))
    mine = [prompts.describe(c["semantic"], tuple(c["position"]), tuple(c["facing"]), c["inventory"],
                             c["sleeping"], c["dead"], c["action"]) for c in cases]
    assert mine == theirs
    kinds = {"out of the map": sum(t == prompts.OUT_OF_MAP for t in theirs),
             "sleeping": sum(prompts.SLEEPING.strip() in t for t in theirs),
             "died": sum("You died." in t for t in theirs), "reset": sum(t.startswith("You see") for t in theirs)}
    assert min(kinds.values()) > 10, kinds  # every branch was exercised


def test_describe_reads_numpy_maps_and_lists_alike():
    np = pytest.importorskip("numpy")
    rng = random.Random(3)
    for _ in range(50):
        c = _case(rng)
        args = (tuple(c["position"]), tuple(c["facing"]), c["inventory"], c["sleeping"], c["dead"], c["action"])
        assert prompts.describe(np.array(c["semantic"], np.uint8), *args) == prompts.describe(c["semantic"], *args)


def test_an_observation_reads_as_the_facts_example():
    semantic = [[2] * 64 for _ in range(64)]
    semantic[32][32] = 13
    semantic[31][32] = 2
    for x, y in ((33, 29), (34, 29)):
        semantic[x][y] = 6
    text = prompts.describe(semantic, (32, 32), (0, -1), {"health": 6, "food": 5, "drink": 4, "energy": 6,
                                                          "sapling": 3, "wood": 0}, False, False, "move_up")
    assert text == ("You took action move_north.\n\nYou see:\n- grass 1 steps to your west\n"
                    "- tree 4 steps to your north-east\n\nYou face grass at your front.\n\nYour status:\n"
                    "- health: 6/9\n- food: 5/9\n- drink: 4/9\n- energy: 6/9\n\nYour inventory:\n- sapling: 3")
