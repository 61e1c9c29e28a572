"""SmartPlay's own code, loaded from a checkout of microsoft/SmartPlay for cross-checks (never copied here).

``SMARTPLAY_SRC`` names the checkout: a work tree, or a git directory (its HEAD is read with
``git show``). Loaded: ``src/smartplay/utils.py``, the bandit and Rock Paper Scissors environments,
and, from ``examples/experiment.py``, ``compose_ingame_prompt``, ``questions`` and ``match_act``
(taken out of the script by its syntax tree, since the script itself needs wandb and an LLM client).
gym 0.21 does not install on this Python; a minimal stand-in serves the three names these files
use (``gym.Env``, ``gym.spaces.Discrete``, ``gym.utils.seeding.np_random``), none of which draws
from the global generators.
"""

from __future__ import annotations

import ast
import importlib.util
import os
import random
import subprocess
import sys
import types
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

FILES = {"utils": "src/smartplay/utils.py", "bandit": "src/smartplay/bandits/bandit.py",
         "rps": "src/smartplay/rock_paper_scissors/rock_paper_scissor.py", "experiment": "examples/experiment.py"}
PACKAGE = "smartplay_original"


def source_root() -> Path | None:
    """The checkout named by ``SMARTPLAY_SRC``, or None."""
    root = os.environ.get("SMARTPLAY_SRC")
    return Path(root) if root else None


def read(root: Path, path: str) -> str:
    """A file of the checkout: from the work tree, else from the git directory's HEAD."""
    if (root / path).is_file():
        return (root / path).read_text(encoding="utf-8")
    done = subprocess.run(["git", "--git-dir", str(root), "show", f"HEAD:{path}"], capture_output=True, text=True)
    if done.returncode != 0:
        raise FileNotFoundError(f"{path} is not in {root}: {done.stderr.strip()}")
    return done.stdout


def _gym() -> dict[str, types.ModuleType]:
    gym, spaces, utils, seeding = (types.ModuleType(name) for name in ("gym", "gym.spaces", "gym.utils",
                                                                        "gym.utils.seeding"))

    class Env:
        pass

    class Discrete:
        def __init__(self, n: int):
            self.n = n

        def contains(self, x: Any) -> bool:
            return isinstance(x, (int, np.integer)) and 0 <= x < self.n

    def np_random(seed=None):  # gym 0.21 seeds a private RandomState from os.urandom: no global draw
        return np.random.RandomState(), seed

    gym.Env, gym.spaces, gym.utils = Env, spaces, utils
    spaces.Discrete = Discrete
    utils.seeding, seeding.np_random = seeding, np_random
    return {"gym": gym, "gym.spaces": spaces, "gym.utils": utils, "gym.utils.seeding": seeding}


def _module(name: str, source: str, path: str) -> types.ModuleType:
    spec = importlib.util.spec_from_loader(name, loader=None)
    module = importlib.util.module_from_spec(spec)
    module.__package__ = name.rpartition(".")[0]
    sys.modules[name] = module
    exec(compile(source, path, "exec"), module.__dict__)
    return module


@dataclass
class Original:
    """SmartPlay's classes and harness functions."""

    Bandit: type
    RPS: type
    compose_ingame_prompt: Any
    questions: list[str]
    match_act_source: ast.FunctionDef

    def match_act(self, action_list: list[str], output: str) -> int:
        """SmartPlay's ``match_act`` (a closure over ``env`` in the script) for this action list."""
        namespace = {"env": types.SimpleNamespace(action_list=action_list)}
        exec(compile(ast.Module([self.match_act_source], []), FILES["experiment"], "exec"), namespace)
        return namespace["match_act"](output)

    def episode(self, make: type, seed: int, actions: list[int]) -> tuple[dict, list[tuple[int, bool, dict]]]:
        """See :func:`episode`."""
        return episode(make, seed, actions)


def load(root: Path) -> Original:
    """Load SmartPlay's code from ``root`` (see the module docstring)."""
    saved = {name: sys.modules.get(name) for name in ("gym", "gym.spaces", "gym.utils", "gym.utils.seeding")}
    sys.modules.update(_gym())
    try:
        for package in (PACKAGE, f"{PACKAGE}.bandits", f"{PACKAGE}.rock_paper_scissors"):
            module = types.ModuleType(package)
            module.__path__ = []
            sys.modules[package] = module
        _module(f"{PACKAGE}.utils", read(root, FILES["utils"]), FILES["utils"])
        bandit = _module(f"{PACKAGE}.bandits.bandit", read(root, FILES["bandit"]), FILES["bandit"])
        rps = _module(f"{PACKAGE}.rock_paper_scissors.rock_paper_scissor", read(root, FILES["rps"]), FILES["rps"])
    finally:
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module
    tree = ast.parse(read(root, FILES["experiment"]))
    namespace: dict[str, Any] = {}
    wanted = [node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name == "compose_ingame_prompt"
              or isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "questions" for t in node.targets)]
    exec(compile(ast.Module(wanted, []), FILES["experiment"], "exec"), namespace)
    run = next(node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name == "run")
    match_act = next(node for node in ast.walk(run) if isinstance(node, ast.FunctionDef) and node.name == "match_act")
    return Original(bandit.BanditTwoArmedHighLowFixed, rps.RockPaperScissorBasic, namespace["compose_ingame_prompt"],
                    namespace["questions"], match_act)


def episode(make: type, seed: int, actions: list[int]) -> tuple[dict, list[tuple[int, bool, dict]]]:
    """SmartPlay's episode: both global generators seeded with ``seed``, a fresh environment made and
    reset, then ``actions`` taken. The reset info and (reward, done, info) of each step."""
    random.seed(seed)
    np.random.seed(seed)
    env = make()
    _, info = env.reset()
    steps = []
    for action in actions:
        _, reward, done, after = env.step(action)
        steps.append((reward, done, after))
    return info, steps


COLUMNS = ["Context", "Step", "OBS", "History", "Score", "Reward", "Total Reward"]


def run_table(original: Original, make: type, seed: int, llm: Any) -> tuple[dict[str, Any], dict]:
    """One episode as SmartPlay's harness (``run`` in ``examples/experiment.py``) plays and logs it,
    with SmartPlay's environment, prompt and ``match_act``; ``llm(messages) -> text`` answers (it
    must not draw from the global generators). Returns the wandb table as JSON and the final info."""
    random.seed(seed)
    np.random.seed(seed)
    env = make()
    _, info = env.reset()
    step, reward, rewards, done, rows = 0, 0, [], False, []
    while step < env.default_steps:
        row = [info["manual"], step, info["obs"], info["history"], info["score"], reward, sum(rewards)]
        if done:
            break
        past: list[tuple[str, str]] = []
        for question in original.questions:
            messages, _ = original.compose_ingame_prompt(info, question, past)
            answer = llm(messages)
            past.append((question, answer))
            row.append(answer)
        action = original.match_act(env.action_list, past[-1][1])
        row.append(env.action_list[action])
        _, reward, done, info = env.step(action)
        rewards.append(reward)
        step += 1
        rows.append([int(x) if isinstance(x, np.integer) else x for x in row])
    return {"_type": "table", "columns": COLUMNS + original.questions + ["Action"], "data": rows}, info
