"""Rock Paper Scissors' references: exact values from the recursion, confirmed by playing the policies."""

from __future__ import annotations

from fractions import Fraction
from statistics import fmean

from plancheck.domains.smartplay.rps import solve
from plancheck.domains.smartplay.rps.world import WORLD
from plancheck.episodes.play import play

EPISODES = WORLD.episodes
INSTANCE = EPISODES.instance("RockPaperScissorBasic")
SETTINGS = EPISODES.settings({})[0]


def scores(policy: str, seeds: range) -> list[int]:
    out = []
    for seed in seeds:
        game = EPISODES.game(INSTANCE, seed, SETTINGS)
        episode = play(EPISODES, INSTANCE, seed, SETTINGS, EPISODES.policy(policy, game, seed),
                       policy_name=policy, game=game)
        out.append(episode.steps[-1].score)
    return out


def test_the_bellman_recursion_equals_the_greedy_count_and_the_documented_numbers():
    value = solve.bayes_value(INSTANCE, 50)
    assert value == sum(solve.greedy_correct(INSTANCE, 50))  # the opponent ignores us: greedy is optimal
    assert round(float(value), 3) == 46.178
    assert round(float(value) / 43, 3) == 1.074
    assert solve.random_value(INSTANCE, 50) == Fraction(50, 3)
    assert solve.bayes_value(INSTANCE, 1) == Fraction(1, 3)


def test_playing_the_bayes_policy_scores_its_expectation():
    played = scores("bayes", range(2000))
    assert abs(fmean(played) - 46.178) < 3 * 4.9 / 2000 ** 0.5  # sd about 4.78 per episode


def test_the_oracle_scores_50_and_random_play_about_a_third():
    assert set(scores("oracle", range(200))) == {50}
    assert abs(fmean(scores("random", range(2000))) - 50 / 3) < 3 * 3.4 / 2000 ** 0.5  # binomial(50, 1/3)


def test_the_posterior_is_proportional_to_3_to_the_counts():
    belief = solve.Belief(INSTANCE)
    assert belief.posterior() == (1 / 3, 1 / 3, 1 / 3)
    belief.update(2)  # the opponent played Scissor: Rock is likelier the best
    assert [round(p, 6) for p in belief.posterior()] == [0.6, 0.2, 0.2]
