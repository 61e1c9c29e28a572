"""The bandit's references: exact values from the recursion, confirmed by playing the policies."""

from __future__ import annotations

from fractions import Fraction
from statistics import fmean

from plancheck.domains.smartplay.bandits import solve
from plancheck.domains.smartplay.bandits.world import WORLD
from plancheck.episodes.check import check_episode
from plancheck.episodes.play import play

EPISODES = WORLD.episodes
INSTANCE = EPISODES.instance("BanditTwoArmedHighLowFixed")
SETTINGS = EPISODES.settings({})[0]


def scores(policy: str, seeds: range) -> list[int]:
    out = []
    for seed in seeds:
        game = EPISODES.game(INSTANCE, seed, SETTINGS)
        episode = play(EPISODES, INSTANCE, seed, SETTINGS, EPISODES.policy(policy, game, seed),
                       policy_name=policy, game=game)
        out.append(episode.steps[-1].score)
    return out


def test_the_bellman_recursion_equals_the_greedy_walk_and_the_documented_numbers():
    value = solve.bayes_value(INSTANCE, 50)
    assert value == sum(solve.greedy_correct(INSTANCE, 50))  # greedy is Bayes-optimal: pulls inform alike
    assert round(float(value), 3) == 48.611
    assert round(float(value) / 45, 3) == 1.080
    assert solve.oracle_value(INSTANCE, 50) == 50 and solve.random_value(INSTANCE, 50) == 25
    assert solve.bayes_value(INSTANCE, 1) == Fraction(1, 2)


def test_playing_the_bayes_policy_scores_its_expectation():
    played = scores("bayes", range(2000))
    assert abs(fmean(played) - 48.611) < 3 * 1.9 / 2000 ** 0.5  # sd about 1.84 per episode


def test_the_oracle_scores_50_and_random_play_about_25():
    assert set(scores("oracle", range(200))) == {50}
    assert abs(fmean(scores("random", range(2000))) - 25) < 3 * 3.6 / 2000 ** 0.5  # binomial(50, 1/2)


def test_the_bayes_policy_never_departs_from_the_posterior_and_the_oracle_does():
    game = EPISODES.game(INSTANCE, 5, SETTINGS)
    bayes = check_episode(EPISODES, play(EPISODES, INSTANCE, 5, SETTINGS, EPISODES.policy("bayes", game, 5),
                                         policy_name="bayes", game=game))
    assert (bayes.metrics["posterior_optimal"], bayes.metrics["regret"], bayes.metrics["first_departure"]) == \
        (50, 0, None)
    departed = 0
    for seed in range(20):
        game = EPISODES.game(INSTANCE, seed, SETTINGS)
        oracle = check_episode(EPISODES, play(EPISODES, INSTANCE, seed, SETTINGS,
                                              EPISODES.policy("oracle", game, seed), policy_name="oracle", game=game))
        departed += oracle.metrics["first_departure"] is not None
        assert oracle.scores["score"] == 50
    assert departed  # knowing the truth, it sometimes pulls against the evidence
