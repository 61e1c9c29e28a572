"""MessengerL1 as PDDL: the planners' plans are certified, and the PDDL model and the native rules
agree step by step on random action sequences."""

from __future__ import annotations

import importlib.util
import random

import pytest

from plancheck.domains.smartplay.messenger import pddl
from plancheck.domains.smartplay.messenger.instance import start
from plancheck.domains.smartplay.messenger.rules import Action, L1State, l1_step
from plancheck.domains.smartplay.messenger.solve import bfs_optimum, certify, solve, two_moves
from plancheck.errors import PDDLError
from plancheck.translators.pddl_reader import read_domain, read_problem
from plancheck.verifier.pddl_exec import PddlRules

HAVE_FD = importlib.util.find_spec("up_fast_downward") is not None
HAVE_PYPERPLAN = importlib.util.find_spec("pyperplan") is not None


def rules_of(episode) -> PddlRules:
    files = pddl.export(episode)
    domain = read_domain(files[pddl.DOMAIN_FILE])
    problem = read_problem(next(text for name, text in files.items() if name != pddl.DOMAIN_FILE), domain)
    return PddlRules(domain, problem)


def _applicable(task: PddlRules, state, action: Action) -> list[tuple[str, ...]]:
    """The ground PDDL actions for a SmartPlay action in ``state``, found from the PDDL state alone:
    every action schema with the direction, from the cell and at the time the state says."""
    here = next(atom[1] for atom in state if atom[0] == "at")
    now = next(atom[1] for atom in state if atom[0] == "now")
    later = f"t{int(now[1:]) + 1}"
    if action is Action.STAY:
        candidates = [("wait", now, later)]
    else:
        direction = pddl.DIRECTIONS[action]
        cells = sorted(name for name, kind in task.task.problem.objects.items() if kind == "cell")
        candidates = [("bump", direction, here, now, later)] + [
            (name, direction, here, cell, now, later) for name in task.task.domain.actions
            if name not in ("bump", "wait") for cell in cells]
    return [a for a in candidates if task.step(state, a).ok]


def test_pddl_and_native_rules_agree_on_random_actions():
    rng = random.Random(5)
    for seed in range(20):
        episode = start(1, seed)
        task = rules_of(episode)
        state, native = task.initial_state(), L1State(has_message=episode.layout.has_message)
        for _ in range(4):
            action = Action(rng.randrange(5))
            fitting = _applicable(task, state, action)
            assert len(fitting) == 1, (seed, action, fitting)
            state = task.step(state, fitting[0]).state
            native = l1_step(episode.layout, native, action)
            assert (("won",) in state, ("lost",) in state) == (native.reward == 1, native.reward == -1)
            assert ("at", pddl.cell_name(native.avatar)) in state
            if native.ended:
                assert all(not _applicable(task, state, a) for a in Action)  # nothing happens after the end
                break


@pytest.mark.parametrize("seed", range(12))
def test_the_two_move_plan_is_certified_and_breadth_first_agrees(seed):
    episode = start(1, seed)
    assert certify(episode, two_moves(episode)) is None
    assert bfs_optimum(episode) == 2
    result = solve(episode, "bfs")
    assert result.status.value == "solved" and result.proven_optimal and len(result.plan) == 2


def test_certify_names_what_is_wrong():
    episode = start(1, 0)  # the message is north
    assert "not a win" in certify(episode, [Action.SOUTH, Action.SOUTH])
    assert "SmartPlay runs 4 steps" in certify(episode, [Action.STAY] * 5)


@pytest.mark.skipif(not HAVE_FD, reason="Fast Downward (the planners extra) is not installed")
@pytest.mark.parametrize("seed", [0, 1, 2, 7])
def test_fast_downward_solves_and_the_plan_is_certified(seed):
    result = solve(start(1, seed), "fast-downward", timeout=60)
    assert result.status.value == "solved" and result.proven_optimal
    assert list(result.plan) == [a.text for a in two_moves(start(1, seed))]


@pytest.mark.skipif(not HAVE_PYPERPLAN, reason="pyperplan (the planners extra) is not installed")
def test_pyperplan_solves_and_the_plan_is_certified():
    result = solve(start(1, 3), "pyperplan", timeout=60)
    assert result.status.value == "solved" and result.proven_optimal and len(result.plan) == 2


def test_only_l1_has_a_pddl_model():
    with pytest.raises(PDDLError, match="only MessengerL1 episodes"):
        pddl.export(start(2, 0))
