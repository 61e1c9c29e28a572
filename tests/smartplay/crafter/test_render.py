"""Crafter pictures show the episode where crafter played it: the path through the positions crafter's own env
gives for the logged actions, every cell in crafter's material colour, the unlocks where they happened."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import replace

import pytest

from plancheck.cli import main
from plancheck.domains.smartplay.crafter import engine, prompts
from plancheck.domains.smartplay.crafter.examples import examples
from plancheck.domains.smartplay.crafter.render import COLOURS, MAX_FRAMES, window
from plancheck.drawing.output import picture_bytes
from plancheck.drawing.svg import to_svg
from plancheck.episodes.check import check_episode
from plancheck.errors import BadInputError
from plancheck.registry import get_world
from tests.drawing.pixels import at, image, near
from tests.extras import needs_pillow

WORLD = get_world("crafter")
SVG = "{http://www.w3.org/2000/svg}"
CELL, LEFT, TOP = 20.0, 28 + 8, 46 + 8  # the board's cell and corner, the picture's margin included


def _planned():
    return examples()[0].episode  # the certified wooden pickaxe plan on seed 1, 40 steps


def _crafter_run(episode):
    """Positions (row, column) and the final material map, by stepping crafter's env directly."""
    env = engine.reset_env(episode.header.seed, 1)
    env.step(0)  # SmartPlay's reset takes one Noop
    positions = [(int(env._player.pos[1]), int(env._player.pos[0]))]
    for step in episode.steps:
        env.step(prompts.ACTIONS.index(step.action))
        positions.append((int(env._player.pos[1]), int(env._player.pos[0])))
    names = env._world._mat_names
    return positions, lambda row, column: names[int(env._world._mat_map[column, row])]


def _centre(cell, top, left):
    return LEFT + (cell[1] - left + 0.5) * CELL, TOP + (cell[0] - top + 0.5) * CELL


def test_the_path_runs_through_the_positions_crafter_gives():
    episode = _planned()
    positions, _ = _crafter_run(episode)
    assert len(set(positions)) > 3  # the plan walks
    top, left, _, _ = window(positions)
    svg = ET.fromstring(to_svg(WORLD.render(WORLD.episodes.instance("Crafter"), episode).still))
    path = svg.find(f"{SVG}polyline[@class='agent-path']")
    points = [tuple(float(v) for v in p.split(",")) for p in path.get("points").split()]
    distinct = [c for i, c in enumerate(positions) if i == 0 or c != positions[i - 1]]
    assert points == [_centre(cell, top, left) for cell in distinct]


def test_the_unlocks_are_marked_where_the_agent_stood():
    episode = _planned()
    positions, _ = _crafter_run(episode)
    top, left, _, _ = window(positions)
    still = WORLD.render(WORLD.episodes.instance("Crafter"), episode).still
    badges = still.roles("unlock")
    unlocks = [(k, name) for k, step in enumerate(episode.steps, start=1) for name in step.info["unlocked"]]
    assert [b.title for b in badges] == [f"{name} at step {k}" for k, name in unlocks]
    assert {name for _, name in unlocks} >= {"collect_wood", "place_table", "make_wood_pickaxe"}
    for badge, (k, _) in zip(badges, unlocks):
        x, y = _centre(positions[k], top, left)
        assert abs(badge.y - (y - 0.25 * CELL)) < 1e-6 and abs(badge.x - x) < CELL  # in the agent's cell


@needs_pillow
def test_every_cell_has_the_colour_of_its_material_in_crafter():
    episode = _planned()
    positions, material = _crafter_run(episode)
    top, left, rows, columns = window(positions)
    picture = image(picture_bytes(WORLD.render(WORLD.episodes.instance("Crafter"), episode), ".png"))
    seen = set()
    for row in range(top, top + rows):
        for column in range(left, left + columns):
            x, y = LEFT + (column - left) * CELL + 3, TOP + (row - top) * CELL + 15  # clear of every mark
            seen.add(material(row, column))
            assert near(at(picture, x, y), COLOURS[material(row, column)]), (row, column, material(row, column))
    assert {"grass", "tree"} <= seen


def test_frames_show_the_episode_at_one_size_and_end_where_the_still_does():
    episode = _planned()
    picture = WORLD.render(WORLD.episodes.instance("Crafter"), episode)
    frames = picture.frames
    assert 2 <= len(frames) <= MAX_FRAMES + 1 and len({(f.width, f.height) for f in frames}) == 1
    assert frames[-1].roles("agent-path")[0].points == picture.still.roles("agent-path")[0].points
    assert len(frames[0].roles("agent-path")) == 0  # the start: no move yet


def test_a_failing_log_names_its_first_failure():
    example = next(e for e in examples() if e.name == "a reward one too high")
    verdict = check_episode(WORLD.episodes, example.episode)
    still = WORLD.render(WORLD.episodes.instance("Crafter"), example.episode, verdict=verdict).still
    texts = [shape.text for shape in still.shapes if hasattr(shape, "text")]
    assert any(t.startswith(f"first failure: step {example.step}: the reward is") for t in texts)
    assert still.roles("failure")


def test_no_picture_without_a_seeded_log():
    instance = WORLD.episodes.instance("Crafter")
    with pytest.raises(BadInputError, match="--answer FILE"):
        WORLD.render(instance)
    unseeded = replace(_planned(), header=replace(_planned().header, seed=None))
    with pytest.raises(BadInputError, match="seeded log"):
        WORLD.render(instance, unseeded)


def test_render_on_the_command_line(tmp_path, capsys):
    log = tmp_path / "log.jsonl"
    assert main(["play", "crafter", "Crafter", "--policy", "unlock:collect_wood", "--seed", "2", "--steps", "30",
                 "-o", str(log)]) == 0
    out = tmp_path / "crafter.svg"
    assert main(["render", "crafter", "Crafter", "--answer", str(log), "-o", str(out)]) == 0
    root = ET.fromstring(out.read_text())
    assert root.find(f"{SVG}polyline[@class='agent-path']") is not None
    assert any((t.text or "").startswith("1 collect_wood (step ") for t in root.iter(f"{SVG}text"))
