"""How fast plancheck re-verifies a Crafter log, against crafter's own stepping of the same actions.

The log: episodes of the ``survivor`` reference policy (crafter seeds 0, 1, ...) until they hold at
least ``--steps`` steps in all (one episode rarely lasts 10,000 steps: the player dies), written to a
JSONL file. Then, over the same episodes:

- crafter: a plain ``crafter.Env(seed=...)`` (rendering its pictures, as crafter always does), reset,
  SmartPlay's extra Noop, then every logged action (``env.step``);
- plancheck (replay): read the log file and check every episode by replaying its seed exactly
  (observations, rewards, scores, end flags compared), as ``plancheck check`` does;
- plancheck (text): the same episodes without their seeds, checked from what the text shows.

Both sides build each episode's world once (crafter's worldgen); the times are printed with and
without it, and the ratio plancheck / crafter (the target: at most 2).

    python benchmarks/crafter_verify.py [--steps 10000]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from plancheck.domains.smartplay.crafter import prompts  # noqa: E402
from plancheck.domains.smartplay.crafter.world import WORLD  # noqa: E402
from plancheck.episodes.check import check_episode  # noqa: E402
from plancheck.episodes.log import read_episodes, write_episodes  # noqa: E402
from plancheck.episodes.play import play  # noqa: E402


def make_log(path: Path, steps: int) -> list:
    episodes, instance = WORLD.episodes, WORLD.episodes.instance("Crafter")
    settings = episodes.settings({})[0]
    played, total, seed = [], 0, 0
    while total < steps:
        game = episodes.game(instance, seed, settings)
        episode = play(episodes, instance, seed, settings, episodes.policy("survivor", game, seed),
                       policy_name="reference:survivor", game=game)
        played.append(episode)
        total += len(episode.steps)
        seed += 1
    write_episodes(path, played)
    return played


def crafter_stepping(played: list) -> tuple[float, float]:
    """Seconds crafter takes for the same episodes: (in all, without building the worlds)."""
    import crafter

    start, worlds = time.perf_counter(), 0.0
    for episode in played:
        built = time.perf_counter()
        env = crafter.Env(seed=episode.header.seed)
        env.reset()
        worlds += time.perf_counter() - built
        env.step(0)  # SmartPlay's reset Noop
        for step in episode.steps:
            env.step(prompts.ACTIONS.index(step.action))
    total = time.perf_counter() - start
    return total, total - worlds


def plancheck_checking(path: Path, seeded: bool) -> tuple[float, float, int]:
    """Seconds to read and check the log: (in all, without building the worlds), episodes passed."""
    from plancheck.domains.smartplay.crafter import engine

    original = engine.make_env
    worlds = [0.0]

    def timed(*args, **kwargs):  # count the worldgen inside reset() of every env made
        env = original(*args, **kwargs)
        reset = env.reset

        def timed_reset():
            built = time.perf_counter()
            result = reset()
            worlds[0] += time.perf_counter() - built
            return result
        env.reset = timed_reset
        return env

    engine.make_env = timed
    engine._RESET.clear()  # no world kept from playing the log: every episode builds its world again
    try:
        start = time.perf_counter()
        passed = 0
        for episode in read_episodes(path):
            if not seeded:
                episode = replace(episode, header=replace(episode.header, seed=None))
            passed += check_episode(WORLD.episodes, episode).valid
        total = time.perf_counter() - start
    finally:
        engine.make_env = original
    return total, total - worlds[0], passed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=10000, help="steps the log holds at least")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "survivor.jsonl"
        played = make_log(path, args.steps)
        steps = sum(len(e.steps) for e in played)
        longest = max(len(e.steps) for e in played)
        print(f"log: {len(played)} episode(s) of the survivor policy, {steps} steps in all (longest {longest}), "
              f"{path.stat().st_size / 1e6:.1f} MB")
        crafter_all, crafter_steps = crafter_stepping(played)
        print(f"crafter stepping the same actions: {crafter_all:.2f} s ({crafter_steps:.2f} s without worldgen, "
              f"{1e3 * crafter_steps / steps:.3f} ms a step)")
        for seeded in (True, False):
            total, stepping, passed = plancheck_checking(path, seeded)
            how = "replay of the seed" if seeded else "from the text, no seed"
            print(f"plancheck check ({how}): {total:.2f} s ({stepping:.2f} s without worldgen, "
                  f"{1e3 * stepping / steps:.3f} ms a step), {passed}/{len(played)} episodes pass; "
                  f"ratio plancheck / crafter: {total / crafter_all:.2f} ({stepping / crafter_steps:.2f} without "
                  "worldgen)")


if __name__ == "__main__":
    main()
