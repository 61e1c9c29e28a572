"""LangSuitE's BabyAI episodes on the world they were played on (issue 21, item 7).

LangSuitE seeds its world (``reset(seed=s)``) and then, starting the episode, resets it once more without
the seed, so its episodes are played on the next world of the seeded random stream. The logs below are
made here as LangSuitE makes them: its level class reset that way, its observation text of the live
environment, its feedback strings.
"""

from __future__ import annotations

import json

import pytest

from plancheck.cli import main
from plancheck.domains.babyai.catalog import langsuite_tasks
from plancheck.domains.babyai.describe import structured
from plancheck.domains.babyai.episodes import read_episode
from plancheck.domains.babyai.extract import load_instance
from plancheck.domains.babyai.langsuite import observation
from plancheck.domains.babyai.levels import build_env, with_resets
from plancheck.domains.babyai.world import WORLD

TASK, LEVEL, SEED = "GoToLocalS8N7-5", "BabyAI-GoToLocalS8N7-v0", 5
WORDS = {"turn_left": 0, "turn_right": 1, "move_ahead": 2}
DONE = {"turn_left": "Turned left by '90' degrees.", "turn_right": "Turned right by '90' degrees.",
        "move_ahead": "Moved forward by 1 step."}


def langsuite_log(words: list[str], reseed: bool = True) -> str:
    """The console log LangSuitE writes for these replies (turns and free moves only)."""
    env = build_env(LEVEL)
    env.reset(seed=SEED)
    if reseed:
        env.reset()  # BabyAITask.start: env.reset() without the seed
    messages = [{"role": "system", "content": "You are an autonomous intelligent agent ... Respond YES if you can "
                                              "play this game."},
                {"action": "chat", "content": "YES", "name": "BabyAI", "role": "assistant"},
                {"role": "system", "content": f"Task: {env.unwrapped.mission}\nObs: {observation(env)}\n"
                                              f"What is your next step? "}]
    for word in words:
        messages.append({"action": "chat", "content": f"Thought: go.\nAct: {word}", "name": "BabyAI",
                         "role": "assistant"})
        env.step(WORDS[word])
        messages.append({"role": "system", "content": f"Feedback: Action succeeded. {DONE[word]}\nObs: "
                                                      f"{observation(env)}"})
    messages += [{"role": "system", "content": "[FAIL] You failed to complete the task."},
                 {"role": "system", "content": "DONE!"}]
    return "\n".join(json.dumps(m, sort_keys=True) for m in messages) + "\n"


WALK = ["turn_left", "turn_right", "turn_right", "turn_left"]  # read and replayed, but it reaches no goal: exit 1


def test_every_langsuite_task_is_played_on_another_world_than_its_seeded_one(shared_data):
    found, _ = langsuite_tasks(shared_data, "as-built")
    assert len(found) == 45
    for env_id, seed in found:
        seeded, played = load_instance(env_id, seed), load_instance(with_resets(env_id, 1), seed)
        assert structured(seeded) != structured(played), (env_id, seed)


def test_a_json_list_of_replies_is_one_step_each(tmp_path, capsys):
    replies = ["YES", "Thought: the key is ahead.\nAct: turn_left", "Act: move_ahead"]
    (tmp_path / "replies.json").write_text(json.dumps(replies))
    (tmp_path / "replies.txt").write_text("YES\nAct: turn_left\nAct: move_ahead\n")
    verdicts = []
    for name in ("replies.json", "replies.txt"):
        assert main(["check", "babyai", TASK, str(tmp_path / name), "--task", "ig", "--json"]) == 1
        verdicts.append(json.loads(capsys.readouterr().out))
    assert verdicts[0]["actions"] == verdicts[1]["actions"] == ["turn_left", "move_ahead"]
    assert "read from a JSON list of replies" in verdicts[0]["notes"]


def test_a_log_played_on_the_reset_world_is_checked_there(tmp_path, capsys):
    log = tmp_path / f"{TASK}-0.jl"
    log.write_text(langsuite_log(WALK))
    assert main(["check", "babyai", TASK, str(log), "--task", "ig"]) == 2  # the seeded world: contradicted
    err = capsys.readouterr().err
    assert "the episode contradicts the world" in err and "pass --langsuite-world played" in err
    for world in ("played", "auto"):
        assert main(["check", "babyai", TASK, str(log), "--task", "ig", "--json", "--langsuite-world", world]) == 1
        verdict = json.loads(capsys.readouterr().out)
        assert verdict["instance"] == f"{LEVEL}@reset1/seed={SEED}" and verdict["actions"] == WALK
        assert any("agrees with the world LangSuitE plays" in note for note in verdict["notes"])
    seeded = tmp_path / f"{TASK}-1.jl"
    seeded.write_text(langsuite_log(WALK, reseed=False))  # had LangSuitE kept the seed
    assert main(["check", "babyai", TASK, str(seeded), "--task", "ig", "--json", "--langsuite-world", "auto"]) == 1
    assert json.loads(capsys.readouterr().out)["instance"] == f"{LEVEL}/seed={SEED}"


def test_a_contradicting_view_is_reported_with_the_reply(tmp_path, capsys):
    messages = [json.loads(line) for line in langsuite_log(WALK).splitlines()]
    messages[6]["content"] = ("Feedback: Action succeeded. Turned right by '90' degrees.\n"
                              "Obs: You can see nothing ahead.")
    log = tmp_path / f"{TASK}-0.jl"
    log.write_text("\n".join(json.dumps(m) for m in messages))
    assert main(["check", "babyai", TASK, str(log), "--task", "ig", "--langsuite-world", "auto"]) == 2
    err = capsys.readouterr().err
    assert "the view after reply 3: the episode says 'You can see nothing ahead.'" in err
    assert "the seeded world" in err and "the world LangSuitE plays" in err


def test_a_layout_given_with_the_episode_is_the_world(tmp_path, capsys):
    episode = read_episode(langsuite_log(WALK))
    assert main(["instances", "babyai", f"{LEVEL}@reset1/seed={SEED}", "--json"]) == 0
    layout = json.loads(capsys.readouterr().out)
    answer = {"replies": list(episode.replies), "observations": list(episode.observations),
              "mission": episode.mission, "layout": layout}
    (tmp_path / "episode.json").write_text(json.dumps(answer))
    assert main(["check", "babyai", TASK, str(tmp_path / "episode.json"), "--task", "ig", "--json"]) == 1
    verdict = json.loads(capsys.readouterr().out)
    assert any("the layout given with the episode" in note for note in verdict["notes"])
    layout["agent"]["dir"] = (layout["agent"]["dir"] + 2) % 4  # the agent turned around: other views
    (tmp_path / "episode.json").write_text(json.dumps({**answer, "layout": layout}))
    assert main(["check", "babyai", TASK, str(tmp_path / "episode.json"), "--task", "ig"]) == 2
    assert "the layout given with the episode" in capsys.readouterr().err


@pytest.mark.parametrize("limit, steps", [("released", 99), ("dev", 49)])
def test_the_step_limits_of_the_released_code_and_the_dev_branch(limit, steps):
    item = next(WORLD.instances([TASK], None, task="ig"))
    verdict = WORLD.check(item, ["YES"] + ["Act: turn_left"] * 120, step_limit=limit)
    assert verdict.metrics["steps"] == steps and verdict.metrics["step_limit"] == steps + 1
    assert verdict.ignored == 120 - steps


def test_evaluate_reads_langsuite_logs_from_a_folder(tmp_path, capsys):
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / f"{TASK}-0.jl").write_text(langsuite_log(WALK))
    (logs / "notes.jl").write_text("{}")
    assert main(["evaluate", "babyai", str(logs), "--langsuite-world", "auto", "--no-progress",
                 "-o", str(tmp_path / "out.jsonl")]) == 0
    items = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert [i.get("verdict", {}).get("instance") for i in items] == [f"{LEVEL}@reset1/seed={SEED}", None]
    assert "is named <Level>-<seed>-<trial>.jl" in items[1]["error"]


def test_views_from_the_symbolic_state_equal_the_live_environments():
    """What the checks compare episodes with: LangSuitE's text of minigrid's view, built from plancheck's state."""
    import random

    from plancheck.domains.babyai.langsuite import observation_of
    from plancheck.domains.babyai.levels import reset_env
    from plancheck.domains.babyai.rules import Action, BabyAIRules

    rng, compared = random.Random(3), 0
    for env_id in ("BabyAI-GoToLocalS8N7-v0", "BabyAI-KeyInBox-v0", "BabyAI-UnlockPickup-v0", "BabyAI-BossLevel-v0"):
        for seed in range(3):
            instance, env = load_instance(env_id, seed), reset_env(env_id, seed)
            rules, state = BabyAIRules(instance), instance.start
            for _ in range(60):
                assert observation_of(instance, state) == observation(env), (env_id, seed)
                compared += 1
                action = Action(rng.choice([0, 1, 2, 2, 2, 3, 4, 5]))
                _, _, terminated, truncated, _ = env.step(int(action))
                outcome = rules.step(state, action)
                state = outcome.state if outcome.ok or outcome.state is not None else state
                if terminated or truncated:
                    break
    assert compared > 300
