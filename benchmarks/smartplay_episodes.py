"""How fast plancheck re-verifies SmartPlay Bandit and Rock Paper Scissors episode logs.

For each game it plays N seeded episodes (uniformly random moves), writes their logs, then times
(CPU time of this one process) reading and checking them step by step: replay of the seed,
reading of every reply, every observation, reward, score and info compared. Logs with every
step's prompt (what an agent process was shown) are timed too: each prompt is rebuilt and compared
byte for byte. With a SmartPlay checkout (``--smartplay PATH`` or ``$SMARTPLAY_SRC``), SmartPlay's
own environments step the same moves from the same seeds, for the ratio. The target is at least
20,000 steps per second.

    python benchmarks/smartplay_episodes.py [--episodes 400] [--smartplay PATH]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from plancheck.episodes.batch import evaluate_episodes  # noqa: E402
from plancheck.episodes.game import Replies  # noqa: E402
from plancheck.episodes.log import write_episodes  # noqa: E402
from plancheck.episodes.play import play  # noqa: E402
from plancheck.registry import get_world  # noqa: E402

TARGET = 20_000


class Prompted:
    """Wraps a policy: it is shown both questions' prompts, as an agent process is, and they are logged."""

    def __init__(self, inner):
        self.inner = inner

    def replies(self, step, game):
        reply = self.inner.replies(step, game).reply
        return Replies(reply, ("I think so.",), tuple(game.messages(["I think so."])))


def logs(world: str, episodes: int, folder: Path, prompted: bool) -> tuple[Path, list[list[int]]]:
    support = get_world(world).episodes
    instance = support.instance(support.env)
    settings = support.settings({})[0]
    played, moves = [], []
    for seed in range(episodes):
        game = support.game(instance, seed, settings)
        policy = support.policy("random", game, seed)
        episode = play(support, instance, seed, settings, Prompted(policy) if prompted else policy,
                       policy_name="reference:random", game=game)
        played.append(episode)
        moves.append([game.actions().index(step.action) for step in episode.steps])
    path = folder / f"{world}{'-prompts' if prompted else ''}.jsonl"
    write_episodes(path, played)
    return path, moves


def rate(world: str, path: Path, steps: int) -> float:
    support = get_world(world).episodes
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        items = list(evaluate_episodes(support, [path]))
        best = min(best, time.process_time() - start)
        assert all(item.verdict is not None and item.verdict.valid for item in items), "a log did not check"
    return steps / best


def smartplay_rate(world: str, moves: list[list[int]], source: Path) -> float:
    sys.path.insert(0, str(REPO / "tests"))
    from smartplay.original import episode, load

    original = load(source)
    make = original.Bandit if world == "bandits" else original.RPS
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        for seed, actions in enumerate(moves):
            episode(make, seed, actions)
        best = min(best, time.process_time() - start)
    return sum(map(len, moves)) / best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=400, help="episodes per game (50 steps each)")
    parser.add_argument("--smartplay", type=Path, default=os.environ.get("SMARTPLAY_SRC"),
                        help="a checkout of microsoft/SmartPlay (work tree or git directory), for the ratio")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for world in ("bandits", "rps"):
            for prompted in (False, True):
                path, moves = logs(world, args.episodes, Path(folder), prompted)
                steps = sum(map(len, moves))
                ours = rate(world, path, steps)
                line = (f"{world:8s} {'with prompts   ' if prompted else 'without prompts'} {steps} steps: "
                        f"{ours:,.0f} steps/s checked ({'meets' if ours >= TARGET else 'BELOW'} {TARGET:,})")
                if args.smartplay is not None and not prompted:
                    theirs = smartplay_rate(world, moves, Path(args.smartplay))
                    line += f"; SmartPlay's env steps {theirs:,.0f} steps/s; ratio check / SmartPlay " \
                            f"{ours / theirs:.2f}"
                print(line, flush=True)


if __name__ == "__main__":
    main()
