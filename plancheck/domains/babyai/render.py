"""BabyAI as pictures, from minigrid's own renderer: the start frame with the answer's path overlaid
(steps that did nothing marked), the certified optimum's path beside it when the check proved one, and
the episode as frames (minigrid stepped with the actions that reached it).

The path comes from plancheck's rules; the frames from minigrid. Where the two disagree on the agent's
pose the caption says so (the differential test says they never do).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from plancheck.domains.babyai.check import OPTIMAL_TIMEOUT, TaskInstance
from plancheck.domains.babyai.instance import State
from plancheck.domains.babyai.langsuite import LangSuitERules
from plancheck.domains.babyai.levels import reset_env
from plancheck.domains.babyai.parse import parse_langsuite, parse_subgoals
from plancheck.domains.babyai.rules import ACTION_NAMES, Action, BabyAIRules
from plancheck.domains.babyai.subgoals import Helper
from plancheck.domains.babyai.tasks import LANGSUITE_ACTIONS, IGAction, Subgoal, Task
from plancheck.drawing.board import Board
from plancheck.drawing.shapes import (
    ANSWER,
    FAILURE,
    INK,
    MUTED,
    OPTIMUM,
    WHITE,
    Canvas,
    Drawing,
    Picture,
    Raster,
    beside,
    number_text,
    padded,
    text_width,
)
from plancheck.errors import AnswerParseError
from plancheck.rules import Unknown
from plancheck.translators.answer import SpanKind, UnknownPolicy
from plancheck.verifier.execute import execute
from plancheck.verifier.verdict import Verdict

TILE = 32  # minigrid's tile size for the still
FRAME_TILE = 16  # and for the frames (drawn at twice the size)
MAX_FRAMES = 400
HEAD = 24.0
LINE_HEIGHT = 16.0


@dataclass(frozen=True)
class Run:
    """An answer as the world ran it: the state after each step (the start first), whether each step had
    an effect and why not, and the minigrid action that reached minigrid at each step (None: none did)."""

    states: tuple[State, ...]
    ok: tuple[bool, ...]
    reasons: tuple[str | None, ...]
    minigrid: tuple[Action | None, ...]


def _run_minigrid_actions(task: TaskInstance, actions: Sequence[Action | Unknown]) -> Run:
    trace = execute(BabyAIRules(task.instance), list(actions))
    return Run((trace.initial,) + tuple(step.state for step in trace.steps), tuple(s.ok for s in trace.steps),
               tuple(s.reason for s in trace.steps),
               tuple(s.action if isinstance(s.action, Action) else None for s in trace.steps))


def run_of(task: TaskInstance, answer: str | Sequence[str] | None, verdict: Verdict, options: dict[str, Any]) -> Run:
    """What the answer did, step by step, under its task's rules."""
    if task.task is Task.PREDICT:
        return _run_minigrid_actions(task, task.predict_actions())
    if task.task is Task.PLAN:
        return _run_minigrid_actions(task, [ACTION_NAMES.get(name, Unknown(name)) for name in verdict.actions])
    text = answer if isinstance(answer, str) else "\n".join(answer or ())
    if task.task is Task.DECOMPOSE:
        parsed = parse_subgoals(text)
        subgoals = [a for a in parsed.actions(UnknownPolicy.SKIP) if isinstance(a, Subgoal)]
        return _run_minigrid_actions(task, Helper(BabyAIRules(task.instance)).run(subgoals).actions)
    parsed_ig = parse_langsuite(answer if isinstance(answer, str) else list(answer or ()),
                                opening=options.get("opening") or "auto")
    opened = sum(1 for span in parsed_ig.spans if span.kind is SpanKind.OUTSIDE)
    trace = execute(LangSuitERules(task.instance, opening_replies=max(1, opened)),
                    parsed_ig.actions(UnknownPolicy(options.get("unknown") or "noop")))
    reached: list[Action | None] = []
    for step in trace.steps:
        word = step.action.word if isinstance(step.action, IGAction) else None
        reached.append(LANGSUITE_ACTIONS.get(word) if step.ok and word is not None else None)
    return Run((trace.initial.world,) + tuple(step.state.world for step in trace.steps),
               tuple(s.ok for s in trace.steps), tuple(s.reason for s in trace.steps), tuple(reached))


def _frame(env: Any, tile: int) -> Raster:
    pixels = env.unwrapped.get_frame(highlight=False, tile_size=tile)
    rows, columns = pixels.shape[0], pixels.shape[1]
    return Raster(0, 0, columns * TILE / tile, rows * TILE / tile, pixels.tobytes(), columns, rows, role="frame")


def _panel(task: TaskInstance, frame: Raster, run: Run | None, colour: str, role: str, title: str,
           caption: Sequence[str], upto: int | None = None) -> Drawing:
    instance = task.instance
    board = Board(instance.height, instance.width, TILE, 0, HEAD)
    widest = max([text_width(title, 13)] + [text_width(line, 11) for line in caption])
    canvas = Canvas(max(board.width, widest), board.top + board.height + 8 + LINE_HEIGHT * len(caption))
    canvas.text(0, HEAD / 2, title, size=13, bold=True)
    canvas.add(Raster(0, HEAD, board.width, board.height, frame.pixels, frame.columns, frame.rows, role="frame"))
    if run is not None:
        states = run.states[:None if upto is None else upto + 1]
        cells = [(state.pos[1], state.pos[0]) for state in states]  # (row, column) = (y, x)
        board.path(canvas, cells, WHITE, role=f"{role}-halo", width=7, arrows=False)
        board.path(canvas, cells, colour, role=f"{role}-path", width=3.5)
        for index, (ok, reason) in enumerate(zip(run.ok[:len(states) - 1], run.reasons), start=1):
            if not ok:
                board.mark(canvas, cells[index], role="noop", title=f"step {index}: {reason}", offset=(0.22, -0.22))
        if len(cells) > 1:
            board.ring(canvas, cells[-1], colour=colour, role=f"{role}-final", title="where the agent ends")
    for number, line in enumerate(caption):
        fill = FAILURE if line.startswith(("first failure", "UNPARSEABLE", "minigrid")) else MUTED if number else INK
        canvas.text(0, board.top + board.height + 14 + LINE_HEIGHT * number, line, size=11, fill=fill)
    return canvas.drawing()


def _caption(verdict: Verdict, run: Run) -> list[str]:
    noops = sum(not ok for ok in run.ok)
    reached = f"goal reached at step {verdict.goal_step}" if verdict.goal_reached else "goal not reached"
    lines = [f"{len(run.ok)} step(s), {noops} without effect; {reached}"]
    scores = ", ".join(f"{rule} {number_text(value)}" for rule, value in verdict.scores.items())
    if scores:
        lines.append(scores)
    if verdict.failure is not None:
        lines.append(f"first failure: {verdict.failure}"[:110])
    return lines


def _minigrid(task: TaskInstance, run: Run, draw: bool) -> tuple[tuple[Raster, ...], int | None]:
    """minigrid stepped with the run's actions: its frames after each step (when ``draw``), and the first step
    where its pose differs from the rules'."""
    import warnings

    env = reset_env(task.instance.env_id, task.instance.seed)
    frames, differs = [_frame(env, FRAME_TILE)] if draw else [], None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # stepping past the end of an episode, as the benchmark's harness does
        for index, action in enumerate(run.minigrid[:MAX_FRAMES], start=1):
            if action is not None:
                env.unwrapped.step(int(action))
            state = run.states[index]
            if differs is None and (tuple(int(v) for v in env.unwrapped.agent_pos) != state.pos
                                    or int(env.unwrapped.agent_dir) != state.dir):
                differs = index
            if draw:
                frames.append(_frame(env, FRAME_TILE))
    return tuple(frames), differs


def _optimum_panel(task: TaskInstance, frame: Raster, verdict: Verdict | None, timeout: float) -> Drawing | None:
    """The certified optimum's path, when the check proved it (the search the check ran is cached)."""
    if verdict is None or not verdict.optimal or task.task is not Task.PLAN:
        return None
    from plancheck.domains.babyai.references import certified_optimum

    found = certified_optimum(task.instance.env_id, task.instance.seed, timeout)
    if found.plan is None:
        return None
    run = _run_minigrid_actions(task, found.plan)
    return _panel(task, frame, run, OPTIMUM, "optimum", "certified optimum",
                  [f"{len(found.plan)} action(s)", task.instance.mission.text[:60]])


def render(task: TaskInstance, answer: str | Sequence[str] | None, verdict: Verdict | None,
           options: dict[str, Any]) -> Picture:
    """The start frame with the answer's path (and the optimum's beside it); frames: the episode."""
    instance = task.instance
    env = reset_env(instance.env_id, instance.seed)
    frame = _frame(env, TILE)
    title = f"{instance.id} ({task.task.value})"
    if verdict is None:
        return Picture(padded(_panel(task, frame, None, ANSWER, "answer", title, [instance.mission.text])))
    if not verdict.parsed:
        panel = _panel(task, frame, None, ANSWER, "answer", title, [f"UNPARSEABLE: {verdict.parse_error}"[:110]])
        return Picture(padded(panel))
    try:
        run = run_of(task, answer, verdict, options)
    except AnswerParseError as error:  # the verdict was given, and its answer does not read again
        panel = _panel(task, frame, None, ANSWER, "answer", title, [f"UNPARSEABLE: {error}"[:110]])
        return Picture(padded(panel))
    _, differs = _minigrid(task, run, draw=False)
    caption = _caption(verdict, run)
    if differs is not None:
        caption.append(f"minigrid's pose differs from the rules' at step {differs}")
    panel = _panel(task, frame, run, ANSWER, "answer", title, caption)
    optimum = None if options.get("compact") else _optimum_panel(
        task, frame, verdict, options.get("optimal_timeout") or OPTIMAL_TIMEOUT)
    still = padded(beside(panel, optimum, gap=24) if optimum is not None else panel)

    def animate() -> list[Drawing]:
        shots, _ = _minigrid(task, run, draw=True)
        return [padded(_panel(task, shot, run, ANSWER, "answer", f"{instance.id}: step {k} of {len(run.ok)}",
                              caption[:1], upto=k)) for k, shot in enumerate(shots)]

    return Picture(still, animate, frame_ms=400)
