"""What a MANGO instance is (one question of one game, seen at a cutoff) and how selectors name them.

Instance ids read ``<game>/<task>/<question id>``, e.g. ``905/rf/0853694d...``. A selector is one of

* ``all``: every game folder under ``<data>/mango``;
* ``<game>``, ``<game>/<task>`` or ``<game>/<task>/<id>``, where ``<task>`` is ``df`` or ``rf`` and
  ``<id>`` is a question id or a unique prefix of one (6 characters or more);
* the same with ``<game>`` a path to a game folder (``../data/mango/905/rf``).

A bare game name is looked up under ``<data>/mango/``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from plancheck.domains.mango.game import DEFAULT_CUTOFF, Game, check_cutoff, is_game_folder, load_game
from plancheck.domains.mango.graph import Moves, evaluation_graph, known_graph, map_graph
from plancheck.domains.mango.questions import Difficulty, Question, Task
from plancheck.errors import BadInputError, DataNotFoundError, InstanceNotFoundError, clip

if TYPE_CHECKING:
    import networkx as nx

MIN_PREFIX = 6
GRAPHS = ("known", "evaluation")
TASK_NAMES = {"df": Task.DF, "rf": Task.RF, "desti_finding": Task.DF, "route_finding": Task.RF}


@dataclass(frozen=True, slots=True)
class MangoInstance:
    """One question of one game, for a model that read ``cutoff`` steps of the walkthrough."""

    game: Game
    question: Question
    cutoff: int = DEFAULT_CUTOFF
    rule: str = "release"  # how easy and hard are told apart (game.DIFFICULTIES)

    @property
    def id(self) -> str:
        return f"{self.game.name}/{self.question.task.value}/{self.question.id}"

    @property
    def difficulty(self) -> Difficulty:
        return self.game.difficulty(self.question, self.cutoff, self.rule)

    @property
    def answerable(self) -> bool:
        return self.difficulty is not Difficulty.UNANSWERABLE


def _known(graph: str) -> bool:
    if graph not in GRAPHS:
        raise BadInputError(f"unknown graph {graph!r}; expected one of {', '.join(GRAPHS)}")
    return graph == "known"


def graph_of(instance: MangoInstance, graph: str) -> nx.MultiDiGraph:
    """The map a route may use: revealed by the cutoff (``known``) or the ``evaluation`` graph."""
    if _known(graph):
        return known_graph(map_graph(instance.game.edges), instance.cutoff)
    return evaluation_graph(instance.game.edges)


def moves_of(instance: MangoInstance, graph: str) -> Moves:
    """:func:`graph_of` as a move table."""
    return instance.game.known_moves(instance.cutoff) if _known(graph) else instance.game.moves


def mango_folder(data: Path | None) -> Path:
    if data is None:
        raise DataNotFoundError("the MANGO games are needed: give the data folder (shared/data, or set "
                                "$PLANCHECK_DATA) or a game folder")
    folder = Path(data) / "mango"
    if not folder.is_dir():
        raise DataNotFoundError(f"no MANGO games at {folder}")
    return folder


def game_folders(data: Path | None) -> list[Path]:
    """Every game folder under ``<data>/mango``, by name."""
    return sorted(p for p in mango_folder(data).iterdir() if is_game_folder(p))


def find_game(name: str, data: Path | None) -> Game:
    """A game by folder path or by name under ``<data>/mango``."""
    path = Path(name)
    try:
        if is_game_folder(path):
            return load_game(path)
        if path.is_dir() and any(p.name.startswith(path.name + ".") for p in path.iterdir()):
            return load_game(path)  # a damaged game folder: loading it names the missing file
        candidate = mango_folder(data) / name
        found = is_game_folder(candidate)
    except OSError as error:  # a name no folder can have (too long for the file system, ...)
        raise InstanceNotFoundError(f"no MANGO game {clip(name)!r}: {error.strerror or error}") from None
    if not found:
        raise InstanceNotFoundError(f"no MANGO game {name!r} (looked for {candidate})")
    return load_game(candidate)


def split_selector(selector: str) -> tuple[str, Task | None, str | None]:
    """(game, task, question id or prefix) of a selector.

    >>> split_selector("905/rf/0853694d"), split_selector("data/mango/905/df"), split_selector("zork1")
    (('905', <Task.RF: 'rf'>, '0853694d'), ('data/mango/905', <Task.DF: 'df'>, None), ('zork1', None, None))
    """
    parts = selector.rstrip("/").split("/")
    if len(parts) >= 3 and parts[-2] in TASK_NAMES:
        return "/".join(parts[:-2]), TASK_NAMES[parts[-2]], parts[-1]
    if len(parts) >= 2 and parts[-1] in TASK_NAMES:
        return "/".join(parts[:-1]), TASK_NAMES[parts[-1]], None
    return selector.rstrip("/"), None, None


def find_question(game: Game, task: Task, key: str) -> Question:
    """The question of ``game`` whose id is ``key`` or starts with it (a unique prefix)."""
    questions = game.questions(task)
    exact = [q for q in questions if q.id == key]
    if exact:
        return exact[0]
    found = [q for q in questions if q.id.startswith(key)] if len(key) >= MIN_PREFIX else []
    if len(found) == 1:
        return found[0]
    where = f"{game.name}/{task.value}"
    if found:
        raise InstanceNotFoundError(f"{key!r} is the start of {len(found)} {where} question ids; give more of it")
    raise InstanceNotFoundError(f"no {where} question has the id {key!r}" +
                                (f" (prefixes need {MIN_PREFIX} characters)" if len(key) < MIN_PREFIX else ""))


def select(selectors: list[str] | tuple[str, ...], data: Path | None, cutoff: int = DEFAULT_CUTOFF,
           answerable_only: bool = False, rule: str = "release") -> Iterator[MangoInstance]:
    """The instances the selectors name, in order (games in file order: DF, then RF)."""
    check_cutoff(cutoff)
    for selector in selectors:
        if selector == "all":
            chosen = [(load_game(folder), None, None) for folder in game_folders(data)]
        else:
            name, task, key = split_selector(selector)
            chosen = [(find_game(name, data), task, key)]
        for game, task, key in chosen:
            questions = (find_question(game, task, key),) if key is not None else game.questions(task)
            for question in questions:
                instance = MangoInstance(game, question, cutoff, rule)
                if key is not None or not answerable_only or instance.answerable:
                    yield instance
