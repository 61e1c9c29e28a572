"""The VGDL reader and engine of L2/L3, and the position sets the observational checker moves."""

from __future__ import annotations

import random

import pytest

from plancheck.domains.smartplay.messenger import bitgrid, data
from plancheck.domains.smartplay.messenger.engine import Level
from plancheck.domains.smartplay.messenger.instance import start
from plancheck.domains.smartplay.messenger.run import Runner, domain
from plancheck.domains.smartplay.messenger.tables import outcome
from plancheck.domains.smartplay.messenger.vgdl import parse_domain
from plancheck.errors import BadInputError


def test_the_stage_2_file_reads_as_py_vgdl_reads_it():
    stage = domain(2, "dom_07.txt")
    assert [s.key for s in stage.sprites] == ["background", "enemy", "message", "goal", "wall", "no_message",
                                              "with_message"]
    assert stage.sprite("no_message").stypes == ("root", "avatar", "no_message")
    assert stage.sprite("message").cls == "Immovable" and stage.sprite("goal").cls == "Fleeing"
    assert stage.sprite("enemy").speed == 0.5 and stage.sprite("enemy").target == "avatar"
    assert [(e.actor, e.actee, e.name, e.score) for e in stage.effects] == [
        ("root", "wall", "stepBack", 0), ("root", "EOS", "stepBack", 0), ("avatar", "enemy", "killSprite", -1),
        ("no_message", "goal", "killSprite", -1), ("no_message", "message", "transformTo", 0.5),
        ("message", "avatar", "killSprite", 0), ("goal", "with_message", "killSprite", 1)]
    assert [(t.stype, t.limit, t.win) for t in stage.terminations] == [("avatar", 0, False), ("goal", 0, True)]


def test_unsupported_vgdl_is_named_with_its_line():
    with pytest.raises(BadInputError, match="line 3: sprite class 'Missile'"):
        parse_domain("BasicGame\n  SpriteSet\n    rock > Missile\n", "x.txt")


def test_the_set_moves_are_the_engines_moves():
    """Every single position, every avatar position, both moving types: the bit-mask successors
    are exactly the positions the engine's choices (and the screen's edge) lead to."""
    stage = domain(2, "dom_00.txt")
    rng = random.Random(3)
    for _ in range(400):
        x, y, ax, ay = rng.randrange(19), rng.randrange(19), 2 * rng.randrange(10), 2 * rng.randrange(10)
        for kind, key in (("chaser", "enemy"), ("fleeing", "enemy")):
            level = Level(stage, (), rng)
            level.width = level.height = 10
            cls = stage.sprite(key) if kind == "chaser" else domain(2, "dom_13.txt").sprite(key)
            sprite = level.create(cls, None, x, y)
            level.create(stage.sprite("no_message"), None, ax, ay)
            reached = set()
            for dx, dy in level.options(sprite):
                nx, ny = x + dx, y + dy
                reached.add((nx, ny) if 0 <= nx <= 18 and 0 <= ny <= 18 else (x, y))
            assert set(bitgrid.pixels(bitgrid.successors(kind, bitgrid.bit(x, y), ax, ay))) == reached


def test_stacked_sets_move_as_their_positions_one_by_one():
    """Sets of all three movement types moved at once (the checker's form) are the union of each
    position's successors (checked against the engine above), section by section."""
    rng = random.Random(5)
    for _ in range(300):
        ax, ay = rng.randrange(19), rng.randrange(19)
        sets = [bitgrid._union((rng.randrange(19), rng.randrange(19)) for _ in range(rng.randrange(6)))
                for _ in range(3)]
        expected = [0, 0, 0]
        for n, kind in enumerate(("chaser", "fleeing", "immovable")):
            for x, y in bitgrid.pixels(sets[n]):
                expected[n] |= bitgrid.successors(kind, bitgrid.bit(x, y), ax, ay)
        moved = bitgrid.stacked_moves(bitgrid.stack(*sets), ax, ay)
        assert bitgrid.unstack(moved) == tuple(expected)


def test_outcomes_of_the_collisions_come_from_the_engine():
    assert outcome(2, frozenset(), False).reward == 0 and outcome(2, frozenset(), False).won is None
    pickup = outcome(2, frozenset({"message"}), False)
    assert (pickup.reward, pickup.has_message, pickup.dead, pickup.won) == (0.5, True, frozenset({"message"}), None)
    both = outcome(2, frozenset({"message", "goal"}), False)  # the goal touched without the message: lost
    assert (both.reward, both.alive, both.won) == (-1, False, False)
    assert outcome(2, frozenset({"goal"}), True).reward == 1 and outcome(2, frozenset({"goal"}), True).won
    assert outcome(3, frozenset({"enemy", "decoy_goal"}), False).reward == -2  # scored twice, as py-vgdl does


def test_reaching_message_and_goal_at_once_loses_the_goal_rule_comes_first():
    stage = domain(2, "dom_26.txt")
    level = Level(stage, (), random.Random(0))
    level.width = level.height = 10
    level.create(stage.sprite("no_message"), None, 4, 4)
    level.create(stage.sprite("message"), None, 6, 4)
    level.create(stage.sprite("goal"), None, 7, 4)  # half a cell beyond: both touch the avatar after its move
    level.create(stage.sprite("enemy"), None, 18, 18)
    assert level.tick(3) == -1 and level.ended and level.won is False


def test_save_and_load_go_back_exactly():
    game = Runner(start(2, 4))
    saved = game.level.save()
    first = [game.level.tick(a) for a in (1, 1, 3)]
    after = game.level.save()
    game.level.load(saved)
    game.level.rng.seed(4)
    assert game.level.save() == saved
    assert after != saved and len(first) == 3


@pytest.mark.parametrize("level", [2, 3])
def test_every_start_layout_has_one_avatar_and_each_entity_once(level):
    from plancheck.domains.smartplay.messenger.tables import start_layouts

    for name, created in start_layouts(level):
        keys = [key for key, _, _ in created if key != "background"]
        expected = {"no_message", "enemy", "message", "goal"} | ({"decoy_message", "decoy_goal"} if level == 3
                                                                  else set())
        assert sorted(keys) == sorted(expected), name
    assert len(data.init_state_files(level)) == len(start_layouts(level))


def test_what_a_text_line_allows_is_every_position_that_shows_so():
    from plancheck.domains.smartplay.messenger.prompts import direction

    for row in range(10):
        for col in range(10):
            shown: dict[tuple[int, str], int] = {}
            for x in range(19):
                for y in range(19):
                    dr, dc = y // 2 - row, x // 2 - col
                    key = (abs(dr) + abs(dc), direction((dr, dc)))
                    shown[key] = shown.get(key, 0) | bitgrid.bit(x, y)
            for (distance, where), mask in shown.items():
                if distance:
                    assert bitgrid.seen_at(row, col, distance, where) == mask, (row, col, distance, where)
            for least in range(20):
                farther = [mask for (distance, _), mask in shown.items() if distance >= least]
                assert bitgrid.not_nearer(row, col, least) == sum(farther), (row, col, least)
