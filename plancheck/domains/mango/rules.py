"""MANGO's rules for an answer's trajectory: each step must start where the previous one ended and be
an edge of the evaluation graph (and, for DF, carry the question's action at that position).

The state is the step count, the place the trajectory has reached and the move that led there. A
step that breaks a rule is rejected with the reason in plain words; the walk then goes on from
the place the answer claims (``Rejected.state``), so every later step is judged on its own.
The map's truth about *where the actions lead* is the scoring's business (:mod:`.scoring`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from plancheck.domains.mango.graph import Move, Moves, normalize
from plancheck.rules import Applied, Outcome, Rejected


class State(NamedTuple):
    steps: int
    place: str
    last: Move | None = None

    def __str__(self) -> str:
        return self.place if self.last is None else f"{self.last.before} -> {self.last.after}"


class TrajectoryRules:
    """The rules a trajectory from ``src`` is executed under (``actions``: the DF question's actions)."""

    horizon = None
    stops_at_goal = False
    tail_after_goal_ok = False

    def __init__(self, moves: Moves, src: str, actions: Sequence[str] | None = None):
        self.moves, self.src, self.actions = moves, src, actions

    def initial_state(self) -> State:
        return State(0, normalize(self.src))

    def goal_reached(self, state: State) -> bool:
        return False  # success is decided by the scores (where the actions lead), not by the claimed places

    def step(self, state: State, move: Move) -> Outcome:
        index = state.steps + 1
        before, action, after = normalize(move.before), normalize(move.action), normalize(move.after)
        reached = State(index, after, move)
        actions = self.actions
        if before != state.place:
            where = "the start" if index == 1 else f"where step {index - 1} ends"
            return Rejected(f"it starts at {move.before!r}, but {where} is {state.place!r}", state=reached)
        if actions is not None and index > len(actions):
            return Rejected(f"the question has only {len(actions)} action(s)", state=reached)
        if actions is not None and action != normalize(actions[index - 1]):
            return Rejected(f"the question's action {index} is {actions[index - 1]!r}, not {move.action!r}",
                            state=reached)
        if not self.moves.has_edge(before, action, after):
            leads = self.moves.successors(before, action)
            return Rejected(f"{action!r} from {before!r} leads to {' or '.join(map(repr, leads))}, not {after!r}"
                            if leads else f"the map has no {action!r} move from {before!r}", state=reached)
        return Applied(reached)
