"""The GRASP world's facade: instances, prompts, checking, batch reading, summaries, solving, PDDL."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from pathlib import Path
from statistics import fmean
from typing import Any

from plancheck.domains.grasp import pddl as grasp_pddl
from plancheck.domains.grasp import scoring
from plancheck.domains.grasp.baselines import BASELINES
from plancheck.domains.grasp.generate import generate_grid, parse_spec
from plancheck.domains.grasp.grid import Grid
from plancheck.domains.grasp.instance import SETTINGS, Environment, GridInfo, Setting, parse_id
from plancheck.domains.grasp.optima import published_optima
from plancheck.domains.grasp.optimal import PLANNERS
from plancheck.domains.grasp.parse import ParsePolicy, parse_answer
from plancheck.domains.grasp.pddl_plan import validation_plan
from plancheck.domains.grasp.prompts import system_prompt, user_prompt
from plancheck.domains.grasp.published import (
    SET_NAMES,
    is_user_set,
    published_grid,
    published_set,
    read_grid_file,
    user_grid,
    user_set_name,
)
from plancheck.domains.grasp.records import read_answers
from plancheck.domains.grasp.report import table1
from plancheck.domains.grasp.rules import Action, GraspRules, State
from plancheck.errors import AnswerParseError, BadInputError, DataNotFoundError, InstanceNotFoundError
from plancheck.rules import Unknown
from plancheck.translators.answer import ParsedAction, ParsedAnswer, SpanKind, UnknownPolicy, make_span
from plancheck.verifier.execute import execute
from plancheck.verifier.verdict import Verdict, from_trace, unparseable
from plancheck.world import BrokenRecord, Option, Prompt, Record, Summary

_PARSING = ("check", "evaluate")
_SELECTING = ("instances", "prompt", "solve", "export", "stats")

OPTIONS = (
    Option("rule", "scoring rule of summaries and of the optimum solve maximises: paper (energy on the final cell) "
                   "or delivered (energy on the start cell); on check, the rule of --pddl-plan's final step",
           ("check", "evaluate", "solve"), "paper", ("paper", "delivered")),
    Option("pick", "which list is the answer when the text holds several", _PARSING, "last", ("first", "last", "only")),
    Option("unclosed", "a list cut off at the end of the text: accept it (noted) or reject the answer", _PARSING,
           "accept", ("accept", "reject")),
    Option("prose", "text without any list: reject it, or scan it for action words", _PARSING, "reject",
           ("reject", "scan")),
    Option("unknown", "an unknown token inside the list: a no-op that uses a step (the benchmark's rule) or skipped",
           _PARSING, "noop", ("noop", "skip")),
    Option("indices", "only these grid indices, e.g. 0-9 or 0,3,5", _SELECTING + ("evaluate",)),
    Option("setting", "only this setting, as mv-lim-cost flags, e.g. 1-0-1 (8 moves, no carry limit, cost 0.3)",
           _SELECTING),
    Option("count", "how many grids a generator selector (gen<seed>_<start>_<energy>_<obstacle>) yields",
           ("instances", "prompt", "solve", "export", "stats"), 100, kind=int),
    Option("planner", "who computes the plan: native (exact optimum), fast-downward or symk (optimal, on the PDDL "
                      "planning model), pyperplan (reported unsupported: it ignores costs), greedy or random (the "
                      "paper's baselines)", ("solve",), "native", PLANNERS + tuple(BASELINES)),
    Option("timeout", "seconds an external planner may run", ("solve",), 300.0, kind=float),
    Option("seed", "seed of the greedy and random baselines", ("solve",), 0, kind=int),
)


def parse_indices(text: str | None) -> set[int] | None:
    """'0-9' or '0,3,5-7' as a set of ints (None = all).

    >>> sorted(parse_indices("0-2,5"))
    [0, 1, 2, 5]
    """
    if not text:
        return None
    chosen: set[int] = set()
    try:
        for part in text.split(","):
            low, _, high = part.strip().partition("-")
            first, last = int(low), int(high or low)
            if first > last:
                raise ValueError
            chosen.update(range(first, last + 1))
    except ValueError:
        raise BadInputError(f"--indices {text!r}: expected numbers and ranges like 0-9 or 0,3,5") from None
    return chosen


def _setting_filter(text: str | None) -> Setting | None:
    if not text:
        return None
    try:
        mv, lim, cost = (int(flag) for flag in text.split("-"))
        if {mv, lim, cost} - {0, 1}:
            raise ValueError
    except ValueError:
        raise BadInputError(f"--setting {text!r}: expected three 0/1 flags mv-lim-cost, e.g. 1-0-1") from None
    return Setting.from_flags(mv, lim, cost)


_TOKENS = {name: action for action in Action for name in (action.value, action.value.lower())}


@lru_cache(maxsize=4096)
def _token_action(token: str) -> Action | Unknown:
    """One action name; names other than the canonical ones are read with the answer grammar, so
    both routes know the same synonyms ("north", "move_left", "pick up")."""
    action = _TOKENS.get(token) or _TOKENS.get(token.strip().lower().replace("_", "").replace("-", ""))
    if action is None and not set(token) & set("[],;\n") and len(token) <= 40:
        try:
            read = parse_answer(f"[{token}]")
        except AnswerParseError:
            read = None
        if read is not None and len(read.items) == 1 and not read.spans:
            action = read.items[0].action
    return action if isinstance(action, Action) else Unknown(token)


def parse_tokens(tokens: Sequence[str]) -> ParsedAnswer[Action]:
    """A ready list of action names (the baseline files' form); unknown names become :class:`Unknown`
    and are reported as spans, as in free text.

    Positions are offsets in the list written as ``[a, b, ...]``.

    >>> [(span.kind.value, span.text, span.column) for span in parse_tokens(["up", "jump"]).spans]
    [('unknown action', 'jump', 6)]
    """
    items, start = [], 1
    for token in tokens:
        end = start + len(token)
        items.append(ParsedAction(_TOKENS.get(token) or _token_action(token), start, end))
        start = end + 2
    unknown = [item for item in items if isinstance(item.action, Unknown)]
    if not unknown:
        return ParsedAnswer(tuple(items), (), "list of action names")
    text = "[" + ", ".join(tokens) + "]"
    spans = tuple(make_span(text, item.start, item.end, SpanKind.UNKNOWN) for item in unknown)
    return ParsedAnswer(tuple(items), spans, "list of action names")


def _describe(state: State) -> str:
    return f"at {state.position}, carrying {state.carried}"


class GraspWorld:
    name = "grasp"
    title = "GRASP energy-collection grids (Tang & Kejriwal 2024)"
    options = OPTIONS

    # -- instances ------------------------------------------------------------------------------
    def _grids(self, selector: str, data: Path | None, indices: set[int] | None, count: int
               ) -> Iterator[tuple[GridInfo, Grid, Setting | None]]:
        path = Path(selector)
        if selector.endswith(".jsonl") and path.is_file():
            for info, grid in read_grid_file(path, user_set_name(path)):
                if indices is None or info.index in indices:
                    yield info, grid, None
            return
        if selector in ("all", "published"):
            for set_name in SET_NAMES:
                yield from self._grids(set_name, data, indices, count)
            return
        if is_user_set(selector) and not selector.endswith(".jsonl") and ".jsonl-" not in selector:
            raise DataNotFoundError(f"grid file {selector} does not exist")
        parts = parse_id(selector)
        spec = parse_spec(parts.set_name)
        wanted = [parts.index] if parts.index is not None else None
        if is_user_set(parts.set_name):
            if wanted is None:
                raise DataNotFoundError(f"grid file {selector} does not exist")
            yield (*user_grid(parts.set_name, wanted[0]), parts.setting)
        elif spec is not None:
            numbers = wanted if wanted is not None else range(count)
            for index in numbers:
                if indices is None or index in indices:
                    yield (*generate_grid(*spec, index=index), parts.setting)
        elif wanted is not None:
            info, grid = published_grid(data, parts.set_name, wanted[0])
            yield info, grid, parts.setting
        else:
            for info, grid in published_set(data, parts.set_name):
                if indices is None or info.index in indices:
                    yield info, grid, None

    def instances(self, selectors: Sequence[str], data: Path | None, *, indices: str | None = None,
                  setting: str | None = None, count: int = 100, **_: Any) -> Iterator[Environment]:
        chosen_indices = parse_indices(indices)
        only = _setting_filter(setting)
        for selector in selectors:
            for info, grid, fixed in self._grids(selector, data, chosen_indices, count):
                for candidate in (fixed,) if fixed is not None else SETTINGS:
                    if only is None or candidate == only:
                        yield Environment(grid, candidate, info)

    def instance_id(self, env: Environment) -> str:
        return env.id

    def instance_json(self, env: Environment) -> dict:
        return env.to_json()

    def prompt(self, env: Environment, **_: Any) -> Prompt:
        return Prompt(env.id, system_prompt(env), user_prompt(env))

    # -- checking -------------------------------------------------------------------------------
    def check(self, env: Environment, answer: str | Sequence[str], *, pick: str = "last", unclosed: str = "accept",
              prose: str = "reject", unknown: str = "noop", source: str | None = None, **_: Any) -> Verdict:
        """Verdict for one answer; ``source`` names it in parse errors (a file name)."""
        try:
            parsed = _parse(answer, pick, unclosed, prose, source)
        except AnswerParseError as error:
            return unparseable(self.name, env.id, error)
        actions = parsed.actions(UnknownPolicy(unknown))
        trace = execute(GraspRules(env), actions)
        instance = env.id
        return from_trace(self.name, instance, parsed, trace, scores=scoring.scores(env, trace),
                          metrics=scoring.metrics(env, trace, len(actions)), has_goal=False,
                          describe_state=_describe, executed=actions, optimal=published_optima().get(instance))

    def pddl_plan(self, env: Environment, answer: str | Sequence[str], *, rule: str = "paper", pick: str = "last",
                  unclosed: str = "accept", prose: str = "reject", unknown: str = "noop", source: str | None = None,
                  **_: Any) -> tuple[str, str]:
        """The answer as a plan of the validation model (benchmark semantics) for ``rule``: (problem file, plan).

        Raises :class:`AnswerParseError` when the answer cannot be read.
        """
        actions = _parse(answer, pick, unclosed, prose, source).actions(UnknownPolicy(unknown))
        steps = validation_plan(env, actions, rule)
        header = f"; {env.id}: the answer under the benchmark's rules, scored by rule {rule!r}\n"
        return grasp_pddl.validation_problem_file(env, rule), header + "\n".join(steps) + "\n"

    # -- batches --------------------------------------------------------------------------------
    def read_answers(self, path: Path, data: Path | None, *, indices: str | None = None,
                     **_: Any) -> Iterator[Record | BrokenRecord]:
        chosen = parse_indices(indices)
        for record in read_answers(path):
            if chosen is not None and isinstance(record, Record):
                parts = parse_id(record.instance) if _looks_like_id(record.instance) else None
                if parts is not None and parts.index is not None and parts.index not in chosen:
                    continue
            yield record

    def resolve(self, record: Record, data: Path | None, **_: Any) -> Environment:
        return _environment(record.instance, data)

    def summarize(self, results: Iterable[tuple[Record, Verdict]], *, rule: str = "paper", **_: Any) -> Summary:
        return table1(results, rule)

    # -- solving --------------------------------------------------------------------------------
    def solve(self, env: Environment, *, planner: str = "native", rule: str = "paper", timeout: float = 300.0,
              seed: int = 0, **_: Any):
        from plancheck.domains.grasp.solve import solve

        return solve(env, planner, rule=rule, timeout=timeout, seed=seed)

    def export(self, env: Environment, **_: Any) -> dict[str, str]:
        """Both PDDL domains and, per scoring rule, a validation and a planning problem."""
        return grasp_pddl.export_files(env)

    def stats(self, selectors: Sequence[str], data: Path | None, *, indices: str | None = None,
              count: int = 100, **_: Any) -> Summary:
        per_set: dict[str, list[Grid]] = {}
        for selector in selectors:
            for info, grid, _fixed in self._grids(selector, data, parse_indices(indices), count):
                per_set.setdefault(info.set_name, []).append(grid)
        rows = tuple((name, len(grids), round(fmean(len(g.energy_cells) for g in grids), 2),
                      round(fmean(len(g.obstacle_cells) for g in grids), 2)) for name, grids in per_set.items())
        return Summary("GRASP grids", ("set", "grids", "mean energy cells", "mean obstacles"), rows,
                       {"sets": {row[0]: {"grids": row[1], "energy": row[2], "obstacles": row[3]} for row in rows}})


def _parse(answer: str | Sequence[str], pick: str, unclosed: str, prose: str, source: str | None) -> ParsedAnswer:
    if isinstance(answer, str):
        return parse_answer(answer, ParsePolicy.of(pick, unclosed, prose), source)
    return parse_tokens(answer)


def _looks_like_id(text: str) -> bool:
    try:
        parse_id(text)
    except InstanceNotFoundError:
        return False
    return True


@lru_cache(maxsize=65536)
def _environment(instance: str, data: Path | None) -> Environment:
    parts = parse_id(instance)
    if parts.index is None or parts.setting is None:
        raise InstanceNotFoundError(f"{instance!r} is not a full environment id (set-index-mv-lim-cost)")
    spec = parse_spec(parts.set_name)
    if is_user_set(parts.set_name):
        info, grid = user_grid(parts.set_name, parts.index)
    elif spec is not None:
        info, grid = generate_grid(*spec, index=parts.index)
    else:
        info, grid = published_grid(data, parts.set_name, parts.index)
    return Environment(grid, parts.setting, info)


WORLD = GraspWorld()
