"""Semantics and policies given by name mean the same as the enum members (identity comparisons did not)."""

from __future__ import annotations

from plancheck.registry import get_world
from plancheck.rules import Unknown
from plancheck.translators.answer import ParsedAction, ParsedAnswer, UnknownPolicy
from plancheck.verifier.render import verdict_text
from plancheck.verifier.verdict import Semantics


def _invalid_verdict():
    world = get_world("hanoi")
    instance = next(iter(world.instances(["hanoi-3"], None)))
    return world.check(instance, "A->C\nA->C")  # a bigger disk onto a smaller one at step 2


def test_a_strictly_invalid_plan_fails_strict_semantics_given_by_name():
    verdict = _invalid_verdict()
    assert not verdict.valid
    assert verdict.passed("strict") is verdict.passed(Semantics.STRICT) is False
    assert verdict.passed("benchmark") is verdict.passed(Semantics.BENCHMARK)


def test_the_report_says_why_under_semantics_given_by_name():
    verdict = _invalid_verdict()
    assert verdict_text(verdict, "strict") == verdict_text(verdict, Semantics.STRICT)
    assert "not strictly valid" in verdict_text(verdict, "strict").splitlines()[1]


def test_unknown_policies_by_name_skip_as_the_member_does():
    parsed = ParsedAnswer((ParsedAction("a", 0, 1), ParsedAction(Unknown("x"), 2, 3)))
    assert parsed.actions("skip") == parsed.actions(UnknownPolicy.SKIP) == ["a"]
    assert parsed.actions("noop") == parsed.actions(UnknownPolicy.NOOP) == ["a", Unknown("x")]


def test_the_ratio_is_the_score_over_the_optimum():
    """Every other test of the ratio checks an optimal answer (1.0): a plan that does a third of the work."""
    world = get_world("hanoi")
    instance = next(iter(world.instances(["hanoi-3"], None)))
    verdict = world.check(instance, "A->C")  # the smallest disk on C: 1 of the 3 disks
    assert verdict.scores["score"] == 1 and verdict.optimal["score"] == 3
    assert verdict.ratio("score") == verdict.to_json()["ratio"]["score"] == 1 / 3
    assert verdict.ratio("no such rule") is None
