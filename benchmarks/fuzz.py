"""Fuzz every world's readers long, and measure the worst time and memory per input size (issue 22).

For each world that takes answers: answers of every shape in SHAPES at every size (``check``), a record file
holding one such answer (read and evaluated), and hostile record lines (deep nesting, a huge number, a long
list, NaN) that must be refused. For each interactive world: a reply of every shape and size inside its corpus
episode (``check`` of the log). For ``validate``: plans and goals of every size. Time is measured without
tracemalloc (CPU time of this process, so that other jobs on the machine do not count), the peak of Python's
memory in a second run with it. Then a crash hunt: ``--rounds`` random
small inputs per world; any exception other than BadInputError is counted and shown (there must be none).

    python benchmarks/fuzz.py [--sizes 1000,10000,100000,1000000] [--rounds 20000] [--worlds grasp,hanoi]
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))  # this checkout's plancheck, not an installed one

from plancheck.episodes.check import check_episode  # noqa: E402
from plancheck.errors import BadInputError  # noqa: E402
from plancheck.files import data_folder  # noqa: E402
from plancheck.registry import get_world, world_names, world_package  # noqa: E402
from plancheck.verifier.batch import evaluate_records  # noqa: E402
from plancheck.verifier.pddl_validate import validate_text  # noqa: E402
from plancheck.world import Capability, EpisodeExample, Example  # noqa: E402

CORPUS = REPO / "tests" / "data" / "pddl"
QUICK = {"babyai": {"no_optimal": True}}
PIECES = ("[", "]", "{", "}", "(", ")", "'", '"', "`", "```", ",", ";", ":", ".", "-", "->", "*", "**", "#", "\\",
          "\\u", "\\ud800", "\n", "\r\n", "\t", " ", "1.", "- ", "\u2028", "é", "İ", "UP", "take", "A->C", "left",
          "forward", "Act: turn_left", "The LLM's action sequence is: ", "location_before", "action", "9" * 30)


def _corpus(name: str) -> list:
    found = importlib.import_module(world_package(name) + ".examples").EXAMPLES
    return list(found.get(name, ()) if isinstance(found, dict) else found)


def _fill(unit: str, size: int) -> str:
    return (unit * (size // max(1, len(unit)) + 1))[:size]


def _stretched(text: str, size: int) -> str:
    """The example answer with its list (the text between the first '[' and the last ']') or its last line
    repeated until the answer has ``size`` characters."""
    if "[" in text and "]" in text:
        head, tail = text[:text.index("[") + 1], text[text.rindex("]"):]
        inside = text[len(head):text.rindex("]")] + ", "
    else:
        head, tail, inside = text, "", "\n" + text.rsplit("\n", 1)[-1]
    return head + _fill(inside, size - len(head) - len(tail)) + tail


SHAPES: dict[str, Callable[[str, int, random.Random], str]] = {
    "examples": lambda example, n, rng: _fill(example + "\n", n),
    "long list": lambda example, n, rng: _stretched(example, n),
    "open brackets": lambda example, n, rng: "[" * n,
    "bracket pairs": lambda example, n, rng: "[]" * (n // 2),
    "nested": lambda example, n, rng: "[" * (n // 2) + "]" * (n // 2),
    "braces": lambda example, n, rng: "{" * n,
    "quotes": lambda example, n, rng: "'" * n,
    "backslashes": lambda example, n, rng: "\\" * n,
    "newlines": lambda example, n, rng: "\n" * n,
    "digits": lambda example, n, rng: "9" * n,
    "words": lambda example, n, rng: _fill("hello world ", n),
    "numbered": lambda example, n, rng: _fill("".join(f"{i}. UP\n" for i in range(1, 1000)), n),
    "pieces": lambda example, n, rng: _fill("".join(rng.choice(PIECES) for _ in range(n // 4 + 1)), n),
    "unicode": lambda example, n, rng: "".join(chr(rng.randrange(0x20, 0x30000)) for _ in range(n)),
}


def measure(call: Callable[[], object], memory: bool) -> tuple[float, float | None, str]:
    """CPU seconds of one call (this process's: other jobs on the machine do not count), its peak Python memory
    in MB (a second call, under tracemalloc), and its outcome."""
    started = time.process_time()
    try:
        call()
        outcome = "ok"
    except BadInputError as error:
        outcome = f"refused: {str(error)[:60]}"
    seconds = time.process_time() - started
    if not memory:
        return seconds, None, outcome
    tracemalloc.start()
    try:
        call()
    except BadInputError:
        pass
    peak = tracemalloc.get_traced_memory()[1] / 1e6
    tracemalloc.stop()
    return seconds, peak, outcome


def _row(world: str, kind: str, size: int, shape: str, seconds: float, peak: float | None, outcome: str) -> dict:
    return {"world": world, "kind": kind, "size": size, "shape": shape, "seconds": seconds, "mb": peak,
            "outcome": outcome}


def answer_rows(name: str, sizes: list[int], memory: bool, folder: Path, data: Path | None) -> list[dict]:
    """``check`` of every shape and size, and the record file of each size (read and evaluated)."""
    world = get_world(name)
    example = next(e for e in _corpus(name) if isinstance(e, Example) and isinstance(e.answer, str))
    instance = next(iter(world.instances([example.instance], data)))
    options = QUICK.get(name, {})
    rng, rows = random.Random(0), []
    world.check(instance, example.answer, **options)  # grammars compiled, data loaded: not measured
    for size in sizes:
        for shape, make in SHAPES.items():
            text = make(example.answer, size, rng)
            rows.append(_row(name, "answer", size, shape,
                             *measure(lambda: world.check(instance, text, **options), memory)))
        path = folder / f"{name}.jsonl"
        text = SHAPES["long list"](example.answer, size, rng)
        path.write_text(json.dumps({"instance": example.instance, "response": text}) + "\n", encoding="utf-8")
        rows.append(_row(name, "record file", size, "long list", *measure(
            lambda: list(evaluate_records(world, world.read_answers(path, data), data, **options)), memory)))
        for shape, line in hostile_lines(example.instance, size).items():
            path.write_text(line + "\n", encoding="utf-8")
            rows.append(_row(name, "hostile record", size, shape, *measure(
                lambda: list(evaluate_records(world, world.read_answers(path, data), data, **options)), memory)))
    return rows


def hostile_lines(instance: str, size: int) -> dict[str, str]:
    head = json.dumps({"instance": instance})[:-1] + ', "x": '
    return {"deep nesting": head + "[" * (size // 2) + "]" * (size // 2) + "}",
            "huge number": head + "9" * size + "}",
            "long list": head + "[" + ", ".join(['"UP"'] * (size // 6)) + "]}",
            "NaN": head + "[" + ", ".join(["NaN"] * (size // 5)) + "]}"}


def episode_rows(name: str, sizes: list[int], memory: bool) -> list[dict]:
    """``check`` of the corpus episode with the first reply replaced by every shape and size."""
    world = get_world(name)
    episode = next(e for e in _corpus(name) if isinstance(e, EpisodeExample)).episode
    rng, rows = random.Random(0), []
    check_episode(world.episodes, episode)  # warmed up: not measured
    for size in sizes:
        for shape, make in SHAPES.items():
            text = make(episode.steps[0].reply or "", size, rng)
            changed = replace(episode, steps=(replace(episode.steps[0], reply=text),) + episode.steps[1:])
            rows.append(_row(name, "episode reply", size, shape,
                             *measure(lambda: check_episode(world.episodes, changed), memory)))
    return rows


def validate_rows(sizes: list[int], memory: bool) -> list[dict]:
    """``validate`` of a plan file and of a goal of every size (the gripper task of the test corpus)."""
    domain = (CORPUS / "gripper" / "domain.pddl").read_text()
    validate_text(domain, (CORPUS / "gripper" / "p01.pddl").read_text(), (CORPUS / "gripper" / "p01.plan").read_text())
    problem = (CORPUS / "gripper" / "p01.pddl").read_text()
    plan = (CORPUS / "gripper" / "p01.plan").read_text()
    start = problem.index("(", problem.index("(:goal") + 1)
    end = _closing(problem, start)
    rows = []
    for size in sizes:
        long_plan = plan * max(1, size // len(plan))  # whole copies: read to the end, invalid from the second
        rows.append(_row("validate", "plan", size, "plan repeated",
                         *measure(lambda: validate_text(domain, problem, long_plan), memory)))
        goal = problem[start:end]
        long_goal = problem[:start] + "(and " + " ".join([goal] * max(1, size // len(goal))) + ")" + problem[end:]
        rows.append(_row("validate", "goal", size, "and of goals",
                         *measure(lambda: validate_text(domain, long_goal, plan), memory)))
    return rows


def _closing(text: str, start: int) -> int:
    """The offset just after the parenthesis that closes the one at ``start``."""
    depth = 0
    for offset in range(start, len(text)):
        depth += {"(": 1, ")": -1}.get(text[offset], 0)
        if depth == 0:
            return offset + 1
    raise ValueError("unbalanced")


def crash_hunt(name: str, rounds: int, rng: random.Random, data: Path | None) -> list[str]:
    """Random small inputs of every kind; the exceptions that are not BadInputError."""
    world, crashes = get_world(name), []
    answers = [e for e in _corpus(name) if isinstance(e, Example) and isinstance(e.answer, str)]
    episodes = [e.episode for e in _corpus(name) if isinstance(e, EpisodeExample)]
    instance = next(iter(world.instances([answers[0].instance], data))) if answers else None
    for _ in range(rounds):
        shape = rng.choice(list(SHAPES))
        size = rng.choice((0, 1, 5, 20, 100, 1000))
        try:
            if answers:
                example = rng.choice(answers)
                text = SHAPES[shape](example.answer, size, rng)
                if rng.random() < 0.5:  # spliced into a real answer
                    at = rng.randrange(len(example.answer) + 1)
                    text = example.answer[:at] + text + example.answer[at:]
                world.check(instance, text, **QUICK.get(name, {}))
            else:
                episode = rng.choice(episodes)
                k = rng.randrange(len(episode.steps))
                text = SHAPES[shape](episode.steps[k].reply or "", size, rng)
                steps = list(episode.steps)
                steps[k] = replace(steps[k], reply=text)
                check_episode(world.episodes, replace(episode, steps=tuple(steps)))
        except BadInputError:
            pass
        except Exception as error:  # a crash: what plancheck must never do
            crashes.append(f"{type(error).__name__}: {error} (shape {shape}, size {size})")
    return crashes


def _size(value: int) -> str:
    if value >= 1_000_000:
        return f"{value // 1_000_000} MB"
    return f"{value // 1000} kB" if value >= 1000 else f"{value} B"


def report(rows: list[dict], sizes: list[int]) -> str:
    """Per world and kind of input: the worst time and the worst peak memory at each size, with the shape."""
    lines = [f"{'world':14s} {'input':15s} " + "  ".join(f"{_size(s):>30s}" for s in sizes)]
    for key in dict.fromkeys((r["world"], r["kind"]) for r in rows):
        cells = []
        for size in sizes:
            found = [r for r in rows if (r["world"], r["kind"]) == key and r["size"] == size]
            slow = max(found, key=lambda r: r["seconds"])
            heavy = max(found, key=lambda r: r["mb"] or 0)
            memory = f"{heavy['mb']:.0f} MB" if heavy["mb"] is not None else "-"
            cells.append(f"{slow['seconds']:6.2f} s ({slow['shape'][:11]}) {memory:>7s}")
        lines.append(f"{key[0]:14s} {key[1]:15s} " + "  ".join(f"{c:>30s}" for c in cells))
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000,10000,100000,1000000", help="input sizes in characters")
    parser.add_argument("--rounds", type=int, default=20000, help="random small inputs per world in the crash hunt")
    parser.add_argument("--worlds", default=",".join(world_names()), help="worlds to fuzz (comma-separated)")
    parser.add_argument("--no-memory", action="store_true", help="measure time only (no second run under tracemalloc)")
    parser.add_argument("--json", type=Path, help="also write every measurement here (JSON lines)")
    parser.add_argument("--data", type=Path, help="the published data (default: $PLANCHECK_DATA or ../shared/data)")
    args = parser.parse_args()
    data = data_folder(args.data)
    sizes = [int(s) for s in args.sizes.split(",")]
    names = [n for n in args.worlds.split(",") if n in world_names() and not get_world(n).missing()]
    rows: list[dict] = []
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        for name in names:
            world = get_world(name)
            if any(isinstance(e, Example) for e in _corpus(name)):
                rows += answer_rows(name, sizes, not args.no_memory, Path(folder), data)
            if world.supports(Capability.PLAY):
                rows += episode_rows(name, sizes, not args.no_memory)
            print(f"... {name} measured ({time.perf_counter() - started:.0f} s)", file=sys.stderr)
    rows += validate_rows(sizes, not args.no_memory)
    print(f"worst CPU time (the shape that took it) and worst peak Python memory per input size, "
          f"{len(rows)} measurements:\n")
    print(report(rows, sizes) + "\n")
    if 1_000_000 in sizes:
        print("a 1 MB answer (or reply), worst over every shape (target: under 1 s):")
        for name in names:
            found = [r for r in rows if r["world"] == name and r["size"] == 1_000_000
                     and r["kind"] in ("answer", "episode reply")]
            worst = max(found, key=lambda r: r["seconds"])
            verdict = "met" if worst["seconds"] < 1 else "NOT met"
            print(f"  {name:14s} {worst['seconds']:7.2f} s ({worst['shape']}, {worst['outcome'][:50]}): {verdict}")
    crashes = 0
    if args.rounds:
        print(f"\ncrash hunt: {args.rounds} random small inputs per world")
        for name in names:
            found = crash_hunt(name, args.rounds, random.Random(name), data)
            crashes += len(found)
            print(f"  {name:14s} {len(found)} crash(es)" + "".join(f"\n    {c[:200]}" for c in found[:5]))
    if args.json:
        args.json.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    print(f"\n{time.perf_counter() - started:.0f} s in all")
    return 1 if crashes else 0


if __name__ == "__main__":
    sys.exit(main())
