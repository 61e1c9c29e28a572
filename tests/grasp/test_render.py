"""GRASP pictures show what was scored: the answer's path over the cells it visits, its no-op steps, and the
certified optimum's path beside it."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from plancheck.domains.grasp.render import CELL, MARGIN, TITLE, actions_of, optimum_plan
from plancheck.domains.grasp.rules import GraspRules
from plancheck.drawing.output import picture_bytes
from plancheck.drawing.shapes import ANSWER, ANSWER_TINT, OBSTACLE, OPTIMUM_TINT, WHITE
from plancheck.drawing.svg import to_svg
from plancheck.registry import get_world
from plancheck.verifier.execute import execute
from tests.drawing.pixels import at, image, near
from tests.extras import needs_pillow

WORLD = get_world("grasp")
ENV = "inner_cluster_block.jsonl-0-0-1-1"
ANSWER_TEXT = "[DOWN, TAKE, DOWN, TAKE, RIGHT, JUMP, UP, UP, DROP, LEFT, LEFT]"
SVG = "{http://www.w3.org/2000/svg}"


def _env(name: str = ENV):
    return next(WORLD.instances([name], None))


def _corner(cell, panel_left: float = 0.0):
    """A point inside ``cell`` away from everything drawn over it (its upper-left quarter)."""
    row, column = cell
    return panel_left + MARGIN + column * CELL + 7, MARGIN + TITLE + row * CELL + 7


def _centre(cell, panel_left: float = 0.0):
    row, column = cell
    return panel_left + MARGIN + (column + 0.5) * CELL, MARGIN + TITLE + (row + 0.5) * CELL


def test_the_svg_path_runs_through_the_centres_of_the_replayed_positions():
    env = _env()
    verdict = WORLD.check(env, ANSWER_TEXT)
    svg = ET.fromstring(to_svg(WORLD.render(env, ANSWER_TEXT).still))
    trace = execute(GraspRules(env), actions_of(verdict.actions))
    cells = [env.grid.start] + [step.state.position for step in trace.steps]
    distinct = [c for i, c in enumerate(cells) if i == 0 or c != cells[i - 1]]
    path = svg.find(f"{SVG}polyline[@class='answer-path']")
    points = [tuple(float(v) for v in p.split(",")) for p in path.get("points").split()]
    assert points == [_centre(cell) for cell in distinct]
    noops = svg.findall(f"{SVG}polyline[@class='noop']")
    assert len(noops) == 2  # one X (two strokes) for step 6, JUMP
    assert "step 6: 'JUMP' is not a GRASP action" in noops[0].find(SVG + "title").text
    texts = [t.text for t in svg.iter(SVG + "text")]
    assert "first failure: step 6: 'JUMP' is not a GRASP action" in texts
    assert any(t.startswith("score[paper] -3.30 (optimum 1.20)") for t in texts if t)


@needs_pillow
def test_the_png_colours_the_cells_the_path_visits_and_no_other():
    env = _env()
    picture = image(picture_bytes(WORLD.render(env, ANSWER_TEXT), ".png"))
    verdict = WORLD.check(env, ANSWER_TEXT)
    trace = execute(GraspRules(env), actions_of(verdict.actions))
    visited = {env.grid.start} | {step.state.position for step in trace.steps}
    assert visited == {(5, 3), (6, 3), (7, 3), (7, 4), (6, 4), (5, 4), (5, 2)}
    obstacles = set(env.grid.obstacle_cells)
    for row in range(env.grid.rows):
        for column in range(env.grid.cols):
            colour = ANSWER_TINT if (row, column) in visited else OBSTACLE if (row, column) in obstacles else WHITE
            assert near(at(picture, *_corner((row, column))), colour), (row, column)
    for a, b in zip([(5, 3), (6, 3), (7, 3), (7, 4)], [(6, 3), (7, 3), (7, 4), (6, 4)]):  # the line between cells
        (x0, y0), (x1, y1) = _centre(a), _centre(b)
        assert near(at(picture, (x0 + x1) / 2, (y0 + y1) / 2), ANSWER, 16)
    answer_width = MARGIN + env.grid.cols * CELL + 12 + 24  # the optimum's panel starts here
    best = execute(GraspRules(env), actions_of(optimum_plan(env, "paper")))
    best_cells = {env.grid.start} | {step.state.position for step in best.steps}
    for row in range(env.grid.rows):
        for column in range(env.grid.cols):
            if (row, column) not in obstacles:
                colour = OPTIMUM_TINT if (row, column) in best_cells else WHITE
                assert near(at(picture, *_corner((row, column), answer_width)), colour), (row, column)


def test_the_optimum_drawn_is_the_certified_one_and_frames_step_through_the_answer():
    env = _env()
    picture = WORLD.render(env, ANSWER_TEXT)
    assert len(picture.frames) == 12  # the start and 11 steps
    assert [len(frame.roles("noop")) for frame in picture.frames] == [0] * 6 + [2] * 6
    solved = WORLD.solve(env)
    assert optimum_plan(env, "paper") == solved.plan and solved.proven_optimal
    plain = WORLD.render(env)  # no answer: the grid and the optimum
    assert not plain.frames and not plain.still.roles("answer-path") and plain.still.roles("optimum-path")
    unreadable = WORLD.render(env, "no plan here")
    assert any("UNPARSEABLE" in getattr(s, "text", "") for s in unreadable.still.shapes)
