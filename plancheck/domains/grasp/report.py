"""GRASP's summary tables: the paper's Table 1 exactly as printed, and a per-factor layout.

``paper`` (the default): the rows, their order and the columns of the paper's Table 1 ("Energy
Distribution: Random, Vertically-skewed, ...", "Obstacle: Yes, No", ..., "Average"); per agent a
*Length* and an *Energy* column, in the paper's agent order (Random Walk, Greedy Search,
GPT-3.5-Turbo, GPT-4o, GPT-o1-mini; other models after them). *Length* is the mean number of
**executed** actions (the answer's actions, cut at the 20-step limit): it reproduces all 48 Length
cells the paper prints for the random walk, greedy search and GPT-3.5 from the published answers,
where the answer's own length does not (GPT-3.5: 27.7 against the printed 19.4). *Energy* is the
mean score under the chosen rule. Lengths print with one decimal, energies with two, rounded half
up from the exact mean, as in the paper.

``factors``: the layout plancheck printed before (rows ``energy: upDown`` ..., per model the mean
answer length and the mean energy, two decimals).

Unparseable answers are counted per model and left out of the means in both.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from statistics import fmean

from plancheck.domains.grasp.grid import Grid
from plancheck.domains.grasp.instance import DISTRIBUTIONS, Setting, parse_id, set_factors
from plancheck.domains.grasp.published import is_user_set
from plancheck.errors import InstanceNotFoundError
from plancheck.verifier.records import Decimals, Mean
from plancheck.verifier.verdict import Verdict
from plancheck.world import Record, Summary

TABLES = ("paper", "factors")

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

# The paper's Table 1: (control, [(printed value, (factor, plancheck value))]) in its order.
PAPER_ROWS: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = (
    ("Energy Distribution", (("Random", "random"), ("Vertically-skewed", "upDown"),
                             ("Horizontally-skewed", "leftRight"), ("Cluster", "cluster"), ("Spiral", "spiral"))),
    ("Obstacle", (("Yes", "block"), ("No", "free"))),
    ("Starting Position", (("Inner Position", "inner"), ("Outer Position", "outer"))),
    ("Movement-related Action Set", (("mu1 (4 directions)", "mu1 (4 moves)"), ("mu2 (8 directions)", "mu2 (8 moves)"))),
    ("Energy Carrying Limit", (("No Limit", "none"), ("2 Units", "2"))),
    ("Energy Cost Per Step", (("0 Unit", "0"), ("0.3 Unit", "0.3"))),
)
_PAPER_FACTOR = dict(zip((control for control, _ in PAPER_ROWS), (factor for factor, _, _ in _FACTORS)))

# The paper's agents, in its column order: the baselines by name, the OpenAI models by id (dated or not).
PAPER_AGENTS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("Random Walk", re.compile(r"random")),
    ("Greedy Search", re.compile(r"greedy")),
    ("GPT-3.5-Turbo", re.compile(r"gpt-3\.5-turbo(-\d{4}(-\d{2}-\d{2})?)?")),
    ("GPT-4o", re.compile(r"gpt-4o(-\d{4}-\d{2}-\d{2})?")),
    ("GPT-o1-mini", re.compile(r"o1-mini(-\d{4}-\d{2}-\d{2})?")),
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


def paper_agent(model: str) -> tuple[int, str]:
    """The paper's column (rank, name) for a model or baseline name; other models come after its five.

    >>> paper_agent("random"), paper_agent("gpt-4o-2024-08-06"), paper_agent("gpt-4o-mini")
    ((0, 'Random Walk'), (3, 'GPT-4o'), (5, 'gpt-4o-mini'))
    """
    for rank, (name, pattern) in enumerate(PAPER_AGENTS):
        if pattern.fullmatch(model):
            return rank, name
    return len(PAPER_AGENTS), model


def _mean(total: Decimal, count: int, digits: int) -> Decimals:
    """The exact mean ``total / count`` rounded half up to ``digits`` decimals (never -0)."""
    exact = total / count
    return Decimals(float(exact.quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP)) + 0.0, digits)


class _Cell:
    """One model's (factor, value) cell in memory that does not grow with its answers: the count, the decimal
    sums of executed actions and energies (the paper's exact means) and the running means of answer lengths
    and energies (``fmean``'s values, for the per-factor layout)."""

    __slots__ = ("count", "executed", "energy", "length_mean", "energy_mean")

    def __init__(self) -> None:
        self.count = 0
        self.executed = self.energy = Decimal(0)
        self.length_mean, self.energy_mean = Mean(), Mean()

    def add(self, executed: int, length: int, energy: float) -> None:
        self.count += 1
        self.executed += Decimal(repr(executed))
        self.energy += Decimal(repr(energy))
        self.length_mean.add(length)
        self.energy_mean.add(energy)


class _Cells:
    """Per model and (factor, value): the :class:`_Cell` of its scored answers."""

    def __init__(self, results: Iterable[tuple[Record, Verdict]], rule: str):
        self.cells: dict[tuple[str, str, str], _Cell] = {}
        self.unparsed: dict[str, int] = defaultdict(int)
        self.models: list[str] = []
        for record, verdict in results:
            model = model_name(record)
            if model not in self.models:
                self.models.append(model)
            if not verdict.parsed:
                self.unparsed[model] += 1
                continue
            point = (int(verdict.metrics["executed"]), len(verdict.actions), verdict.scores[rule])
            factors = _factors(verdict.instance)
            for key in [(model, factor, value_of(factors)) for factor, value_of, _ in _FACTORS] + [
                    (model, "average", "")]:
                cell = self.cells.get(key)
                if cell is None:
                    cell = self.cells[key] = _Cell()
                cell.add(*point)

    def mean(self, model: str, factor: str, value: str, column: int, digits: int) -> Decimals | None:
        """The paper's mean of executed actions (column 0) or energy (column 2)."""
        cell = self.cells.get((model, factor, value))
        return _mean(cell.executed if column == 0 else cell.energy, cell.count, digits) if cell else None

    def count(self, model: str, factor: str, value: str) -> int:
        cell = self.cells.get((model, factor, value))
        return cell.count if cell else 0

    def scored(self, model: str) -> int:
        return self.count(model, "average", "")


def summary(results: Iterable[tuple[Record, Verdict]], rule: str = "paper", table: str = "paper") -> Summary:
    """The summary table ``table`` (``paper`` or ``factors``) of scored answers."""
    if table not in TABLES:
        raise ValueError(f"unknown GRASP table {table!r}; expected one of {', '.join(TABLES)}")
    cells = _Cells(results, rule)
    return paper_table1(cells, rule) if table == "paper" else factors_table(cells, rule)


def paper_table1(cells: _Cells, rule: str) -> Summary:
    """The paper's Table 1 layout: control and setting, then Length and Energy per agent."""
    models = sorted(cells.models, key=lambda m: paper_agent(m)[0])  # stable: others keep their order
    names = [paper_agent(m)[1] for m in models]
    heads = [name if names.count(name) == 1 else f"{name} ({model})" for name, model in zip(names, models)]
    keys = [(control, printed, _PAPER_FACTOR[control], value) for control, values in PAPER_ROWS
            for printed, value in values] + [("Average", "", "average", "")]
    rows = []
    for index, (control, printed, factor, value) in enumerate(keys):
        label = control if index == 0 or keys[index - 1][0] != control else ""
        rows.append((label, printed) + tuple(cells.mean(model, factor, value, column, digits)
                                             for model in models for column, digits in ((0, 1), (2, 2))))
    header = ("Control", "Setting") + tuple(cell for head in heads for cell in (f"{head}\nLength", "Energy"))
    data = {"rule": rule, "length": "executed actions (the answer's actions, at most 20)",
            "models": {model: {"agent": head, "scored": cells.scored(model), "unparseable": cells.unparsed[model],
                               "rows": {f"{control}: {printed}" if printed else control:
                                        {"length": cells.mean(model, factor, value, 0, 1),
                                         "energy": cells.mean(model, factor, value, 2, 2),
                                         "n": cells.count(model, factor, value)}
                                        for control, printed, factor, value in keys}}
                       for model, head in zip(models, heads)}}
    title = (f"GRASP Table 1 (Length = executed actions, the answer cut at 20 steps; Energy = score under rule "
             f"'{rule}')")
    return Summary(title, header, tuple(rows), data, labels=2)


def factors_table(cells: _Cells, rule: str) -> Summary:
    """plancheck's per-factor layout: mean answer length and mean energy per model, two decimals."""
    models = cells.models

    def mean(model: str, factor: str, value: str, column: int) -> float | None:
        cell = cells.cells.get((model, factor, value))
        if cell is None:
            return None
        return round((cell.length_mean if column == 1 else cell.energy_mean).value(), 2) + 0.0

    row_keys = [(factor, value) for factor, _, values in _FACTORS for value in values] + [("average", "")]
    rows = tuple(
        (f"{factor}: {value}" if value else factor,) + tuple(
            mean(model, factor, value, column) for model in models for column in (1, 2))
        for factor, value in row_keys)
    header = ("",) + tuple(f"{model} {column}" for model in models for column in ("length", "energy"))

    def column(model: str) -> dict:
        return {f"{f}: {v}" if v else f: {"length": mean(model, f, v, 1), "energy": mean(model, f, v, 2),
                                          "n": cells.count(model, f, v)} for f, v in row_keys}

    data = {"rule": rule,
            "models": {model: {"scored": cells.scored(model), "unparseable": cells.unparsed[model],
                               "rows": column(model)} for model in models}}
    return Summary(f"GRASP per-factor layout (length = answer length as read; energy = score under rule '{rule}')",
                   header, rows, data)


def stats(grids: Iterable[tuple[str, Grid]]) -> Summary:
    """Counts per grid set: grids, mean energy cells, mean obstacles."""
    per_set: dict[str, list[Grid]] = {}
    for set_name, grid in grids:
        per_set.setdefault(set_name, []).append(grid)
    rows = tuple((name, len(found), round(fmean(len(g.energy_cells) for g in found), 2),
                  round(fmean(len(g.obstacle_cells) for g in found), 2)) for name, found in per_set.items())
    return Summary("GRASP grids", ("set", "grids", "mean energy cells", "mean obstacles"), rows,
                   {"sets": {row[0]: {"grids": row[1], "energy": row[2], "obstacles": row[3]} for row in rows}})
