"""Rock Paper Scissors against SmartPlay's own ``RockPaperScissorBasic`` (loaded from a checkout):
the same seed and moves give the same episode, info for info, prompt for prompt."""

from __future__ import annotations

import random

from plancheck.domains.smartplay.rps.world import WORLD


def test_200_seeded_episodes_equal_smartplays_own(smartplay):
    episodes = WORLD.episodes
    settings, _ = episodes.settings({})
    instance = episodes.instance("RockPaperScissorBasic")
    for seed in range(200):
        moves = [random.Random(f"moves {seed}").randrange(3) for _ in range(50)]
        start, steps = smartplay.episode(smartplay.RPS, seed, moves)
        game = episodes.game(instance, seed, settings)
        assert game.reset() == start["obs"]
        assert game.manual == start["manual"]
        info = start
        for k, (move, (reward, done, after)) in enumerate(zip(moves, steps), start=1):
            for question, earlier in zip(smartplay.questions, ([], ["Paper, probably."])):
                past = list(zip(smartplay.questions, earlier))
                assert game.messages(earlier) == smartplay.compose_ingame_prompt(info, question, past)[0], (seed, k)
            transition = game.step(game.actions()[move])
            assert (transition.observation, transition.reward, transition.done, transition.score) == \
                (after["obs"], reward, done, after["score"]), (seed, k)
            assert transition.info["result"] == after["result"]
            info = after


def test_the_optimal_action_is_smartplays_compute_optimal_action(smartplay):
    from plancheck.domains.smartplay.rps.rules import Opponent

    env = smartplay.RPS()
    for order in ([0.2, 0.2, 0.6], [0.2, 0.6, 0.2], [0.6, 0.2, 0.2]):
        env.probs, env.reward = order, [1, 1, 1]
        assert Opponent(tuple(order), (1, 1, 1)).optimal == env.compute_optimal_action()[0]


def test_the_smartplay_reading_is_match_act(smartplay):
    actions = ["Rock", "Paper", "Scissor"]
    reading = WORLD.episodes.readings["smartplay"]
    pieces = ["Rock", "paper", "SCISSORS", "scissor", "rocks", "I choose ", " beats ", "pape", "\u0130", "", "."]
    generator = random.Random(11)
    for _ in range(3000):
        reply = "".join(generator.choice(pieces) for _ in range(generator.randrange(5)))
        assert actions.index(reading.read(reply, actions).action) == smartplay.match_act(actions, reply), reply
