"""BabyAI tasks end to end: Predict, Plan, Decompose and LangSuitE verdicts, records, summaries, prompts."""

from __future__ import annotations

import json
import re

from plancheck.domains.babyai.catalog import langsuite_tasks
from plancheck.domains.babyai.check import TaskInstance, check
from plancheck.domains.babyai.extract import load_instance
from plancheck.domains.babyai.langsuite import observation
from plancheck.domains.babyai.levels import reset_env
from plancheck.domains.babyai.prompts import LANGSUITE_EXAMPLE, LANGSUITE_START, langsuite_system
from plancheck.domains.babyai.records import read_answers
from plancheck.domains.babyai.references import certified_optimum, expert
from plancheck.domains.babyai.report import summarize
from plancheck.domains.babyai.rules import Action, BabyAIRules
from plancheck.domains.babyai.subgoals import decompose
from plancheck.domains.babyai.tasks import Task
from plancheck.domains.babyai.world import WORLD
from plancheck.verifier.verdict import Semantics
from plancheck.world import BrokenRecord, Record

ROOM = "CustomBabyAI-GoToRedBall-Small-4Dists-v0"


def task(env_id: str, seed: int, kind: Task, **extra) -> TaskInstance:
    return TaskInstance(load_instance(env_id, seed), kind, **extra)


def test_predict_exact_and_manhattan():
    item = task("BabyAI-GoToLocal-v0", 2, Task.PREDICT, actions=(Action.right, Action.forward, Action.forward,
                                                                 Action.forward, Action.right, Action.forward))
    right = check(item, "The agent's final state is: ((5, 5), 2)")
    assert right.goal_reached and right.scores == {"exact": 1.0, "manhattan": 0.0}
    wrong = check(item, "... The agent's final state is: ((3, 4), 2)")
    assert not wrong.goal_reached and wrong.scores["manhattan"] == 3.0
    assert "((5, 5), 2)" in wrong.notes[-1]
    assert not check(item, "I think (5, 5).").parsed


def test_predict_sample_records_exact_and_manhattan(tmp_path, shared_data):
    """Each published Predict record answered with its target state, and with the cell moved by (1, -2)."""
    lines = []
    for line in (shared_data / "babybench" / "regenerated_predict_sample.jsonl").read_text().splitlines():
        record = json.loads(line)
        x, y, d = (int(v) for v in re.findall(r"\d+", record["target_state"]))
        for guess in (record["target_state"], f"(({x + 1}, {y - 2}), {d})", f"(({x}, {y}), {(d + 1) % 4})"):
            lines.append(json.dumps({**record, "response": f"The agent's final state is: {guess}"}))
    (tmp_path / "predict.jsonl").write_text("\n".join(lines))
    verdicts = [WORLD.check(WORLD.resolve(r, shared_data), r.text) for r in read_answers(tmp_path / "predict.jsonl")]
    assert len(verdicts) == 18
    assert [v.scores["exact"] for v in verdicts] == [1.0, 0.0, 0.0] * 6
    assert [v.scores["manhattan"] for v in verdicts] == [0.0, 3.0, 0.0] * 6


def test_plan_success_efficiency_unknown_tokens_and_plain_word_failures():
    item = task(ROOM, 1, Task.PLAN)
    best = check(item, "The LLM's action sequence is: left, forward, forward, left, forward")
    assert best.goal_reached and best.goal_step == 5 and best.scores["efficiency"] == 1.0
    assert best.metrics["optimal_length"] == 5 and best.valid
    detour = check(item, "The LLM's action sequence is: left, forward, forward, forward, jump, left, forward")
    assert detour.goal_reached and detour.scores["efficiency"] == 5 / 6
    assert [s.text for s in detour.spans] == ["jump"] and len(detour.actions) == 6  # skipped: a span, not an action
    assert not detour.valid and str(detour.failure) == \
        "step 4: forward from (1, 4) facing west is blocked by a wall at (0, 4)"
    assert detour.passed(Semantics.BENCHMARK) and not detour.passed(Semantics.STRICT)
    as_noop = check(item, "The LLM's action sequence is: left, jump, forward, forward, left, forward",
                    unknown="noop")
    assert as_noop.goal_step == 6 and as_noop.metrics["answer_length"] == 6
    lost = check(item, "The LLM's action sequence is: right, right")
    assert not lost.goal_reached and lost.scores == {"success": 0.0, "efficiency_vs_bot": 0.0, "efficiency": 0.0}
    assert not check(item, "left, forward").parsed


def test_plan_as_a_list_of_action_names_reports_its_unknown_names():
    """A JSON list answer (an answer file's ``"response": [...]``) is read like the text: names are
    matched after strip + lower-case and an unknown name is a span, never dropped silently."""
    item = task(ROOM, 1, Task.PLAN)
    listed = check(item, ["left", "jump", " Forward ", "forward", "left", "forward", ""])
    assert listed.goal_reached and listed.form == "action list" and len(listed.actions) == 5
    assert [(s.kind.value, s.text) for s in listed.spans] == [("unknown action", "jump")]
    assert check(item, ["left", "jump", "forward", "forward", "left", "forward"], unknown="noop").goal_step == 6


def test_an_unproven_optimum_is_left_out_with_its_lower_bound():
    """BossLevel 31: the optimum takes seconds to prove (docs/babyai.md); checking never hangs."""
    env_id, seed = "BabyAI-BossLevel-v0", 31
    bot = expert(env_id, seed)
    answer = "The LLM's action sequence is: " + ", ".join(str(a) for a in bot.actions)
    verdict = check(task(env_id, seed, Task.PLAN), answer, optimal_timeout=0.5)
    assert verdict.goal_reached and verdict.scores["efficiency_vs_bot"] == 1.0 and "efficiency" not in verdict.scores
    assert verdict.metrics["optimal_length"] is None and 60 < verdict.metrics["optimal_at_least"] <= len(bot.actions)
    assert "the optimum was not proven within 0.5 s" in verdict.notes[-1]
    decomposed = check(task(env_id, seed, Task.DECOMPOSE), "<START>\n(PickupSubgoal)\n<END>", optimal_timeout=0.5)
    assert decomposed.metrics["expert_help_from"] == "bot's list (optimum not proven)"
    assert decomposed.metrics["expert_help"] > 0 and decomposed.scores["CR"] == 0.0


def test_the_optima_proven_offline_are_used_at_once():
    """BossLevel 70: its optimum (146, benchmarks/babyai_boss70_bound.py) is shipped, not searched."""
    env_id, seed = "BabyAI-BossLevel-v0", 70
    bot = expert(env_id, seed)
    answer = "The LLM's action sequence is: " + ", ".join(str(a) for a in bot.actions)
    verdict = check(task(env_id, seed, Task.PLAN), answer, optimal_timeout=0.5)
    assert verdict.metrics["optimal_length"] == 146 and verdict.scores["efficiency"] == 146 / len(bot.actions)
    decomposed = check(task(env_id, seed, Task.DECOMPOSE), "<START>\n(PickupSubgoal)\n<END>", optimal_timeout=0.5)
    assert decomposed.metrics["expert_help_from"] == "expert list"


def test_decompose_expert_list_needs_no_help_and_missing_subgoals_cost_help():
    env_id, seed = "BabyAI-BossLevel-v0", 1
    instance = load_instance(env_id, seed)
    plan = certified_optimum(env_id, seed).plan
    expert = decompose(BabyAIRules(instance), instance.start, plan)
    block = "<START>\n" + "\n".join(map(str, expert)) + "\n<END>"
    verdict = check(task(env_id, seed, Task.DECOMPOSE), block)
    assert verdict.scores == {"CR": 1.0, "PR": 1.0, "ACI": 1.0} and verdict.metrics["help"] == 0
    assert verdict.metrics["expert_help"] == len(expert)
    first_open = next(i for i, s in enumerate(expert) if s.kind == "OpenSubgoal")
    skipped = expert[:first_open - 1] + expert[first_open + 1:]  # drop the GoNextTo to a door and its Open
    helped = check(task(env_id, seed, Task.DECOMPOSE, expert_help=6),
                   "<START>\n" + "\n".join(map(str, skipped)) + "\n<END>")
    assert helped.scores["CR"] == 1.0 and helped.scores["PR"] == 0.0 and helped.metrics["help"] >= 1
    assert helped.scores["ACI"] == max(0.0, (6 - helped.metrics["help"]) / 6)
    short = check(task(env_id, seed, Task.DECOMPOSE), "<START>\n" + str(expert[0]) + "\n<END>")
    assert short.scores == {"CR": 0.0, "PR": 0.0, "ACI": 0.0}


def test_decompose_sample_records_scored_against_their_published_help_counts(tmp_path, shared_data):
    """The 6 published Decompose records, answered with the expert list and with one subgoal left out:
    ACI is normalised by each record's own help_count; the helper's help is counted."""
    lines, published = [], []
    for line in (shared_data / "babybench" / "regenerated_decompose_sample.jsonl").read_text().splitlines():
        record = json.loads(line)
        instance = load_instance(record["env_name"], record["seed"])
        expert = [str(s) for s in decompose(BabyAIRules(instance), instance.start,
                                            certified_optimum(record["env_name"], record["seed"]).plan)]
        published.append(record["help_count"])
        for left_out in [None] + list(range(len(expert))):
            chosen = [s for i, s in enumerate(expert) if i != left_out]
            lines.append(json.dumps({**record, "response": "<START>\n" + "\n".join(chosen) + "\n<END>",
                                     "left_out": left_out}))
    answers = tmp_path / "decompose.jsonl"
    answers.write_text("\n".join(lines))
    helped = failed = 0
    for record, line in zip(read_answers(answers), lines):
        verdict = WORLD.check(WORLD.resolve(record, shared_data), record.text)
        expected_e = json.loads(line)["help_count"]
        assert verdict.metrics["expert_help"] == expected_e and verdict.metrics["expert_help_from"] == "record"
        help_ = verdict.metrics["help"]
        if json.loads(line)["left_out"] is None:
            assert verdict.scores == {"CR": 1.0, "PR": 1.0, "ACI": 1.0} and help_ == 0
        elif verdict.goal_reached:  # the helper filled the gap, or the subgoal was not needed after all
            helped += help_ > 0
            assert verdict.scores == {"CR": 1.0, "PR": float(help_ == 0),
                                      "ACI": max(0.0, (expected_e - help_) / expected_e)}
        else:  # the helper never adds the mission's own last subgoal
            failed += 1
            assert verdict.scores == {"CR": 0.0, "PR": 0.0, "ACI": 0.0}
    assert published == [1, 1, 4, 4, 6, 6] and helped >= 3 and failed >= 10
    summary = summarize([(r, WORLD.check(WORLD.resolve(r, shared_data), r.text)) for r in read_answers(answers)],
                        "decompose")
    rows = {(task_, env, metric): value for _, task_, env, _, _, metric, value in summary.rows}
    # GoToLocal: each expert list is one GoNextTo; without it the helper does nothing
    assert rows[("decompose", "BabyAI-GoToLocal-v0", "CR")] == rows[("decompose", "BabyAI-GoToLocal-v0", "ACI")] == 0.5


def _langsuite_words(instance, plan):
    rules = BabyAIRules(instance)
    words, state = [], instance.start
    for action in plan:
        thing = rules.occupant(state, state.front)
        if action in (Action.pickup, Action.toggle, Action.drop):
            ref = state.carrying if action is Action.drop else thing
            named = instance.doors[-ref - 1] if ref < 0 else instance.things[ref]
            kind = "door" if ref < 0 else named.kind
            words.append(f"Act: {'pick_up' if action is Action.pickup else action.name} [{named.color} {kind}]")
        else:
            words.append({Action.left: "Act: turn_left", Action.right: "Act: turn_right",
                          Action.forward: "Act: move_ahead"}[action])
        outcome = rules.step(state, action)
        state = outcome.state if outcome.ok or outcome.state is not None else state
    return words


def test_langsuite_success_steps_refusals_and_its_toggle_quirk():
    env_id, seed = "BabyAI-PutNextLocal-v0", 1
    instance = load_instance(env_id, seed)
    words = _langsuite_words(instance, certified_optimum(env_id, seed).plan)
    verdict = check(task(env_id, seed, Task.IG), "\n".join(words))
    assert verdict.goal_reached and verdict.metrics["steps"] == len(words) and verdict.scores["success"] == 1.0
    noisy = ["Act: pick_up [purple ball]", "I am thinking"] + words + ["Act: stop [done]"]
    refused = check(task(env_id, seed, Task.IG), noisy)
    assert refused.goal_reached and refused.metrics["steps"] == len(words) + 2 and refused.metrics["refused"] == 2
    opener = load_instance("BabyAI-Open-v0", 1)
    words = _langsuite_words(opener, certified_optimum("BabyAI-Open-v0", 1).plan)
    quirk = check(task("BabyAI-Open-v0", 1, Task.IG), words + ["Act: stop"])
    assert quirk.metrics["mission_done"] and not quirk.goal_reached  # LangSuitE never reports a toggle's success


def test_langsuite_replies_to_its_opening_question_count_towards_its_100_responses():
    """LangSuitE stops after 100 responses, the opening replies included: with one, 99 actions are
    executed; with three (two holding "not"), 97."""
    endless = ["Act: turn_left"] * 120
    one = check(task("BabyAI-GoToLocal-v0", 1, Task.IG), ["YES"] + endless)
    three = check(task("BabyAI-GoToLocal-v0", 1, Task.IG), ["I can not", "do not know", "OK"] + endless)
    bare = check(task("BabyAI-GoToLocal-v0", 1, Task.IG), endless, opening="none")
    assert (one.metrics["steps"], three.metrics["steps"], bare.metrics["steps"]) == (99, 97, 99)
    assert not one.goal_reached and "first 3 responses" in three.notes[0]


def test_langsuite_task_list_optimal_plans_in_its_action_words(shared_data):
    """Every LangSuitE task minigrid has, answered with its optimal plan in LangSuitE's words."""
    tasks, missing = langsuite_tasks(shared_data)
    assert len(tasks) == 45 and len(missing) == 5
    toggled = 0
    for env_id, seed in tasks:
        plan = certified_optimum(env_id, seed).plan
        words = _langsuite_words(load_instance(env_id, seed), plan)
        verdict = check(task(env_id, seed, Task.IG), words + ["Act: stop [done]"])
        assert verdict.metrics["mission_done"] and verdict.metrics["refused"] == 0, (env_id, seed)
        assert verdict.valid  # a closing stop after the success is never sent: no strict failure
        if plan[-1] is Action.toggle:  # LangSuitE misses a toggle's success: the agent has to stop
            toggled += 1
            assert verdict.scores["success"] == 0.0 and verdict.metrics["steps"] == len(words) + 1
        else:
            assert verdict.scores["success"] == 1.0 and verdict.metrics["steps"] == len(words), (env_id, seed)
    assert toggled == 4  # the "open the door" tasks: KeyInBox 4 and 8, UnlockLocalDist 3 and 9


def test_langsuite_prompt_matches_the_published_template(shared_data):
    template = json.loads((shared_data / "langsuite" / "babyai_prompt_template.json").read_text())
    intro = template["intro"]["default"][0]
    assert langsuite_system(7) == intro.format(max_view_steps=7, side_steps=3, example=LANGSUITE_EXAMPLE)
    assert LANGSUITE_EXAMPLE == template["example"]["default"][0]
    assert LANGSUITE_START == template["BabyAIStart"]["default"][0]
    env = reset_env("BabyAI-GoToLocal-v0", 1)
    seen = observation(env)
    assert seen.startswith("You can see") and "Manipulable object: a purple box" not in seen


def test_records_in_every_format_and_broken_lines(tmp_path, shared_data):
    plain = tmp_path / "answers.jsonl"
    plain.write_text("\n".join([
        json.dumps({"instance": "GoToLocalS5N2-5", "task": "ig", "response": ["Act: turn_left", "Act: stop"]}),
        json.dumps({"env_name": ROOM, "seed": 1, "task": "plan", "response": "The LLM's action sequence is: left"}),
        "not json",
        json.dumps({"task": "plan", "response": "x"}),
        json.dumps({"instance": ROOM + "/seed=1", "response": 3}),
        ""]))
    records = list(read_answers(plain))
    assert [type(r).__name__ for r in records] == ["Record", "Record", "BrokenRecord", "BrokenRecord", "BrokenRecord"]
    assert [r.line for r in records] == [1, 2, 3, 4, 5]
    results = [(r, WORLD.check(WORLD.resolve(r, shared_data), r.text if r.text is not None else list(r.actions)))
               for r in records if isinstance(r, Record)]
    assert results[0][1].metrics["steps"] == 2 and not results[1][1].goal_reached
    harness = tmp_path / "results.json"
    harness.write_text(json.dumps([{"env_name": ROOM, "env_seed": 2, "task": "plan",
                                    "all_llm_output": "The LLM's action sequence is: right, forward, right, "
                                                      "forward, forward, forward"}]))
    (record,) = read_answers(harness)
    verdict = WORLD.check(WORLD.resolve(record, shared_data), record.text)
    assert verdict.goal_reached and verdict.scores["efficiency_vs_bot"] == 1.0
    odd = tmp_path / "odd.jsonl"  # a byte-order mark, CRLF, a raw U+2028 inside a string
    odd.write_bytes(b"\xef\xbb\xbf" + json.dumps({"instance": ROOM + "/seed=1", "response": "left\u2028"},
                                                 ensure_ascii=False).encode() + b"\r\n")
    (record,) = read_answers(odd)
    assert isinstance(record, Record) and record.line == 1 and record.text == "left\u2028"
    decompose_sample = shared_data / "babybench" / "regenerated_decompose_sample.jsonl"
    assert all(isinstance(r, BrokenRecord) for r in read_answers(decompose_sample))


def test_published_samples_score_perfectly_and_summarize(shared_data):
    results = []
    for name in ("regenerated_predict_sample.jsonl", "regenerated_plan_sample.jsonl"):
        for record in read_answers(shared_data / "babybench" / name):
            item = WORLD.resolve(record, shared_data)
            answer = record.text if record.text is not None else list(record.actions)
            results.append((record, WORLD.check(item, answer)))
    assert len(results) == 10 and all(v.goal_reached for _, v in results)
    summary = summarize(results, "plan")
    rows = {(task_, env, metric): value for _, task_, env, _, _, metric, value in summary.rows}
    assert rows[("predict", "BabyAI-BossLevel-v0", "accuracy")] == 1.0
    assert rows[("plan", ROOM, "success rate (CR)")] == 1.0
    assert rows[("plan", ROOM, "efficiency vs optimum")] == 1.0


def test_a_record_without_its_own_answer_says_so_and_a_null_answer_is_broken(shared_data, tmp_path):
    from plancheck.verifier.batch import evaluate_records

    lines = (shared_data / "babybench" / "regenerated_plan_sample.jsonl").read_text().splitlines()
    null = {**json.loads(lines[0]), "response": None}
    answered = {**json.loads(lines[1]), "response": "The LLM's action sequence is: left, left", "model": "m2"}
    unanswered = {**json.loads(lines[2]), "model": "m2"}
    path = tmp_path / "answers.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in (null, answered, unanswered)) + "\n")
    items = list(evaluate_records(WORLD, read_answers(path), shared_data, no_optimal=True))
    assert items[0].verdict is None and items[0].error == "the answer ('response') is null"
    assert not items[1].verdict.goal_reached and not items[1].verdict.notes
    assert items[2].verdict.goal_reached
    assert items[2].verdict.notes[0].startswith("no answer in the record") and "expert_action_sequence" in \
        items[2].verdict.notes[0]
    summary = summarize([(item.record, item.verdict) for item in items[1:]], "plan")
    rates = {(model, env): value for model, _, env, _, _, metric, value in summary.rows
             if metric == "success rate (CR)"}
    assert set(model for model, _ in rates) == {"m2"} and sorted(rates.values()) == [0.0, 1.0]
