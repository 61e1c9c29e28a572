"""The paper's Table 3 (Household columns) and Appendix D (path-weighted) from checked episodes.

Columns: SR and Goal-SR (in %, as LangSuitE's evaluator reads its logs, :mod:`scoring`), mean steps
(timesteps, the opening reply included), and ALFRED's path-weighted SR and Goal-SR against the
certified optimum. plancheck adds LangSuitE's own success (``s == ts``, whatever the evaluator reads)
and the share of runs LangSuitE's code would crash in.

Reference row, over the same tasks: ``optimal`` (the certified shortest low-level episode of
:mod:`solve`; a task without one is stopped at once and scored as it stands). LangSuitE's expert
replays ALFRED's recorded low-level actions, which are not public: there is no expert row. The
paper's rows: LangSuitE paper, Table 3 and Appendix D, gpt-3.5-turbo, 100 sampled tasks.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from plancheck.domains.langsuite.household.instance import task
from plancheck.domains.langsuite.household.rules import Task, step
from plancheck.domains.langsuite.household.scoring import episode_scores
from plancheck.domains.langsuite.household.solve import optimal
from plancheck.world import Summary

HEADER = ("player", "level", "episodes", "SR", "Goal-SR", "steps", "PW SR", "PW Goal-SR", "success (s = ts)",
          "crashed")
KEYS = ("success_eval", "goal_conditions_eval", "steps", "pw_success", "pw_goal_conditions", "success", "crashed")

# LangSuitE paper, Table 3 (SR, Goal-SR, steps) and Appendix D (path-weighted SR, Goal-SR), Household
PAPER = {
    ("low", "Act"): (9.0, 21.5, 22.8, 6.65, 21.94), ("low", "ReAct"): (14.0, 26.7, 44.7, 9.50, 24.71),
    ("low", "ReAct-EmMem"): (10.0, 26.3, 28.5, 7.19, 21.13), ("low", "Reflexion"): (19.0, 34.6, 28.6, 14.89, 25.73),
    ("low", "Reflexion-EmMem"): (14.0, 32.0, 35.1, 11.19, 22.77),
    ("high", "Act"): (23.0, 37.8, 16.2, 22.38, 37.13), ("high", "ReAct"): (22.0, 42.0, 21.4, 18.64, 35.52),
    ("high", "ReAct-EmMem"): (32.0, 47.8, 35.2, 28.27, 43.02), ("high", "Reflexion"): (33.0, 53.0, 27.7, 28.23, 40.00),
    ("high", "Reflexion-EmMem"): (39.7, 53.3, 34.1, 34.45, 43.80),
}


@cache
def optimum_steps(tid: str) -> int | None:
    """The certified optimum's timesteps (low level), or None (no plan, or none proven shortest)."""
    ref = optimal(Task(task(tid)))
    return ref.timesteps if ref.acts is not None and ref.proven else None


@cache
def reference_numbers(tid: str) -> tuple[float, ...]:
    """The optimal reference's numbers in KEYS order (where the reference graph was cut, the plan found there)."""
    t = Task(task(tid))
    ref = optimal(t)
    if ref.acts is not None and ref.certified:
        return 1.0, 1.0, float(ref.timesteps), 1.0, 1.0, 1.0, 0.0
    turn = step(t, step(t, t.initial(), "YES").turn, "Act: stop").turn
    s = episode_scores(turn, None)
    return s["success_eval"], s["goal_conditions_eval"], s["steps"], 0.0, 0.0, s["success"], 0.0


def _row(player: str, level: str, numbers: list[tuple[float, ...]]) -> tuple:
    n = len(numbers)
    mean = [sum(x[i] for x in numbers) / n if n else 0.0 for i in range(len(KEYS))]
    return (player, level, n, round(100 * mean[0], 1), round(100 * mean[1], 1), round(mean[2], 1),
            round(100 * mean[3], 1), round(100 * mean[4], 1), round(100 * mean[5], 1), round(100 * mean[6], 1))


def table(results: Iterable[tuple[str, str, str, dict[str, float], bool]], references: bool = True,
          paper: bool = True) -> Summary:
    """``results``: (player, level, task id, scores, crashed) per checked episode."""
    groups: dict[tuple[str, str], list[tuple[float, ...]]] = {}
    tasks: dict[str, set[str]] = {}
    for player, level, tid, s, crashed in results:
        groups.setdefault((player, level), []).append(
            tuple(s.get(k, 0.0) for k in KEYS[:-1]) + (float(crashed),))
        tasks.setdefault(level, set()).add(tid)
    rows = [_row(player, level, nums) for (player, level), nums in sorted(groups.items())]
    if references:
        for level, tids in sorted(tasks.items()):
            rows.append(_row("optimal (reference, low level)", level, [reference_numbers(t) for t in sorted(tids)]))
    if paper:
        for (level, strategy), (sr, gc, steps, pw_sr, pw_gc) in PAPER.items():
            rows.append((f"{strategy} (paper, gpt-3.5)", level, 100, sr, gc, steps, pw_sr, pw_gc, "", ""))
    return Summary("LangSuitE Household (re-created): the paper's Table 3 columns (SR, Goal-SR in %, as its evaluator "
                   "reads the logs; mean steps) and Appendix D's path-weighted SR and Goal-SR (against the certified "
                   "optimum); the reference over the same tasks", HEADER, tuple(rows))
