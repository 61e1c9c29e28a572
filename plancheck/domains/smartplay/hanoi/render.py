"""Tower of Hanoi as pictures: the answer as a strip of states (each move above the state it leads to,
invalid moves in red), the optimal 2^n - 1 moves as a second strip, and the answer as frames.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from plancheck.domains.smartplay.hanoi.instance import HanoiInstance
from plancheck.domains.smartplay.hanoi.rules import RODS, HanoiRules, Move, State
from plancheck.domains.smartplay.hanoi.solve import recursive_plan
from plancheck.drawing.shapes import (
    FAILURE,
    INK,
    LINE,
    MUTED,
    OPTIMUM,
    SERIES,
    Canvas,
    Drawing,
    Picture,
    chunks,
    padded,
    stack,
    tiled,
)
from plancheck.rules import Unknown
from plancheck.verifier.execute import Trace, execute
from plancheck.verifier.verdict import Verdict

DISK = 9.0  # height of a disk
PER_ROW = 8
MAX_OPTIMUM = 31  # moves of the optimal strip drawn (n <= 5)
_MOVE = re.compile(r"^([ABC])->([ABC])$")


def actions_of(names: Sequence[str]) -> list[Move | Unknown]:
    """A verdict's action names (``A->C``) as moves again (any other name was an unreadable slot)."""
    moves: list[Move | Unknown] = []
    for name in names:
        match = _MOVE.match(name)
        moves.append(Move.between(match[1], match[2]) if match and match[1] != match[2] else Unknown(name))
    return moves


def _tile(state: State, disks: int, label: str, colour: str, role: str, title: str = "", goal: bool = False) -> Drawing:
    """Three rods with their disks, the label above."""
    widest = 16 + 8 * disks
    rod_gap = widest + 8
    width, height = 3 * rod_gap + 8, (disks + 1) * DISK + 40
    canvas = Canvas(width, height)
    if goal:
        canvas.rect(1, 1, width - 2, height - 2, stroke=OPTIMUM, width=2, radius=4, role="goal", title="goal reached")
    canvas.text(width / 2, 11, label, size=10, fill=colour, anchor="middle", bold=colour == FAILURE, role=role,
                title=title)
    base = height - 10
    canvas.line(((4, base), (width - 4, base)), stroke=INK, width=2)
    for rod, disks_on in enumerate(state):
        centre = 4 + rod_gap * (rod + 0.5)
        canvas.line(((centre, base), (centre, base - (disks + 0.6) * DISK)), stroke=LINE, width=3)
        canvas.text(centre, base + 6, RODS[rod], size=8, fill=MUTED, anchor="middle")
        for level, disk in enumerate(disks_on):
            half = (16 + 8 * disk) / 2
            top = base - (level + 1) * DISK
            canvas.rect(centre - half, top, 2 * half, DISK - 1, fill=SERIES[disk % len(SERIES)], stroke=INK,
                        width=0.6, radius=2, role="disk", title=f"disk {disk}")
    return canvas.drawing()


def _strip(trace: Trace, disks: int, heading: str, role: str, upto: int | None = None) -> Drawing:
    steps = trace.steps[:upto]
    tiles = [_tile(trace.initial, disks, "start", INK, "label", goal=trace.goal_step == 0)]
    state = trace.initial
    for step in steps:
        state = step.state
        name = str(step.action)
        label = f"{step.index}: {name if len(name) <= 12 else name[:11] + '...'}"
        tiles.append(_tile(state, disks, label, INK if step.ok else FAILURE, role if step.ok else "noop",
                           title="" if step.ok else f"step {step.index}: {step.reason}",
                           goal=trace.goal_step == step.index))
    head = Canvas(400, 18)
    head.text(0, 9, heading, size=12, bold=True)
    return stack(head.drawing(), tiled(chunks(tiles, PER_ROW), gap=6), gap=4)


def render(instance: HanoiInstance, verdict: Verdict | None) -> Picture:
    """The answer's strip of states above the optimum's; frames: the answer's states one by one."""
    rules = HanoiRules(instance)
    n = instance.disks
    optimal = recursive_plan(n)
    parts = []
    if verdict is not None and verdict.parsed:
        trace = execute(rules, actions_of(verdict.actions))
        reached = f"goal reached at step {trace.goal_step}" if trace.goal_step is not None else "goal not reached"
        failure = f"; first failure: {verdict.failure}" if verdict.failure is not None else ""
        parts.append(_strip(trace, n, f"{instance.id}: the answer ({len(verdict.actions)} move(s), {reached}"
                                      f"{failure})", "move"))
    elif verdict is not None:
        note = Canvas(600, 18)
        note.text(0, 9, f"{instance.id}: UNPARSEABLE: {verdict.parse_error}"[:110], size=12, fill=FAILURE)
        parts.append(note.drawing())
    if len(optimal) <= MAX_OPTIMUM:
        parts.append(_strip(execute(rules, optimal), n, f"optimum: {len(optimal)} moves (2^{n} - 1)", "optimum-move"))
    else:
        note = Canvas(600, 18)
        note.text(0, 9, f"optimum: {len(optimal)} moves (2^{n} - 1), not drawn", size=12, fill=MUTED)
        parts.append(note.drawing())
    still = padded(stack(*parts, gap=14))
    if verdict is None or not verdict.parsed:
        return Picture(still)

    def animate() -> list[Drawing]:
        return [_tile(trace.initial, n, "start", INK, "label")] + [
            _tile(step.state, n, f"{step.index}: {step.action}", INK if step.ok else FAILURE, "move")
            for step in trace.steps]

    return Picture(still, animate, frame_ms=700)
