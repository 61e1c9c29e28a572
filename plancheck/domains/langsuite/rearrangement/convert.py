"""LangSuitE's own console logs of a Rearrangement run as plancheck episode logs.

LangSuitE's batch script writes ``console-logs/{scene}-{index}.jl``: one JSON line per message it
shows, ``{"role": "system", "content": ...}`` for its own messages and ``{"role": "assistant",
"content": ..., "name": ..., "action": "chat" | "thought" | "act"}`` for the agent's, then, after the
last step, the ``{'misplaced': m, 'fixed': f}`` line, ``[SUCCESS] ...`` or ``[FAIL] ...``, ``DONE!``.

The model's raw replies are not in these logs: the opening answer is, but later replies appear as
the thought and act LangSuitE cut out of them. The converter rebuilds each reply as
``Thought:<thought>`` / ``Act:<act>`` lines, which LangSuitE reads exactly as it read the original.
A log only checks against plancheck's scenes when LangSuitE ran on plancheck's episode files
(``plancheck export rearrangement ID --format langsuite``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from plancheck.domains.langsuite.console import read_console, rebuild_reply
from plancheck.domains.langsuite.rearrangement.game import RearrangementGame
from plancheck.domains.langsuite.rearrangement.instance import episode
from plancheck.domains.langsuite.rearrangement.parse import READINGS
from plancheck.episodes.log import Episode, Header, Step
from plancheck.errors import BadInputError

_NAME = re.compile(r"(FloorPlan\d+)[-_](\d+)")
_TRAILER = re.compile(r"^\{'misplaced': .*\}$")


def convert(path: Path, seed: int | None = None, model: str | None = None, **options) -> Iterator[Episode]:
    """One episode log from one LangSuitE console log (the episode id comes from the file name)."""
    match = _NAME.search(path.name)
    if match is None:
        raise BadInputError(f"{path}: the file name does not name an episode (LangSuitE writes "
                            "{scene}-{index}.jl, e.g. FloorPlan21-3.jl)")
    eid = f"{match.group(1)}_{match.group(2)}"
    messages = read_console(path)
    if not messages or not messages[0].system:
        raise BadInputError(f"{path}: a console log starts with LangSuitE's opening message")
    level = "high" if "`goto [object_name]`: it means you go" in messages[0].content else "low"
    settings = {"reading": "langsuite", "level": level}
    game = RearrangementGame(episode(eid), settings)
    observation = game.reset()
    reading = READINGS["langsuite"]
    steps: list[Step] = []
    pieces: list = []
    result = []
    notes = []
    for message in messages[1:]:
        if not message.system:
            pieces.append(message)
            continue
        content = message.content
        if not pieces and (game.turn.stopped or result):  # LangSuitE's closing lines
            if _TRAILER.match(content) or content.startswith(("[SUCCESS]", "[FAIL]")) or content == "DONE!":
                result.append(content)
            continue
        reply, note = rebuild_reply(pieces, path)  # no pieces: an empty reply (LangSuitE answers "OK.")
        notes += [note] if note else []
        read = reading.read(reply, game.actions())
        k = len(steps) + 1
        steps.append(Step(k, reply, read.action, read.status, read.notes, content, None, None, False))
        game.step(read.action, reply)
        pieces = []
    if steps:
        last = steps[-1]
        steps[-1] = Step(last.step, last.reply, last.action, last.read, last.notes, last.observation, None, None,
                         True)
    header = Header("rearrangement", eid, seed, settings, "external", observation=observation, model=model,
                    extra={"converted_from": str(path), "langsuite_result": result,
                           **({"converted_notes": notes} if notes else {})})
    yield Episode(header, tuple(steps))

