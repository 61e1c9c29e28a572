"""Test-only harness: SmartPlay's own Crafter wrapper, run on crafter, as the reference for plancheck's texts.

Nothing of SmartPlay is committed here. At run time this script copies, from a local SmartPlay
checkout (``$SMARTPLAY_SRC``, as for the other SmartPlay games' cross-checks; else the mirror
``/work/.mirror/microsoft+SmartPlay/repo`` when it exists; a work tree, or a git directory read with
``git show HEAD:<path>``), into a temporary folder:

- ``src/smartplay/utils.py`` (HistoryTracker) and ``src/smartplay/crafter/crafter_env.py`` (the wrapper:
  ``describe_frame``, reset protocol, score), unchanged;
- SmartPlay's vendored crafter (``src/smartplay/crafter/crafter/``: ``env.py`` with its extra info keys,
  ``objects.py``, ``worldgen.py``, ``data.yaml``, ``recorder.py``, the textures), unchanged, except two
  modules taken from the installed crafter 1.8.3 because the vendored ones no longer import with
  today's libraries: ``constants.py`` (``ruamel.yaml.safe_load`` was removed in ruamel.yaml 0.18) and
  ``engine.py`` (identical but for ``import imageio.v3 as imageio``);
- the manual asset: the string inside ``crafter_ctxt.pkl`` is read with ``pickletools`` (never unpickled)
  and pickled again as a plain ``str`` for SmartPlay's ``pickle.load``.

Empty ``__init__`` files replace SmartPlay's package initialisers (they register gym ids), and a
minimal stand-in for ``gym`` 0.21 (only the names the wrapper imports) is put first on the path.

Run as a script it prints JSON lines: ``episodes`` plays seeded random actions through SmartPlay's
``Crafter`` (with plancheck's fixed despawn order installed on its world, so that both sides can be
compared past the first balancing pass); ``describe`` reads info dicts from stdin and prints
SmartPlay's ``describe_frame`` of each.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import pickle
import pickletools
import shutil
import subprocess
import sys
from pathlib import Path

DEFAULT_SOURCE = Path("/work/.mirror/microsoft+SmartPlay/repo")
PACKAGE = "smartplay_crafter_original"


def source() -> Path:
    return Path(os.environ.get("SMARTPLAY_SRC") or DEFAULT_SOURCE)


def available() -> bool:
    try:
        _show(source(), "src/smartplay/crafter/crafter_env.py")
    except (OSError, subprocess.CalledProcessError):
        return False
    return True


def _show(repo: Path, path: str) -> bytes:
    if (repo / path).is_file():
        return (repo / path).read_bytes()
    return subprocess.run(["git", "-C", str(repo), "show", f"HEAD:{path}"], check=True, capture_output=True).stdout


def _list(repo: Path, folder: str) -> list[str]:
    if (repo / folder).is_dir():
        return [str(p.relative_to(repo)) for p in sorted((repo / folder).rglob("*")) if p.is_file()]
    out = subprocess.run(["git", "-C", str(repo), "ls-tree", "-r", "--name-only", "HEAD", folder], check=True,
                         capture_output=True, text=True).stdout
    return out.split()


def _pickled_string(data: bytes) -> str:
    """The one str a pickle holds, read from its opcodes (the pickle is never executed)."""
    strings = [arg for op, arg, _ in pickletools.genops(data) if op.name in ("BINUNICODE", "SHORT_BINUNICODE",
                                                                               "BINUNICODE8", "UNICODE")]
    if len(strings) != 1:
        raise ValueError(f"expected one string in the manual pickle, found {len(strings)}")
    return strings[0]


_GYM = {
    "__init__.py": "from . import error, spaces, utils\n\nclass Env:\n    pass\n",
    "error.py": "",
    "spaces.py": ("import collections\nDiscrete = collections.namedtuple('Discrete', 'n')\n"
                  "Box = collections.namedtuple('Box', 'low, high, shape, dtype')\n"
                  "Dict = collections.namedtuple('Dict', 'spaces')\n"),
    "utils/__init__.py": "from . import seeding\n",
    "utils/seeding.py": "",
}


def build(target: Path, repo: Path | None = None) -> Path:
    """Write the harness packages (SmartPlay's wrapper and the gym stand-in) under ``target``."""
    import crafter

    repo = repo or source()
    installed = Path(crafter.__file__).parent
    root = target / PACKAGE
    game = root / "crafter"
    vendored = game / "crafter"
    (vendored / "assets").mkdir(parents=True, exist_ok=True)
    (game / "assets").mkdir(parents=True, exist_ok=True)
    for name, text in _GYM.items():
        path = target / "gym" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    (root / "__init__.py").write_text("")
    (game / "__init__.py").write_text("")
    (root / "utils.py").write_bytes(_show(repo, "src/smartplay/utils.py"))
    (game / "crafter_env.py").write_bytes(_show(repo, "src/smartplay/crafter/crafter_env.py"))
    manual = _pickled_string(_show(repo, "src/smartplay/crafter/assets/crafter_ctxt.pkl"))
    (game / "assets" / "crafter_ctxt.pkl").write_bytes(pickle.dumps(manual))
    folder = "src/smartplay/crafter/crafter/"
    for path in _list(repo, folder):
        relative = path[len(folder):]
        if relative.endswith(".py") and relative not in ("__init__.py", "env.py", "objects.py", "worldgen.py",
                                                          "recorder.py"):
            continue
        (vendored / relative).parent.mkdir(parents=True, exist_ok=True)
        (vendored / relative).write_bytes(_show(repo, path))
    for name in ("constants.py", "engine.py"):
        shutil.copyfile(installed / name, vendored / name)
    return target


def load(target: Path):
    """Import SmartPlay's ``crafter_env`` module from a folder made by :func:`build`."""
    sys.path.insert(0, str(target))
    return importlib.import_module(f"{PACKAGE}.crafter.crafter_env")


def _episodes(module, seeds: list[int], episodes: int, steps: int) -> None:
    import numpy as np

    from plancheck.domains.smartplay.crafter.engine import install_fixed_order

    for seed in seeds:
        env = module.Crafter(seed=seed)
        install_fixed_order(env)
        for episode in range(1, episodes + 1):
            rng = np.random.RandomState(1000 * seed + episode)
            _, info = env.reset()
            print(json.dumps({"seed": seed, "episode": episode, "manual": info["manual"], "obs": info["obs"],
                              "history": info["history"], "score": info["score"]}))
            for _ in range(steps):
                action = int(rng.randint(17))
                _, reward, done, info = env.step(action)
                print(json.dumps({"action": action, "obs": info["obs"], "history": info["history"],
                                  "score": info["score"], "reward": reward, "done": bool(done)}))
                if done:
                    break


def _describe(module) -> None:
    import numpy as np

    for line in sys.stdin:
        case = json.loads(line)
        info = {"semantic": np.array(case["semantic"], np.uint8), "player_pos": np.array(case["position"]),
                "player_facing": tuple(case["facing"]), "inventory": case["inventory"],
                "sleeping": case["sleeping"], "dead": case["dead"], "action": case["action"] or "noop",
                "view": np.array((9, 9))}
        print(json.dumps(module.describe_frame(info, case["action"])))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=("episodes", "describe"))
    parser.add_argument("--dir", type=Path, required=True, help="folder to build SmartPlay's wrapper in")
    parser.add_argument("--seeds", default="0")
    parser.add_argument("--episodes", type=int, default=1)
    parser.add_argument("--steps", type=int, default=300)
    args = parser.parse_args()
    module = load(build(args.dir))
    if args.mode == "episodes":
        _episodes(module, [int(s) for s in args.seeds.split(",")], args.episodes, args.steps)
    else:
        _describe(module)


if __name__ == "__main__":
    main()
