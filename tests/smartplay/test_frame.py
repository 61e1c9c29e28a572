"""The SmartPlay frame: history, prompt, readings, normalisation, the paper's tables."""

from __future__ import annotations

import pytest

from plancheck.domains.smartplay import _frame

ACTIONS = ["Rock", "Paper", "Scissor"]


def test_the_history_numbers_the_shown_observations_from_the_reset():
    observations = [f"obs {i}" for i in range(8)]
    assert _frame.history(observations[:0], 5) == ""
    shown = _frame.history(observations[:7], 5)
    assert shown.startswith("Most recent 5 steps of the player's in-game observation:\n\nPlayer Observation Step 2:\n")
    assert shown.endswith("Player Observation Step 6:\nobs 6")
    assert _frame.history(["only"], 5) == \
        "Most recent 1 steps of the player's in-game observation:\n\nPlayer Observation Step 0:\nonly"


def test_the_prompt_has_smartplays_messages_in_order():
    first = _frame.step_messages("MANUAL", ["a", "b"], 50)
    assert [m["role"] for m in first] == ["system"] * 4 + ["user"]
    assert first[0]["content"] == "You\u2019re a player trying to play the game."
    assert first[3]["content"] == "current step observation: b"
    assert first[-1]["content"] == "What is the best action to take? Let's think step by step, "
    second = _frame.step_messages("", ["a"], 50, ["I think Rock."])
    assert [m["role"] for m in second] == ["system", "system", "user", "assistant", "user"]  # no manual, no history
    assert second[-2]["content"] == "I think Rock."
    with pytest.raises(ValueError):
        _frame.step_messages("", ["a"], 50, ["x", "y"])


@pytest.mark.parametrize(("reply", "smartplay", "strict"), [
    ("Paper", ("clear", "Paper"), ("clear", "Paper")),
    ("I choose scissors.", ("clear", "Scissor"), ("clear", "Scissor")),
    ("Paper beats rock", ("ambiguous", "Paper"), ("ambiguous", None)),
    ("I'm not sure", ("none", "Rock"), ("none", None)),
    ("", ("none", "Rock"), ("none", None)),
])
def test_the_readings(reply, smartplay, strict):
    read = _frame.READINGS["smartplay"].read(reply, ACTIONS)
    assert (read.status, read.action) == smartplay
    assert bool(read.notes) == (read.status != "clear")
    read = _frame.READINGS["strict"].read(reply, ACTIONS)
    assert (read.status, read.action) == strict


def test_an_action_inside_a_longer_named_action_is_not_another_one():
    actions = ["Do", "Do nothing", "Move North"]
    assert _frame.READINGS["strict"].read("Do nothing.", actions).action == "Do nothing"
    assert _frame.READINGS["smartplay"].read("Do nothing.", actions).action == "Do"  # SmartPlay's own pick
    read = _frame.READINGS["smartplay"].read("Do nothing.", actions)
    assert (read.status, read.rule_status, read.guessed) == ("ambiguous", "clear", True)  # the reply means Do nothing
    assert read.notes[-1] == "the reply's committed answer is Do nothing (the only action named), not Do"
    assert _frame.READINGS["strict"].read("I don't know: Move North", actions).status == "ambiguous"  # don't = do


def test_the_fallback_is_reported():
    read = _frame.READINGS["smartplay"].read("Pull slot machine 2", ["Pull slot machine 1.", "Pull slot machine 2."])
    assert read.action == "Pull slot machine 1."
    assert read.notes == ("no action text in the reply; SmartPlay takes action 0 (Pull slot machine 1.)",
                          "the reply's committed answer is Pull slot machine 2. (the only action named), not "
                          "Pull slot machine 1.")
    assert (read.status, read.rule_status, read.guessed) == ("ambiguous", "none", True)
    read = _frame.READINGS["smartplay"].read("I'm not sure", ["Pull slot machine 1.", "Pull slot machine 2."])
    assert (read.status, read.action, read.guessed) == ("none", "Pull slot machine 1.", True)


def test_the_committed_reading_is_selectable():
    read = _frame.READINGS["committed"].read("Paper beats rock.\nFinal answer: Rock", ACTIONS)
    assert (read.status, read.action, read.notes) == ("clear", "Rock", ())
    assert _frame.READINGS["smartplay"].read("Paper beats rock.\nFinal answer: Rock", ACTIONS).action == "Paper"
    read = _frame.READINGS["committed"].read("no idea", ACTIONS)
    assert (read.status, read.action) == ("none", None)


def test_the_code_normalisation_reproduces_table_2_and_the_printed_formula_does_not():
    envs = list(_frame.RECORDED)
    raw = _frame.TABLE4["GPT-4-0613"]
    assert [round(_frame.normalize(env, r), 2) for env, r in zip(envs, raw)] == \
        [1.00, 0.91, 0.83, 0.90, 0.93, 0.26, 0.61]  # Table 2, GPT-4-0613
    raw = _frame.TABLE4["GPT-4-0314"]
    assert round(_frame.normalize("RockPaperScissorBasic", raw[1]), 2) == 0.98  # issue #29
    assert round(_frame.normalize("Hanoi3Disk", raw[2]), 2) == 0.90
    printed = [(r.human - x) / (r.human - r.minimum) for r, x in zip(_frame.RECORDED.values(), _frame.TABLE4[
        "GPT-4-0613"])]  # Appendix D.2 as printed
    assert round(printed[0], 2) != 1.00
    assert [_frame.normalize(env, r) for env, r in zip(envs, _frame.TABLE4["Human"])] == [1.0] * 7


def test_recorded_settings_and_paper_rows():
    assert (_frame.RECORDED["BanditTwoArmedHighLowFixed"].steps, _frame.RECORDED["RockPaperScissorBasic"].human) == \
        (50, 43)
    assert _frame.paper_raw("vicuna-13B", "RockPaperScissorBasic") == 7.1
    with pytest.raises(ValueError):
        _frame.paper_raw("gpt-5", "Crafter")
    with pytest.raises(ValueError):
        _frame.normalize("MessengerL3", 1)


def test_the_history_window_matches_smartplays_recorded_hanoi_rollouts(shared_data):
    """SmartPlay's own Hanoi runs (history of the last 5, past the window after step 5): the frame's history and
    Hanoi's (built on the frame) equal them, and so do the opening prompts."""
    import json

    from plancheck.domains.smartplay.hanoi import prompts as text

    rollouts = json.loads((shared_data / "smartplay" / "hanoi_optimal_rollouts.json").read_text(encoding="utf-8"))
    for rollout in rollouts.values():
        observations = [rollout["reset"]["obs"]] + [step["obs"] for step in rollout["steps"]]
        assert len(observations) > 6
        for k, step in enumerate(rollout["steps"], start=1):
            assert _frame.history(observations[:k], 5) == step["history"] == text.history(observations, k)
        disks = rollout["num_disks"]
        assert _frame.step_messages(text.manual(disks), observations[:1], 5) == \
            [{"role": r, "content": c} for r, c in text.opening_messages(disks, _frame.QUESTIONS[0])]


def test_settings_are_checked_and_defaults_said():
    from plancheck.domains.smartplay.bandits.world import WORLD
    from plancheck.errors import BadInputError

    episodes = WORLD.episodes
    assert episodes.settings({"reading": "strict", "history": 5}) == (
        {"reading": "strict", "history": 5, "steps": 50}, ("setting(s) not logged, SmartPlay's used: steps=50",))
    for bad in ({"reading": "loose"}, {"history": 0}, {"steps": True}, {"speed": 1}):
        with pytest.raises(BadInputError):
            episodes.settings(bad)
