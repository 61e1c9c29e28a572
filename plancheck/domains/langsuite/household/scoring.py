"""Household's scores (``alfred_task.py``, ``alfred_eval.py``) per episode, and ALFRED's path weighting.

* ``success``: LangSuitE's goal check at the end, ``s == ts`` (a crashed run has no result: 0);
* ``goal_conditions``: ``s / ts`` as LangSuitE logs it (``conditioned_success``, 4 places; above 1 when
  two lit lamps are in view of a look-at task);
* ``success_eval`` and ``goal_conditions_eval``: what LangSuitE's evaluator (``alfred_eval.py``) reads
  from the log: a success is the ``[SUCCESS]`` line **or a goal-condition line starting with "2."**;
  the goal-condition score is capped at 1 after a success, counted when its line starts with "0."
  and **dropped** otherwise (a failure at ``1.5`` counts 0), so a failure with all conditions met
  but two lamps lit scores nothing (*eval-lines*);
* ``steps``: the timesteps, the opening reply included;
* ``pw_success``, ``pw_goal_conditions``: ALFRED's path weighting, ``x * L* / max(L, L*)``, with
  ``L`` the episode's timesteps and ``L*`` those of the certified optimum (the opening reply, its
  actions and ``stop``); absent when the task has no certified optimum.
"""

from __future__ import annotations

from plancheck.domains.langsuite.household.rules import Turn


def episode_scores(turn: Turn, optimum: int | None) -> dict[str, float]:
    goal = turn.goal
    crashed = turn.crashed is not None
    success = float(bool(goal and goal.success and not crashed))
    gc = 0.0 if goal is None or crashed else goal.score
    line = "" if goal is None or crashed else str(goal.score)
    success_eval = float(bool(success or line.startswith("2.")))
    if success_eval:
        gc_eval = min(gc, 1.0)
    elif line.startswith("0."):
        gc_eval = gc
    else:
        gc_eval = 0.0
    scores = {"success": success, "goal_conditions": gc, "success_eval": success_eval,
              "goal_conditions_eval": gc_eval, "steps": float(turn.timesteps)}
    if optimum is not None:
        weight = optimum / max(turn.timesteps, optimum)
        scores["pw_success"] = success * weight
        scores["pw_goal_conditions"] = min(gc, 1.0) * weight
    return scores
