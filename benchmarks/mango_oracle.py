"""Time MANGO scoring: the oracle answers of every DF and RF question of the shared games, end to end.

    python benchmarks/mango_oracle.py [--data ../shared/data] [--repeat 3] [--fd 15] [--games N]

Prints the CPU time of each stage (best of ``--repeat`` runs; the machine is shared) and ratios against the
alternatives: the reader (its fast path for plain lists, and the grammar alone, as before the fast path)
against ``json.loads`` on the same answers written as JSON (which cannot read the single-quoted Python
form the prompts ask for), the check of every answer end to end and its projection to the release's 53
games (linear in the number of games), our breadth-first routes against networkx's
shortest paths, and Fast Downward on the exported PDDL against the native search (``--fd`` RF
questions, the longest route of each game first; 0 to skip).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import networkx as nx  # noqa: E402

from plancheck.domains.mango import parse  # noqa: E402
from plancheck.domains.mango.check import check_answer  # noqa: E402
from plancheck.domains.mango.game import _load  # noqa: E402
from plancheck.domains.mango.instance import game_folders, graph_of, select  # noqa: E402
from plancheck.domains.mango.parse import format_answer, parse_answer  # noqa: E402
from plancheck.domains.mango.questions import DFQuestion  # noqa: E402
from plancheck.domains.mango.scoring import score_df, score_rf  # noqa: E402
from plancheck.domains.mango.solve import reference, solve  # noqa: E402
from plancheck.solvers.external import fast_downward_driver  # noqa: E402


def best(repeat: int, work: Callable[[], object]) -> float:
    times = []
    for _ in range(repeat):
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    return min(times)


class mock_fast_path_off:  # noqa: N801
    """Read with the grammar alone, as before the fast path (undo() restores it)."""

    def __init__(self) -> None:
        self.saved = parse._flat_list
        parse._flat_list = lambda text: None

    def undo(self) -> None:
        parse._flat_list = self.saved


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path,
                        default=Path(os.environ.get("PLANCHECK_DATA", REPO.parent / "shared" / "data")))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--fd", type=int, default=15, help="RF questions to solve with Fast Downward")
    parser.add_argument("--games", type=int, default=None, help="the first N games only (a quick run)")
    args = parser.parse_args()
    folders = game_folders(args.data)[:args.games]

    def load() -> None:
        _load.cache_clear()
        for folder in folders:
            _load(folder.resolve())

    load_s = best(args.repeat, load)
    instances = [i for folder in folders for i in select([folder.name], args.data) if i.answerable]
    games = {i.game.name for i in instances}
    routes = [reference(i).trajectory for i in instances]
    texts = [format_answer(r) for r in routes]
    as_json = [json.dumps([{"location_before": m.before, "action": m.action, "location_after": m.after} for m in r])
               for r in routes]
    n = len(instances)
    steps = sum(len(r) for r in routes)
    print(f"{len(games)} games, {n} answerable questions ({sum(isinstance(i.question, DFQuestion) for i in instances)}"
          f" DF, {sum(not isinstance(i.question, DFQuestion) for i in instances)} RF), {steps} answer steps")
    print(f"load all games (cold)       {load_s * 1000:8.1f} ms")

    reference_s = best(args.repeat, lambda: [reference(i) for i in instances])
    fast_s = best(args.repeat, lambda: [parse_answer(t) for t in texts])
    json_s = best(args.repeat, lambda: [json.loads(t) for t in as_json])
    grammar_only = mock_fast_path_off()
    grammar_s = best(args.repeat, lambda: [parse_answer(t) for t in texts])
    grammar_check_s = best(args.repeat, lambda: [check_answer(i, t) for i, t in zip(instances, texts, strict=True)])
    grammar_only.undo()
    parsed = [[item.action for item in parse_answer(t).items] for t in texts]

    def score() -> None:
        for instance, trajectory in zip(instances, parsed, strict=True):
            moves = instance.game.moves
            (score_df if isinstance(instance.question, DFQuestion) else score_rf)(moves, instance.question, trajectory)

    score_s = best(args.repeat, score)
    pairs = list(zip(instances, texts, strict=True))
    check_s = best(args.repeat, lambda: [check_answer(i, t) for i, t in pairs])
    perfect = sum(set(check_answer(i, t).scores.values()) == {1.0} for i, t in pairs)
    print(f"reference answers           {reference_s * 1000:8.1f} ms")
    print(f"parse (fast path)           {fast_s * 1000:8.1f} ms  {n / fast_s:8.0f} answers/s"
          f"  ({fast_s / json_s:.1f}x json.loads on the JSON form: {json_s * 1000:.1f} ms)")
    print(f"parse (grammar only)        {grammar_s * 1000:8.1f} ms  {n / grammar_s:8.0f} answers/s"
          f"  ({grammar_s / json_s:.1f}x json.loads; {grammar_s / fast_s:.1f}x the fast path)")
    print(f"score (walks, checks)       {score_s * 1000:8.1f} ms  {n / score_s:8.0f} answers/s")
    print(f"check end to end            {check_s * 1000:8.1f} ms  {n / check_s:8.0f} answers/s"
          f"  -> oracle scores 1.0 on {perfect}/{n}")
    per_game = (load_s + check_s) / len(games)
    print(f"check, grammar only         {grammar_check_s * 1000:8.1f} ms  "
          f"({grammar_check_s / check_s:.1f}x the fast path)")
    print(f"53 games (load + check, projected from {len(games)}): {per_game * 53:.1f} s CPU with the fast path, "
          f"{(load_s + grammar_check_s) / len(games) * 53:.1f} s with the grammar only (target 10 s)")

    rf = [i for i in instances if not isinstance(i.question, DFQuestion)]
    graphs = {i.game.name: graph_of(i, "known") for i in rf}
    bfs_s = best(args.repeat, lambda: [reference(i) for i in rf])
    nx_s = best(args.repeat, lambda: [nx.shortest_path(graphs[i.game.name], i.question.src, i.question.dst)
                                      for i in rf])
    print(f"RF routes, breadth-first    {bfs_s * 1000:8.1f} ms  (networkx shortest_path: {nx_s * 1000:.1f} ms, "
          f"ratio {bfs_s / nx_s:.2f})")

    if args.fd and fast_downward_driver() is not None:
        longest: dict[str, object] = {}
        for instance in sorted(rf, key=lambda i: -len(reference(i).trajectory)):
            longest.setdefault(instance.game.name, instance)
        sample = list(longest.values())[:args.fd]
        start = time.perf_counter()
        results = [solve(i, "fast-downward") for i in sample]
        fd_s = time.perf_counter() - start
        agree = sum(r.proven_optimal for r in results)
        native = best(args.repeat, lambda: [solve(i, "bfs") for i in sample])
        print(f"Fast Downward, {len(sample)} routes    {fd_s * 1000:8.1f} ms  ({fd_s / len(sample) * 1000:.0f} ms each;"
              f" {agree}/{len(sample)} optimal and equal to the search; native bfs+networkx "
              f"{native * 1000:.1f} ms, {fd_s / native:.0f}x less)")


if __name__ == "__main__":
    main()
