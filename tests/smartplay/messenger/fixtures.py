"""SmartPlay's own Messenger episodes, recorded as digests, for comparing plancheck's re-implementation.

``original_episodes.jsonl.gz`` (beside this file) holds episodes that SmartPlay's ``MessengerEnv`` played
(through ``original.py``): per episode the level, seed, the actions taken, a digest of the manual and, per
step, a digest of the observation and history, the reward and done. Regenerate it with

    python tests/smartplay/messenger/fixtures.py --smartplay SMARTPLAY_CHECKOUT --pyvgdl PYVGDL_CHECKOUT

Action sequences: uniform random actions from ``random.Random(1_000_000 + seed)`` (episodes of every level),
plus sequences given in ``policy_actions.json`` when present (episodes played by plancheck's reference policy,
so that wins are covered too).
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import random
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
FIXTURE = HERE / "original_episodes.jsonl.gz"
POLICY_ACTIONS = HERE / "policy_actions.json"
STEP_LIMITS = {1: 4, 2: 64, 3: 128}
RANDOM_EPISODES = {1: 300, 2: 200, 3: 200}


def digest(*texts: str) -> str:
    return hashlib.sha256("\0".join(texts).encode()).hexdigest()[:10]


def requests() -> list[dict]:
    found = []
    for level, count in RANDOM_EPISODES.items():
        for seed in range(count):
            rng = random.Random(1_000_000 + seed)
            found.append({"level": level, "seed": seed, "source": "random",
                          "actions": [rng.randrange(5) for _ in range(STEP_LIMITS[level])]})
    if POLICY_ACTIONS.is_file():
        found += [{**entry, "source": "policy"} for entry in json.loads(POLICY_ACTIONS.read_text())]
    return found


def record(request: dict, result: dict) -> dict:
    steps = len(result["rewards"])
    return {"level": request["level"], "seed": request["seed"], "source": request["source"],
            "actions": request["actions"][:steps], "manual": digest(result["manual"]),
            "steps": [[digest(obs, history)] for obs, history in
                      zip(result["observations"], result["histories"], strict=True)],
            "rewards": result["rewards"], "dones": result["dones"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--smartplay", required=True)
    parser.add_argument("--pyvgdl", required=True)
    args = parser.parse_args()
    wanted = requests()
    done = subprocess.run([sys.executable, str(HERE / "original.py"), "--smartplay", args.smartplay,
                           "--pyvgdl", args.pyvgdl], input="".join(json.dumps(r) + "\n" for r in wanted),
                          capture_output=True, text=True, check=True)
    results = [json.loads(line) for line in done.stdout.splitlines()]
    with gzip.open(FIXTURE, "wt", encoding="utf-8") as out:
        for request, result in zip(wanted, results, strict=True):
            out.write(json.dumps(record(request, result)) + "\n")
    print(f"{len(results)} episodes written to {FIXTURE}")


if __name__ == "__main__":
    main()
