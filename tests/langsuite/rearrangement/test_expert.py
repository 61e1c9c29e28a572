"""LangSuitE's expert re-created: the same actions and end scores as its dev-branch code.

``data/dev_rearrangement_expert.json.gz`` holds what ``RearrangeExpertAgent`` did on 120 episodes:
its actions after the opening, the timesteps, whether it raised, and misplaced / fixed / success.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from plancheck.domains.langsuite.rearrangement.expert import order, plan_nodes, run_expert
from plancheck.domains.langsuite.rearrangement.instance import episode
from plancheck.domains.langsuite.rearrangement.rules import Task

RUNS = json.loads(gzip.decompress((Path(__file__).parent.parent / "data" / "dev_rearrangement_expert.json.gz")
                                  .read_bytes()))["runs"]


def _name(act) -> str:
    return act if isinstance(act, str) else act.name if act.object_id is None else f"{act.name}#{act.object_id}"


def _check(run):
    task = Task(episode(run["episode"]))
    ours = run_expert(task)
    assert (ours.crashed is not None) == (run["crashed"] is not None)
    assert [_name(a) for a in ours.actions] == run["actions"]
    if run["crashed"] is None:
        assert ours.timesteps == run["timesteps"]
        score = task.score(ours.final.scene)
        assert (score.misplaced, score.fixed, score.success) == (run["misplaced"], run["fixed"], run["success"])


@pytest.mark.parametrize("run", RUNS[:12], ids=lambda r: r["episode"])
def test_expert_as_langsuite(run):
    _check(run)


@pytest.mark.slow
@pytest.mark.parametrize("run", RUNS[12:], ids=lambda r: r["episode"])
def test_expert_as_langsuite_all(run):
    _check(run)


def test_the_fixture_has_crashes_successes_and_failures():
    assert sum(r["crashed"] is not None for r in RUNS) >= 10
    assert sum(r["success"] for r in RUNS) >= 2
    assert sum(not r["success"] and r["crashed"] is None for r in RUNS) >= 50


def test_plan_order_is_shortest_straight_line_tour():
    ep = episode("FloorPlan21_3")
    nodes = plan_nodes(ep)
    picked = order(ep)
    assert sorted(n.name for n in picked) == sorted(n.name for n in nodes)
    kinds = [n.action for n in picked]
    assert kinds == ["PickUp", "Drop"] * (len(kinds) // 2)
