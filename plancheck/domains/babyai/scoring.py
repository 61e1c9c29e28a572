"""The benchmarks' score formulas for BabyAI answers, as pure functions of what the check found.

* Predict: ``exact`` (1 when the predicted pose is the true final one) and the Manhattan distance.
* Plan: ``success``; efficiency = reference length / answer length for successes (0 otherwise),
  against the bot (the published reference) and, when proven, the optimum; the harness's reward
  and "ball distance".
* Decompose: CR, PR and ACI = max(0, (E - help) / E) when completed (E: the expert's help count).
"""

from __future__ import annotations

from collections.abc import Sequence

from plancheck.domains.babyai.instance import Instance


def predict_scores(guess: tuple[int, int, int], truth: tuple[int, int, int]) -> dict[str, float]:
    """``guess`` and ``truth`` as (x, y, direction).

    >>> predict_scores((3, 4, 1), (3, 4, 1)), predict_scores((1, 1, 0), (3, 4, 1))
    ({'exact': 1.0, 'manhattan': 0.0}, {'exact': 0.0, 'manhattan': 5.0})
    """
    return {"exact": float(guess == truth), "manhattan": float(abs(guess[0] - truth[0]) + abs(guess[1] - truth[1]))}


def plan_scores(success: bool, length: int, bot_length: int | None, optimum: int | None) -> dict[str, float]:
    """Plan's scores; ``efficiency_vs_bot`` only when there is a bot reference, ``efficiency`` only when the
    optimum is known.

    >>> plan_scores(True, 8, 7, 6)
    {'success': 1.0, 'efficiency_vs_bot': 0.875, 'efficiency': 0.75}
    >>> plan_scores(False, 8, 7, None), plan_scores(True, 8, None, None)
    ({'success': 0.0, 'efficiency_vs_bot': 0.0}, {'success': 1.0})
    """
    scores = {"success": float(success)}
    if bot_length is not None:
        scores["efficiency_vs_bot"] = bot_length / length if success and length else 0.0
    if optimum is not None:
        scores["efficiency"] = optimum / length if success and length else 0.0
    return scores


def reward(goal_step: int | None, max_steps: int) -> float:
    """minigrid's reward: 1 - 0.9 * steps / max_steps on success, else 0."""
    return round(1 - 0.9 * goal_step / max_steps, 6) if goal_step is not None else 0.0


def red_ball(instance: Instance, objects: Sequence[tuple[int, int] | None]) -> tuple[int, int] | None:
    """The first red ball in column-major order, as the harness finds it (None if none is on the grid)."""
    cells = sorted(c for t, c in zip(instance.things, objects)
                   if c is not None and t.kind == "ball" and t.color == "red")
    return cells[0] if cells else None


def ball_distance(instance: Instance, pos: tuple[int, int], objects: Sequence[tuple[int, int] | None]) -> int | None:
    """The harness's "ball distance": Manhattan distance to the red ball minus one (None without one)."""
    ball = red_ball(instance, objects)
    return None if ball is None else abs(pos[0] - ball[0]) + abs(pos[1] - ball[1]) - 1


def decompose_scores(success: bool, help_used: int, expert_help: int) -> dict[str, float]:
    """CR, PR and ACI of one Decompose answer.

    >>> decompose_scores(True, 1, 4)
    {'CR': 1.0, 'PR': 0.0, 'ACI': 0.75}
    """
    aci = max(0.0, (expert_help - help_used) / expert_help) if success and expert_help else 0.0
    return {"CR": float(success), "PR": float(success and help_used == 0), "ACI": aci}
