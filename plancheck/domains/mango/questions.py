"""MANGO's questions: destination finding (DF, ``all2all``) and route finding (RF, ``all_pairs``).

A DF question walks one simple path of the map: "starting from ``src``, perform these actions; where
are you?". An RF question names an ordered pair of places: "find a path from ``src`` to ``dst``".
Each carries the release's step labels; at a cutoff ``T`` (the walkthrough prefix the model reads)
a question is *answerable* iff ``min_step_total_answerable <= T``, and an answerable question is
*easy* iff ``min_step_forward_answerable <= T`` (every edge it needs was walked forward), else *hard*.

Question ids are the release's: sha256 of the JSON of the path steps (DF) or of the pair (RF); the
loader recomputes them and checks every DF path against the map, so a damaged file is reported
with its line rather than scored.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

from plancheck.domains.mango.graph import Edge, Move
from plancheck.errors import BadInputError, Location
from plancheck.files import data_lines


class Task(str, Enum):
    DF = "df"
    RF = "rf"

    @property
    def title(self) -> str:
        return "destination finding" if self is Task.DF else "route finding"


class Difficulty(str, Enum):
    EASY = "easy"
    HARD = "hard"
    UNANSWERABLE = "unanswerable"


@dataclass(frozen=True, slots=True)
class Labels:
    """The release's step labels of a question (9999 = never)."""

    min_step_forward: int
    min_step_total: int
    min_step_forward_answerable: int
    min_step_total_answerable: int

    def difficulty(self, cutoff: int) -> Difficulty:
        """Easy, hard or unanswerable for a model that read ``cutoff`` steps of the walkthrough.

        >>> Labels(15, 15, 15, 15).difficulty(70).value, Labels(99, 15, 99, 15).difficulty(70).value
        ('easy', 'hard')
        >>> Labels(15, 15, 15, 15).difficulty(10).value
        'unanswerable'
        """
        if self.min_step_total_answerable > cutoff:
            return Difficulty.UNANSWERABLE
        return Difficulty.EASY if self.min_step_forward_answerable <= cutoff else Difficulty.HARD

    @classmethod
    def of(cls, record: dict[str, Any]) -> Labels:
        return cls(int(record["min_step_forward"]), int(record["min_step_total"]),
                   int(record["min_step_forward_answerable"]), int(record["min_step_total_answerable"]))


@dataclass(frozen=True, slots=True)
class DFQuestion:
    """Destination finding: where does following ``path``'s actions from ``src`` lead?"""

    id: str
    src: str
    dst: str
    path: tuple[Move, ...]
    labels: Labels
    diff_shortest: int

    task = Task.DF

    @property
    def actions(self) -> tuple[str, ...]:
        return tuple(move.action for move in self.path)


@dataclass(frozen=True, slots=True)
class RFQuestion:
    """Route finding: how to go from ``src`` to ``dst`` (``num_paths`` simple paths exist)."""

    id: str
    src: str
    dst: str
    num_paths: int
    labels: Labels

    task = Task.RF


Question = DFQuestion | RFQuestion


def df_question_id(path: tuple[Move, ...]) -> str:
    """The release's id of a DF question: sha256 of its steps as sorted-key JSON."""
    steps = [{"prev_node": m.before, "node": m.after, "action": m.action} for m in path]
    return hashlib.sha256(json.dumps(steps, sort_keys=True).encode()).hexdigest()


def rf_question_id(src: str, dst: str) -> str:
    """The release's id of an RF question.

    >>> rf_question_id("bedroom", "living room")[:16]
    '0853694d864cf820'
    """
    return hashlib.sha256(json.dumps({"src_node": src, "dst_node": dst}, sort_keys=True).encode()).hexdigest()


def _records(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    for number, record in data_lines(path):
        if not isinstance(record, dict):
            raise BadInputError("expected a JSON object", Location(str(path), number))
        yield number, record


def _df(record: dict[str, Any], edges: frozenset[tuple[str, str, str]]) -> DFQuestion:
    path = tuple(Move(str(s["prev_node"]), str(s["action"]), str(s["node"])) for s in record["path_details"])
    question = DFQuestion(str(record["id"]), str(record["src_node"]), str(record["dst_node"]), path,
                          Labels.of(record), int(record["diff_shortest"]))
    if not path or path[0].before != question.src or path[-1].after != question.dst:
        raise ValueError("the path does not lead from src_node to dst_node")
    for index, move in enumerate(path):
        if (move.before, move.action, move.after) not in edges:
            raise ValueError(f"step {index + 1} ({move.before!r} --{move.action}--> {move.after!r}) is not a map edge")
        if index and path[index - 1].after != move.before:
            raise ValueError(f"step {index + 1} does not start where step {index} ends")
    if df_question_id(path) != question.id:
        raise ValueError(f"the id {question.id} is not the hash of the path")
    return question


def _rf(record: dict[str, Any], edges: frozenset[tuple[str, str, str]]) -> RFQuestion:
    question = RFQuestion(str(record["id"]), str(record["src_node"]), str(record["dst_node"]),
                          int(record["num_paths"]), Labels.of(record))
    if rf_question_id(question.src, question.dst) != question.id:
        raise ValueError(f"the id {question.id} is not the hash of the pair")
    return question


def read_questions(path: Path, task: Task, edges: tuple[Edge, ...]) -> tuple[tuple[Question, ...], tuple[str, ...]]:
    """Every question of an ``all2all.jsonl`` (DF) or ``all_pairs.jsonl`` (RF) file, checked, each once; and
    the lines that repeat an earlier one (kept out). A line with an earlier line's id but other content is
    bad input."""
    triples = frozenset((e.src, e.action, e.dst) for e in edges)
    build = _df if task is Task.DF else _rf
    questions: list[Question] = []
    first: dict[str, tuple[int, Question]] = {}
    repeats: list[str] = []
    for number, record in _records(path):
        try:
            question = build(record, triples)
        except KeyError as missing:
            raise BadInputError(f"the question lacks the key {missing}", Location(str(path), number)) from None
        except (TypeError, ValueError) as error:
            raise BadInputError(f"bad {task.value.upper()} question: {error}", Location(str(path), number)) from None
        if question.id in first:
            line, earlier = first[question.id]
            if earlier != question:
                raise BadInputError(f"the question {question.id[:12]}... of line {line} appears again with other "
                                    f"labels", Location(str(path), number))
            repeats.append(f"{path.name} line {number} repeats line {line} ({task.value} {question.id[:12]}...)")
            continue
        first[question.id] = (number, question)
        questions.append(question)
    return tuple(questions), tuple(repeats)
