"""Run SmartPlay's own Messenger environment (test harness; the original code is never copied here).

Reads JSON lines on stdin, ``{"level": 1|2|3, "seed": n, "actions": [0-4, ...], "vgdl_seed": m}``, and
writes one JSON line per episode: the manual, every observation, reward and done, and the history SmartPlay
shows, exactly as SmartPlay's ``MessengerEnv`` returns them after ``random.seed(seed)``. Steps stop at the
first ``done``. For L2/L3 two things are made deterministic, as plancheck documents: the VGDL variant and
start-layout lists are sorted by file name (messenger-emma globs them in file-system order), and the VGDL
level's own generator is seeded with ``vgdl_seed`` after ``reset`` (SmartPlay leaves it unseeded).

    python original.py --smartplay SMARTPLAY_CHECKOUT --pyvgdl PYVGDL_CHECKOUT < episodes.jsonl

Needs numpy and pygame(-ce); gym 0.21 is replaced by a minimal stand-in (only what the code touches).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import random
import sys
import types


def install_gym_stand_in() -> None:
    registry: dict[str, tuple[str, dict]] = {}

    class Space:
        def __init__(self, *args, shape=None, **kwargs):
            self.shape = tuple(shape or ())

    def register(id, entry_point, kwargs=None, **_):  # noqa: A002 - gym's signature
        registry[id] = (entry_point, kwargs or {})

    def make(id):  # noqa: A002
        entry_point, kwargs = registry[id]
        module, attribute = entry_point.split(":")
        return getattr(importlib.import_module(module), attribute)(**kwargs)

    modules = {name: types.ModuleType(name) for name in (
        "gym", "gym.spaces", "gym.envs", "gym.envs.registration", "gym.utils", "gym.utils.seeding", "gym.error")}
    gym = modules["gym"]
    gym.Env = type("Env", (), {})
    gym.ObservationWrapper = type("ObservationWrapper", (gym.Env,), {})
    gym.Space = Space
    gym.make = make
    for name in ("Discrete", "Box", "Dict", "Space"):
        setattr(modules["gym.spaces"], name, Space)
    modules["gym.envs.registration"].register = register
    gym.spaces, gym.envs, gym.utils, gym.error = (modules["gym.spaces"], modules["gym.envs"], modules["gym.utils"],
                                                  modules["gym.error"])
    modules["gym.envs"].registration = modules["gym.envs.registration"]
    modules["gym.utils"].seeding = modules["gym.utils.seeding"]
    sys.modules.update(modules)


def load(smartplay: str, pyvgdl: str):
    """SmartPlay's ``MessengerEnv`` class, imported from the checkouts (its package under another name)."""
    install_gym_stand_in()
    sys.path[:0] = [f"{smartplay}/src", pyvgdl]
    package = types.ModuleType("original_smartplay")
    package.__path__ = [f"{smartplay}/src/smartplay"]
    sys.modules["original_smartplay"] = package
    return importlib.import_module("original_smartplay.messenger_emma.messenger_env").MessengerEnv


def run(env_class, request: dict, envs: dict) -> dict:
    level = request["level"]
    if level not in envs:
        env = envs[level] = env_class(lvl=level)
        if level > 1:
            env._env.init_states.sort()
            env._env.game_variants.sort(key=lambda variant: variant.path)
    env = envs[level]
    random.seed(request["seed"])
    with contextlib.redirect_stdout(sys.stderr):  # describe_frame prints when the avatar is gone
        _, info = env.reset()
        if level > 1:
            env._env.env.game.set_seed(request.get("vgdl_seed", request["seed"]))
        result = {"seed": request["seed"], "manual": info["manual"], "observations": [info["obs"]],
                  "rewards": [], "dones": [], "histories": [info["history"]]}
        for action in request["actions"]:
            _, reward, done, info = env.step(action)
            result["observations"].append(info["obs"])
            result["rewards"].append(float(reward))
            result["dones"].append(bool(done))
            result["histories"].append(info["history"])
            if done:
                break
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--smartplay", required=True, help="a checkout of microsoft/SmartPlay")
    parser.add_argument("--pyvgdl", required=True, help="a checkout of ahjwang/py-vgdl")
    args = parser.parse_args()
    env_class = load(args.smartplay, args.pyvgdl)
    envs: dict = {}
    for line in sys.stdin:
        if line.strip():
            print(json.dumps(run(env_class, json.loads(line), envs)), flush=True)


if __name__ == "__main__":
    main()
