"""LangSuitE's own console logs of an IQA run as plancheck episode logs.

LangSuitE's batch script (``scripts/iqa_batch_run.py``) writes ``console-logs/data_type_{qt}_idx_{index}_.jl``
(:mod:`..console`). ``IqaTask.run`` logs the opening message, then for every exchange the reply (a chat
message: the reply itself, except that a move or turn is logged as the bare word, ``move_ahead``, which
LangSuitE reads the same way) and LangSuitE's next message, and at the end its verdict (``Your are
right!`` / ``Your are wrong!``) and ``DONE!``. Four endings log differently:

* an answer: the answering reply, then the verdict (no message in between);
* the step limit: the 30th reply and its feedback are never logged; the task's own answer
  (``answer [False]``, counting ``answer [0]``) is logged as the agent's, then the verdict;
* a name that is no object (*silent-end*): that reply is not logged; the verdict follows the last message;
* an empty feedback (*empty-prompt-end*): the feedback ``""``, then (at the limit) the task's answer, the verdict.

A run that raised (a ``goto`` whose grid search fails) ends without a verdict; its last reply is not logged.

The file name does not say which question was asked: the log does (its question text and the view at
the start), and the converter finds the plancheck question whose text and start view (from some start
point LangSuitE can draw; from the seed's, with ``--seed``) are the log's, else the one ``--instance`` names.
Only runs on plancheck's questions (``plancheck export iqa ID --format langsuite``) check.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from plancheck.domains.langsuite.console import Message, at, read_console
from plancheck.domains.langsuite.engine.actions import WorldState
from plancheck.domains.langsuite.engine.agent import Pose
from plancheck.domains.langsuite.engine.reply import accepts_opening
from plancheck.domains.langsuite.iqa.instance import Question, question, question_ids
from plancheck.domains.langsuite.iqa.parse import OPENING, READINGS, menu
from plancheck.domains.langsuite.iqa.prompts import LEVELS, STEP_LIMIT, STOP_RIGHT, STOP_WRONG, Texts
from plancheck.domains.langsuite.iqa.rules import Task, start_pose
from plancheck.domains.langsuite.iqa.scene import free_starts
from plancheck.episodes.log import Episode, Header, Step
from plancheck.errors import BadInputError, Location

VERDICTS = (STOP_RIGHT, STOP_WRONG)
SILENT_REPLY = "Act: open [(no object; the reply is not logged)]"
_QUESTION, _OBS = "\nQuestion: ", "\nObs: "


@dataclass(frozen=True)
class _Step:
    """One step as the log shows it: the reply (None: not logged), LangSuitE's next message or verdict."""

    reply: str | None
    observation: str
    line: int
    note: str | None = None
    forced_at_limit: bool = False


@dataclass(frozen=True)
class _Log:
    level: str
    intro: str
    steps: tuple[_Step, ...]
    result: tuple[str, ...]  # the verdict and DONE! (empty when the log ends without them)
    forced: Message | None  # the task's own answer, logged as the agent's


def convert(path: Path, seed: int | None = None, model: str | None = None, instance: str | None = None,
            **options) -> Iterator[Episode]:
    """One episode log from one LangSuitE IQA console log."""
    log = _parse(path)
    found = question(instance) if instance else _identify(log, path, seed, model)
    forced_reply = Task(found, log.level).forced_reply
    if log.forced is not None and log.forced.content != forced_reply:
        raise BadInputError(f"at the step limit LangSuitE answers {forced_reply!r} for the agent of a {found.kind} "
                            f"question, not {log.forced.content!r}", at(path, log.forced))
    yield _episode(found, log, path, seed, model)


def _level(intro: Message, path: Path) -> str:
    for level in LEVELS:
        if intro.content == Texts(level).intro():
            return level
    raise BadInputError("the first message is not LangSuitE's IQA opening message (of iqa_cot.json or "
                        "iqa_cot-hl.json)", at(path, intro))


def _parse(path: Path) -> _Log:
    messages = read_console(path)
    if not messages or not messages[0].system:
        raise BadInputError("a console log starts with LangSuitE's opening message", at(path, messages[0] if
                                                                                          messages else None))
    level = _level(messages[0], path)
    rest = list(messages[1:])
    steps: list[_Step] = []
    forced: Message | None = None
    i = 0

    def verdict_at(j: int, after: str) -> str:
        if j >= len(rest) or not rest[j].system or rest[j].content not in VERDICTS:
            raise BadInputError(f"after {after} LangSuitE logs its verdict ({STOP_RIGHT!r} or {STOP_WRONG!r})",
                                at(path, rest[j] if j < len(rest) else None))
        return rest[j].content

    verdict: str | None = None
    while i < len(rest):
        m = rest[i]
        if len(steps) >= STEP_LIMIT:
            raise BadInputError(f"the log goes on after {STEP_LIMIT} replies, where LangSuitE ends the episode",
                                at(path, m))
        if m.system:
            if m.content in VERDICTS and steps:  # a name that is no object: the reply is not logged
                verdict = m.content
                steps.append(_Step(SILENT_REPLY, verdict, m.line, f"line {m.line}: no reply before LangSuitE's "
                                   "verdict: the reply named no object (LangSuitE ends without a word and logs no "
                                   f"reply); rebuilt as {SILENT_REPLY!r}"))
                i += 1
                break
            raise BadInputError("a message of LangSuitE's where the agent's reply comes (LangSuitE logs each reply "
                                "before its answer)", at(path, m))
        if m.kind != "chat":
            raise BadInputError(f"an IQA reply is logged as a chat message, not {m.kind!r}", at(path, m))
        if i + 1 >= len(rest):
            raise BadInputError("the log ends after a reply (LangSuitE logs its answer or verdict after each one)",
                                at(path, m))
        nxt = rest[i + 1]
        if not nxt.system:
            raise BadInputError("two replies in a row (LangSuitE answers each one)", at(path, nxt))
        if nxt.content == "DONE!":
            raise BadInputError("'DONE!' without LangSuitE's verdict before it", at(path, nxt))
        if nxt.content in VERDICTS:
            verdict = nxt.content
            if len(steps) == STEP_LIMIT - 1:  # the task's own answer: the 30th reply is not logged
                forced = m
                steps.append(_Step(None, verdict, m.line, f"line {m.line}: the {STEP_LIMIT}th reply and its feedback "
                                   f"are not logged; LangSuitE answered for the agent ({m.content!r})", True))
            else:
                steps.append(_Step(m.content, verdict, m.line))
            i += 2
            break
        if nxt.content == "":  # an empty feedback ends the episode one timestep later
            j = i + 2
            if len(steps) + 2 >= STEP_LIMIT:  # that timestep reaches the limit: the task answers
                if j >= len(rest) or rest[j].system:
                    raise BadInputError("the empty feedback reaches the step limit: LangSuitE's own answer comes "
                                        "next, as the agent's", at(path, rest[j] if j < len(rest) else None))
                forced = rest[j]
                j += 1
            verdict = verdict_at(j, "an empty feedback (the episode ends)")
            steps.append(_Step(m.content, verdict, m.line))
            i = j + 1
            break
        steps.append(_Step(m.content, nxt.content, m.line))
        i += 2
    result: tuple[str, ...] = ()
    if verdict is not None:
        if i >= len(rest) or rest[i].content != "DONE!" or not rest[i].system:
            raise BadInputError("LangSuitE's verdict is followed by 'DONE!'", at(path, rest[i] if i < len(rest)
                                                                                  else None))
        result = (verdict, "DONE!")
        for m in rest[i + 1:]:
            if not m.system or m.content:
                raise BadInputError("LangSuitE logs nothing after 'DONE!'", at(path, m))
    return _Log(level, messages[0].content, tuple(steps), result, forced)


def _split_start(text: str) -> tuple[str, str] | None:
    """(question, start view) of LangSuitE's message after an accepted opening."""
    if not text.startswith(_QUESTION) or _OBS not in text or not text.endswith("  "):
        return None
    q, _, view = text[len(_QUESTION):].partition(_OBS)
    return q, view[:-2]


def _identify(log: _Log, path: Path, seed: int | None, model: str | None) -> Question:
    """The plancheck question whose text and start view are the log's, and (where several are) whose
    conversation gives every logged message (see the module docstring)."""
    start = next((s for s in log.steps if s.reply is not None and _split_start(s.observation)), None)
    if start is None:
        raise BadInputError(f"{path}: the log never shows LangSuitE's question (no accepted opening reply); name "
                            "the question with --instance")
    text, view = _split_start(start.observation)  # type: ignore[misc]
    same_text = [question(q) for q in question_ids() if question(q).text == text]
    where = Location(str(path), start.line + 1)
    if not same_text:
        raise BadInputError(f"the question {text!r} is none of plancheck's IQA questions (only runs on plancheck's "
                            "questions convert: plancheck export iqa ID --format langsuite)", where)
    fits = [q for q in same_text if view in _start_views(Task(q, log.level), seed)]
    if len(fits) > 1:  # the same kitchen with and without the class, say: follow the whole log
        fits = [q for q in fits if _fits(_episode(q, log, path, seed, model))] or fits
    if len(fits) == 1:
        return fits[0]
    if not fits:
        raise BadInputError(f"the view at the start fits none of the {len(same_text)} question(s) asked as "
                            f"{text!r} ({', '.join(q.id for q in same_text)})"
                            + ("" if seed is None else f" from seed {seed}'s start"), where)
    raise BadInputError(f"{len(fits)} questions fit the log's question, start view and messages "
                        f"({', '.join(q.id for q in fits)}); name one with --instance", where)


def _fits(episode: Episode) -> bool:
    """Whether the rules give every logged message of ``episode`` (from its seed's start, or some start)."""
    from plancheck.domains.langsuite.iqa.world import WORLD
    from plancheck.episodes.check import replay_episode

    return all(step.problem is None for step in replay_episode(WORLD.episodes, episode))


def _start_views(task: Task, seed: int | None) -> set[str]:
    if task.engine.high_level:
        return {task.start_view(WorldState(task.scene, Pose(0.0, 0.0, 0.0, 1.0)))}
    points = free_starts(task.scene) if seed is None else []
    poses = [start_pose(task.scene, seed)] if seed is not None else [Pose(float(x), float(y), 0.0, 1.0)
                                                                       for x, y in points]
    return {task.start_view(WorldState(task.scene, pose)) for pose in poses}


def _episode(found: Question, log: _Log, path: Path, seed: int | None, model: str | None) -> Episode:
    settings = {"reading": "langsuite", "level": log.level}
    task = Task(found, log.level)
    reading = READINGS["langsuite"]
    choices = menu(task.scene.names.ids)
    started = False
    steps: list[Step] = []
    notes: list[str] = []
    for k, s in enumerate(log.steps, start=1):
        actions: Sequence[str] = choices if started else OPENING
        if s.reply is None:  # the limit's unlogged reply: any reply ends the same way
            action, status, read_notes = "(no action)", None, ()
        else:
            read = reading.rule(s.reply, actions)  # LangSuitE's action (a reply's committed reading is check's)
            action, status, read_notes = read.action, None, read.notes
            if not started:
                started = accepts_opening(s.reply)
        if s.note:
            notes.append(s.note)
        last = k == len(log.steps)
        steps.append(Step(k, s.reply, action, status, read_notes + ((s.note,) if s.note else ()), s.observation,
                          None, None, (True if log.result else None) if last else False))
    if not log.result:
        notes.append("the log ends without LangSuitE's verdict: its run raised (a goto whose grid search fails "
                     "raises IndexError before the reply is logged) or the file is cut")
    header = Header("iqa", found.id, seed, settings, "external", observation=log.intro, model=model,
                    extra={"converted_from": str(path), "langsuite_result": list(log.result),
                           **({"converted_notes": notes} if notes else {})})
    return Episode(header, tuple(steps))

