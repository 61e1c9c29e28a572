"""Console logs as LangSuitE's run loops write them, from plancheck's faithful play (test fixtures).

``IqaTask.run`` and ``AlfredTask.run`` (LangSuitE dev) log through ``CMDClient.step``; these functions
play replies with plancheck's rules and emit the same messages in the same order, and
``test_console_logs.py`` proves them equal to the messages LangSuitE's own code logged in the dev-run
traces. :func:`lines` writes them as LangSuitE's ``.jl`` file does.
"""

from __future__ import annotations

from collections.abc import Sequence

from plancheck.domains.langsuite.console import console_line, reply_pieces
from plancheck.domains.langsuite.household.rules import Task as HouseholdTask
from plancheck.domains.langsuite.household.rules import step as household_step
from plancheck.domains.langsuite.iqa.rules import Task as IqaTask
from plancheck.domains.langsuite.iqa.rules import dispatch
from plancheck.domains.langsuite.iqa.rules import step as iqa_step

Logged = tuple[str, str, str]  # (role, content, kind)
IQA_AGENT, HOUSEHOLD_AGENT = "agent|1", "Alfred Agent"


def iqa_messages(task: IqaTask, seed: int, replies: Sequence[str]) -> list[Logged]:
    """What ``IqaTask.run`` logs for ``replies`` from ``seed``'s start (a thought when they run out)."""
    out: list[Logged] = [("system", task.texts.intro(), "")]
    turn = task.initial(seed)
    for reply in list(replies) + ["Thought: nothing"] * 40:
        before = turn
        result = iqa_step(task, turn, reply)
        turn = result.turn
        logged = reply
        if before.started and dispatch(reply)[0] in ("move_ahead", "turn_left", "turn_right"):
            logged = dispatch(reply)[0]  # parse_response replaces the reply by the word
        if not result.done:
            out += [("assistant", logged, "chat"), ("system", result.feedback, "")]
            continue
        if turn.ended == "crash":
            break  # LangSuitE raises before the reply is logged
        if turn.ended == "silent":
            out.append(("system", turn.prompt, ""))
        elif turn.timesteps - before.timesteps == 2:  # an empty feedback: one more timestep, then the end
            out += [("assistant", logged, "chat"), ("system", "", "")]
            if turn.forced:
                out.append(("assistant", task.forced_reply, "chat"))
            out.append(("system", turn.prompt, ""))
        elif turn.forced:  # the reply at the limit is never logged
            out += [("assistant", task.forced_reply, "chat"), ("system", turn.prompt, "")]
        else:
            out += [("assistant", logged, "chat"), ("system", turn.prompt, "")]
        out.append(("system", "DONE!", ""))
        break
    return out


def household_messages(task: HouseholdTask, replies: Sequence[str], task_path: str | None = None) -> list[Logged]:
    """What ``alfred_batch_run.py`` and ``AlfredTask.run`` log for ``replies`` (``stop`` when they run out)."""
    out: list[Logged] = [("system", task_path, "")] if task_path else []
    out.append(("system", task.texts.intro(), ""))
    turn = task.initial()
    for reply in list(replies) + ["Act: stop"] * 70:
        before = turn
        result = household_step(task, turn, reply)
        turn = result.turn
        if turn.crashed is not None and "no template" not in turn.crashed:
            break  # the action raised inside the step: its reply is never logged
        if not before.started:
            out.append(("assistant", reply, "chat"))
        else:
            out += [("assistant", text, kind) for kind, text in reply_pieces(reply)]
        if turn.crashed is not None:  # the empty feedback is logged; the agent raises on the empty prompt next
            out.append(("system", result.feedback, ""))
            break
        out.append(("system", result.feedback, ""))
        if result.done:
            out += [("system", str(turn.goal.score), ""), ("system", task.texts.verdict(turn.goal.success), ""),
                    ("system", "DONE!", "")]
            break
    return out


def lines(messages: Sequence[Logged], agent: str) -> str:
    """The ``.jl`` text: one ``json.dumps(message, sort_keys=True)`` line each."""
    return "".join(console_line(role, content, kind=kind or "chat", name=agent) + "\n"
                   for role, content, kind in messages)
