"""LangSuitE's own console logs of a Household (ALFRED) run as plancheck episode logs.

LangSuitE's batch script (``scripts/alfred_batch_run.py``) writes ``alfred_{stage}/{model}/{a}--{b}.jl``,
``a/b`` the last two parts of the task's ``traj_data.json`` path (:mod:`..console`); its first line is that
path (``logger.emit(task_data["task_path"])``). ``AlfredTask.run`` then logs the opening message, for every
exchange the reply (the opening reply as a chat message, later ones as the thought and the act LangSuitE
cut out of them) and LangSuitE's next message, and at the end (``stop`` or 60 timesteps) its goal score
``str(s / ts)``, its verdict and ``DONE!``. A run that raised logs no end: an action that raises inside
LangSuitE's step (``heat``, ``cool`` and ``clean`` at the high level, a ``put`` of an object holding others,
a ``goto`` whose grid search fails) is not logged at all; one whose template the file lacks logs its pieces
and the empty feedback, then the agent raises.

The task is the one ``--instance`` names, else the plancheck id (``FloorPlan10-pick_and_place_simple``)
in the task path or the file name: only runs on plancheck's tasks (``plancheck export household ID
--format langsuite``, whose file is ``ID.json``) check.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from plancheck.domains.langsuite.console import Message, at, read_console, rebuild_reply
from plancheck.domains.langsuite.household.game import HouseholdGame
from plancheck.domains.langsuite.household.instance import task
from plancheck.domains.langsuite.household.parse import READINGS
from plancheck.domains.langsuite.household.prompts import LEVELS, Texts
from plancheck.episodes.log import Episode, Header, Step
from plancheck.errors import BadInputError

_ID = re.compile(r"FloorPlan\d+-[a-z_]+")
_SCORE = re.compile(r"^\d+(\.\d+)?(e-?\d+)?$")


def convert(path: Path, seed: int | None = None, model: str | None = None, instance: str | None = None,
            **options) -> Iterator[Episode]:
    """One episode log from one LangSuitE Household console log."""
    messages = read_console(path)
    if not messages:
        raise BadInputError(f"{path}: an empty console log")
    intros = {Texts(level).intro(): level for level in LEVELS}
    first = 0
    task_path = None
    if messages[0].system and messages[0].content not in intros:
        task_path, first = messages[0].content, 1
    if first >= len(messages) or not messages[first].system or messages[first].content not in intros:
        raise BadInputError("not LangSuitE's Household opening message (of alfred_react.json or "
                            "alfred_react_high_level.json)", at(path, messages[first] if first < len(messages)
                                                                else None))
    level = intros[messages[first].content]
    tid = instance or _task_id(task_path, path, messages[0])
    settings = {"reading": "langsuite", "level": level}
    game = HouseholdGame(task(tid), settings)
    observation = game.reset()
    reading = READINGS["langsuite"]
    steps: list[Step] = []
    notes: list[str] = []
    pieces: list[Message] = []
    rest = messages[first + 1:]
    result: list[str] = []
    i = 0
    while i < len(rest):
        message = rest[i]
        if not message.system:
            pieces.append(message)
            i += 1
            continue
        if not pieces and steps and _trailer(rest, i, level):
            result = [m.content for m in rest[i:i + 3]]
            for m in rest[i + 3:]:
                if not m.system or m.content:
                    raise BadInputError("LangSuitE logs nothing after 'DONE!'", at(path, m))
            break
        if message.content == "DONE!":
            raise BadInputError("'DONE!' without LangSuitE's goal score and verdict before it", at(path, message))
        if not game.turn.started and [p.kind for p in pieces] != ["chat"]:
            raise BadInputError("the reply to the opening message is logged as one chat message", at(path, message))
        if game.turn.started and any(p.kind == "chat" for p in pieces):
            raise BadInputError("after the opening LangSuitE logs a reply as its thought and act, not as a chat "
                                "message", at(path, pieces[0]))
        reply, note = rebuild_reply(pieces, path)  # no pieces: a reply with no line LangSuitE keeps ("OK.")
        notes += [note] if note else []
        read = reading.rule(reply, game.actions())  # LangSuitE's action; the rebuilt reply's reading is not logged
        if read.action is None:
            raise BadInputError(f"LangSuitE's reading of the reply gives no action ({'; '.join(read.notes)})",
                                at(path, pieces[0] if pieces else message))
        steps.append(Step(len(steps) + 1, reply, read.action, None, read.notes, message.content, None, None, False))
        game.step(read.action, reply)
        pieces = []
        i += 1
    if pieces:
        raise BadInputError("the log ends after the agent's reply (LangSuitE logs its answer to each one, or "
                            "nothing of a reply whose action raised)", at(path, pieces[0]))
    if steps:
        last = steps[-1]
        steps[-1] = Step(last.step, last.reply, last.action, last.read, last.notes, last.observation, None, None,
                         True if result else None)
    if not result:
        notes.append("the log ends without LangSuitE's goal score and verdict: its run raised (an action that "
                     "raises inside LangSuitE's step is not logged) or the file is cut")
    header = Header("household", tid, 0 if seed is None else seed, settings, "external", observation=observation,
                    model=model, extra={"converted_from": str(path), "langsuite_result": result,
                                        **({"task_path": task_path} if task_path else {}),
                                        **({"converted_notes": notes} if notes else {})})
    yield Episode(header, tuple(steps))


def _trailer(rest: tuple[Message, ...], i: int, level: str) -> bool:
    """Whether LangSuitE's closing lines start at ``i``: the goal score, the verdict, ``DONE!``."""
    texts = Texts(level)
    window = rest[i:i + 3]
    return len(window) == 3 and all(m.system for m in window) and _SCORE.match(window[0].content) is not None \
        and window[1].content in (texts.verdict(True), texts.verdict(False)) and window[2].content == "DONE!"


def _task_id(task_path: str | None, path: Path, first: Message) -> str:
    for where in (task_path, path.name):
        for found in _ID.findall(where or ""):
            try:
                return task(found).id
            except BadInputError:
                continue
    if task_path is not None:
        raise BadInputError(f"the task path {task_path!r} names no plancheck Household task (ids look like "
                            "FloorPlan10-pick_and_place_simple; only runs on plancheck's tasks convert); name the "
                            "task with --instance", at(path, first))
    raise BadInputError(f"{path}: neither a task path line nor the file name names a plancheck Household task (ids "
                        "look like FloorPlan10-pick_and_place_simple); name the task with --instance")
