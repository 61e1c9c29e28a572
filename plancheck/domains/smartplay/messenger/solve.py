"""Certified optimal MessengerL1 plans: the two-move plan, a breadth-first search, or a planner on the PDDL.

Every plan is certified before it is reported: replayed on the native rules it must win (+1)
within SmartPlay's 4 steps, and its PDDL translation must be accepted by the PDDL validator on the
exported task. It is reported optimal when the solver claims optimality and its length equals the
breadth-first optimum on the native rules (two independent routes agree).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

from plancheck.domains.smartplay.messenger import pddl, scoring
from plancheck.domains.smartplay.messenger.instance import STEP_LIMITS, Episode
from plancheck.domains.smartplay.messenger.policy import Planner
from plancheck.domains.smartplay.messenger.rules import Action, L1Rules, L1State, l1_step
from plancheck.episodes.game import Replies
from plancheck.errors import BadInputError
from plancheck.solvers.external import PlannerRun, run_fast_downward, run_pyperplan, run_symk
from plancheck.solvers.result import SolveResult, Status
from plancheck.solvers.search import breadth_first_search
from plancheck.translators.pddl_plan import plan_text, read_plan
from plancheck.verifier.pddl_validate import validate_text

PLANNERS: dict[str, Callable[..., PlannerRun]] = {
    "fast-downward": run_fast_downward,
    "pyperplan": run_pyperplan,
    "symk": run_symk,
}
PLANNER_NAMES = ("native", "bfs", *PLANNERS)


def two_moves(episode: Episode) -> list[Action]:
    """The optimal plan: two moves toward the message, or toward the goal when the avatar has it.

    >>> from plancheck.domains.smartplay.messenger.instance import start
    >>> [a.text for a in two_moves(start(1, 0))]
    ['Move North', 'Move North']
    """
    layout = episode.layout
    if layout is None:
        raise BadInputError(f"{episode.id}: only MessengerL1 episodes have a fixed optimal plan")
    return [scoring.target(layout, L1State(has_message=layout.has_message))] * 2


def replay(episode: Episode, actions: Sequence[Action]) -> list[float]:
    """The rewards of ``actions`` on the native rules, up to the end of the episode."""
    assert episode.layout is not None
    state, rewards = L1State(has_message=episode.layout.has_message), []
    for action in actions[:STEP_LIMITS[1]]:
        state = l1_step(episode.layout, state, action)
        rewards.append(state.reward)
        if state.ended:
            break
    return rewards


def certify(episode: Episode, actions: Sequence[Action]) -> str | None:
    """Why ``actions`` is not a winning L1 episode (native rules or PDDL validator), or None if it is."""
    if len(actions) > STEP_LIMITS[1]:
        return f"the plan has {len(actions)} actions; SmartPlay runs {STEP_LIMITS[1]} steps"
    rewards = replay(episode, actions)
    if len(rewards) != len(actions) or not rewards or rewards[-1] != 1.0:
        return f"replayed on the rules the plan's rewards are {rewards}, not a win on its last action"
    files = pddl.export(episode)
    problem_file = next(name for name in files if name != pddl.DOMAIN_FILE)
    report = validate_text(files[pddl.DOMAIN_FILE], files[problem_file],
                           plan_text(pddl.to_pddl_plan(episode, actions)))
    return None if report.valid else f"the PDDL validator rejects the plan: {report.text()}"


def bfs_optimum(episode: Episode) -> int | None:
    """The fewest actions that win, by breadth-first search on the native rules."""
    assert episode.layout is not None
    result = breadth_first_search(L1Rules(episode.layout))
    return None if result.plan is None else len(result.plan)


def solve(episode: Episode, planner: str = "native", *, timeout: float = 300.0) -> SolveResult:
    """A certified plan for an L1 episode from ``planner``."""
    start = time.perf_counter()
    if episode.layout is None:
        raise BadInputError(f"{episode.id}: solve works on MessengerL1 episodes; for L2/L3 play the reference "
                            "policy (plancheck play messenger MessengerL2 --policy planner)")
    if planner == "native":
        actions, claims_optimal = two_moves(episode), True
    elif planner == "bfs":
        result = breadth_first_search(L1Rules(episode.layout))
        actions, claims_optimal = list(result.plan or ()), result.status is Status.SOLVED
    elif planner in PLANNERS:
        files = pddl.export(episode)
        problem_file = next(name for name in files if name != pddl.DOMAIN_FILE)
        run = PLANNERS[planner](files[pddl.DOMAIN_FILE], files[problem_file], timeout=timeout)
        if run.status is not Status.SOLVED or run.plan is None:
            return SolveResult(episode.id, planner, run.status, seconds=time.perf_counter() - start,
                               message=run.message)
        actions = pddl.from_pddl_plan(read_plan("\n".join(run.plan)).actions)
        claims_optimal = run.optimal
    else:
        raise BadInputError(f"unknown planner {planner!r}; choose one of {', '.join(PLANNER_NAMES)}")
    problem = certify(episode, actions)
    seconds = time.perf_counter() - start
    texts = tuple(action.text for action in actions)
    if problem is not None:
        return SolveResult(episode.id, planner, Status.FAILED, texts, seconds=seconds,
                           message=f"the plan is invalid: {problem}")
    score = scoring.episode_score(replay(episode, actions))
    return SolveResult(episode.id, planner, Status.SOLVED, texts,
                       values={"score": score, "normalized": scoring.normalized(score)},
                       proven_optimal=claims_optimal and len(actions) == bfs_optimum(episode),
                       seconds=seconds, extra={"moves": len(actions), "action_indices": [a.value for a in actions]})


# -- reference policies for play ------------------------------------------------------------------

class OptimalPolicy:
    """L1: the move toward the message, or the goal once the avatar has it (two moves win)."""

    def replies(self, step: int, game) -> Replies:
        layout = game.episode.layout
        return Replies(scoring.target(layout, game.runner.state).text)


class PlannerPolicy:
    """L2/L3: the expectimax planner of :mod:`.policy` on the level as it is."""

    def __init__(self, depth: int = 2):
        self.planner = Planner(depth)

    def replies(self, step: int, game) -> Replies:
        return Replies(Action(self.planner.act(game.level)).text)


class RandomPolicy:
    """Uniformly random actions from its own seeded generator (independent of the game's draws)."""

    def __init__(self, seed: int):
        self.random = random.Random(f"plancheck random policy {seed}")

    def replies(self, step: int, game) -> Replies:
        return Replies(self.random.choice(game.actions()))


class NorthPolicy:
    """Always ``Move North``: what SmartPlay's reading does with a reply that names no action."""

    def replies(self, step: int, game) -> Replies:
        return Replies(Action.NORTH.text)


def policies(level: int) -> tuple[str, ...]:
    return ("optimal" if level == 1 else "planner", "random", "north")


def policy(name: str, game, seed: int):
    """The reference policy ``name`` for a game of ``level``."""
    level = game.episode.level
    if name == "optimal" and level == 1:
        return OptimalPolicy()
    if name == "planner" and level > 1:
        return PlannerPolicy()
    if name == "random":
        return RandomPolicy(seed)
    if name == "north":
        return NorthPolicy()
    raise BadInputError(f"unknown reference policy {name!r}; MessengerL{level} has {', '.join(policies(level))}")


def reference_score(level: int, seed: int, name: str) -> float:
    """SmartPlay's score (the last step's reward) of reference policy ``name`` on episode ``seed``."""
    from plancheck.domains.smartplay.messenger.game import MessengerGame
    from plancheck.domains.smartplay.messenger.instance import start

    game = MessengerGame(start(level, seed), {"reading": "smartplay", "history": 2, "steps": STEP_LIMITS[level]})
    game.reset()
    player = policy(name, game, seed)
    reward = 0.0
    for step in range(1, STEP_LIMITS[level] + 1):
        transition = game.step(player.replies(step, game).reply)
        reward = transition.reward
        if transition.done:
            break
    return reward
