"""The paper's Table 3 (IQA columns) from checked episodes, with the reference row beside it.

Columns as the paper prints them: Exists, Contains, Counts (accuracy in %, LangSuitE's evaluator's
rule, :mod:`scoring`) and steps (mean timesteps, the opening reply included). plancheck adds the
share of right verdicts whatever the evaluator counts, and how many answers came from the step
limit.

Reference row, over the same episodes (question, level and seed): ``optimal`` (the certified
shortest evidence-gathering plan of :mod:`solve`, then the right answer; where no plan gathers the
evidence within the step limit, it never answers and the task's forced answer is judged). The
paper's rows: LangSuitE paper, Table 3, gpt-3.5-turbo, 50 questions per sub-task.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from plancheck.domains.langsuite.iqa.instance import question
from plancheck.domains.langsuite.iqa.rules import Task, is_right
from plancheck.domains.langsuite.iqa.solve import optimal
from plancheck.world import Summary

HEADER = ("player", "level", "episodes", "Exists", "Contains", "Counts", "steps", "right (any count)",
          "forced answers")
KINDS = ("existence", "contains", "counting")

# LangSuitE paper, Table 3, IQA columns: (level, strategy) -> Exists, Contains, Counts, steps
PAPER = {
    ("low", "Act"): (14.9, 36.0, 10.9, 16.7), ("low", "ReAct"): (8.9, 18.3, 2.1, 13.2),
    ("low", "ReAct-EmMem"): (48.0, 58.0, 6.0, 14.8), ("low", "Reflexion"): (62.0, 72.0, 38.0, 23.7),
    ("low", "Reflexion-EmMem"): (60.0, 86.0, 72.0, 20.7),
    ("high", "Act"): (24.0, 76.0, 30.0, 10.3), ("high", "ReAct"): (44.0, 88.0, 18.0, 15.1),
    ("high", "ReAct-EmMem"): (32.0, 80.0, 14.0, 13.1), ("high", "Reflexion"): (44.0, 90.0, 22.0, 9.9),
    ("high", "Reflexion-EmMem"): (42.0, 80.0, 20.0, 16.6),
}


@cache
def reference_numbers(qid: str, level: str, seed: int) -> tuple[float, float, float, float]:
    """(accuracy, correct, steps, forced) of the optimal reference on one episode."""
    task = Task(question(qid), level)
    ref = optimal(task, seed)
    if ref.plan is not None and ref.certified:
        return 1.0, 1.0, float(ref.timesteps), 0.0
    right = float(is_right(task.forced_reply, task.gold))
    return right, right, float(task.step_limit), 1.0


def _pct(values: list[float]) -> float | str:
    return round(100 * sum(values) / len(values), 1) if values else ""


def _row(player: str, level: str, rows: list[tuple[str, float, float, float, float]]) -> tuple:
    by_kind = {k: [r[1] for r in rows if r[0] == k] for k in KINDS}
    steps = [r[3] for r in rows]
    return (player, level, len(rows), *(_pct(by_kind[k]) for k in KINDS),
            round(sum(steps) / len(steps), 1) if steps else "", _pct([r[2] for r in rows]),
            int(sum(r[4] for r in rows)))


def table(results: Iterable[tuple[str, str, str, int, dict[str, float], bool]], references: bool = True,
          paper: bool = True) -> Summary:
    """``results``: (player, level, question id, seed, scores, forced) per checked episode."""
    groups: dict[tuple[str, str], list[tuple[str, float, float, float, float]]] = {}
    episodes: dict[str, set[tuple[str, int]]] = {}
    for player, level, qid, seed, s, forced in results:
        kind = question(qid).kind
        groups.setdefault((player, level), []).append((kind, s["accuracy"], s["correct"], s["steps"], float(forced)))
        episodes.setdefault(level, set()).add((qid, seed))
    rows = [_row(player, level, nums) for (player, level), nums in sorted(groups.items())]
    if references:
        for level, eps in sorted(episodes.items()):
            rows.append(_row("optimal (reference)", level,
                             [(question(q).kind, *reference_numbers(q, level, seed)) for q, seed in sorted(eps)]))
    if paper:
        for (level, strategy), (ex, co, cn, steps) in PAPER.items():
            rows.append((f"{strategy} (paper, gpt-3.5)", level, 50, ex, co, cn, steps, "", ""))
    return Summary("LangSuitE IQA (re-created): the paper's Table 3 columns (Exists, Contains, Counts: accuracy in %, "
                   "LangSuitE's evaluator; mean steps), the right verdicts and the forced answers; the reference over "
                   "the same episodes", HEADER, tuple(rows))
