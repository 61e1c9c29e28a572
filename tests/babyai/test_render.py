"""BabyAI pictures: minigrid's own frames, the answer's path over the cells the agent crossed, the frames of
the episode stepped in minigrid agreeing with plancheck's rules."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from plancheck.drawing.output import picture_bytes
from plancheck.drawing.shapes import ANSWER, Raster
from plancheck.drawing.svg import to_svg
from tests.drawing.pixels import at, image, near
from tests.extras import needs_minigrid, needs_pillow

pytestmark = needs_minigrid
PLAN = "Let me plan.\nThe LLM's action sequence is: left, forward, forward, forward, jump, left, forward"
ROOM = "CustomBabyAI-GoToRedBall-Small-4Dists-v0/seed=1"
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def world():
    from plancheck.registry import get_world

    return get_world("babyai")


def _task(world, name, task="plan"):
    return next(world.instances([name], None, task=task))


def test_the_path_runs_through_the_cells_the_rules_visit_and_the_frames_agree(world):
    from plancheck.domains.babyai.render import HEAD, TILE, run_of

    task = _task(world, ROOM)
    verdict = world.check(task, PLAN)
    picture = world.render(task, PLAN)
    run = run_of(task, PLAN, verdict, {})
    cells = [state.pos for state in run.states]
    assert cells == [(3, 4), (3, 4), (2, 4), (1, 4), (1, 4), (1, 4), (1, 5)]
    assert run.ok == (True, True, True, False, True, True)
    svg = ET.fromstring(to_svg(picture.still))
    path = svg.find(f"{SVG}polyline[@class='answer-path']")
    points = [tuple(float(v) for v in p.split(",")) for p in path.get("points").split()]
    margin = 8  # the picture's padding
    assert points == [(margin + (x + 0.5) * TILE, margin + HEAD + (y + 0.5) * TILE)
                      for x, y in [(3, 4), (2, 4), (1, 4), (1, 5)]]
    blocked = svg.find(f"{SVG}polyline[@class='noop']/{SVG}title").text
    assert "step 4: forward from (1, 4) facing west is blocked" in blocked
    assert svg.find(f"{SVG}image[@class='frame']").get("href").startswith("data:image/png;base64,")
    assert svg.find(f"{SVG}polyline[@class='optimum-path']") is not None  # the check proved the optimum
    assert len(picture.frames) == 7
    assert not any("differs" in getattr(s, "text", "") for s in picture.still.shapes)
    rasters = [next(s for s in frame.shapes if isinstance(s, Raster)) for frame in picture.frames]
    assert len({r.pixels for r in rasters}) == 6  # step 4 (blocked) changes nothing in minigrid


@needs_pillow
def test_the_png_shows_the_path_over_minigrids_frame(world):
    from plancheck.domains.babyai.render import HEAD, TILE

    task = _task(world, ROOM)
    picture = image(picture_bytes(world.render(task, PLAN), ".png"))
    margin = 8  # the picture's padding

    def centre(x, y):
        return margin + (x + 0.5) * TILE, margin + HEAD + (y + 0.5) * TILE

    for a, b in [((3, 4), (2, 4)), ((2, 4), (1, 4))]:
        (x0, y0), (x1, y1) = centre(*a), centre(*b)
        assert near(at(picture, (x0 + x1) / 2, (y0 + y1) / 2), ANSWER, 20)
    x, y = centre(4, 2)  # a floor cell the path never crosses: minigrid's black floor
    assert near(at(picture, x, y), "#000000", 10)


def test_decompose_and_langsuite_answers_are_drawn_from_their_runs(world):
    decompose = _task(world, "BabyAI-BossLevel-v0/seed=1", "decompose")
    answer = "<START>\n(GoNextToSubgoal, (17, 5))\n(PickupSubgoal)\n(GoNextToSubgoal, (14, 13))\n(OpenSubgoal)\n<END>"
    picture = world.render(decompose, answer, task="decompose")
    assert len(picture.frames) == 22 and picture.still.roles("answer-path")
    ig = _task(world, "GoToLocalS5N2-5", "ig")
    reply = "YES\nAct: turn_left\nThought: the box must be on my left\nAct: pick_up [green box]\nAct: move_ahead"
    drawn = world.render(ig, reply, task="ig")
    assert len(drawn.still.roles("noop")) == 4  # two refused steps, an X (two strokes) each
