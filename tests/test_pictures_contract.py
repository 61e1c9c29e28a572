"""Every world that draws (Capability.RENDER) draws every answer and episode of its contract corpus: a
well-formed SVG whose path (where the world draws one) is there exactly when the answer could be read, and
frames that build; a world that does not draw says so."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from plancheck.drawing.svg import to_svg
from plancheck.errors import UnsupportedError
from plancheck.registry import get_world, world_names
from plancheck.world import Capability, WorldBase
from tests.test_worlds import _cases, _instance

SVG = "{http://www.w3.org/2000/svg}"


def _svg(picture) -> ET.Element:
    root = ET.fromstring(to_svg(picture.still))
    assert root.tag == SVG + "svg" and float(root.get("width")) > 100 and float(root.get("height")) > 100
    return root


@pytest.mark.parametrize("name, example", [case for case in _cases("EXAMPLES", Capability.ANSWERS)
                                           if get_world(case.values[0]).supports(Capability.RENDER)])
def test_every_example_answer_is_drawn(shared_data: Path, name, example):
    world, instance = _instance(name, example.instance, shared_data)
    options = dict(example.options)
    verdict = world.check(instance, example.answer, **options)
    picture = world.render(instance, example.answer, verdict=verdict, **options)
    root = _svg(picture)
    texts = " ".join(t.text or "" for t in root.iter(SVG + "text"))
    if not verdict.parsed:
        assert "UNPARSEABLE" in texts
    elif verdict.failure is not None and name != "mango":  # MANGO marks the failing step on its line instead
        assert str(verdict.failure.step) in texts and "first failure" in texts
    compact = world.render(instance, example.answer, verdict=verdict, compact=True, **options)
    assert compact.still.width <= picture.still.width
    assert len(picture.frames) >= (1 if verdict.parsed and name in ("grasp", "hanoi", "babyai") else 0)


@pytest.mark.parametrize("name, example", [case for case in _cases("EXAMPLES", Capability.PLAY)
                                           if get_world(case.values[0]).supports(Capability.RENDER)])
def test_every_example_episode_is_drawn_or_refused_plainly(name, example):
    from plancheck.episodes.check import check_episode
    from plancheck.errors import BadInputError

    world = get_world(name)
    episode = example.episode
    instance = world.episodes.instance(episode.header.instance)
    try:
        verdict = check_episode(world.episodes, episode)
    except BadInputError:
        pytest.skip("the log itself is refused by check")
    try:
        picture = world.render(instance, episode, verdict=verdict)
    except BadInputError as error:
        assert "seeded log" in str(error)  # Messenger: an unseeded log tells positions only relative to the avatar
        return
    _svg(picture)


@pytest.mark.parametrize("name", world_names())
def test_every_world_draws_with_its_own_renderer(name):
    world = get_world(name)
    assert world.supports(Capability.RENDER) and "render" in world.commands()
    assert any("render" in vars(klass) for klass in type(world).__mro__ if klass is not WorldBase)


def test_a_world_that_declares_no_pictures_says_so():
    class Plain(WorldBase):
        name = "plain"
        capabilities = frozenset({Capability.CHECK})

    with pytest.raises(UnsupportedError, match="the plain world does not offer pictures"):
        Plain().render(None)
