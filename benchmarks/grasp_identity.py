"""Byte-for-byte comparison of ``plancheck evaluate grasp`` and ``check grasp --json`` between two checkouts.

A speed change must not change a single output byte. This runs this checkout's plancheck and another's
(``--against``, e.g. the main checkout) on the same inputs and compares standard output, standard error,
exit codes and every written file:

* the 32,000 published baseline answers (all 40 files), the 1,600 GPT-3.5 free-text responses;
* a file of broken and odd records (not JSON, unknown instances, no answer, failed requests, bad baseline
  fields, a list past the step limit, unknown and diagonal tokens, duplicates, synonyms);
* ``--fuzz N`` seeded random records: token lists and texts built from GRASP's action words, synonyms, unknown
  words and separators, in every record format (baseline, plain, OpenAI batch), on random grids and settings;

each as JSON lines to a file and to standard output, ``--summary``, ``--summary --json``, ``--stats --json``,
``--semantics benchmark``, ``--duplicates first``, ``--unknown skip``, ``--format csv``; and ``check grasp
--json`` (the per-step trace included), ``--steps``, ``--feedback`` and ``--semantics benchmark`` on the
first answers of the fuzz file.

    python benchmarks/grasp_identity.py --against /work/main [--data ../shared/data] [--fuzz 3000]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))  # the test suite's broken records

from tests.grasp.test_evaluate import BROKEN_RECORDS  # noqa: E402

WORDS = ("up", "down", "left", "right", "upleft", "upright", "downleft", "downright", "take", "drop", "UP", "Take",
         "DROP", "north", "move_left", "pick up", "up-left", "jump", "", " up", "stay", "TAKE ", "right\n", "é")
SETS = ("inner_cluster_block", "inner_random_free", "inner_spiral_block", "outer_upDown_free")


def broken_records() -> str:
    lines = [
        *BROKEN_RECORDS,
        json.dumps({"instance": "inner_random_free.jsonl-4-1-1-1", "answer": ["up", "take", "drop"]}),
        json.dumps({"instance": "inner_random_free.jsonl-6-0-1-1", "answer": ["upleft", "jump", "take"] * 9,
                    "model": "m", "temperature": 0.7}),
        json.dumps({"instance": "inner_random_free.jsonl-7", "answer": ["up"]}),
        json.dumps({"instance": "inner_random_free.jsonl-8-1-0-1", "answer": ["up", 3]}),
        json.dumps({"instance": "inner_random_free.jsonl-9-1-0-1", "answer": []}),
        json.dumps({"baseline": "greedy", "index": "0", "answer": ["up"], "movement_prompt": 4,
                    "energy_limit_prompt": 100, "cost_of_step_prompt": 0}),
        "",
        json.dumps({"instance": "inner_random_free.jsonl-10-0-0-0", "response": "UP, TAKE, DROP, move north",
                    "model": "x", "line": 5, "source": "elsewhere"}),
    ]
    return "\n".join(lines) + "\n"


def fuzz_records(count: int, seed: int) -> str:
    rng = random.Random(seed)
    lines = []
    for _ in range(count):
        grid, flags = rng.randrange(100), [rng.randrange(2) for _ in range(3)]
        instance = f"{rng.choice(SETS)}.jsonl-{grid}-{flags[0]}-{flags[1]}-{flags[2]}"
        tokens = [rng.choice(WORDS) for _ in range(rng.choice((0, 1, 5, 12, 19, 20, 21, 30)))]
        kind = rng.random()
        if kind < 0.4:
            record = {"instance": instance, "answer": tokens, "model": rng.choice(("a", "b"))}
        elif kind < 0.7:
            separator = rng.choice((", ", " ", "\n", "; "))
            text = separator.join(tokens)
            record = {"id": instance, "response": rng.choice((f"[{text}]", text, f"Answer: [{text}]"))}
        elif kind < 0.85:
            text = ", ".join(tokens)
            record = {"custom_id": instance, "response": {"status_code": 200, "body": {
                "model": "gpt-x", "choices": [{"message": {"content": f"Plan: [{text}]"}, "finish_reason": "stop"}]}}}
        else:
            record = {"instance": instance, "answer": tokens, "extra": rng.random()}
        lines.append(json.dumps(record))
    return "\n".join(lines) + "\n"


def run(checkout: Path, args: list[str], out: Path | None) -> tuple[int, bytes, bytes, bytes]:
    """(exit code, stdout, stderr, the output file's bytes) of one plancheck command run in ``checkout``."""
    if out is not None and out.exists():
        out.unlink()
    quiet = ["--no-progress"] if args[0] == "evaluate" else []
    done = subprocess.run([sys.executable, "-m", "plancheck", *args, *quiet], cwd=checkout,
                          capture_output=True, env={**os.environ, "PYTHONPATH": str(checkout)})
    return done.returncode, done.stdout, done.stderr, out.read_bytes() if out is not None and out.exists() else b""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", type=Path, required=True, help="the other checkout (e.g. /work/main)")
    parser.add_argument("--data", type=Path,
                        default=Path(os.environ.get("PLANCHECK_DATA", REPO.parent / "shared" / "data")))
    parser.add_argument("--fuzz", type=int, default=3000, help="random records in the fuzz file")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    data = args.data.resolve()
    baselines = [str(p) for b in ("greedy", "random") for p in sorted((data / "grasp/baselines" / b).glob("*.jsonl"))]
    if len(baselines) != 40:
        sys.exit(f"expected the 40 baseline files under {data}/grasp/baselines, found {len(baselines)}")
    with tempfile.TemporaryDirectory(prefix="grasp-identity-") as folder:
        tmp = Path(folder)
        (tmp / "broken.jsonl").write_text(broken_records())
        (tmp / "fuzz.jsonl").write_text(fuzz_records(args.fuzz, args.seed))
        sets = {"baselines": baselines, "gpt35": [str(data / "grasp/llm/gpt35_responses.jsonl")],
                "broken": [str(tmp / "broken.jsonl")], "fuzz": [str(tmp / "fuzz.jsonl")]}
        forms = {"jsonl": ["-o", "{out}.jsonl"], "stdout": [], "summary": ["--summary"],
                 "summary-json": ["--summary", "--json"], "stats-json": ["--stats", "--json"],
                 "benchmark": ["--semantics", "benchmark", "-o", "{out}.jsonl"],
                 "first": ["--duplicates", "first", "-o", "{out}.jsonl"],
                 "skip": ["--unknown", "skip", "-o", "{out}.jsonl"], "csv": ["--format", "csv", "-o", "{out}.csv"]}
        commands = [(f"evaluate {name} {form}", ["evaluate", "grasp", *files, "--data", str(data), *extra])
                    for name, files in sets.items() for form, extra in forms.items()
                    if not (name == "baselines" and form in ("stats-json",))]
        fuzz_lines = (tmp / "fuzz.jsonl").read_text().splitlines()[:24]
        for number, line in enumerate(fuzz_lines):
            record = json.loads(line)
            instance = record.get("instance") or record.get("id") or record.get("custom_id")
            answer = record.get("answer") or record.get("response")
            if isinstance(answer, list):
                answer = "[" + ", ".join(answer) + "]"
            if isinstance(answer, str):
                (tmp / f"answer{number}.txt").write_text(answer)
                for form in (["--json"], ["--steps"], ["--feedback"], ["--semantics", "benchmark"]):
                    commands.append((f"check {number} {' '.join(form)}", ["check", "grasp", instance,
                                                                          str(tmp / f"answer{number}.txt"),
                                                                          "--data", str(data), *form]))
        differ = 0
        for label, command in commands:
            outputs = []
            for side, checkout in (("this", REPO), ("other", args.against)):
                out = None
                filled = []
                for part in command:
                    if "{out}" in part:
                        out = Path(part.format(out=tmp / f"out-{side}"))
                        part = str(out)
                    filled.append(part)
                code, stdout, stderr, written = run(checkout, filled, out)
                outputs.append((code, stdout, stderr.replace(b"out-this", b"out-other"), written))
            same = outputs[0] == outputs[1]
            differ += not same
            code, stdout, stderr, written = outputs[0]
            print(f"{'same' if same else 'DIFFERENT'}  {label}: exit {code}, {len(stdout)} B stdout, "
                  f"{len(stderr)} B stderr, {len(written)} B written", flush=True)
        print(f"{len(commands)} commands, {differ} differ")
        sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
