"""A Rearrangement conversation (the model's replies in order) replayed and judged: a Verdict.

Benchmark semantics: the replies are run exactly as LangSuitE runs them (:mod:`rules`); the
verdict carries LangSuitE's numbers at the end (success, misplaced, fixed under the ``langsuite``
and ``corrected`` rules), the ``restore`` goal, and the timesteps. Replies after the end of the
conversation (``stop`` or 100 timesteps) are never sent by LangSuitE; they are counted and ignored.

Strict semantics: where LangSuitE's code is laxer than its own prompt, the first step that breaks
the prompt's rules is reported:

* a reply that is not one action or one thought (LangSuitE answers "multiple actions" or
  "no action found"; both use a step);
* an action the setting does not list (``goto`` at the low level, moves and turns at the high
  level: LangSuitE runs them anyway, with empty feedback);
* an action LangSuitE refuses (blocked, not visible, not pickupable, hands full, ...);
* ``pick_up`` or ``open`` of an object farther than the manipulation distance (2 m between the
  agent and the object's position; LangSuitE's check is commented out);
* ``drop [o]`` naming an object that is not the one held (LangSuitE drops the first held object);
* a refusal of the opening question (it is asked again).
"""

from __future__ import annotations

from collections.abc import Sequence
from math import sqrt

from plancheck.domains.langsuite.engine.actions import Act
from plancheck.domains.langsuite.rearrangement.parse import WORDS, judged, menu
from plancheck.domains.langsuite.rearrangement.problem import restored
from plancheck.domains.langsuite.rearrangement.rules import Outcome, Task, Turn, step
from plancheck.episodes.check import replies_reading
from plancheck.episodes.game import AMBIGUOUS, CLEAR, NONE, Read
from plancheck.verifier.verdict import Failure, StepView, Verdict

LISTED = {"low": {"MoveAhead", "TurnLeft", "TurnRight", "PickUp", "Drop", "Open", "Close", "Stop"},
          "high": {"Goto", "PickUp", "Drop", "Open", "Close", "Stop"}}
READ = {"multiple": AMBIGUOUS, "none": NONE}  # how a reply of each outcome kind reads (others: clear)


def action_text(task: Task, out: Outcome) -> str:
    """How a step reads in a verdict: the action LangSuitE took, or what it made of the reply."""
    if out.kind == "opening-accepted":
        return "(opening: accepted)"
    if out.kind == "opening-refused":
        return "(opening: refused)"
    if out.kind in ("thought", "multiple", "none"):
        return {"thought": "(thought)", "multiple": "(several actions)", "none": "(no action)"}[out.kind]
    act = out.action
    word = WORDS[act.name]
    written = out.reading.object_name if out.reading is not None and out.reading.object_name else None
    if act.object_id is None:
        return word if written is None else f"{word} [{written}: unknown]"
    return f"{word} [{written or task.start_scene.names[act.object_id]}]"


def strict_problem(task: Task, before: Turn, out: Outcome) -> str | None:
    """Why this step breaks the prompt's own rules (None when it does not)."""
    if out.kind == "opening-refused":
        return "the reply to the opening question contains 'not' or \"don't\": LangSuitE asks again"
    if out.kind == "multiple":
        words = ", ".join(w for w, _ in out.reading.matches)
        return f"the reply holds several actions ({words}); the prompt asks for exactly one"
    if out.kind == "none":
        return "no action of LangSuitE's list is in the reply's act"
    if out.kind != "action":
        return None
    act, world = out.action, before.world
    if act.name not in LISTED[task.level]:
        return (f"{WORDS[act.name]} is not an action of the {task.level}-level prompt (LangSuitE runs it anyway"
                f"{', with empty feedback' if not out.feedback else ''})")
    if not out.success:
        return "LangSuitE refuses it: " + out.feedback.split("\n")[0].removeprefix("Feedback: ")
    if act.name in ("PickUp", "Open") and act.object_id is not None:
        x, y = world.scene.thing(act.object_id).position
        distance = sqrt((x - world.pose.x) ** 2 + (y - world.pose.y) ** 2)
        limit = task.engine.config.max_manipulate_distance
        if distance > limit:
            return (f"{task.start_scene.names[act.object_id]} is {distance:.2f} m away; the prompt allows "
                    f"{WORDS[act.name]} within {task.engine.config.max_manipulation_steps} steps ({limit} m)")
    if act.name == "Drop" and act.object_id is not None and world.inventory:
        held = world.scene.nodes[world.inventory[0]].id
        if held != act.object_id:
            return (f"drop names {task.start_scene.names[act.object_id]} but the agent holds "
                    f"{task.start_scene.names[held]} (LangSuitE drops the held one)")
    if act.name == "Drop" and act.object_id is None and out.reading is not None and out.reading.object_name:
        return f"drop names {out.reading.object_name!r}, which is no object here (LangSuitE drops the held one)"
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
    choices = menu(task.start_scene.names.ids)
    used = 0
    for reply in replies:
        if turn.stopped or turn.crashed:
            break
        before = turn
        out = step(task, turn, reply)
        used += 1
        text = action_text(task, out)
        read = Read(READ.get(out.kind, CLEAR), text)
        if not out.kind.startswith("opening"):
            read = judged(read, reply, choices)
        reads.append((used, read.status))
        if read.guessed:
            guessed.append(used)
        if read.rule_status is not None and (read.guessed or read.status != read.rule_status):
            differs.append(f"reply {used}: " + "; ".join(read.notes))
        actions.append(text)
        problem = strict_problem(task, before, out)
        if problem is not None and failure is None:
            failure = Failure(used, text, problem)
        views.append(StepView(used, text, out.success, None if out.success else out.feedback.split("\n")[0]))
        turn = out.turn
    notes = list(differs)
    if len(replies) > used:
        notes.append(f"{len(replies) - used} repl{'y' if len(replies) - used == 1 else 'ies'} after the end of the "
                     "conversation (LangSuitE never sends them) ignored")
    if not turn.stopped and not turn.crashed:
        notes.append(f"the replies end after {turn.timesteps} timesteps, before stop or the limit of "
                     f"{task.step_limit}: scored as it stands")
    if turn.crashed:
        notes.append(turn.crashed + "; LangSuitE's run would end here without a result")
    scene, holding = turn.world.scene, bool(turn.world.inventory)
    lang, corr = task.score(scene, "langsuite"), task.score(scene, "corrected")
    missing = restored(task, scene, holding)
    scores = {"success": float(lang.success), "misplaced": lang.misplaced, "fixed": lang.fixed,
              "success_corrected": float(corr.success), "misplaced_corrected": corr.misplaced,
              "fixed_corrected": corr.fixed, "restored": float(not missing), "steps": float(turn.timesteps)}
    metrics = {"timesteps": turn.timesteps, "stopped": turn.stopped and not turn.crashed,
               "diff_count": task.diff_count, "crashed": turn.crashed, "level": task.level,
               "changed": list(lang.changed), "restore_missing": missing[:10]}
    optimal = None if optimum is None else {"steps": float(optimum)}
    return Verdict(world="rearrangement", instance=task.episode.id, actions=tuple(actions), form="replies",
                   notes=tuple(notes), steps=tuple(views), valid=failure is None, failure=failure, has_goal=True,
                   goal_reached=bool(lang.success), goal_step=turn.timesteps if lang.success else None,
                   ignored=len(replies) - used, scores=scores, metrics=metrics, optimal=optimal,
                   read=replies_reading(reads, guessed))


def plan_replies(task: Task, acts: Sequence[Act]) -> list[str]:
    """A plan as the replies LangSuitE would read (opening ``YES``, ``Act: ...`` lines, ``stop``)."""
    out = ["YES"]
    for act in acts:
        word = WORDS[act.name]
        name = None if act.object_id is None else task.start_scene.names[act.object_id]
        out.append(f"Act: {word}" if name is None else f"Act: {word} [{name}]")
    return out + ["Act: stop"]
