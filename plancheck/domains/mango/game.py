"""Loading one MANGO game folder: walkthrough, actions, locations, edges and questions.

A game folder ``<g>/`` holds ``<g>.walkthrough``, ``<g>.actions.json``, ``<g>.locations.json``,
``<g>.edges.json``, ``<g>.all2all.jsonl`` (DF) and ``<g>.all_pairs.jsonl`` (RF). The walkthrough is
the full transcript, blocks separated by ``===========`` lines, each ``==>STEP NUM: n``,
``==>ACT: ...``, ``==>OBSERVATION: ...``; questions show the model a prefix of ``T`` steps, cut
exactly as the release's inference code cuts it (:func:`walkthrough_prefix`). Line ends are read as
Python's text mode reads them (the release's code does): ``\r\n`` and ``\r`` are line ends.

RF questions are *easy* or *hard* by one of two definitions (:data:`DIFFICULTIES`):

* ``release``: the released code's, from the pair's labels: some route the prefix reveals was walked
  forward (``min_step_forward_answerable <= T``);
* ``paper``: what the paper's statistics table (Table 6) counts: a *shortest* route among those the
  prefix reveals was walked forward. It reproduces the table's RF columns where the release's labels
  do not (advent: 532 easy / 100 hard against 622 / 10; zork1: 279 / 45 against 324 / 0).

DF questions are easy or hard the same way under both (the path is given).
"""

from __future__ import annotations

import json
import logging
import re
from collections import deque
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from plancheck.domains.mango.graph import Edge, Moves, imputed_edges
from plancheck.domains.mango.questions import DFQuestion, Difficulty, Question, RFQuestion, Task, read_questions
from plancheck.errors import BadInputError, DataNotFoundError, Location
from plancheck.files import data_text
from plancheck.limits import load_json

logger = logging.getLogger(__name__)

DEFAULT_CUTOFF = 70
DIFFICULTIES = ("release", "paper")
SEPARATOR = "==========="
_HEADER = re.compile(r"==>STEP NUM: (\d{1,9})\n==>ACT: ([^\n]*)\n==>OBSERVATION: ")
_EDGE_LABELS = ("seen_in_forward", "seen_in_reversed", "edge_min_step", "seen_in_forward_answerable",
                "seen_in_reversed_answerable", "edge_min_step_answerable")


def check_cutoff(cutoff: object) -> int:
    """A cutoff is a number of walkthrough steps: a non-negative int."""
    if not isinstance(cutoff, int) or isinstance(cutoff, bool) or cutoff < 0:
        raise BadInputError(f"the cutoff {cutoff!r} is not a number of walkthrough steps (an integer >= 0)")
    return cutoff


@dataclass(frozen=True, slots=True)
class WalkthroughStep:
    """Step ``number`` of the walkthrough: the command typed and the game's answer (step 0: Init)."""

    number: int
    act: str
    observation: str


@dataclass(frozen=True, eq=False)
class Game:
    """One game's release data, read and checked. Two loads of one folder are the same object."""

    name: str
    folder: Path
    walkthrough: str  # the file's text
    steps: tuple[WalkthroughStep, ...]
    actions: tuple[str, ...]
    locations: tuple[str, ...]
    edges: tuple[Edge, ...]
    df: tuple[DFQuestion, ...]
    rf: tuple[RFQuestion, ...]
    duplicates: tuple[str, ...] = ()  # repeated question lines, read once ("file line N repeats line M")
    imputed: tuple[Edge, ...] = field(init=False)
    moves: Moves = field(init=False)  # the evaluation graph

    def __post_init__(self) -> None:
        object.__setattr__(self, "imputed", imputed_edges(self.edges))
        object.__setattr__(self, "moves", Moves.of_edges(self.edges + self.imputed))

    def known_moves(self, cutoff: int) -> Moves:
        """The moves of the map the first ``cutoff`` steps reveal (reference routes use these)."""
        return _known_moves(self, cutoff)

    def difficulty(self, question: Question, cutoff: int, rule: str = "release") -> Difficulty:
        """Easy, hard or unanswerable at ``cutoff`` by the definition ``rule`` (see the module docstring)."""
        level = question.labels.difficulty(cutoff)
        if rule == "release" or level is Difficulty.UNANSWERABLE or question.task is Task.DF:
            return level
        if rule != "paper":
            raise BadInputError(f"unknown difficulty definition {rule!r}; expected one of {', '.join(DIFFICULTIES)}")
        revealed, walked = _route_lengths(self, cutoff)
        shortest = revealed.get(question.src, {}).get(question.dst)
        return Difficulty.EASY if shortest is not None and walked.get(question.src, {}).get(
            question.dst) == shortest else Difficulty.HARD

    def questions(self, task: Task | None = None) -> tuple[Question, ...]:
        """DF then RF questions, in file order (or one task's)."""
        if task is Task.DF:
            return self.df
        if task is Task.RF:
            return self.rf
        return self.df + self.rf


@lru_cache(maxsize=256)
def _known_moves(game: Game, cutoff: int) -> Moves:
    return Moves.of_edges(game.edges, cutoff)


@lru_cache(maxsize=256)
def _route_lengths(game: Game, cutoff: int) -> tuple[dict[str, dict[str, int]], dict[str, dict[str, int]]]:
    """Shortest route lengths between places over the map's edges the prefix of ``cutoff`` steps reveals,
    and over those it shows walked forward."""
    revealed = [(e.src, e.dst) for e in game.edges if e.edge_min_step_answerable <= cutoff]
    walked = [(e.src, e.dst) for e in game.edges if e.seen_in_forward_answerable <= cutoff]
    return _all_lengths(revealed), _all_lengths(walked)


def _all_lengths(arcs: list[tuple[str, str]]) -> dict[str, dict[str, int]]:
    """Breadth-first route lengths from every place that has an arc."""
    after: dict[str, set[str]] = {}
    for src, dst in arcs:
        after.setdefault(src, set()).add(dst)
    lengths = {}
    for start in after:
        seen, queue = {start: 0}, deque([start])
        while queue:
            place = queue.popleft()
            for nxt in after.get(place, ()):
                if nxt not in seen:
                    seen[nxt] = seen[place] + 1
                    queue.append(nxt)
        lengths[start] = seen
    return lengths


def parse_walkthrough(text: str, source: str | None = None) -> tuple[WalkthroughStep, ...]:
    """The steps of a walkthrough file, checked to be numbered 0, 1, 2, ...

    >>> text = "===========\\n==>STEP NUM: 0\\n==>ACT: Init\\n==>OBSERVATION: Hall\\n\\n" \\
    ...        "===========\\n==>STEP NUM: 1\\n==>ACT: north\\n==>OBSERVATION: Attic\\n\\n===========\\n"
    >>> [(s.number, s.act, s.observation) for s in parse_walkthrough(text)]
    [(0, 'Init', 'Hall'), (1, 'north', 'Attic')]
    """
    steps: list[WalkthroughStep] = []
    offset = 0
    for block in text.split(SEPARATOR + "\n"):
        line = text.count("\n", 0, offset) + 1
        offset += len(block) + len(SEPARATOR) + 1
        if not block.strip():
            continue
        match = _HEADER.match(block)
        if match is None:
            raise BadInputError("a walkthrough block must start with '==>STEP NUM: n', '==>ACT: ...' and "
                                "'==>OBSERVATION: '", Location(source, line))
        number = int(match.group(1))
        if number != len(steps):
            raise BadInputError(f"step {number} where step {len(steps)} was expected", Location(source, line))
        steps.append(WalkthroughStep(number, match.group(2), block[match.end():].rstrip("\n")))
    if not steps:
        raise BadInputError("the walkthrough has no steps", Location(source, 1))
    return tuple(steps)


def walkthrough_prefix(text: str, cutoff: int) -> str:
    """The walkthrough as the release's prompts show it: steps 0..``cutoff``, separators removed.

    Byte-for-byte the release's cut: strip the file, delete the ``===========`` lines' text, cut
    before ``NUM: {cutoff + 1}`` and drop the last line (the dangling ``==>STEP``). When the
    walkthrough has no step ``cutoff + 1`` nothing is cut, and the release still drops the last line.

    >>> text = "===========\\n==>STEP NUM: 0\\n==>ACT: Init\\n==>OBSERVATION: Hall\\n\\n" \\
    ...        "===========\\n==>STEP NUM: 1\\n==>ACT: north\\n==>OBSERVATION: Attic\\n\\n===========\\n"
    >>> walkthrough_prefix(text, 0)
    '\\n==>STEP NUM: 0\\n==>ACT: Init\\n==>OBSERVATION: Hall\\n\\n'
    """
    cut = text.strip().replace(SEPARATOR, "").split(f"NUM: {cutoff + 1}")[0]
    return "\n".join(cut.split("\n")[:-1])


def _json(path: Path) -> object:
    try:
        return load_json(data_text(path), source=str(path))
    except json.JSONDecodeError as error:
        raise BadInputError(f"not JSON: {error.msg}", Location(str(path), error.lineno, error.colno)) from None


def _names(path: Path) -> tuple[str, ...]:
    data = _json(path)
    if not isinstance(data, list) or not all(isinstance(item, str) for item in data):
        raise BadInputError("expected a JSON list of names", Location(str(path)))
    return tuple(data)


def _edges(path: Path) -> tuple[Edge, ...]:
    data = _json(path)
    if not isinstance(data, list):
        raise BadInputError("expected a JSON list of edges", Location(str(path)))
    edges = []
    for index, item in enumerate(data):
        try:
            labels = [int(item[key]) for key in _EDGE_LABELS]
            edges.append(Edge(str(item["src_node"]), str(item["dst_node"]), str(item["action"]), *labels))
        except (KeyError, TypeError, ValueError) as error:
            raise BadInputError(f"edge {index} is malformed ({error!r})", Location(str(path))) from None
    return tuple(edges)


def game_files(folder: Path) -> dict[str, Path]:
    """The six files of the game in ``folder`` (named after the folder)."""
    name = folder.name
    return {kind: folder / f"{name}.{kind}" for kind in
            ("walkthrough", "actions.json", "locations.json", "edges.json", "all2all.jsonl", "all_pairs.jsonl")}


def is_game_folder(folder: Path) -> bool:
    return folder.is_dir() and (folder / f"{folder.name}.edges.json").is_file()


@lru_cache(maxsize=64)
def _load(folder: Path) -> Game:
    files = game_files(folder)
    for path in files.values():
        if not path.is_file():
            raise DataNotFoundError(f"the MANGO game folder {folder} lacks {path.name}")
    walkthrough = data_text(files["walkthrough"]).replace("\r\n", "\n").replace("\r", "\n")
    edges = _edges(files["edges.json"])
    locations = _names(files["locations.json"])
    known = set(locations)
    for edge in edges:
        for place in (edge.src, edge.dst):
            if place not in known:
                raise BadInputError(f"the edge {edge.triple} names {place!r}, which is not in the locations file",
                                    Location(str(files["edges.json"])))
    df, df_repeats = read_questions(files["all2all.jsonl"], Task.DF, edges)
    rf, rf_repeats = read_questions(files["all_pairs.jsonl"], Task.RF, edges)
    for repeat in df_repeats + rf_repeats:
        logger.warning("%s: the question is read once", repeat)
    return Game(folder.name, folder, walkthrough, parse_walkthrough(walkthrough, str(files["walkthrough"])),
                _names(files["actions.json"]), locations, edges, df, rf,  # type: ignore[arg-type]
                df_repeats + rf_repeats)


def load_game(folder: Path | str) -> Game:
    """The game in ``folder`` (cached: loading it again is free)."""
    path = Path(folder).resolve()
    if not path.is_dir():
        raise DataNotFoundError(f"no MANGO game folder at {folder}")
    return _load(path)
