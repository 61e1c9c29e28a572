"""A Household conversation (the model's replies in order) replayed and judged: a Verdict.

Benchmark semantics: the replies run exactly as LangSuitE runs them (:mod:`rules`); the verdict
carries LangSuitE's success and goal-condition score at the end (:mod:`scoring`), the path-weighted
ones against the certified optimum, and the timesteps.

Strict semantics: the first step where a reply breaks the prompt's own rules although LangSuitE
goes on (or crashes):

* a refused opening; a reply with no action, with imagined feedback ("feedback:" / "obs:"), or with
  several actions (LangSuitE takes the first);
* an action the setting's prompt does not list (low level: ``goto``, ``heat``/``cool``/``clean``,
  ``inspect``; high level: ``move_ahead``, ``turn_left``, ``turn_right``);
* a name that is no object (LangSuitE passes the action without one), ``drop [o]`` naming an object
  not held first (LangSuitE drops the first one held);
* an action LangSuitE refuses; ``pick_up`` or ``open`` of an object farther than the manipulation
  distance (2 m; LangSuitE's check is commented out);
* a step where LangSuitE's run crashes (its code raises: no result is logged).
"""

from __future__ import annotations

from collections.abc import Sequence
from math import sqrt

from plancheck.domains.langsuite.household.parse import READINGS, WORDS, menu
from plancheck.domains.langsuite.household.rules import Outcome, Task, Turn, step
from plancheck.domains.langsuite.household.scoring import episode_scores
from plancheck.episodes.check import replies_reading
from plancheck.episodes.game import CLEAR
from plancheck.verifier.verdict import Failure, StepView, Verdict

LISTED = {"low": {"move_ahead", "turn_left", "turn_right", "pick_up", "drop", "open", "close", "toggle_on",
                  "toggle_off", "slice", "put", "stop"},
          "high": {"goto", "pick_up", "drop", "open", "close", "toggle_on", "toggle_off", "slice", "put", "heat",
                   "cool", "clean", "stop"}}
SPECIAL = {"thought": "(thought)", "self-feedback": "(self-feedback)", "none": "(no action)"}


def action_text(out: Outcome) -> str:
    """How a step reads in a log or verdict (the game's action texts)."""
    if out.kind == "opening-accepted":
        return "(opening: accepted)"
    if out.kind == "opening-refused":
        return "(opening: refused)"
    if out.kind in SPECIAL:
        return SPECIAL[out.kind]
    act = out.action
    word = WORDS[act.name]
    names = out.reading.names if out.reading is not None else ()
    if act.receptacle_id is not None or (len(names) == 2 and act.object_id is None and word in ("put", "heat", "cool",
                                                                                                  "clean")):
        return f"{word} [{names[0]}, {names[1]}]" if all(names) else word
    if names and names[0]:
        return f"{word} [{names[0]}]"
    return word


def turn_menu(turn: Turn) -> tuple[str, ...]:
    """The action texts of the step after ``turn`` (the scene's names, the objects held)."""
    scene = turn.world.scene
    return menu(scene.names.ids, [scene.names[scene.nodes[n].id] for n in turn.world.inventory])


def strict_problem(task: Task, before: Turn, out: Outcome) -> str | None:
    """Why this step breaks the prompt's own rules (None when it does not)."""
    if out.kind == "opening-refused":
        return "the reply to the opening question contains 'not' or \"don't\": LangSuitE asks again"
    if out.kind == "self-feedback":
        return "the act holds 'feedback:' or 'obs:': LangSuitE refuses imagined feedback"
    if out.kind == "none":
        return "no action of LangSuitE's list in the reply's act"
    if out.kind not in ("action", "stop"):
        return None
    reading, act, world = out.reading, out.action, before.world
    found = [w for w, *_ in reading.matches if w != "look"]
    if len(found) > 1:
        return f"the reply holds several actions ({', '.join(found)}); LangSuitE takes the first"
    word = WORDS[act.name]
    if word not in LISTED[task.level]:
        return f"{word} is not an action of the {task.level}-level prompt (LangSuitE runs it)"
    if any(n and reading.object_id is None for n in reading.names):
        return f"{', '.join(repr(n) for n in reading.names if n)} names no object here: LangSuitE passes {word} " \
               "without one"
    if out.turn.crashed:
        return out.turn.crashed
    if not out.success:
        return "LangSuitE refuses it: " + (out.feedback.split("\n")[0].removeprefix("Feedback: ") or "no feedback")
    if act.name in ("PickUp", "Open") and act.object_id is not None:
        x, y = world.scene.thing(act.object_id).position
        distance = sqrt((x - world.pose.x) ** 2 + (y - world.pose.y) ** 2)
        limit = task.engine.config.max_manipulate_distance
        if distance > limit:
            return (f"{world.scene.names[act.object_id]} is {distance:.2f} m away; the prompt allows {word} within "
                    f"{task.engine.config.max_manipulation_steps} steps ({limit} m)")
    if act.name == "Drop" and reading.names and reading.names[0] and world.inventory:
        held = world.scene.names[world.scene.nodes[world.inventory[0]].id]
        if held != reading.names[0]:
            return f"drop names {reading.names[0]} but LangSuitE drops {held}, held first"
    return None


def check_replies(task: Task, replies: Sequence[str], optimum: int | None = None) -> Verdict:
    """Replay ``replies`` (the first answers the opening question) and judge the conversation."""
    turn = task.initial()
    views: list[StepView] = []
    actions: list[str] = []
    failure: Failure | None = None
    reads: list[tuple[int, str]] = []
    guessed: list[int] = []
    differs: list[str] = []  # why a reply's read is not LangSuitE's rule's own status
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
            read = READINGS["langsuite"].read(reply, turn_menu(before))
            reads.append((used, read.status))
            if read.guessed:
                guessed.append(used)
            if read.rule_status is not None and (read.guessed or read.status != read.rule_status):
                differs.append(f"reply {used}: " + "; ".join(read.notes))
        else:
            reads.append((used, CLEAR))
        problem = strict_problem(task, before, out)
        if problem is not None and failure is None:
            failure = Failure(used, text, problem)
        views.append(StepView(used, text, out.success, None if out.success else out.feedback.split("\n")[0]))
        turn = out.turn
    notes = list(differs)
    if len(replies) > used:
        notes.append(f"{len(replies) - used} repl{'y' if len(replies) - used == 1 else 'ies'} after the end of the "
                     "conversation (LangSuitE never asks for them) ignored")
    if not turn.done:
        notes.append(f"the replies end after {turn.timesteps} timesteps, before stop or the limit of "
                     f"{task.step_limit}: scored as it stands")
    if turn.crashed:
        notes.append(turn.crashed + "; LangSuitE's run ends there without a result")
    scores = episode_scores(turn, optimum)
    goal = turn.goal
    metrics = {"timesteps": turn.timesteps, "stopped": turn.stopped and not turn.crashed, "crashed": turn.crashed,
               "level": task.level, "task_type": task.task.task_type,
               "conditions": None if goal is None else [goal.satisfied, goal.total]}
    return Verdict(world="household", instance=task.task.id, actions=tuple(actions), form="replies",
                   notes=tuple(notes), steps=tuple(views), valid=failure is None, failure=failure, has_goal=True,
                   goal_reached=bool(scores["success"]), goal_step=turn.timesteps if scores["success"] else None,
                   ignored=len(replies) - used, scores=scores, metrics=metrics,
                   optimal=None if optimum is None else {"steps": float(optimum)}, read=replies_reading(reads, guessed))
