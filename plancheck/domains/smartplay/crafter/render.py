"""Crafter as pictures: the part of the seed's real map the episode saw, coloured by material, with the
agent's path, where it started and ended, the creatures at the end and where each achievement was unlocked;
the episode as frames (at most :data:`MAX_FRAMES`, the map as it was at each one).

A seeded log is replayed in crafter (the same replay ``check`` does); an unseeded one only shows what
lay around the agent at each step, with no place on the map, so it is not drawn.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from plancheck.drawing.board import Board
from plancheck.drawing.shapes import (
    ANSWER,
    FAILURE,
    INK,
    MUTED,
    START,
    WHITE,
    Canvas,
    Drawing,
    Picture,
    number_text,
    padded,
    text_width,
)
from plancheck.verifier.verdict import Verdict

MAX_FRAMES = 60
VIEW = (4, 3)  # the agent sees 4 cells left and right of itself and 3 above and below (crafter's 9x7 view)
COLOURS = {"water": "#5b9bd5", "grass": "#b5d99c", "stone": "#9e9e9e", "path": "#e3d5b8", "sand": "#f2e2a0",
           "tree": "#2e7d32", "lava": "#e65100", "coal": "#333333", "iron": "#c58b63", "diamond": "#7fe3f0",
           "table": "#8d5a2b", "furnace": "#5d4037"}
CREATURES = {"Cow": ("c", "#ffffff"), "Zombie": ("Z", "#7cb342"), "Skeleton": ("S", "#eeeeee"),
             "Plant": ("p", "#aed581"), "Arrow": ("a", "#ffcc80")}
Cell = tuple[int, int]  # (row, column) = crafter's (y, x)


@dataclass(frozen=True)
class Snapshot:
    """The map (material names by [x][y]) and the creatures, ``(kind, cell)``, after a step."""

    step: int
    materials: tuple[tuple[str, ...], ...]
    creatures: tuple[tuple[str, Cell], ...]


@dataclass(frozen=True)
class Replay:
    """Where the agent stood at the start and after each action, what each step unlocked, and snapshots."""

    cells: tuple[Cell, ...]
    unlocked: tuple[tuple[str, ...], ...]  # per action
    snapshots: tuple[Snapshot, ...]  # the start, sampled steps, the end


def _cell(pos) -> Cell:
    return (int(pos[1]), int(pos[0]))


def _snapshot(env, step: int) -> Snapshot:
    world = env._world
    names = world._mat_names
    materials = tuple(tuple(names[int(v)] or "none" for v in column) for column in world._mat_map)
    creatures = tuple((type(obj).__name__, _cell(obj.pos)) for obj in world.objects
                      if type(obj).__name__ != "Player")
    return Snapshot(step, materials, creatures)


def replay(game, actions: Sequence[str], frames: int = MAX_FRAMES) -> Replay:
    """Reset ``game`` (a :class:`~plancheck.domains.smartplay.crafter.game.CrafterGame`), take ``actions``."""
    game.reset()
    stride = max(1, -(-len(actions) // frames))
    cells, unlocked, shots = [_cell(game.env._player.pos)], [], [_snapshot(game.env, 0)]
    for k, action in enumerate(actions, start=1):
        if game.done:
            break
        transition = game.step(action)
        cells.append(_cell(game.env._player.pos))
        unlocked.append(tuple(transition.info.get("unlocked", ())))
        if k % stride == 0 or k == len(actions) or game.done:
            shots.append(_snapshot(game.env, k))
    return Replay(tuple(cells), tuple(unlocked), tuple(shots))


def window(cells: Sequence[Cell], area: tuple[int, int] = (64, 64)) -> tuple[int, int, int, int]:
    """(top, left, rows, columns) of the map the path saw: its cells and the view around them, on the map.

    >>> window([(32, 32), (33, 30)])
    (29, 26, 8, 11)
    """
    rows, columns = [r for r, _ in cells], [c for _, c in cells]
    top, left = max(0, min(rows) - VIEW[1]), max(0, min(columns) - VIEW[0])
    bottom, right = min(area[1] - 1, max(rows) + VIEW[1]), min(area[0] - 1, max(columns) + VIEW[0])
    return top, left, bottom - top + 1, right - left + 1


def _map(run: Replay, shot: Snapshot, upto: int, title: str, caption: Sequence[str], cell: float,
         failure: int | None = None) -> Drawing:
    top, left, rows, columns = window(run.cells, (len(shot.materials), len(shot.materials[0])))
    board = Board(rows, columns, cell, 28, 46)
    seen = sorted({shot.materials[left + c][top + r] for r in range(rows) for c in range(columns)})
    unlocks = [(k, name) for k, names in enumerate(run.unlocked[:upto], start=1) for name in names]
    first = run.snapshots[0]
    changed = [(r, c) for r in range(rows) for c in range(columns)
               if first.materials[left + c][top + r] != shot.materials[left + c][top + r]]
    side = ([("material", name) for name in seen] + [("", "dashed: changed since the start")] * bool(changed)
            + [("", "")] + [("unlock", f"{n} {name} (step {k})") for n, (k, name) in enumerate(unlocks, start=1)])
    width = max([board.left + board.width + 200, board.left + text_width(title, 13) + 8]
                + [board.left + text_width(line, 11) + 8 for line in caption])
    canvas = Canvas(width, max(board.top + board.height, board.top + 16 * len(side)) + 12 + 16 * len(caption))
    canvas.text(board.left, 12, title, size=13, bold=True)
    board.draw_cells(canvas, labels=False)
    for material in seen:
        cells = [(r, c) for r in range(rows) for c in range(columns) if shot.materials[left + c][top + r] == material]
        board.fill_cells(canvas, cells, COLOURS.get(material, WHITE), role=f"material-{material}", title=material)
    for r, c in changed:
        x, y = board.corner((r, c))
        a, b, was, now = x + 2, x + cell - 2, first.materials[left + c][top + r], shot.materials[left + c][top + r]
        canvas.line(((a, y + 2), (b, y + 2), (b, y + cell - 2), (a, y + cell - 2), (a, y + 2)), stroke=INK, width=1,
                    dash=(2, 2), role="changed", title=f"{was} at the start, {now} at step {shot.step}")
    canvas.text(board.left, board.top - 6, f"map x {left}..{left + columns - 1}, y {top}..{top + rows - 1}",
                size=10, fill=MUTED)
    path = [(r - top, c - left) for r, c in run.cells[:upto + 1]]
    board.path(canvas, path, ANSWER, role="agent-path", arrows=len(path) < 200)
    board.ring(canvas, path[0], START, role="start", title="where the agent started")
    for kind, (r, c) in shot.creatures:
        if 0 <= r - top < rows and 0 <= c - left < columns and kind in CREATURES:
            letter, fill = CREATURES[kind]
            x, y = board.centre((r - top, c - left))
            canvas.circle(x, y, cell * 0.3, fill=fill, stroke=INK, width=0.8, role=f"creature-{kind.lower()}",
                          title=kind)
            canvas.text(x, y, letter, size=cell * 0.45, anchor="middle", bold=True)
    here: dict[Cell, int] = {}
    for number, (k, name) in enumerate(unlocks, start=1):
        x, y = board.centre(path[k])
        x += cell * (0.25 - 0.46 * here.get(path[k], 0))  # several unlocks in one cell: side by side
        here[path[k]] = here.get(path[k], 0) + 1
        canvas.circle(x, y - cell * 0.25, cell * 0.22, fill="#ffd600", stroke=INK, width=0.8, role="unlock",
                      title=f"{name} at step {k}")
        canvas.text(x, y - cell * 0.25, str(number), size=cell * 0.3, anchor="middle", bold=True)
    if failure is not None and failure <= upto:
        board.mark(canvas, path[min(failure, len(path) - 1)], role="failure", title=f"first failure at step {failure}")
    x, y = board.centre(path[-1])
    canvas.rect(x - cell * 0.2, y - cell * 0.2, cell * 0.4, cell * 0.4, fill=ANSWER, stroke=INK, width=0.8,
                radius=2, role="agent", title="the agent")
    right = board.left + board.width + 16
    for number, (kind, line) in enumerate(side):
        y = board.top + 8 + 16 * number
        if kind == "material":
            canvas.rect(right, y - 5, 10, 10, fill=COLOURS.get(line, WHITE), stroke=INK, width=0.5)
        canvas.text(right + (14 if kind == "material" else 0), y, line, size=10, fill=INK if kind else MUTED)
    bottom = max(board.top + board.height, board.top + 16 * len(side))
    for number, line in enumerate(caption):
        canvas.text(board.left, bottom + 14 + 16 * number, line, size=11,
                    fill=FAILURE if line.startswith("first failure") else MUTED if number else INK)
    return canvas.drawing()


def render(run: Replay, title: str, verdict: Verdict | None, compact: bool = False) -> Picture:
    """The map with the agent's path; frames: the sampled steps, the map as it was then."""
    steps = len(run.cells) - 1
    cell = 12.0 if compact else 20.0
    caption = [f"{steps} step(s); blue: the agent's path; pink ring: its start; yellow: unlocks"]
    failure = None
    if verdict is not None:
        caption[0] += "; " + ", ".join(f"{rule} {number_text(value)}" for rule, value in verdict.scores.items())
        if verdict.failure is not None:
            failure = verdict.failure.step
            caption.append(f"first failure: step {failure}: {verdict.failure.reason}"[:110])
    still = padded(_map(run, run.snapshots[-1], steps, title, caption, cell, failure))
    return Picture(still, lambda: _frames(run, title, cell, failure), frame_ms=400)


def _frames(run: Replay, title: str, cell: float, failure: int | None) -> list[Drawing]:
    """One frame per snapshot, all of one size (an animation is drawn at its first frame's size)."""
    steps = len(run.cells) - 1
    frames = [padded(_map(run, shot, shot.step, f"{title}: step {shot.step} of {steps}", [], cell, failure))
              for shot in run.snapshots]
    width, height = max(f.width for f in frames), max(f.height for f in frames)
    return [Drawing(width, height, frame.shapes, frame.background) for frame in frames]
