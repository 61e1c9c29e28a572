"""Crafter's two scores: SmartPlay's cumulative-unlock score and Crafter's own geometric-mean success score.

- SmartPlay (``crafter_env.py``; ``evaluation.yml``): after every step the score adds the number of
  achievements unlocked so far; the episode's score is the last one; normalised = (score - 0) / (2680 - 0),
  not clipped. It rewards unlocking early and surviving long (9999 steps with one achievement = 9999).
- Crafter (danijar/crafter README, ``analysis/common.py``): the success rate s_i of achievement i is the
  percentage of episodes that unlocked it at least once; score = exp(mean_i ln(1 + s_i)) - 1 over the 22
  achievements. The published figures (human experts 50.5 +- 6.8 %, random 1.6 +- 0.0 %) are the mean and
  standard deviation over 5 seeds of each seed's score; the score of the pooled rates is another number
  (52.0 and 1.55). :func:`reference` recomputes both from the published runs' counts.
"""

from __future__ import annotations

import json
import math
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib.resources import files

from plancheck.episodes.game import CheckedStep, Outcome

ACHIEVEMENTS = ("collect_coal", "collect_diamond", "collect_drink", "collect_iron", "collect_sapling",
                "collect_stone", "collect_wood", "defeat_skeleton", "defeat_zombie", "eat_cow", "eat_plant",
                "make_iron_pickaxe", "make_iron_sword", "make_stone_pickaxe", "make_stone_sword",
                "make_wood_pickaxe", "make_wood_sword", "place_furnace", "place_plant", "place_stone",
                "place_table", "wake_up")
HUMAN_SCORE, MIN_SCORE = 2680.0, 0.0  # SmartPlay's evaluation.yml "recorded settings"
EPISODES = 10  # SmartPlay's default_iter


def smartplay_normalized(score: float) -> float:
    """SmartPlay's normalised score, (score - 0) / (2680 - 0), not clipped.

    >>> smartplay_normalized(700)
    0.26119402985074625
    """
    return (score - MIN_SCORE) / (HUMAN_SCORE - MIN_SCORE)


def smartplay_score(unlocked_counts: Iterable[int]) -> float:
    """The cumulative score from the number of achievements unlocked after each step (the reset's Noop first)."""
    return float(sum(unlocked_counts))


def success_rates(episodes: Sequence[Collection[str]]) -> dict[str, float]:
    """Percent of ``episodes`` (each the set of achievements it unlocked) that unlocked each achievement."""
    if not episodes:
        raise ValueError("success rates need at least one episode")
    unknown = {name for unlocked in episodes for name in unlocked} - set(ACHIEVEMENTS)
    if unknown:
        raise ValueError(f"not Crafter achievements: {', '.join(sorted(unknown))}")
    return {name: 100.0 * sum(name in unlocked for unlocked in episodes) / len(episodes) for name in ACHIEVEMENTS}


def crafter_score(rates: Mapping[str, float]) -> float:
    """Crafter's score of success rates in percent: exp(mean ln(1 + s_i)) - 1 over the 22 achievements.

    >>> round(crafter_score({name: 100.0 for name in ACHIEVEMENTS}), 6)
    100.0
    >>> crafter_score({})
    0.0
    """
    if any(not 0 <= rates.get(name, 0.0) <= 100 for name in ACHIEVEMENTS):
        raise ValueError("success rates are percentages in 0..100")
    return math.exp(sum(math.log1p(rates.get(name, 0.0)) for name in ACHIEVEMENTS) / len(ACHIEVEMENTS)) - 1


@dataclass(frozen=True, slots=True)
class Reference:
    """A published Crafter baseline: per seed, its score; their mean and (population) standard deviation."""

    name: str
    seed_scores: tuple[float, ...]
    pooled_rates: Mapping[str, float]
    episodes: int

    @property
    def mean(self) -> float:
        return sum(self.seed_scores) / len(self.seed_scores)

    @property
    def std(self) -> float:
        mean = self.mean
        return math.sqrt(sum((s - mean) ** 2 for s in self.seed_scores) / len(self.seed_scores))

    @property
    def pooled_score(self) -> float:
        """The score of the rates pooled over all seeds' episodes (not how Crafter reports it)."""
        return crafter_score(self.pooled_rates)


@cache
def _baselines() -> dict:
    return json.loads(files("plancheck.data").joinpath("smartplay/crafter_baselines.json").read_text())


def reference(name: str) -> Reference:
    """Crafter's published ``human`` (experts, with reward) or ``random`` (no reward) baseline, recomputed.

    >>> human = reference("human")
    >>> f"{human.mean:.1f} +- {human.std:.1f}", f"{reference('random').mean:.1f}"
    ('50.5 +- 6.8', '1.6')
    """
    data = _baselines()
    if name not in ("human", "random"):
        raise ValueError(f"no Crafter baseline {name!r}; known: human, random")
    names = data["achievements"]
    seeds = data[name]
    scores = tuple(crafter_score({a: 100.0 * c / seed["episodes"] for a, c in zip(names, seed["unlocked"],
                                                                                  strict=True)})
                   for seed in seeds)
    total = sum(seed["episodes"] for seed in seeds)
    pooled = {a: 100.0 * sum(seed["unlocked"][i] for seed in seeds) / total for i, a in enumerate(names)}
    return Reference(name, scores, pooled, total)


def outcome(steps: Sequence[CheckedStep]) -> Outcome:
    """The scores of one checked episode (``CheckedStep`` list) for the episode layer.

    Scores: ``score`` (SmartPlay's, the last step's), ``normalized`` (/2680), ``reward`` (crafter's sum),
    ``achievements`` (how many were unlocked: the last step's score rise, else the unlocks logged).
    Metrics: ``unlocked`` (their names, when the replay or the log's info tells them), ``survived`` (steps
    taken) and ``died``.
    """
    taken = [s for s in steps if s.transition is not None]
    scores = [s.transition.score for s in taken]
    score = scores[-1] if scores else 0.0
    names: list[str] | None = []
    for step in taken:
        if names is not None and "unlocked" in step.transition.info:
            names += [n for n in step.transition.info["unlocked"] if n not in names]
        elif "unlocked" not in step.transition.info:
            names = None
    count = None
    if len(scores) >= 2 and None not in scores[-2:]:
        count = int(scores[-1] - scores[-2])
    elif names is not None:
        count = len(names)
    rewards = [s.transition.reward for s in taken if s.transition.reward is not None]
    notes = () if score is not None else ("the final score is not logged",)
    return Outcome({"score": score, "normalized": None if score is None else smartplay_normalized(score),
                    "reward": round(sum(rewards), 6), "achievements": count},
                   {"unlocked": None if names is None else sorted(names), "survived": len(taken),
                    "died": bool(taken and taken[-1].transition.done and len(taken) < 9999)}, notes=notes)
