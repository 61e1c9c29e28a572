"""MANGO's scores for one answer, as the paper defines them, on the evaluation graph.

* Similarity of two names: lowercase both, Levenshtein distance ``d``, ``1 - d / max(len)`` (0 when
  both are empty, as in the release).
* DF: the question's actions are walked from ``src`` along every branch (moves may be
  nondeterministic); ``strict`` = the answer's final location is one of the reached places,
  ``loose`` = its best similarity to one of them.
* RF: each answer action is snapped to an action of the graph (``strict``: the same name;
  ``loose``: the most similar name, ties to the alphabetically first) and walked from ``src`` along
  every branch; the answer succeeds when some branch ends at ``dst`` after the last action.
  ``loose_similarity`` is the release evaluator's partial credit: the best similarity between
  ``dst`` and a place the loose walk ends at.
* Reasoning: the trajectory obeys :class:`~.rules.TrajectoryRules` (it starts at ``src``, each step
  starts where the previous one ended and is an edge of the evaluation graph with exactly that
  action; for DF its actions are exactly the question's) and it ends at ``dst`` (RF) or runs all of
  the question's actions (DF).

Names are compared after :func:`normalize` (surrounding blanks removed, lowercase).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from plancheck.domains.mango.graph import Move, Moves, normalize
from plancheck.domains.mango.questions import DFQuestion, RFQuestion
from plancheck.domains.mango.rules import TrajectoryRules
from plancheck.verifier.execute import Trace, execute


def levenshtein(a: str, b: str) -> int:
    """Edit distance (insert, delete, substitute; each costs 1).

    >>> levenshtein("kitten", "sitting"), levenshtein("", "abc"), levenshtein("same", "same")
    (3, 3, 0)
    """
    if a == b:
        return 0
    if len(a) < len(b):
        a, b = b, a
    previous = list(range(len(b) + 1))
    for i, char_a in enumerate(a, start=1):
        current = [i]
        for j, char_b in enumerate(b, start=1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (char_a != char_b)))
        previous = current
    return previous[-1]


def similarity(a: str, b: str) -> float:
    """The paper's name similarity: 1 - Levenshtein / longer length, on lowercased names.

    >>> similarity("Living Room", "living room"), round(similarity("living room", "dining room"), 3)
    (1.0, 0.818)
    >>> similarity("", "")
    0.0
    """
    a, b = a.lower(), b.lower()
    longest = max(len(a), len(b))
    return 1 - levenshtein(a, b) / longest if longest else 0.0


def snap(action: str, vocabulary: Sequence[str], *, loose: bool) -> str | None:
    """The graph action an answer's action stands for (None: no such action under the strict rule).

    ``vocabulary`` is sorted, so among equally similar actions the alphabetically first wins.

    >>> snap(" North", ("east", "north"), loose=False), snap("nort", ("east", "north"), loose=False)
    ('north', None)
    >>> snap("wes", ("east", "west"), loose=True), snap("xx", ("east", "west"), loose=True)
    ('west', 'east')
    """
    name = normalize(action)
    if name in vocabulary or not loose:
        return name if name in vocabulary else None
    best, best_score = None, -1.0
    for candidate in vocabulary:
        score = similarity(name, candidate)
        if score > best_score:
            best, best_score = candidate, score
    return best


def walk(moves: Moves, src: str, actions: Sequence[str | None]) -> tuple[frozenset[str], ...]:
    """The places every branch can be in after each action; it stops at the first empty set.

    >>> from plancheck.domains.mango.graph import Edge, evaluation_graph
    >>> m = Moves.of(evaluation_graph([Edge("a", "b", "east"), Edge("a", "c", "east")]))
    >>> [sorted(s) for s in walk(m, "a", ["east", "west", "north"])]
    [['b', 'c'], ['a'], []]
    """
    here = frozenset({normalize(src)})
    trail: list[frozenset[str]] = []
    for action in actions:
        here = frozenset() if action is None else frozenset(
            place for origin in here for place in moves.successors(origin, action))
        trail.append(here)
        if not here:
            break
    return tuple(trail)


@dataclass(frozen=True, slots=True)
class Score:
    """The scores of one parsed answer and what a person needs to see why."""

    scores: dict[str, float]
    trace: Trace  # the trajectory executed under :class:`~.rules.TrajectoryRules`
    reasoning_failure: str | None  # the first reason the trajectory is not a correct reasoning chain
    details: dict[str, object]


def _reasoning_failure(trace: Trace, ending: str | None) -> str | None:
    bad = trace.first_rejected
    if bad is not None:
        return f"step {bad.index}: {bad.reason}"
    return ending


def score_df(moves: Moves, question: DFQuestion, trajectory: Sequence[Move]) -> Score:
    """Destination finding: the answer's final location against every place the actions can lead to."""
    truth = walk(moves, question.src, question.actions)
    destinations = truth[-1] if truth else frozenset()
    final = normalize(trajectory[-1].after)
    strict = float(final in destinations)
    loose = max((similarity(final, place) for place in destinations), default=0.0)
    trace = execute(TrajectoryRules(moves, question.src, question.actions), trajectory)
    short = (f"the trajectory stops after {len(trajectory)} of the question's {len(question.actions)} actions"
             if len(trajectory) < len(question.actions) else None)
    failure = _reasoning_failure(trace, short)
    return Score({"strict": strict, "loose": loose, "reasoning": float(failure is None)}, trace, failure,
                 {"final_location": trajectory[-1].after, "destinations": sorted(destinations)})


def score_rf(moves: Moves, question: RFQuestion, trajectory: Sequence[Move]) -> Score:
    """Route finding: the answer's actions, snapped strictly and loosely, walked from ``src``."""
    dst = normalize(question.dst)
    written = [move.action for move in trajectory]
    strict_actions = [snap(action, moves.actions, loose=False) for action in written]
    loose_actions = [snap(action, moves.actions, loose=True) for action in written]
    strict_walk = walk(moves, question.src, strict_actions)
    loose_walk = walk(moves, question.src, loose_actions)
    strict_end = strict_walk[-1] if len(strict_walk) == len(written) else frozenset()
    loose_end = loose_walk[-1] if len(loose_walk) == len(written) else frozenset()
    trace = execute(TrajectoryRules(moves, question.src), trajectory)
    wrong_end = (None if normalize(trajectory[-1].after) == dst else
                 f"the trajectory ends at {trajectory[-1].after!r}, not at {question.dst!r}")
    failure = _reasoning_failure(trace, wrong_end)
    scores = {"strict": float(dst in strict_end), "loose": float(dst in loose_end),
              "loose_similarity": max((similarity(dst, place) for place in loose_end), default=0.0),
              "reasoning": float(failure is None)}
    return Score(scores, trace, failure, {
        "strict_walk": [sorted(places) for places in strict_walk],
        "loose_actions": loose_actions,
        "loose_walk": [sorted(places) for places in loose_walk],
    })
