"""MANGO's tables: the scores of many answers (per game and micro-averaged) and the counts per game.

Scores follow the paper: a question unanswerable at the record's cutoff is left out (counted in
``unanswerable``); an answerable one whose answer has no readable trajectory is a format failure,
counted separately and left out of the success rates. Each (model, game, task) gets three rows:
all answerable questions, the easy ones and the hard ones; the ``all`` game rows pool every
question of every game (micro-average). The JSON also gives the rates with format failures
counted as 0 (``*_with_failures``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from plancheck.domains.mango.game import Game, check_cutoff
from plancheck.domains.mango.questions import Difficulty
from plancheck.verifier.verdict import Verdict
from plancheck.world import Record, Summary

SCORES = ("strict", "loose", "reasoning")
SUBSETS = ("all", "easy", "hard")


@dataclass
class _Cell:
    records: int = 0
    unanswerable: int = 0
    format_failures: int = 0
    sums: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    scored: int = 0

    def add(self, verdict: Verdict) -> None:
        self.records += 1
        if not verdict.metrics.get("answerable", True):
            self.unanswerable += 1
        elif not verdict.parsed:
            self.format_failures += 1
        else:
            self.scored += 1
            for rule, value in verdict.scores.items():
                self.sums[rule] += value

    def rate(self, rule: str) -> float | None:
        return round(self.sums[rule] / self.scored, 4) if self.scored else None

    def to_json(self) -> dict:
        answerable = self.scored + self.format_failures
        rules = sorted(self.sums)
        return {"records": self.records, "unanswerable": self.unanswerable, "format_failures": self.format_failures,
                "scored": self.scored, **{rule: self.rate(rule) for rule in rules},
                **{f"{rule}_with_failures": round(self.sums[rule] / answerable, 4) if answerable else None
                   for rule in rules}}


def summary(results: Iterable[tuple[Record, Verdict]]) -> Summary:
    """The score table of many verdicts."""
    cells: dict[tuple[str, str, str, str], _Cell] = defaultdict(_Cell)
    for record, verdict in results:
        metrics = verdict.metrics
        model, game, task = record.model, str(metrics.get("game", "?")), str(metrics.get("task", "?"))
        difficulty = metrics.get("difficulty")
        for place in (game, "all"):
            cells[model, place, task, "all"].add(verdict)
            if difficulty in (Difficulty.EASY.value, Difficulty.HARD.value):
                cells[model, place, task, difficulty].add(verdict)
    keys = sorted(cells, key=lambda k: (k[0], k[1] == "all", k[1], k[2], SUBSETS.index(k[3])))
    header = ("model", "game", "task", "subset", "n", "unanswerable", "format failures") + SCORES
    rows = tuple((model, game, task, subset, cells[key].scored, cells[key].unanswerable, cells[key].format_failures,
                  *(cells[key].rate(rule) for rule in SCORES))
                 for key in keys for model, game, task, subset in [key])
    data = {"rows": [{"model": k[0], "game": k[1], "task": k[2], "subset": k[3], **cells[k].to_json()}
                     for k in keys]}
    return Summary("MANGO success rates (n = answerable questions with a readable answer)", header, rows, data)


def _counts(game: Game, cutoff: int) -> dict[str, int]:
    counts = {"steps": len(game.steps) - 1, "locations": len(game.locations), "actions": len(game.actions),
              "edges": len(game.edges), "imputed edges": len(game.imputed)}
    for task, questions in (("DF", game.df), ("RF", game.rf)):
        levels = [q.labels.difficulty(cutoff) for q in questions]
        counts[task] = len(questions)
        counts[f"{task} answerable"] = sum(level is not Difficulty.UNANSWERABLE for level in levels)
        counts[f"{task} easy"] = levels.count(Difficulty.EASY)
        counts[f"{task} hard"] = levels.count(Difficulty.HARD)
    return counts


def stats(games: Sequence[Game], cutoff: int) -> Summary:
    """Counts per game at ``cutoff``: walkthrough steps, map size, questions answerable/easy/hard."""
    table = {game.name: _counts(game, check_cutoff(cutoff)) for game in games}
    columns = tuple(next(iter(table.values())).keys()) if table else ()
    total = {column: sum(counts[column] for counts in table.values()) for column in columns}
    rows = tuple((name, *counts.values()) for name, counts in [*table.items(), ("total", total)])
    return Summary(f"MANGO games at cutoff T = {cutoff} (steps = moves in the walkthrough file)",
                   ("game",) + columns, rows, {"cutoff": cutoff, "games": table, "total": total})
