"""GRASP's summary table in the layout of the paper's Table 1.

Rows: energy distribution, obstacle, start position, action set, carry limit, step cost, and the
average over all scored records. For every model (a baseline name, the OpenAI model, or the file
name) two columns: mean answer length (actions in the answer as read) and mean energy (the score
under the chosen rule). Unparseable answers are counted per model and left out of the means.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path
from statistics import fmean

from plancheck.domains.grasp.grid import Grid
from plancheck.domains.grasp.instance import DISTRIBUTIONS, Setting, parse_id, set_factors
from plancheck.domains.grasp.published import is_user_set
from plancheck.errors import InstanceNotFoundError
from plancheck.verifier.records import Mean
from plancheck.verifier.verdict import Verdict
from plancheck.world import Record, Summary

Factors = tuple[dict[str, str], Setting]

_FACTORS: tuple[tuple[str, Callable[[Factors], str], tuple[str, ...]], ...] = (
    ("energy", lambda f: f[0]["energy"], DISTRIBUTIONS),
    ("obstacle", lambda f: f[0]["obstacle"], ("free", "block")),
    ("start", lambda f: f[0]["start"], ("inner", "outer")),
    ("action set", lambda f: "mu1 (4 moves)" if f[1].directions == 4 else "mu2 (8 moves)",
     ("mu1 (4 moves)", "mu2 (8 moves)")),
    ("carry limit", lambda f: "none" if f[1].carry_limit is None else str(f[1].carry_limit), ("none", "2")),
    ("step cost", lambda f: f"{f[1].step_cost:g}", ("0", "0.3")),
)


def _factors(instance: str) -> Factors:
    """The grid set's factors and the setting; a user's grid file (named by its path) counts under
    the set its file name names, and under none (no energy/obstacle/start rows) when it names none."""
    parts = parse_id(instance)
    if parts.setting is None:
        raise InstanceNotFoundError(f"{instance!r} is not a full environment id (set-index-mv-lim-cost)")
    if not is_user_set(parts.set_name):
        return set_factors(parts.set_name), parts.setting
    try:
        return set_factors(Path(parts.set_name).name), parts.setting
    except InstanceNotFoundError:
        return {"start": "", "energy": "", "obstacle": ""}, parts.setting


def model_name(record: Record) -> str:
    """Which column group a record belongs to."""
    return str(record.meta.get("baseline") or record.model)


def table1(results: Iterable[tuple[Record, Verdict]], rule: str = "paper") -> Summary:
    """Aggregate verdicts into the Table 1 layout (in memory that does not grow with the number of results)."""
    cells: dict[tuple[str, str, str], tuple[Mean, Mean]] = {}
    unparsed: dict[str, int] = defaultdict(int)
    models: list[str] = []
    for record, verdict in results:
        model = model_name(record)
        if model not in models:
            models.append(model)
        if not verdict.parsed:
            unparsed[model] += 1
            continue
        length, energy = len(verdict.actions), verdict.scores[rule]
        factors = _factors(verdict.instance)
        for key in [(model, factor, value_of(factors)) for factor, value_of, _ in _FACTORS] + [(model, "average", "")]:
            means = cells.get(key)
            if means is None:
                means = cells[key] = (Mean(), Mean())
            means[0].add(length)
            means[1].add(energy)

    def mean(model: str, factor: str, value: str, column: int) -> float | None:
        means = cells.get((model, factor, value))
        return round(means[column].value(), 2) if means else None

    def count(model: str, factor: str, value: str) -> int:
        means = cells.get((model, factor, value))
        return means[0].count if means else 0

    row_keys = [(factor, value) for factor, _, values in _FACTORS for value in values] + [("average", "")]
    rows = tuple(
        (f"{factor}: {value}" if value else factor,) + tuple(
            mean(model, factor, value, column) for model in models for column in (0, 1))
        for factor, value in row_keys)
    header = ("",) + tuple(f"{model} {column}" for model in models for column in ("length", "energy"))
    def column(model: str) -> dict:
        return {f"{f}: {v}" if v else f: {"length": mean(model, f, v, 0), "energy": mean(model, f, v, 1),
                                          "n": count(model, f, v)} for f, v in row_keys}

    data = {"rule": rule,
            "models": {model: {"scored": count(model, "average", ""), "unparseable": unparsed[model],
                               "rows": column(model)} for model in models}}
    return Summary(f"GRASP Table 1 layout (energy = score under rule '{rule}')", header, rows, data)


def stats(grids: Iterable[tuple[str, Grid]]) -> Summary:
    """Counts per grid set: grids, mean energy cells, mean obstacles."""
    per_set: dict[str, list[Grid]] = {}
    for set_name, grid in grids:
        per_set.setdefault(set_name, []).append(grid)
    rows = tuple((name, len(found), round(fmean(len(g.energy_cells) for g in found), 2),
                  round(fmean(len(g.obstacle_cells) for g in found), 2)) for name, found in per_set.items())
    return Summary("GRASP grids", ("set", "grids", "mean energy cells", "mean obstacles"), rows,
                   {"sets": {row[0]: {"grids": row[1], "energy": row[2], "obstacles": row[3]} for row in rows}})
