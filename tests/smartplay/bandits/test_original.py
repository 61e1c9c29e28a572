"""The bandit against SmartPlay's own ``BanditTwoArmedHighLowFixed`` (loaded from a checkout):
the same seed and actions give the same episode, info for info, prompt for prompt."""

from __future__ import annotations

import random

from plancheck.domains.smartplay.bandits.world import WORLD

SEEDS = range(200)


def test_200_seeded_episodes_equal_smartplays_own(smartplay):
    episodes = WORLD.episodes
    settings, _ = episodes.settings({})
    instance = episodes.instance("BanditTwoArmedHighLowFixed")
    for seed in SEEDS:
        actions = [random.Random(f"actions {seed}").randrange(2) for _ in range(50)]
        start, steps = smartplay.episode(smartplay.Bandit, seed, actions)
        game = episodes.game(instance, seed, settings)
        assert game.reset() == start["obs"]
        assert game.manual == start["manual"]
        info = start
        for k, (action, (reward, done, after)) in enumerate(zip(actions, steps), start=1):
            for question, earlier in zip(smartplay.questions, ([], ["I think so."])):
                past = list(zip(smartplay.questions, earlier))
                assert game.messages(earlier) == smartplay.compose_ingame_prompt(info, question, past)[0], (seed, k)
            transition = game.step(game.actions()[action])
            assert (transition.observation, transition.reward, transition.done, transition.score) == \
                (after["obs"], reward, done, after["score"]), (seed, k)
            assert transition.info["optimal"] == after["optimal"]
            info = after
        assert game.messages() == smartplay.compose_ingame_prompt(info, smartplay.questions[0], [])[0]


def test_the_smartplay_reading_is_match_act(smartplay):
    actions = ["Pull slot machine 1.", "Pull slot machine 2."]
    reading = WORLD.episodes.readings["smartplay"]
    pieces = ["Pull slot machine 1.", "pull SLOT machine 2.", "Pull slot machine 2", "machine 1", "I'd pull ",
              " and then ", "PULL SLOT MACHINE 1.", "\n", "slot machine 2.", ""]
    generator = random.Random(7)
    for _ in range(3000):
        reply = "".join(generator.choice(pieces) for _ in range(generator.randrange(5)))
        assert actions.index(reading.read(reply, actions).action) == smartplay.match_act(actions, reply), reply


def test_a_shorter_history_is_smartplays_history_tracker(smartplay):
    """The ``history`` setting is SmartPlay's ``max_steps`` (the paper's Table 1 allows a longer one)."""
    base = smartplay.Bandit.__mro__[1]  # BanditEnv
    episodes = WORLD.episodes
    settings = {**episodes.settings({})[0], "history": 5}
    for seed in range(20):
        actions = [random.Random(f"short {seed}").randrange(2) for _ in range(12)]

        def make():
            return base([0.8, 0.2], [1, 1], max_steps=5)

        start, steps = smartplay.episode(make, seed, actions)
        game = episodes.game(episodes.instance("BanditTwoArmedHighLowFixed"), seed, settings)
        game.reset()
        for action, (_, _, after) in zip(actions, steps):
            game.step(game.actions()[action])
            assert game.messages() == smartplay.compose_ingame_prompt(after, smartplay.questions[0], [])[0]
