"""MANGO's tables: the scores of many answers (per game and micro-averaged), the counts per game, and the
paper's map statistics (Table 6).

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
STATS_TABLES = ("counts", "paper")


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


def _counts(game: Game, cutoff: int, rule: str) -> dict[str, int]:
    counts = {"steps": len(game.steps) - 1, "locations": len(game.locations), "actions": len(game.actions),
              "edges": len(game.edges), "imputed edges": len(game.imputed)}
    for task, questions in (("DF", game.df), ("RF", game.rf)):
        levels = [game.difficulty(q, cutoff, rule) for q in questions]
        counts[task] = len(questions)
        counts[f"{task} answerable"] = sum(level is not Difficulty.UNANSWERABLE for level in levels)
        counts[f"{task} easy"] = levels.count(Difficulty.EASY)
        counts[f"{task} hard"] = levels.count(Difficulty.HARD)
    return counts


def paper_row(game: Game, cutoff: int, rule: str) -> dict[str, int | float]:
    """The paper's Table 6 row, computed as its statistics script computes it: the cutoff capped at the
    walkthrough's moves - 1 (the last move's change is left out), the edge file's rows, the mean length of
    the DF paths answerable then, and the easy / hard questions at that cutoff."""
    steps = min(cutoff, len(game.steps) - 2)
    answerable = [q for q in game.df if q.labels.difficulty(steps) is not Difficulty.UNANSWERABLE]
    row: dict[str, int | float] = {
        "locs": len(game.locations), "edges": len(game.edges),
        "avg len path": round(sum(len(q.path) for q in answerable) / len(answerable), 2) + 0.0 if answerable else 0,
        "steps": steps}
    for task, questions in (("DF", game.df), ("RF", game.rf)):
        levels = [game.difficulty(q, steps, rule) for q in questions]
        row[f"{task} easy"], row[f"{task} hard"] = levels.count(Difficulty.EASY), levels.count(Difficulty.HARD)
    return row


def stats(games: Sequence[Game], cutoff: int, rule: str = "release", table: str = "counts") -> Summary:
    """Counts per game at ``cutoff`` (``counts``: walkthrough steps, map size, questions answerable/easy/hard;
    ``paper``: the paper's Table 6 columns); easy and hard by the definition ``rule``."""
    check_cutoff(cutoff)
    if table == "paper":
        rows_by_game = {game.name: paper_row(game, cutoff, rule) for game in games}
        header = ("map",) + (tuple(next(iter(rows_by_game.values()))) if rows_by_game else ())
        rows = tuple((name, *row.values()) for name, row in rows_by_game.items())
        return Summary(f"MANGO map statistics as the paper's Table 6 (cutoff {cutoff}; easy RF = {_RULES[rule]})",
                       header, rows, {"cutoff": cutoff, "difficulty": rule, "games": rows_by_game})
    table_ = {game.name: _counts(game, cutoff, rule) for game in games}
    columns = tuple(next(iter(table_.values())).keys()) if table_ else ()
    total = {column: sum(counts[column] for counts in table_.values()) for column in columns}
    rows = tuple((name, *counts.values()) for name, counts in [*table_.items(), ("total", total)])
    data = {"cutoff": cutoff, "difficulty": rule, "games": table_, "total": total,
            "duplicate_lines": {game.name: list(game.duplicates) for game in games if game.duplicates}}
    return Summary(f"MANGO games at cutoff T = {cutoff} (steps = moves in the walkthrough file)",
                   ("game",) + columns, rows, data)


_RULES = {"release": "a route the prefix reveals was walked forward (release)",
          "paper": "a shortest route the prefix reveals was walked forward (paper)"}
