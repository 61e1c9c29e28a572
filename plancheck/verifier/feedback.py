"""Verifier feedback: a verdict as a short message a model can be given (PlanBench-style backprompting).

The message says what went wrong first, in the world's own words, where it happened, and how far
the answer got: the first failure with the state after the last good step, an unreadable answer
with the place reading stopped, a goal not reached with the final state, and the scores under the
benchmark's named rules. It never shows the optimum (a hint the benchmark does not give).

>>> from plancheck.verifier.verdict import Failure, StepView, Verdict
>>> steps = (StepView(1, "UP", True, state="at (8, 6), carrying 0"), StepView(2, "LEFT", False, "blocked"))
>>> verdict = Verdict("grasp", "g", actions=("UP", "LEFT"), steps=steps, failure=Failure(2, "LEFT", "LEFT from "
...                   "(8, 6) is blocked by an obstacle at (8, 5)"), scores={"paper": -0.6})
>>> print(feedback_text(verdict))
Step 2: LEFT from (8, 6) is blocked by an obstacle at (8, 5). After step 1: at (8, 6), carrying 0. Scores: paper -0.6.
>>> print(feedback_text(Verdict("hanoi", "h", parse_error="<input>, line 1, column 1: no list of moves found")))
Your answer could not be read as a plan (line 1, column 1): no list of moves found.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from plancheck.verifier.verdict import Verdict

_WHERE = re.compile(r"(?:[^\n]*?, )?line (\d+)(?:, column (\d+))?: (.*)", re.DOTALL)  # as errors.Location writes it
_NO_SOURCE = "<input>: "


def _stop(text: str) -> str:
    """``text`` ending with a full stop (the world's words are kept as they are, lower-case start included)."""
    text = text.strip()
    return text if not text or text.endswith((".", "!", "?")) else text + "."


def _number(value: object) -> str:
    if isinstance(value, float):
        return f"{value:.4g}"
    return str(value)


def _unreadable(error: str) -> str:
    """The parse error without the name of the answer's source (the model does not know it), with its place."""
    match = _WHERE.fullmatch(error)
    if match is None:
        return f"Your answer could not be read as a plan: {_stop(error.removeprefix(_NO_SOURCE))}"
    line, column, reason = match.groups()
    where = f"line {line}" + (f", column {column}" if column else "")
    return f"Your answer could not be read as a plan ({where}): {_stop(reason)}"


def _episode(verdict: Verdict) -> bool:
    """Whether the verdict is on an episode log (whose steps describe the world's analysis, not a state)."""
    return verdict.form.startswith("episode")


def _state_after(verdict: Verdict, step: int) -> str | None:
    """The world's description of the state after ``step`` (None when it is not known)."""
    if _episode(verdict) or step < 1 or step > len(verdict.steps):
        return None
    return verdict.steps[step - 1].state or None


def feedback_text(verdict: Verdict) -> str:
    """A short message on ``verdict`` for the model that wrote the answer: the first problem and the progress made."""
    if not verdict.parsed:
        return _unreadable(verdict.parse_error or "")
    parts: list[str] = []
    if verdict.failure is not None:
        step = verdict.failure.step
        parts.append(f"Step {step}: {_stop(verdict.failure.reason)}")
        if (state := _state_after(verdict, step - 1)) is not None:
            parts.append(f"After step {step - 1}: {state}.")
        if verdict.has_goal and verdict.goal_reached is False:
            parts.append("The goal is not reached.")
    elif not verdict.actions:
        parts.append("Your answer holds no actions." + (" The goal is not reached." if verdict.has_goal else ""))
    elif verdict.has_goal and verdict.goal_reached is False:
        count = len(verdict.actions)
        final = None if _episode(verdict) else _state_after(verdict, len(verdict.steps))
        parts.append(("The one action" if count == 1 else f"All {count} actions") + " can be carried out, but the goal "
                     "is not reached" + (f"; after the last one: {final}." if final else "."))
    elif verdict.has_goal:
        what = "The episode is consistent with the rules" if _episode(verdict) else "The plan is valid"
        parts.append(f"{what} and reaches the goal at step {verdict.goal_step}.")
    elif _episode(verdict):
        count = len(verdict.actions)
        parts.append(f"The episode is consistent with the rules ({count} step{'' if count == 1 else 's'}).")
    else:
        count = len(verdict.actions)
        parts.append(f"The plan is valid ({count} action{'' if count == 1 else 's'}).")
    if verdict.scores:
        scores = [f"{rule} {_number(value)}" for rule, value in verdict.scores.items()]
        parts.append("Scores: " + ", ".join(scores) + ".")
    return " ".join(parts)
