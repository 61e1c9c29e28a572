"""Scores and per-step analysis shared by the SmartPlay games whose hidden truth has a posterior
(Bandits, Rock Paper Scissors): SmartPlay's score and normalisation, the total reward, and how
each choice stood against the posterior that the best action had given what was seen before it."""

from __future__ import annotations

from collections.abc import Sequence

from plancheck.domains.smartplay import _frame
from plancheck.episodes.game import CheckedStep, Outcome

TIE = 1e-12  # a regret below this is a tie of the posterior


def outcome(env: str, steps: Sequence[CheckedStep], bayes_expected: float, best: float) -> Outcome:
    """Scores: ``score`` (SmartPlay's: the last ``info['score']``), ``normalized`` (SmartPlay's
    (score - min) / (human - min)), ``reward`` (the sum of the rewards). Metrics:
    ``posterior_optimal`` (choices the posterior favoured, ties included), ``regret`` (the expected
    score they lost against it), ``first_departure`` (the step of the first choice against it),
    ``bayes_expected`` (the Bayes-optimal expected score). The optimum ``best`` is the oracle's."""
    taken = [s for s in steps if s.transition is not None]
    score = taken[-1].transition.score if taken else 0
    rewards = [s.transition.reward for s in taken]
    regrets = [s.transition.info["regret"] for s in taken if "regret" in s.transition.info]
    departures = [s.index for s in taken if s.transition.info.get("regret", 0) > TIE]
    notes = []
    if score is None:
        notes.append("the final score is not logged and the log does not tell it (a converted run lacks the last "
                     "step's outcome)")
    if None in rewards:
        notes.append("a step's reward is not logged (a converted run lacks the last one); the total leaves it out")
    scores = {"score": score, "normalized": None if score is None else _frame.normalize(env, score),
              "reward": sum(r for r in rewards if r is not None)}
    metrics = {"posterior_optimal": len(regrets) - len(departures), "regret": round(sum(regrets), 6),
               "first_departure": departures[0] if departures else None, "bayes_expected": round(bayes_expected, 3)}
    return Outcome(scores, metrics, {"score": best, "normalized": _frame.normalize(env, best)}, notes=tuple(notes))


def describe(step: CheckedStep, actions: Sequence[str]) -> str:
    """The posterior before the step, how the choice stood against it, and the reward."""
    transition = step.transition
    if transition is None or "posterior" not in transition.info:
        return ""
    posterior = transition.info["posterior"]
    text = "P(best): " + ", ".join(f"{action} {p:.3f}" for action, p in zip(actions, posterior))
    lost = transition.info["regret"]
    text += f"; against the posterior, regret {lost:.3f}" if lost > TIE else "; posterior-optimal"
    if transition.reward is not None:
        text += f"; reward {transition.reward}"
    return text
