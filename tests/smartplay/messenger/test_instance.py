"""Episode starts from a seed, in SmartPlay's draw order, and their ids."""

from __future__ import annotations

import random

import pytest

from plancheck.domains.smartplay.messenger import data, prompts
from plancheck.domains.smartplay.messenger.instance import L1_CELLS, parse_id, read_variant, select, start
from plancheck.errors import InstanceNotFoundError


def test_l1_start_follows_smartplays_draws_by_hand():
    rng = random.Random(11)
    game = rng.choice(data.test_games())
    cells = rng.sample(L1_CELLS, 4)
    held = rng.random() < 0.2
    sentences = [rng.choice(data.stage_one_sentences(game.by_role(r), r)) for r in data.ROLES]
    rng.shuffle(sentences)
    episode = start(1, 11)
    assert (episode.game, episode.layout.enemy, episode.layout.message, episode.layout.goal) == (game, *cells[:3])
    assert episode.layout.has_message == held and list(episode.sentences) == sentences


def test_the_message_is_held_at_the_start_about_one_time_in_five():
    held = sum(start(1, seed).layout.has_message for seed in range(2000))
    assert 330 < held < 470


def test_l2_and_l3_sentences_come_from_the_typed_lists_of_the_drawn_variant():
    for seed in range(40):
        episode = start(2, seed)
        texts = data.descriptions()
        for role in data.ROLES:
            entity = episode.game.by_role(role)
            kinds = texts[entity][role]
            allowed = kinds["unknown"] + kinds[episode.variant.movement(role)]
            assert sum(s in allowed for s in episode.sentences) >= 1
        assert len(start(3, seed).sentences) == 6


def test_variants_are_read_as_messenger_emma_reads_them():
    variant = read_variant(data.variant_files(3)[0])
    assert variant.name == "dom_0_0.txt"
    assert dict(variant.movements) == {"enemy": "chaser", "message": "fleeing", "goal": "immovable",
                                       "decoy_message": "chaser", "decoy_goal": "fleeing"}
    assert len(data.variant_files(2)) == 27 and len(data.init_state_files(2)) == 24
    assert len(data.variant_files(3)) == 18 and len(data.init_state_files(3)) == 720


def test_ids_and_selectors():
    assert parse_id("MessengerL2-v0/seed=5") == start(2, 5)
    assert parse_id("messenger-l1/seed=3").id == "MessengerL1-v0/seed=3"
    assert parse_id("7", level=3) == start(3, 7)
    assert [e.seed for e in select(["0..2", "seed=9"], 1)] == [0, 1, 2, 9]
    with pytest.raises(InstanceNotFoundError, match="MessengerL2 episode, not MessengerL1"):
        parse_id("MessengerL2-v0/seed=1", level=1)
    with pytest.raises(InstanceNotFoundError, match="seed range"):
        list(select(["5..2"], 1))


def test_the_manual_is_smartplays_layout():
    episode = start(1, 0)
    text = prompts.manual(episode.sentences)
    assert text.startswith("In the game, MESSENGER, each entity") and "reward of \u22121." in text
    assert text.endswith("List of all actions:\n1. Move North\n2. Move South\n3. Move West\n4. Move East\n"
                         "5. Do Nothing")
    assert "\n\n" + "\n".join(episode.sentences) + "\n\nTo solve a game" in text
