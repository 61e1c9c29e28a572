"""LangSuitE's own console logs (written by its run loop on plancheck's episode files) convert and check."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from plancheck.domains.langsuite.rearrangement.convert import convert
from plancheck.domains.langsuite.rearrangement.world import WORLD
from plancheck.episodes.check import check_episode
from plancheck.errors import BadInputError

DATA = Path(__file__).parent.parent / "data"
LOGS = sorted(DATA.glob("langsuite-console-*.jl"))


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.stem)
def test_langsuite_s_console_log_checks_and_ends_with_its_numbers(path):
    (episode,) = list(convert(path))
    verdict = check_episode(WORLD.episodes, episode)
    assert verdict.consistent, verdict.failure
    trailer = episode.header.extra["langsuite_result"]
    numbers = ast.literal_eval(trailer[0])  # LangSuitE's "{'misplaced': m, 'fixed': f}" line
    assert (verdict.scores["misplaced"], verdict.scores["fixed"]) == (numbers["misplaced"], numbers["fixed"])
    assert trailer[1].startswith("[SUCCESS]" if verdict.scores["success"] else "[FAIL]")
    assert episode.header.settings["level"] in ("low", "high") and len(episode.steps) > 20


def test_a_changed_feedback_in_langsuite_s_log_is_caught(tmp_path):
    low = DATA / "langsuite-console-FloorPlan422-21.jl"  # the low-level run (turns have feedback there)
    text = low.read_text()
    changed = tmp_path / low.name
    changed.write_text(text.replace("Turned left by '90' degrees", "Turned left by '45' degrees", 1))
    (episode,) = list(convert(changed))
    verdict = check_episode(WORLD.episodes, episode)
    assert not verdict.consistent and "Turned left by '45' degrees" in verdict.failure.reason


def test_a_log_without_an_episode_name_is_refused(tmp_path):
    path = tmp_path / "run.jl"
    path.write_text(LOGS[0].read_text())
    with pytest.raises(BadInputError, match="does not name an episode"):
        list(convert(path))
