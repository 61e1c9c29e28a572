"""Start-up cost of the command line: import time (``python -X importtime``) and CPU time, against a bare
interpreter, for ``plancheck --help`` and a single ``check`` of each one-shot world.

Import time is the sum of the top-level imports that ``-X importtime`` reports, less what a bare
``python -c pass`` imports (site, encodings: the interpreter's own); CPU time is the process's user+system
time, less the bare interpreter's. Each figure is the minimum over ``--runs`` rounds, each round running every
command once (the machine may be loaded: the minimum is the run least disturbed, and a disturbed stretch spoils
one run of each command, not every run of one). Bytecode is compiled first (as ``pip install`` does).

    python benchmarks/startup.py [--runs 15] [--data ../shared/data]
"""

from __future__ import annotations

import argparse
import compileall
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TARGET = 0.1  # seconds of import time (issue 22)
_LINE = re.compile(r"import time:\s+\d+ \|\s+(\d+) \| (\S.*)$")


def _once(args: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(import seconds, CPU seconds) of one run of ``python -X importtime ARGS``."""
    process = subprocess.Popen([sys.executable, "-X", "importtime", *args], cwd=REPO, env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    err = process.stderr.read()
    _, _, usage = os.wait4(process.pid, 0)
    imports = sum(int(m.group(1)) for line in err.splitlines() if (m := _LINE.match(line))) / 1e6
    return imports, usage.ru_utime + usage.ru_stime


def measure(commands: dict[str, list[str]], runs: int, env: dict[str, str]) -> dict[str, tuple[float, float]]:
    """The minimum (import seconds, CPU seconds) of each command over ``runs`` rounds; each round runs every
    command once, so a disturbed stretch of time spoils one run of each rather than every run of one."""
    results: dict[str, list[tuple[float, float]]] = {label: [] for label in commands}
    for _ in range(runs):
        for label, args in commands.items():
            results[label].append(_once(args, env))
    return {label: (min(r[0] for r in rs), min(r[1] for r in rs)) for label, rs in results.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data")
    args = parser.parse_args()
    compileall.compile_dir(REPO / "plancheck", quiet=1)
    env = {**os.environ, "PLANCHECK_DATA": str(args.data.resolve())}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    answer = Path(tempfile.mkdtemp()) / "answer.txt"
    answer.write_text("[DOWN, TAKE, UP, DROP]\n")
    hanoi = answer.with_name("hanoi.txt")
    hanoi.write_text("A->C\n")
    mango = answer.with_name("mango.txt")
    mango.write_text('[{"location_before": "West of House", "action": "north", "location_after": "North of House"}]\n')
    commands = {
        "plancheck --help": ["-m", "plancheck", "--help"],
        "plancheck check grasp": ["-m", "plancheck", "check", "grasp", "inner_cluster_block.jsonl-0-0-0-0",
                                  str(answer)],
        "plancheck check hanoi": ["-m", "plancheck", "check", "hanoi", "hanoi-1", str(hanoi)],
        "plancheck check mango": ["-m", "plancheck", "check", "mango",
                                  "zork1/df/abff93fa369a032276d6dc3dd28517a97ae4e506858437b833e43ebd0c16542e",
                                  str(mango)],
        "import plancheck": ["-c", "import plancheck"],
    }
    timings = measure({"bare": ["-c", "pass"], **commands}, args.runs, env)
    bare_imports, bare_cpu = timings.pop("bare")
    print(f"load average: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs; minimum of {args.runs} rounds; "
          f"a bare interpreter: {1000 * bare_imports:.0f} ms of imports, {1000 * bare_cpu:.0f} ms CPU")
    print(f"{'command':<24} {'import ms':>10} {'CPU ms':>8} {'target':>8}")
    for label, (imports, cpu) in timings.items():
        imports, cpu = imports - bare_imports, cpu - bare_cpu
        print(f"{label:<24} {1000 * imports:>10.0f} {1000 * cpu:>8.0f} {imports / TARGET:>7.2f}x")

if __name__ == "__main__":
    main()
