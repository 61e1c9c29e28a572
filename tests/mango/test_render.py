"""MANGO pictures: the map laid out by its directions, the asked route and the model's trajectory over it."""

from __future__ import annotations

import pytest

from plancheck.domains.mango.graph import normalize
from plancheck.domains.mango.render import VECTORS, asked_route, layout
from plancheck.drawing.shapes import ANSWER, FAILURE, OPTIMUM, START, Line
from plancheck.registry import get_world

WORLD = get_world("mango")
ANSWER_TEXT = """[
  {'location_before': 'bathroom', 'action': 'north', 'location_after': 'bedroom'},
  {'location_before': 'bedroom', 'action': 'east', 'location_after': 'living room'},
  {'location_before': 'living room', 'action': 'open front door', 'location_after': 'living room'},
  {'location_before': 'living room', 'action': 'south', 'location_after': 'secret lab'}
]"""


@pytest.fixture(scope="module")
def instance(shared_data):
    return next(WORLD.instances(["905/rf/21d17dba"], shared_data))


def test_the_layout_follows_the_compass_where_it_can(instance):
    slots = layout(instance.game.edges)
    assert len(set(slots.values())) == len(slots)  # one place per slot
    kept = 0
    for edge in instance.game.edges:
        vector = VECTORS.get(normalize(edge.action))
        if vector is None:
            continue
        (x0, y0), (x1, y1) = slots[normalize(edge.src)], slots[normalize(edge.dst)]
        kept += (x1 - x0, y1 - y0) == vector
    assert kept >= 4  # this small map is drawn exactly by its directions


def test_routes_are_drawn_between_their_places_and_broken_steps_in_red(instance):
    still = WORLD.render(instance, ANSWER_TEXT).still
    asked = [s for s in still.roles("asked") if isinstance(s, Line)]
    assert len(asked) == len(asked_route(instance)) == 3 and all(s.stroke == OPTIMUM for s in asked)
    model = [s for s in still.roles("model") if isinstance(s, Line)]
    assert [s.stroke for s in model] == [ANSWER, ANSWER, FAILURE, FAILURE]  # step 3 loops; step 4 leaves the map
    assert model[2].dash is not None and "open front door" in model[2].title
    off = still.roles("off-map")
    assert [s.title for s in off] == ["secret lab (not on the map)"] and off[0].stroke == FAILURE
    places = {s.title: s for s in still.roles("place")}
    assert places["bathroom"].stroke == START and places["driveway"].stroke == OPTIMUM
    first = model[0]
    box = places["bathroom"]
    assert box.x <= first.points[0][0] <= box.x + box.w  # the line leaves the bathroom's box
