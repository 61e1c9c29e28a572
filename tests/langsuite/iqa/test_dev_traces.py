"""plancheck's IQA re-creation against LangSuitE dev's own code, conversation for conversation.

The fixture ``data/dev_iqa_traces.json.gz`` was recorded by running LangSuitE's dev branch
(``IqaTask.run`` with ``IqaAgent``, its shapely geometry and its configs, the Reflexion memory file
removed) on 50 questions at both levels, the agent placed at plancheck's seeded start, with scripted
replies (opening answers and refusals, moves, turns, opens, gotos, unknown names, thoughts, ``Stop``,
answers in several forms, replies holding "Obs"): every message it logged (text or hash), a hash of
each chat it sent, its verdict and its timestep count.
"""

from __future__ import annotations

import gzip
import hashlib
import json
from pathlib import Path

import pytest

from plancheck.domains.langsuite.iqa.instance import question
from plancheck.domains.langsuite.iqa.rules import Task, step

TRACES = json.loads(gzip.decompress((Path(__file__).parent.parent / "data" / "dev_iqa_traces.json.gz")
                                    .read_bytes()))["traces"]


def _hash(obj) -> str:
    return hashlib.sha256(json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode()).hexdigest()[:16]


def test_the_fixture_covers_every_ending_and_action():
    logs = [m[1] if isinstance(m, list) else m["content"] for t in TRACES[:20] for m in t["log"]]
    for phrase in ("Moved forward by '0.25'", "Turn left by '90'", "In/on it you see", "You are at",
                   "is not in view space", "Action Pass not found", "Your are right!", "Your are wrong!"):
        assert any(phrase in m for m in logs), phrase
    assert {t["timesteps"] for t in TRACES} >= {1, 30}
    assert any(t["success"] for t in TRACES) and not all(t["success"] for t in TRACES)


@pytest.mark.parametrize("trace", TRACES, ids=lambda t: f"{t['question']}-{t['level']}-{t['seed']}")
def test_plancheck_runs_the_conversation_as_langsuite_does(trace):
    task = Task(question(trace["question"]), trace["level"])
    turn = task.initial(trace["seed"])
    outcomes, sent = [], []
    for reply in trace["replies"] + ["Thought: nothing"] * 40:  # LangSuitE's fetch answered that when they ran out
        sent.append(turn.messages())
        out = step(task, turn, reply)
        turn = out.turn
        outcomes.append(out)
        if out.done:
            break
    system = [task.texts.intro()] + [o.feedback for o in outcomes if not o.done]
    phantom = turn.timesteps > len(outcomes)  # an empty feedback ended it one timestep later
    system += [""] if phantom else []
    system += [turn.prompt] + (["DONE!"] if trace["error"] is None else [])
    logged = [m for m in trace["log"] if (m[0] if isinstance(m, list) else m["role"]) == "system"]
    if isinstance(logged[0], list):
        assert [m[1] for m in logged] == [_hash(s) for s in system]
    else:
        assert [m["content"] for m in logged] == system
    assert [_hash([{"role": m["role"], "content": m["content"]} for m in s]) for s in sent] == trace["sent"]
    assert turn.right == trace["success"]
    assert turn.timesteps == trace["timesteps"]
    assert (turn.crashed is None) == (trace["error"] is None)
