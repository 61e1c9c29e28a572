"""An IQA conversation (the model's replies in order, from one seed's start) replayed and judged.

Benchmark semantics: the replies run exactly as LangSuitE runs them (:mod:`rules`); the verdict
carries LangSuitE's verdict (``correct``), the accuracy as its evaluator counts it (``accuracy``:
``iqa_eval.py`` also needs a log of more than four lines and an answer line without "Obs" or
"Feedback"), and the timesteps.

Strict semantics: the first step where a reply breaks the prompt's own rules although LangSuitE
goes on:

* a refused opening (it is asked again), or an opening reply holding "answer" (the episode ends);
* a reply naming no action of the setting's list, or several (LangSuitE picks one by the order of
  its substring tests), or holding "answer" beside another action or without ``answer [...]``;
* an action the setting does not list (``goto`` at the low level, moves and turns at the high level:
  LangSuitE runs it and the episode then ends);
* a name that is no object (LangSuitE ends the episode without a word);
* an action LangSuitE refuses (blocked, not in view, not openable, no path).
"""

from __future__ import annotations

from collections.abc import Sequence

from plancheck.domains.langsuite.iqa.parse import READINGS, menu, named_actions
from plancheck.domains.langsuite.iqa.rules import Outcome, Task, Turn, extract_answer, step
from plancheck.episodes.check import replies_reading
from plancheck.episodes.game import CLEAR
from plancheck.verifier.verdict import Failure, StepView, Verdict

LISTED = {"low": {"move_ahead", "turn_left", "turn_right", "open", "answer"}, "high": {"goto", "open", "answer"}}
def action_text(out: Outcome) -> str:
    """How a step reads in a log or verdict (the game's action texts)."""
    if out.kind == "opening-accepted":
        return "(opening: accepted)"
    if out.kind == "opening-refused":
        return "(opening: refused)"
    if out.kind == "answer":
        answer = extract_answer(out.turn.answer or "")
        return "answer" if answer is None else f"answer [{answer}]"
    if out.kind == "pass":
        return {"pass": "(pass)", "Pass": "(no action)", "Stop": "(stop)"}[out.word or "Pass"]
    if out.name is not None:
        return f"{out.word} [{out.name}]"
    return out.word or "(no action)"


def strict_problem(task: Task, before: Turn, reply: str, out: Outcome) -> str | None:
    """Why this step breaks the prompt's own rules (None when it does not)."""
    if out.kind == "opening-refused":
        return "the reply to the opening question contains 'not' or \"don't\": LangSuitE asks again"
    if not before.started:
        if "answer" in reply.lower():
            return "the opening reply holds 'answer': LangSuitE ends the episode and judges it as an answer"
        return None
    words = named_actions(reply)
    if out.kind == "answer":
        if len(words) > 1:
            return (f"the reply holds 'answer' beside {', '.join(w for w in words if w != 'answer')}: LangSuitE "
                    "takes it as the answer")
        if extract_answer(reply) is None:
            return "the reply holds 'answer' but no 'answer [...]': LangSuitE takes it as a wrong answer"
        return None
    if out.kind == "pass":
        return "no action of the prompt's list in the reply (LangSuitE: " + out.feedback + ")" if not words else \
            f"{words[0]} without an object in brackets: LangSuitE passes"
    if len(words) > 1:
        return (f"the reply holds several actions ({', '.join(words)}); LangSuitE takes {out.word} by the order of "
                "its substring tests")
    if out.word not in LISTED[task.level]:
        return f"{out.word} is not an action of the {task.level}-level prompt (LangSuitE runs it; the episode ends)"
    if out.kind == "silent":
        return f"{out.name!r} is no object: LangSuitE ends the episode without a word"
    if not out.success:
        return "LangSuitE refuses it: " + (out.feedback.split("\n")[0].removeprefix("Feedback: ") or "no feedback")
    return None


def check_replies(task: Task, seed: int, replies: Sequence[str], optimum: int | None = None) -> Verdict:
    """Replay ``replies`` from the start ``seed`` draws and judge the conversation."""
    turn = task.initial(seed)
    views: list[StepView] = []
    actions: list[str] = []
    failure: Failure | None = None
    reads: list[tuple[int, str]] = []
    guessed: list[int] = []
    differs: list[str] = []  # why a reply's read is not LangSuitE's rule's own status
    choices = menu(task.scene.names.ids)
    used = 0
    for reply in replies:
        if turn.done:
            break
        before = turn
        out = step(task, turn, reply)
        used += 1
        text = action_text(out)
        actions.append(text)
        if before.started:
            read = READINGS["langsuite"].read(reply, choices)
            reads.append((used, read.status))
            if read.guessed:
                guessed.append(used)
            if read.rule_status is not None and (read.guessed or read.status != read.rule_status):
                differs.append(f"reply {used}: " + "; ".join(read.notes))
        else:
            reads.append((used, CLEAR))
        problem = strict_problem(task, before, reply, out)
        if problem is not None and failure is None:
            failure = Failure(used, text, problem)
        views.append(StepView(used, text, out.success, None if out.success else out.feedback.split("\n")[0]))
        turn = out.turn
    notes = list(differs)
    if len(replies) > used:
        notes.append(f"{len(replies) - used} repl{'y' if len(replies) - used == 1 else 'ies'} after the end of the "
                     "conversation (LangSuitE never asks for them) ignored")
    if not turn.done:
        notes.append(f"the replies end after {turn.timesteps} timesteps, before an answer or the limit of "
                     f"{task.step_limit}: scored as unanswered")
    if turn.crashed:
        notes.append(turn.crashed + "; LangSuitE's run would end here without a verdict")
    if turn.forced:
        notes.append(f"LangSuitE answered for the agent at the step limit: {turn.answer}")
    scores = {"correct": float(turn.right), "accuracy": float(turn.counted), "steps": float(turn.timesteps),
              "answered": float(turn.ended == "answer")}
    metrics = {"timesteps": turn.timesteps, "ended": turn.ended, "level": task.level, "seed": seed,
               "question_type": task.question.kind, "gold": task.gold, "answer": turn.answer}
    return Verdict(world="iqa", instance=task.question.id, actions=tuple(actions), form="replies",
                   notes=tuple(notes), steps=tuple(views), valid=failure is None, failure=failure, has_goal=True,
                   goal_reached=turn.right, goal_step=turn.timesteps if turn.right else None,
                   ignored=len(replies) - used, scores=scores, metrics=metrics,
                   optimal=None if optimum is None else {"steps": float(optimum)}, read=replies_reading(reads, guessed))
