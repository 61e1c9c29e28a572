"""Both Crafter scores, and the published references recomputed."""

from __future__ import annotations

import math

import pytest

from plancheck.domains.smartplay.crafter import scoring

# The success rates (%) the facts list (rounded; pooled over all episodes of each baseline).
FACTS_HUMAN = dict(collect_coal=86, collect_diamond=12, collect_drink=92, collect_iron=53, collect_sapling=67,
                   collect_stone=100, collect_wood=100, defeat_skeleton=31, defeat_zombie=84, eat_cow=89,
                   eat_plant=8, make_iron_pickaxe=26, make_iron_sword=22, make_stone_pickaxe=78, make_stone_sword=78,
                   make_wood_pickaxe=100, make_wood_sword=45, place_furnace=32, place_plant=24, place_stone=90,
                   place_table=100, wake_up=73)
FACTS_RANDOM = dict(collect_drink=9.3, collect_sapling=50.2, collect_wood=24.4, defeat_zombie=0.1, eat_cow=0.4,
                    make_wood_pickaxe=0.3, make_wood_sword=0.3, place_plant=44.6, place_table=4.4, wake_up=93.6)


def test_the_published_scores_are_the_mean_over_seeds():
    human, random = scoring.reference("human"), scoring.reference("random")
    assert (f"{human.mean:.1f}", f"{human.std:.1f}", len(human.seed_scores), human.episodes) == ("50.5", "6.8", 5, 100)
    assert (f"{random.mean:.1f}", f"{random.std:.1f}", len(random.seed_scores)) == ("1.6", "0.0", 5)
    assert random.episodes == 29784


def test_the_facts_rates_are_the_pooled_rates_and_give_other_scores():
    human, random = scoring.reference("human"), scoring.reference("random")
    assert {k: round(v) for k, v in human.pooled_rates.items()} == FACTS_HUMAN
    assert {k: round(v, 1) for k, v in random.pooled_rates.items() if round(v, 1)} == FACTS_RANDOM
    # pooled rates are not how Crafter reports its score: 52.0 and 1.55, not 50.5 and 1.6
    assert round(scoring.crafter_score(FACTS_HUMAN), 1) == 52.0 == round(human.pooled_score, 1)
    assert round(scoring.crafter_score(FACTS_RANDOM), 2) == 1.54
    assert round(random.pooled_score, 2) == 1.55


def test_the_score_is_a_geometric_mean_with_a_one_percent_offset():
    rates = {name: 0.0 for name in scoring.ACHIEVEMENTS}
    rates["collect_wood"] = 100.0
    assert math.isclose(scoring.crafter_score(rates), 101 ** (1 / 22) - 1)
    assert scoring.success_rates([{"collect_wood"}, set()])["collect_wood"] == 50.0
    with pytest.raises(ValueError, match="not Crafter achievements"):
        scoring.success_rates([{"collect_fence"}])
    with pytest.raises(ValueError):
        scoring.crafter_score({"collect_wood": 101})


def test_smartplays_score_is_the_area_under_the_unlock_curve():
    assert scoring.smartplay_score([0, 0, 1, 1, 2]) == 4.0
    assert scoring.smartplay_normalized(9999) > 3.7  # one achievement kept for 9999 steps
    assert round(scoring.smartplay_normalized(700), 2) == 0.26  # GPT-4-0613: Table 4 (raw) -> Table 2
