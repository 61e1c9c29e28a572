"""SmartPlay episode pictures: Bandits and Rock Paper Scissors posteriors, Messenger grids, from episode logs."""

from __future__ import annotations

import pytest

from plancheck.cli import main
from plancheck.domains.smartplay.messenger.render import replay
from plancheck.drawing.shapes import FAILURE, Circle
from plancheck.episodes.check import check_episode, replay_episode
from plancheck.episodes.log import read_episodes
from plancheck.errors import BadInputError
from plancheck.registry import get_world


def _log(tmp_path, world, instance, policy, seed):
    path = tmp_path / f"{world}-{policy}-{seed}.jsonl"
    assert main(["play", world, instance, "--policy", policy, "--seed", str(seed), "-o", str(path)]) == 0
    return next(iter(read_episodes(path)))


@pytest.mark.parametrize("name, instance, labels", [
    ("bandits", "BanditTwoArmedHighLowFixed", ("machine 1", "machine 2")),
    ("rps", "RockPaperScissorBasic", ("Rock", "Paper", "Scissor")),
])
def test_the_posterior_chart_plots_every_step_and_marks_each_choice(tmp_path, name, instance, labels):
    world = get_world(name)
    episode = _log(tmp_path, name, instance, "random", 5)
    steps = replay_episode(world.episodes, episode)
    still = world.render(world.episodes.instance(instance), episode).still
    for k, label in enumerate(labels):
        line = still.roles(f"series-p-{label.lower().replace(' ', '-')}-is-best")[0]
        assert len(line.points) == len(steps) == 50
        ys = [y for _, y in line.points]
        posterior = [s.transition.info["posterior"][k] for s in steps]
        # higher probability is drawn higher up (smaller y): the order of the points follows the posterior
        assert all((p > q) == (a < b) for (p, a), (q, b) in zip(zip(posterior, ys), zip(posterior[1:], ys[1:]))
                   if abs(p - q) > 1e-9)
    choices = [s for s in still.shapes if isinstance(s, Circle) and s.role in ("choice", "choice-against")]
    assert len(choices) == 50
    against = [s for s in choices if s.role == "choice-against"]
    regrets = [s for s in steps if s.transition.info["regret"] > 1e-12]
    assert len(against) == len(regrets) and all(s.stroke == FAILURE and s.fill == "#ffffff" for s in against)


def test_a_bandit_picture_needs_an_episode():
    world = get_world("bandits")
    with pytest.raises(BadInputError, match="--answer FILE"):
        world.render(world.episodes.instance("BanditTwoArmedHighLowFixed"))


@pytest.mark.parametrize("level", [1, 2, 3])
def test_messenger_draws_the_avatar_where_the_replay_puts_it(tmp_path, level):
    name = f"messenger-l{level}"
    world = get_world(name)
    policy = world.episodes.policies[0]
    episode = _log(tmp_path, name, f"MessengerL{level}", policy, 4)
    verdict = check_episode(world.episodes, episode)
    picture = world.render(world.episodes.instance(f"MessengerL{level}"), episode, verdict=verdict)
    from plancheck.domains.smartplay.messenger.instance import start

    shots = replay(start(level, 4), [s.action for s in episode.steps])
    cells = [shot.avatar for shot in shots if shot.avatar is not None]
    path = picture.still.roles("avatar-path")
    if len({c for c in cells}) > 1:
        board_points = path[0].points
        assert len(board_points) == len([c for i, c in enumerate(cells) if i == 0 or c != cells[i - 1]])
        (x0, y0), (x1, y1) = board_points[0], board_points[-1]
        (r0, c0), (r1, c1) = cells[0], cells[-1]
        assert (x1 - x0, y1 - y0) == pytest.approx(((c1 - c0) * 36, (r1 - r0) * 36))
    assert len(picture.frames) == len(episode.steps) + 1
    assert picture.still.roles("enemy-start")


def test_an_unseeded_messenger_log_is_not_drawn(tmp_path):
    from dataclasses import replace

    world = get_world("messenger-l2")
    episode = _log(tmp_path, "messenger-l2", "MessengerL2", world.episodes.policies[0], 1)
    unseeded = replace(episode, header=replace(episode.header, seed=None))
    with pytest.raises(BadInputError, match="seeded log"):
        world.render(world.episodes.instance("MessengerL2"), unseeded)
