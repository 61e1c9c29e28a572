"""plancheck's Household re-creation against LangSuitE dev's own code, conversation for conversation.

The fixture ``data/dev_household_traces.json.gz`` was recorded by running LangSuitE's dev branch
(``AlfredTask.run`` with ``AlfredAgentReact``, its shapely geometry, both template files) on 40 tasks at
both levels with scripted replies (opening answers and refusals, moves, turns, pick-ups, puts, heats,
cools, cleans, opens, closes, toggles, slices, drops, gotos, unknown names, imagined feedback,
several actions, thoughts, stop) and on 12 tasks with plancheck's certified optimum: every message
it logged (text or hash), a hash of each chat it sent, its goal score, success and timesteps, and
the exception when its run raised. (The two-way containment pairs LangSuitE cuts are ordered by
Python's string hashing, which changes per process; the recording sorted them, as plancheck does.)
"""

from __future__ import annotations

import gzip
import hashlib
import json
from pathlib import Path

import pytest

from plancheck.domains.langsuite.household.instance import task
from plancheck.domains.langsuite.household.rules import Task, step

TRACES = json.loads(gzip.decompress((Path(__file__).parent.parent / "data" / "dev_household_traces.json.gz")
                                    .read_bytes()))["traces"]


def _hash(obj) -> str:
    return hashlib.sha256(json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode()).hexdigest()[:16]


def test_the_fixture_covers_every_action_crashes_and_successes():
    logs = [m["content"] for t in TRACES[:16] for m in t["log"]]
    for phrase in ("Moved forward", "Turn left", "You picked", "You put", "You opened", "You closed", "toggled",
                   "You sliced", "You dropped", "You are at", "is not a heater", "already sliced", "OK.",
                   "You stopped the game.", "Do not imagine feedback"):
        assert any(phrase in m for m in logs), phrase
    errors = {t["error"].split(":")[0] for t in TRACES if t["error"]}
    assert "AttributeError" in errors
    assert sum(t["success"] for t in TRACES) >= 20


@pytest.mark.parametrize("trace", TRACES, ids=lambda t: f"{t['task']}-{t['level']}-{len(t['replies'])}")
def test_plancheck_runs_the_conversation_as_langsuite_does(trace):
    t = Task(task(trace["task"]), trace["level"])
    turn = t.initial()
    outs, sent = [], []
    for reply in trace["replies"] + ["Act: stop"] * 70:  # LangSuitE's fetch answered that when they ran out
        sent.append(turn.messages())
        out = step(t, turn, reply)
        turn = out.turn
        outs.append(out)
        if out.done:
            break
    system = [t.texts.intro()] + [o.feedback for o in outs]
    if turn.crashed is not None and "no template" not in turn.crashed:
        system = system[:-1]  # LangSuitE raised inside the action: its feedback was never logged
    if turn.crashed is None:
        system += [str(turn.goal.score), t.texts.verdict(turn.goal.success), "DONE!"]
    logged = [m for m in trace["log"] if (m[0] if isinstance(m, list) else m["role"]) == "system"]
    if isinstance(logged[0], list):
        assert [m[1] for m in logged] == [_hash(s) for s in system]
    else:
        assert [m["content"] for m in logged] == system
    assert [_hash([{"role": m["role"], "content": m["content"]} for m in s]) for s in sent] == trace["sent"]
    assert (turn.crashed is None) == (trace["error"] is None)
    if trace["error"] is None:
        assert (turn.goal.success, turn.goal.score, turn.timesteps) == (trace["success"], trace["gc"],
                                                                         trace["timesteps"])
