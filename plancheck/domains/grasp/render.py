"""GRASP as pictures: the grid with its energy, obstacles and start, the answer's path (no-op steps marked)
and, beside it, the path of the certified optimum; an animation of the answer step by step.

The answer's path is replayed on the rules from the verdict's executed actions, so the picture shows
exactly what was scored.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from plancheck.domains.grasp.instance import Environment
from plancheck.domains.grasp.rules import MOVES, Action, GraspRules
from plancheck.drawing.board import Board
from plancheck.drawing.shapes import (
    ANSWER,
    ANSWER_TINT,
    ENERGY,
    FAILURE,
    INK,
    MUTED,
    OBSTACLE,
    OPTIMUM,
    OPTIMUM_TINT,
    START,
    Canvas,
    Drawing,
    Picture,
    beside,
    number_text,
)
from plancheck.rules import Unknown
from plancheck.verifier.execute import Trace, execute
from plancheck.verifier.verdict import Verdict

CELL = 34.0
MARGIN = 24.0
TITLE = 22.0
LINE_HEIGHT = 16.0


def actions_of(names: Sequence[str]) -> list[Action | Unknown]:
    """A verdict's action names as actions again (a name that is no action was an unknown token)."""
    known = {action.value: action for action in Action}
    return [known.get(name, Unknown(name)) for name in names]


@lru_cache(maxsize=512)
def optimum_plan(env: Environment, rule: str) -> tuple[str, ...]:
    """The certified optimal plan under ``rule`` (the native exact solver; milliseconds)."""
    from plancheck.domains.grasp.solve import solve

    result = solve(env, "native", rule=rule)
    return tuple(result.plan or ())


def _panel(env: Environment, trace: Trace | None, colour: str, tint: str, role: str, title: str,
           caption: Sequence[str], upto: int | None = None) -> Drawing:
    """One grid with one path (the first ``upto`` steps of ``trace``, all by default)."""
    grid = env.grid
    board = Board(grid.rows, grid.cols, CELL, MARGIN, MARGIN + TITLE)
    canvas = Canvas(board.left + board.width + 12, board.top + board.height + 10 + LINE_HEIGHT * len(caption))
    canvas.text(board.left, TITLE / 2 + 2, title, size=13, bold=True)
    board.draw_cells(canvas)
    steps = () if trace is None else trace.steps[:upto]
    cells = [grid.start] + [step.state.position for step in steps]
    board.fill_cells(canvas, sorted(set(cells)), tint, role=f"{role}-visited")
    board.fill_cells(canvas, grid.obstacle_cells, OBSTACLE, role="obstacle", title="obstacle")
    x, y = board.corner(grid.start)
    canvas.rect(x + 2, y + 2, CELL - 4, CELL - 4, stroke=START, width=3, role="start", title="start")
    canvas.text(x + CELL - 6, y + CELL - 8, "S", size=9, fill=START, anchor="end", bold=True)
    state = steps[-1].state if steps else (trace.initial if trace is not None else None)
    energy = state.energy if state is not None else tuple(int(ch == "E") for ch in grid.cells)
    for index, units in enumerate(energy):
        if units:
            cx, cy = board.centre(divmod(index, grid.cols))
            canvas.circle(cx + CELL * 0.22, cy - CELL * 0.22, CELL * 0.14, fill=ENERGY, stroke=INK, width=0.6,
                          role="energy")
            if units > 1:
                canvas.text(cx + CELL * 0.22, cy - CELL * 0.22, str(units), size=8, anchor="middle", bold=True)
    board.path(canvas, cells, colour, role=f"{role}-path")
    rejected: dict[tuple[int, int], int] = {}
    for step in steps:
        cell = step.state.position
        if step.ok and step.action in (Action.TAKE, Action.DROP):
            cx, cy = board.centre(cell)
            mark = "+" if step.action is Action.TAKE else "v"
            canvas.text(cx - CELL * 0.26, cy + CELL * 0.26, mark, size=10, fill=colour, anchor="middle", bold=True,
                        role=f"{role}-{step.action.value.lower()}", title=f"step {step.index}: {step.action.value}")
        if not step.ok:
            count = rejected.get(cell, 0)
            rejected[cell] = count + 1
            delta = MOVES.get(step.action) if isinstance(step.action, Action) else None
            offset = (delta[1] * 0.3, delta[0] * 0.3) if delta else (-0.25 + 0.17 * (count % 3), 0.25)
            board.mark(canvas, cell, role="noop", title=f"step {step.index}: {step.reason}", offset=offset)
    if steps:
        board.ring(canvas, cells[-1], colour=colour, role=f"{role}-final", title="where the path ends")
    for number, line in enumerate(caption):
        colour_of_line = FAILURE if line.startswith(("first failure", "UNPARSEABLE")) else MUTED if number else INK
        canvas.text(board.left - 8, board.top + board.height + 14 + LINE_HEIGHT * number, line, size=11,
                    fill=colour_of_line)
    return canvas.drawing()


def _answer_caption(verdict: Verdict, trace: Trace, rule: str) -> list[str]:
    noops = sum(not step.ok for step in trace.steps)
    lines = [f"{len(verdict.actions)} action(s), {len(trace.steps)} executed, {noops} no-op(s)"]
    score = verdict.scores.get(rule)
    if score is not None:
        best = (verdict.optimal or {}).get(rule)
        lines.append(f"score[{rule}] {number_text(score)}" + (f" (optimum {number_text(best)})" if best is not None
                                                               else ""))
    if verdict.failure is not None:
        lines.append(f"first failure: {verdict.failure}")
    return lines


def render(env: Environment, verdict: Verdict | None, rule: str = "paper", compact: bool = False) -> Picture:
    """The answer's grid (when there is a verdict) beside the optimum's (not when ``compact``: a report's
    picture); frames: the answer step by step."""
    rules = GraspRules(env)
    if compact and verdict is not None:
        trace = execute(rules, actions_of(verdict.actions)) if verdict.parsed else None
        caption = _answer_caption(verdict, trace, rule) if trace is not None else \
            [f"UNPARSEABLE: {verdict.parse_error}"[:90]]
        return Picture(_panel(env, trace, ANSWER, ANSWER_TINT, "answer", f"{env.id}: answer", caption))
    best = execute(rules, actions_of(optimum_plan(env, rule)))
    from plancheck.domains.grasp.scoring import scores

    value = scores(env, best)[rule]
    optimum = _panel(env, best, OPTIMUM, OPTIMUM_TINT, "optimum", f"optimum under rule {rule}",
                     [f"{len(best.steps)} action(s), score[{rule}] {number_text(value)} (certified)",
                      env.setting.describe()])
    title = f"{env.id}: answer"
    if verdict is None:
        return Picture(beside(_panel(env, None, ANSWER, ANSWER_TINT, "answer", env.id, [env.setting.describe()]),
                              optimum, gap=24))
    if not verdict.parsed:
        panel = _panel(env, None, ANSWER, ANSWER_TINT, "answer", title, [f"UNPARSEABLE: {verdict.parse_error}"[:90]])
        return Picture(beside(panel, optimum, gap=24))
    trace = execute(rules, actions_of(verdict.actions))
    caption = _answer_caption(verdict, trace, rule)
    still = beside(_panel(env, trace, ANSWER, ANSWER_TINT, "answer", title, caption), optimum, gap=24)
    return Picture(still, lambda: [_panel(env, trace, ANSWER, ANSWER_TINT, "answer",
                                          f"{env.id}: step {k} of {len(trace.steps)}", caption[:1], upto=k)
                                   for k in range(len(trace.steps) + 1)], frame_ms=600)
