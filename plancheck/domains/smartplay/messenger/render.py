"""Messenger as pictures: the 10x10 grid with the enemy, the message and the goal (and L3's decoys) where
they start (hollow) and end (filled), the avatar's path and, in L2/L3, the entities' own paths (dashed);
the episode as frames. A seeded log is replayed on the rules; an unseeded one only tells positions
relative to the avatar, so it is not drawn.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from plancheck.domains.smartplay.messenger import prompts
from plancheck.domains.smartplay.messenger.data import ROLES
from plancheck.domains.smartplay.messenger.instance import Episode
from plancheck.domains.smartplay.messenger.rules import GRID, Action
from plancheck.domains.smartplay.messenger.run import ENTITY_KEYS, Runner
from plancheck.drawing.board import Board
from plancheck.drawing.shapes import (
    ANSWER,
    FAILURE,
    INK,
    MUTED,
    OPTIMUM,
    SKY,
    Canvas,
    Drawing,
    Picture,
    number_text,
    padded,
)
from plancheck.verifier.verdict import Verdict

CELL = 36.0
COLOURS = {"enemy": FAILURE, "message": SKY, "goal": OPTIMUM, "decoy_message": SKY, "decoy_goal": OPTIMUM}
Place = tuple[float, float]  # (row, column); L2/L3 entities may stand between cells


@dataclass(frozen=True)
class Snapshot:
    """Where everything is after a step: the avatar (None when it is gone), its message, the entities."""

    avatar: Place | None
    has_message: bool
    entities: tuple[tuple[str, Place], ...]


def snapshot(runner: Runner) -> Snapshot:
    level = runner.level
    if level is None:  # L1: the entities stand still
        layout = runner.episode.layout
        return Snapshot(runner.state.avatar, runner.state.has_message,
                        tuple((role, layout.cell(role)) for role in ROLES))
    size = level.size
    avatar = level.avatar()
    entities = tuple((key, (s.y / size, s.x / size)) for key in ENTITY_KEYS if key in level.live
                     for s in level.live[key][:1])
    return Snapshot(None if avatar is None else (avatar.y / size, avatar.x / size),
                    avatar is not None and avatar.key == "with_message", entities)


def replay(episode: Episode, actions: Sequence[str]) -> list[Snapshot]:
    """The start and the state after each action (texts such as ``Move North``)."""
    runner = Runner(episode)
    shots = [snapshot(runner)]
    for action in actions:
        runner.step(Action(prompts.ACTIONS.index(action)))
        shots.append(snapshot(runner))
    return shots


def _legend(episode: Episode) -> list[str]:
    game = episode.game
    lines = []
    for role in ROLES:
        movement = f", {episode.variant.movement(role)}" if episode.variant is not None else ""
        lines.append(f"{role}: {getattr(game, role)}{movement}")
    return lines


def _board(episode: Episode, shots: Sequence[Snapshot], title: str, caption: Sequence[str]) -> Drawing:
    board = Board(GRID, GRID, CELL, 24, 44)
    legend = _legend(episode)
    canvas = Canvas(board.left + board.width + 190, board.top + board.height + 12 + 16 * len(caption))
    canvas.text(board.left, 12, title, size=13, bold=True)
    board.draw_cells(canvas)
    first, last = shots[0], shots[-1]
    keys = list(dict.fromkeys(key for key, _ in first.entities + last.entities))
    for key in keys:
        path = [dict(shot.entities)[key] for shot in shots if key in dict(shot.entities)]
        if len(set(path)) > 1:
            board.path(canvas, path, COLOURS[key], role=f"{key}-path", width=2, dash=(4, 4), arrows=False)
    avatar = [shot.avatar for shot in shots if shot.avatar is not None]
    board.path(canvas, avatar, ANSWER, role="avatar-path")
    for key, place in first.entities:
        x, y = board.centre(place)
        canvas.circle(x, y, CELL * 0.3, stroke=COLOURS[key], width=2, role=f"{key}-start", title=f"{key} at the start")
    for key, place in last.entities:
        x, y = board.centre(place)
        canvas.circle(x, y, CELL * 0.22, fill=COLOURS[key], stroke=INK, width=0.8, role=key, title=key)
        canvas.text(x, y, key[0].upper() if not key.startswith("decoy") else "d", size=10, anchor="middle",
                    bold=True)
    if avatar:
        x, y = board.centre(avatar[-1])
        canvas.rect(x - CELL * 0.2, y - CELL * 0.2, CELL * 0.4, CELL * 0.4, fill=ANSWER, stroke=INK, width=0.8,
                    radius=3, role="avatar", title="the avatar" + (" with the message" if last.has_message else ""))
        if last.has_message:
            canvas.circle(x + CELL * 0.2, y - CELL * 0.2, CELL * 0.1, fill=SKY, stroke=INK, width=0.6)
    side = board.left + board.width + 16
    for number, line in enumerate(["A avatar (blue path)", "E enemy, M message, G goal", "d decoy (L3)",
                                   "hollow: where it started"] + [""] + legend):
        canvas.text(side, board.top + 8 + 16 * number, line, size=10, fill=MUTED if number < 4 else INK)
    for number, line in enumerate(caption):
        canvas.text(board.left, board.top + board.height + 14 + 16 * number, line, size=11,
                    fill=FAILURE if line.startswith("first problem") else MUTED if number else INK)
    return canvas.drawing()


def render(episode: Episode, actions: Sequence[str], verdict: Verdict | None) -> Picture:
    """The grid with every path; frames: the episode step by step."""
    shots = replay(episode, actions)
    title = f"MessengerL{episode.level}/seed={episode.seed}"
    if verdict is None:
        return Picture(padded(_board(episode, shots, title + ": the start", ["the episode's start"])))
    caption = [f"{len(actions)} step(s); " + ", ".join(f"{rule} {number_text(value)}"
                                                       for rule, value in verdict.scores.items())]
    if verdict.failure is not None:
        caption.append(f"first problem: {verdict.failure}"[:100])
    still = padded(_board(episode, shots, title, caption))
    return Picture(still, lambda: [padded(_board(episode, shots[:k + 1], f"{title}: step {k} of {len(actions)}",
                                                 [actions[k - 1] if k else "start"])) for k in range(len(shots))],
                   frame_ms=500)
