"""The GRASP world's facade: options, capabilities, and delegation to the world's modules."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from plancheck.domains.grasp import catalog, check, report
from plancheck.domains.grasp.baselines import BASELINES
from plancheck.domains.grasp.instance import Environment
from plancheck.domains.grasp.parse import ParsePolicy
from plancheck.domains.grasp.prompts import system_prompt, user_prompt
from plancheck.domains.grasp.records import read_answers
from plancheck.limits import DEFAULT, Limits
from plancheck.solvers.result import SolveResult
from plancheck.verifier.verdict import Verdict
from plancheck.verifier.verdict import strict_read as verdict_strict_read
from plancheck.world import (
    ONE_SHOT,
    READING,
    BrokenRecord,
    Capability,
    Option,
    Prompt,
    Record,
    Summary,
    WorldBase,
    shared_option,
)

if TYPE_CHECKING:  # annotations only: keeps the drawing code out of a plain check's start-up
    from plancheck.drawing.shapes import Picture

PLANNERS = ("native", "fast-downward", "symk", "pyperplan")  # solve.PLANNERS, kept out of start-up
_SELECTING = ("instances", "prompt", "solve", "export", "stats")

OPTIONS = (
    Option("rule", "scoring rule of summaries and of the optimum solve maximises: paper (energy on the final cell) "
                   "or delivered (energy on the start cell); on check, the rule of --pddl-plan's final step",
           ("check", "evaluate", "solve", "render"), "paper", ("paper", "delivered")),
    shared_option("pick"),
    shared_option("unclosed"),
    shared_option("strict_read"),
    Option("prose", "text without any list: reject it, or scan it for action words", READING, "reject",
           ("reject", "scan")),
    shared_option("unknown", "a no-op that uses a step (the benchmark's rule) or skipped", default="noop",
                  choices=("noop", "skip")),
    Option("table", "the summary's layout: paper (Table 1 as printed: the paper's rows, agents and columns; Length = "
                    "executed actions) or factors (plancheck's earlier layout: rows per factor, answer length)",
           ("evaluate",), "paper", report.TABLES),
    Option("indices", "only these grid indices, e.g. 0-9 or 0,3,5", _SELECTING + ("evaluate",)),
    Option("setting", "only this setting, as mv-lim-cost flags, e.g. 1-0-1 (8 moves, no carry limit, cost 0.3)",
           _SELECTING),
    Option("count", "how many grids a generator selector (gen<seed>_<start>_<energy>_<obstacle>) yields",
           _SELECTING, 100, kind=int),
    shared_option("planner", "native (exact optimum), fast-downward or symk (optimal, on the PDDL planning "
                             "model), pyperplan (reported unsupported: it ignores costs), greedy or random (the "
                             "paper's baselines)", default="native", choices=(*PLANNERS, *BASELINES)),
    shared_option("timeout"),
    Option("seed", "seed of the greedy and random baselines", ("solve",), 0, kind=int),
)


class GraspWorld(WorldBase):
    name = "grasp"
    title = "GRASP energy-collection grids (Tang & Kejriwal 2024)"
    data_release = "GRASP release grids (2000)"
    options = OPTIONS
    capabilities = ONE_SHOT | {Capability.SOLVE, Capability.EXPORT, Capability.STATS, Capability.PDDL_PLAN,
                               Capability.GENERATE, Capability.RENDER}

    def instances(self, selectors: Sequence[str], data: Path | None, *, indices: str | None = None,
                  setting: str | None = None, count: int = 100, **_: Any) -> Iterator[Environment]:
        return catalog.select(selectors, data, indices=indices, setting=setting, count=count)

    def prompt(self, env: Environment, **_: Any) -> Prompt:
        return Prompt(env.id, system_prompt(env), user_prompt(env))

    def check(self, env: Environment, answer: str | Sequence[str], *, pick: str = "committed",
              unclosed: str = "accept", prose: str = "reject", unknown: str = "noop", strict_read: bool = False,
              source: str | None = None, limits: Limits = DEFAULT, **_: Any) -> Verdict:
        """Verdict for one answer; ``source`` names it in parse errors (a file name)."""
        verdict = check.check_answer(env, answer, ParsePolicy.of(pick, unclosed, prose), unknown, source, limits)
        return verdict_strict_read(verdict, strict_read)

    def pddl_plan(self, env: Environment, answer: str | Sequence[str], *, rule: str = "paper", pick: str = "committed",
                  unclosed: str = "accept", prose: str = "reject", unknown: str = "noop", source: str | None = None,
                  limits: Limits = DEFAULT, **_: Any) -> tuple[str, str]:
        return check.pddl_plan(env, answer, rule, ParsePolicy.of(pick, unclosed, prose), unknown, source, limits)

    def read_answers(self, path: Path, data: Path | None, *, indices: str | None = None, limits: Limits = DEFAULT,
                     **_: Any) -> Iterator[Record | BrokenRecord]:
        chosen = catalog.parse_indices(indices)
        records = read_answers(path, limits)
        if chosen is None:
            return records
        return (record for record in records if not isinstance(record, Record)
                or (index := catalog.grid_index(record.instance)) is None or index in chosen)

    def resolve(self, record: Record, data: Path | None, **_: Any) -> Environment:
        return catalog.environment(record.instance, data)

    def answer_key(self, record: Record, env: Environment) -> tuple[str, str]:
        """Who answered (a baseline's name, the model, else the file's name) and the environment."""
        return report.model_name(record), env.id

    def summarize(self, results: Iterable[tuple[Record, Verdict]], *, rule: str = "paper", table: str = "paper",
                  **_: Any) -> Summary:
        return report.summary(results, rule, table)

    def solve(self, env: Environment, *, planner: str = "native", rule: str = "paper", timeout: float = 300.0,
              seed: int = 0, **_: Any) -> SolveResult:
        from plancheck.domains.grasp.solve import solve

        return solve(env, planner, rule=rule, timeout=timeout, seed=seed)

    def solve_warning(self, env: Environment, *, planner: str = "native", timeout: float = 300.0,
                      **_: Any) -> str | None:
        """Fast Downward and SymK on 8-direction grids: blind search enumerates tens of millions of states there
        (docs/grasp_optimum.md: minutes to hours; Fast Downward did not finish on a 49-cell grid)."""
        if planner not in ("fast-downward", "symk") or env.setting.directions != 8:
            return None
        cells = len(env.grid.energy_cells)
        return (f"{planner} on an 8-direction grid ({cells} energy cells) is not expected to finish within "
                f"{timeout:g} s: its search enumerates tens of millions of states here (measured: minutes to hours, "
                "docs/grasp_optimum.md); --planner native proves the optimum in milliseconds")

    def export(self, env: Environment, **_: Any) -> dict[str, str]:
        """Both PDDL domains and, per scoring rule, a validation and a planning problem."""
        from plancheck.domains.grasp.pddl import export_files

        return export_files(env)

    def render(self, env: Environment, answer: str | Sequence[str] | None = None, *, verdict: Verdict | None = None,
               rule: str = "paper", compact: bool = False, **options: Any) -> Picture:
        """The grid with the answer's path beside the optimum's under ``rule`` (``compact``: the answer alone);
        frames: the answer step by step."""
        from plancheck.domains.grasp.render import render

        if verdict is None and answer is not None:
            verdict = self.check(env, answer, **options)
        return render(env, verdict, rule, compact)

    def setting(self, record: Record, verdict: Verdict) -> str:
        """The environment's setting, e.g. ``0-1-1 (4 directions, carry limit 2, step cost 0.3)``."""
        from plancheck.domains.grasp.instance import parse_id

        setting = parse_id(verdict.instance).setting
        return "all" if setting is None else f"{setting.flags} ({setting.describe()})"

    def model(self, record: Record) -> str:
        """The baseline's name for the recorded baseline answers (as Table 1 names them), else the record's model."""
        return report.model_name(record)

    def headline(self, *, rule: str = "paper", **_: Any) -> str:
        return rule

    def stats(self, selectors: Sequence[str], data: Path | None, *, indices: str | None = None,
              count: int = 100, **_: Any) -> Summary:
        indices_chosen = catalog.parse_indices(indices)
        return report.stats((info.set_name, grid) for selector in selectors
                            for info, grid, _fixed in catalog.grids(selector, data, indices_chosen, count))


WORLD = GraspWorld()
