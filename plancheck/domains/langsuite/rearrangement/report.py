"""The paper's Table 3 (Rearrangement columns) from checked episodes, with reference rows beside it.

Columns as the paper prints them: SR, Misplaced and Fixed Strict (means over episodes, in %; a
Misplaced above 100 is possible, see :mod:`scoring`) and steps (mean timesteps: the replies, the
opening answer included). plancheck adds the same three numbers under the ``corrected`` rule and
the share of episodes that end in the ``restore`` goal.

Reference rows, over the same episodes and action level: ``optimal`` (the certified shortest
plan of :mod:`solve`, then ``stop``), ``expert`` (LangSuitE's own expert; crashed runs count as
failures with the numbers at the crash), and the paper's rows (LangSuitE paper, Table 3,
gpt-3.5-turbo, 100 sampled tasks).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache

from plancheck.domains.langsuite.rearrangement.expert import run_expert
from plancheck.domains.langsuite.rearrangement.instance import episode
from plancheck.domains.langsuite.rearrangement.problem import restored
from plancheck.domains.langsuite.rearrangement.rules import Task
from plancheck.domains.langsuite.rearrangement.solve import optimal, replay
from plancheck.world import Summary

HEADER = ("player", "level", "episodes", "SR", "Misplaced", "Fixed Strict", "steps", "SR (corr.)",
          "Misplaced (corr.)", "Fixed (corr.)", "restored")

# LangSuitE paper, Table 3, Rearrangement columns: (level, strategy) -> SR, Misplaced, Fixed Strict, steps
PAPER = {
    ("low", "Act"): (8.0, 115.3, 17.6, 12.4), ("low", "ReAct"): (5.0, 117.9, 12.3, 8.4),
    ("low", "ReAct-EmMem"): (6.0, 108.3, 13.7, 9.5), ("low", "Reflexion"): (8.0, 99.3, 14.3, 13.7),
    ("low", "Reflexion-EmMem"): (10.0, 100.4, 15.7, 12.5),
    ("high", "Act"): (5.0, 112.3, 17.2, 7.0), ("high", "ReAct"): (7.0, 111.2, 15.2, 6.9),
    ("high", "ReAct-EmMem"): (6.0, 109.7, 11.9, 9.0), ("high", "Reflexion"): (8.0, 102.7, 17.5, 6.5),
    ("high", "Reflexion-EmMem"): (8.0, 100.22, 16.2, 8.9),
}


@cache
def reference_numbers(eid: str, level: str, kind: str) -> tuple[float, ...]:
    """(success, misplaced, fixed, steps, success_c, misplaced_c, fixed_c, restored) of a reference."""
    task = Task(episode(eid), level)
    if kind == "optimal":
        ref = optimal(task)
        if ref.acts is None:
            return (0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0)
        final = replay(task, list(ref.acts)).final
        steps = float(ref.timesteps)
    else:
        run = run_expert(task)
        final, steps = run.final, float(run.timesteps)
    lang, corr = task.score(final.scene, "langsuite"), task.score(final.scene, "corrected")
    ok = not restored(task, final.scene, bool(final.inventory))
    return (float(lang.success), lang.misplaced, lang.fixed, steps, float(corr.success), corr.misplaced, corr.fixed,
            float(ok))


def _row(player: str, level: str, numbers: Sequence[tuple[float, ...]]) -> tuple:
    n = len(numbers)
    mean = [sum(x[i] for x in numbers) / n for i in range(8)] if n else [0.0] * 8
    pct = [round(100 * mean[i], 1) for i in (0, 1, 2)]
    corr = [round(100 * mean[i], 1) for i in (4, 5, 6)]
    return (player, level, n, *pct, round(mean[3], 1), *corr, round(100 * mean[7], 1))


def table(results: Iterable[tuple[str, str, str, dict[str, float]]], references: bool = True,
          paper: bool = True) -> Summary:
    """``results``: (player, level, episode id, scores) per checked episode."""
    groups: dict[tuple[str, str], list[tuple[float, ...]]] = {}
    episodes: dict[str, set[str]] = {}
    for player, level, eid, s in results:
        groups.setdefault((player, level), []).append(
            (s["success"], s["misplaced"], s["fixed"], s["steps"], s["success_corrected"],
             s["misplaced_corrected"], s["fixed_corrected"], s["restored"]))
        episodes.setdefault(level, set()).add(eid)
    rows = [_row(player, level, nums) for (player, level), nums in sorted(groups.items())]
    if references:
        for level, eids in sorted(episodes.items()):
            for kind in ("optimal", "expert"):
                if kind == "optimal" and level == "high":
                    continue  # the optimum is computed for the low-level action set
                rows.append(_row(f"{kind} (reference)", level,
                                 [reference_numbers(e, level if kind == "expert" else "low", kind)
                                  for e in sorted(eids)]))
    if paper:
        for (level, strategy), (sr, mis, fixed, steps) in PAPER.items():
            rows.append((f"{strategy} (paper, gpt-3.5)", level, 100, sr, mis, fixed, steps, "", "", "", ""))
    return Summary("LangSuitE Rearrangement (re-created): the paper's Table 3 columns (SR, Misplaced, Fixed Strict in "
                   "%, mean steps), the corrected metric and the restore rate; references over the same episodes",
                   HEADER, tuple(rows))
