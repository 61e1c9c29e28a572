"""SmartPlay's Hanoi rewards and scores, read off an execution trace, and its per-step records.

Per step: reward 100 when the move completes the tower (the episode ends), -1 for an invalid
move (the state is unchanged), else 0; the score is the number of disks on rod C after the step.
The episode's ``score`` is the score after its last step (it can go down), ``normalised`` is
score / n (SmartPlay's normalize_score for Hanoi3Disk: min 0, human 3; plancheck uses n for any
n), ``completion`` is 1 when the goal was reached, ``reward`` is the sum of the rewards.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from plancheck.domains.smartplay.hanoi.instance import HanoiInstance
from plancheck.domains.smartplay.hanoi.prompts import compact, history, observation, rods_text
from plancheck.domains.smartplay.hanoi.rules import Move, State
from plancheck.rules import Unknown
from plancheck.verifier.execute import Trace

GOAL_REWARD = 100
INVALID_REWARD = -1


@dataclass(frozen=True, slots=True)
class StepInfo:
    """What SmartPlay's ``env.step`` reports for one step (``action`` is None for an unreadable slot)."""

    action: Move | None
    reward: int
    done: bool
    score: int
    invalid_action: bool
    state: State
    obs: str
    history: str

    def to_json(self) -> dict[str, Any]:
        """SmartPlay's keys; ``state`` lists each rod's disks from the top, as its ``info['state']``."""
        return {"action": None if self.action is None else self.action.value,
                "action_text": None if self.action is None else self.action.sentence,
                "reward": self.reward, "done": self.done, "score": self.score, "completed": int(self.done),
                "invalid_action": self.invalid_action, "state": [sorted(rod) for rod in self.state],
                "obs": self.obs, "history": self.history}


def rewards(trace: Trace) -> list[int]:
    return [GOAL_REWARD if record.index == trace.goal_step else (0 if record.ok else INVALID_REWARD)
            for record in trace.steps]


def episode(trace: Trace) -> tuple[StepInfo, ...]:
    """SmartPlay's record of every executed step: reward, score, observation and history."""
    observations = [observation(trace.initial)]
    infos = []
    for record, reward in zip(trace.steps, rewards(trace), strict=True):
        move = record.action if isinstance(record.action, Move) else None
        if move is not None:
            obs = observation(record.state, move)
        else:  # SmartPlay's own parser never yields one; shown like a move it could not make
            obs = f"You tried to {str(record.action).lower()}. Current configuration:\n{rods_text(record.state)}"
        infos.append(StepInfo(move, reward, record.index == trace.goal_step, len(record.state[2]), not record.ok,
                              record.state, obs, history(observations, record.index)))
        observations.append(obs)
    return tuple(infos)


def scores(instance: HanoiInstance, trace: Trace) -> dict[str, float]:
    score = len(trace.final[2])
    return {"score": score, "normalised": round(score / instance.disks, 9),
            "completion": int(trace.goal_step is not None), "reward": sum(rewards(trace))}


def best_disks(disks: int, limit: int) -> int:
    """The most disks that can be on rod C after at most ``limit`` moves (closed form).

    m disks on C take at least 2^m - 1 moves: if the largest of them is disk j >= m, disk j moved,
    and its first move needs the j smaller disks gathered on one other rod first (2^j - 1 moves, the
    least for a tower of j), so 2^j >= 2^m moves in all; if it is disk m - 1, C holds the tower of
    the m smallest disks, which takes 2^m - 1 moves from A. 2^m - 1 moves suffice (move that tower).

    >>> best_disks(3, 30), best_disks(5, 30), best_disks(20, 30), best_disks(5, 31)
    (3, 4, 4, 5)
    """
    best = 0
    while best < disks and 2 ** (best + 1) - 1 <= limit:
        best += 1
    return best


def optimum(instance: HanoiInstance) -> dict[str, float]:
    """The best value of every score within SmartPlay's step limit. For n <= 4 the goal (2^n - 1 moves)
    fits; beyond, it does not, and the best is the most disks on C within the limit (4 for 30 steps),
    reached without an invalid move (reward 0) and without completion."""
    if instance.optimal_moves <= instance.step_limit:
        return {"score": instance.disks, "normalised": 1.0, "completion": 1, "reward": GOAL_REWARD}
    best = best_disks(instance.disks, instance.step_limit)
    return {"score": best, "normalised": round(best / instance.disks, 9), "completion": 0, "reward": 0}


def metrics(instance: HanoiInstance, trace: Trace, answer_length: int) -> dict[str, Any]:
    moves = [record for record in trace.steps if isinstance(record.action, Move)]
    return {
        "length": answer_length,
        "executed": len(trace.steps),
        "invalid_moves": sum(1 for record in moves if not record.ok),
        "unreadable": sum(1 for record in trace.steps if isinstance(record.action, Unknown)),
        "optimal_moves": instance.optimal_moves,
        "final": compact(trace.final),
    }
