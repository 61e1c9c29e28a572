"""Every world reads the reading corpus (``tests/<world>/reading_corpus*.txt``) as a careful person would: the
free-text worlds their answers, the episode worlds (SmartPlay's games) their replies, one a step.

The answers were written for these tests, not taken from any model's published outputs; each lists the
actions a careful reader takes from it and the read status the verdict must carry.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from plancheck.domains.babyai.committed import read_plan, read_subgoals
from plancheck.domains.babyai.parse import IG_MENU, parse_langsuite
from plancheck.domains.grasp.parse import ParsePolicy as GraspPolicy
from plancheck.domains.grasp.parse import parse_answer as grasp_answer
from plancheck.domains.langsuite.household import parse as household
from plancheck.domains.langsuite.iqa import parse as iqa
from plancheck.domains.langsuite.rearrangement.parse import READINGS as LANGSUITE_READINGS
from plancheck.domains.langsuite.rearrangement.parse import SPECIAL, menu
from plancheck.domains.mango.parse import parse_answer as mango_answer
from plancheck.domains.smartplay._frame import READINGS, match_act
from plancheck.domains.smartplay.bandits.prompts import ACTIONS as BANDIT_ACTIONS
from plancheck.domains.smartplay.crafter.prompts import ACTIONS as CRAFTER_ACTIONS
from plancheck.domains.smartplay.hanoi.parse import ParsePolicy as HanoiPolicy
from plancheck.domains.smartplay.hanoi.parse import parse_answer as hanoi_answer
from plancheck.domains.smartplay.messenger.prompts import ACTIONS as MESSENGER_ACTIONS
from plancheck.domains.smartplay.rps.prompts import ACTIONS as RPS_ACTIONS
from plancheck.episodes.committed import read_committed
from plancheck.errors import AnswerParseError
from plancheck.rules import Unknown
from plancheck.translators.answer import ParsedAnswer, Pick
from plancheck.translators.reading import Unclosed
from tests.reading_corpus import Case, load

HERE = Path(__file__).parent


def _mango(text: str, options: dict[str, str]) -> ParsedAnswer:
    return mango_answer(text, pick=Pick(options.get("pick", "committed")),
                        unclosed=Unclosed(options.get("unclosed", "reject")))


# world -> (corpus files, separator of expected actions, reader, how an action is written)
READERS: dict[str, tuple[str, str, Callable[[str, dict[str, str]], ParsedAnswer], Callable]] = {
    "grasp": ("grasp/reading_corpus.txt", ",", lambda text, o: grasp_answer(text, GraspPolicy.of(**o)), str),
    "hanoi": ("smartplay/hanoi/reading_corpus.txt", ",", lambda text, o: hanoi_answer(text, HanoiPolicy.of(**o)),
              str),
    "babyai-plan": ("babyai/reading_corpus_plan.txt", ",", lambda text, o: read_plan(text, **o), str),
    "babyai-decompose": ("babyai/reading_corpus_decompose.txt", ";", lambda text, o: read_subgoals(text, **o), str),
    "mango": ("mango/reading_corpus.txt", ";", _mango, lambda m: f"{m.before} -{m.action}-> {m.after}"),
}
CASES = [pytest.param(world, case, id=f"{world}:{case.name}") for world, (file, separator, _, _) in READERS.items()
         for case in load(HERE / file, separator)]


def _written(action, name: Callable) -> str:
    return f"?{action.text}" if isinstance(action, Unknown) else name(action)


@pytest.mark.parametrize(("world", "case"), CASES)
def test_the_corpus_is_read_as_a_careful_person_reads_it(world: str, case: Case):
    _, _, reader, name = READERS[world]
    try:
        answer = reader(case.text, case.options)
    except AnswerParseError as error:
        assert case.expect is None, f"{case.file}, line {case.line}: unreadable: {error}"
        return
    assert case.expect is not None, f"{case.file}, line {case.line}: read as {[str(i.action) for i in answer.items]}"
    read = tuple(_written(item.action, name) for item in answer.items)
    assert read == case.expect, f"{case.file}, line {case.line}"
    assert answer.reading.status.value == case.status, (f"{case.file}, line {case.line}", answer.reading)


def test_the_corpus_is_large_and_varied():
    """At least 300 answers over every free-text world, each world with readable, ambiguous and unreadable ones."""
    per_world = Counter(world for world, _ in (param.values for param in CASES))
    assert sum(per_world.values()) >= 300 and set(per_world) == set(READERS), per_world
    for world in READERS:
        statuses = Counter(case.status for w, case in (param.values for param in CASES) if w == world)
        assert statuses["clear"] and statuses["ambiguous"] and statuses["none"], (world, statuses)


# -- the episode worlds: one reply a step, read against the game's menu --------------------------------

REARRANGEMENT_ACTIONS = menu(["apple_1", "fridge_2", "cabinet_3", "mug_4"])
IQA_ACTIONS = iqa.menu(["fridge_0", "cabinet_1", "microwave_0", "countertop_2"])
HOUSEHOLD_ACTIONS = household.menu(["apple_1", "fridge_2", "countertop_3", "knife_4", "microwave_5"], ["apple_1"])
# world -> (corpus file, the game's action menu)
EPISODE_READERS: dict[str, tuple[str, tuple[str, ...]]] = {
    "bandits": ("smartplay/bandits/reading_corpus.txt", BANDIT_ACTIONS),
    "rps": ("smartplay/rps/reading_corpus.txt", RPS_ACTIONS),
    "messenger": ("smartplay/messenger/reading_corpus.txt", MESSENGER_ACTIONS),
    "crafter": ("smartplay/crafter/reading_corpus.txt", CRAFTER_ACTIONS),
    "rearrangement": ("langsuite/rearrangement/reading_corpus.txt", REARRANGEMENT_ACTIONS),
    "iqa": ("langsuite/iqa/reading_corpus.txt", tuple(iqa.committed_menu(IQA_ACTIONS))),
    "household": ("langsuite/household/reading_corpus.txt", HOUSEHOLD_ACTIONS),
    "babyai-ig": ("babyai/reading_corpus_langsuite.txt", IG_MENU),
}
SMARTPLAY = ("bandits", "rps", "messenger", "crafter")
REPLIES = [pytest.param(world, case, id=f"{world}:{case.name}") for world, (file, _) in EPISODE_READERS.items()
           for case in load(HERE / file, ";")]


@pytest.mark.parametrize(("world", "case"), REPLIES)
def test_every_reply_is_read_as_a_careful_person_reads_it(world: str, case: Case):
    actions = [a for a in EPISODE_READERS[world][1] if not a.startswith("(")]  # the texts that take no action
    committed = read_committed(case.text, actions)
    expect = None if case.expect is None else case.expect[0]
    assert (committed.action if committed.status != "none" else None, committed.status) == (expect, case.status), \
        (f"{case.file}, line {case.line}", committed)


@pytest.mark.parametrize(("world", "case"), [p for p in REPLIES if p.values[0] in SMARTPLAY])
def test_smartplay_still_takes_its_own_action_and_says_when_it_is_not_the_committed_one(world: str, case: Case):
    """The benchmark's action is SmartPlay's (match_act), always; its reply reads clear only when that action is the
    reply's clear committed answer, and a fallback to action 0 is never clear."""
    actions = EPISODE_READERS[world][1]
    read = READINGS["smartplay"].read(case.text, actions)
    assert read.action == actions[match_act(case.text, actions)]
    agrees = case.status == "clear" and case.expect is not None and case.expect[0] == read.action
    fallback = read.rule_status == "none"
    assert (read.status == "clear") == (agrees and not fallback), (f"{case.file}, line {case.line}", read)
    assert read.guessed == (read.status != "clear"), read
    assert bool(read.notes) == (read.status != "clear"), read


@pytest.mark.parametrize("case", [p.values[1] for p in REPLIES if p.values[0] == "rearrangement"], ids=str)
def test_langsuite_still_takes_its_own_action_and_says_when_it_is_not_the_committed_one(case: Case):
    """LangSuitE's action (or none: a thought, several actions, no action) is kept; the reply reads clear only when
    that action is the reply's clear committed answer, or LangSuitE takes none where the reply commits to none."""
    reading = LANGSUITE_READINGS["langsuite"]
    read, rule = reading.read(case.text, REARRANGEMENT_ACTIONS), reading.rule(case.text, REARRANGEMENT_ACTIONS)
    assert (read.action, read.rule_status) == (rule.action, rule.status)
    committed = case.expect[0] if case.expect is not None and case.status == "clear" else None
    agrees = committed == read.action or (read.action in SPECIAL and (case.status != "clear" or case.expect is None))
    if read.action not in SPECIAL and committed is not None:
        agrees = committed.split(" [", 1)[0] == read.action or committed == read.action
    assert (read.status == "clear") == (agrees and rule.status == "clear"), (f"{case.file}, line {case.line}", read)


LANGSUITE_WORLDS = {"iqa": (iqa.READINGS["langsuite"], IQA_ACTIONS),
                    "household": (household.READINGS["langsuite"], HOUSEHOLD_ACTIONS)}


@pytest.mark.parametrize(("world", "case"), [p for p in REPLIES if p.values[0] in LANGSUITE_WORLDS])
def test_iqa_and_household_take_langsuite_s_action_and_read_clear_only_when_it_is_the_committed_one(world: str,
                                                                                                   case: Case):
    """LangSuitE's action (its substring tests for IQA, the first of several for Household) is kept, as written in
    the case; the reply's status is the case's ``read`` (clear only when that action is the committed answer), and a
    reply that does not read clear says both actions in its notes."""
    reading, actions = LANGSUITE_WORLDS[world]
    read, rule = reading.read(case.text, actions), reading.rule(case.text, actions)
    where = f"{case.file}, line {case.line}"
    assert (read.action, read.rule_status) == (rule.action, rule.status) and read.action == case.taken, (where, read)
    assert read.status == case.read, (where, read)
    if read.status != "clear" and read.guessed:
        assert any(note.endswith(f"LangSuitE takes {read.action}") for note in read.notes), (where, read)


@pytest.mark.parametrize("case", [p.values[1] for p in REPLIES if p.values[0] == "babyai-ig"],
                         ids=lambda case: case.name)
def test_langsuite_babyai_takes_its_one_match_and_reads_clear_only_when_it_is_the_committed_one(case: Case):
    """LangSuitE takes a response's one match of its pattern (none for several or none); the response reads clear
    only when that match is its committed answer."""
    answer = parse_langsuite([case.text], opening="none")
    action = answer.actions()[0]
    taken = None if isinstance(action, Unknown) else str(action)
    assert (taken, answer.reading.status.value) == (case.taken, case.read), (f"{case.file}, line {case.line}",
                                                                             answer.reading, answer.notes)


def test_the_langsuite_corpora_hold_enough_replies():
    per_world = Counter(world for world, _ in (param.values for param in REPLIES))
    assert per_world["iqa"] >= 20 and per_world["household"] >= 20 and per_world["babyai-ig"] >= 10, per_world
    assert all(case.taken is not None or case.read is not None for w, case in (p.values for p in REPLIES)
               if w in ("iqa", "household")), "every IQA and Household case says what LangSuitE takes"


def test_the_reply_corpus_is_large_and_varied():
    """At least 100 replies over the episode worlds, each world with clear, ambiguous and unreadable ones."""
    per_world = Counter(world for world, _ in (param.values for param in REPLIES))
    assert sum(per_world.values()) >= 100 and set(per_world) == set(EPISODE_READERS), per_world
    for world in EPISODE_READERS:
        statuses = Counter(case.status for w, case in (param.values for param in REPLIES) if w == world)
        assert statuses["clear"] and statuses["ambiguous"] and statuses["none"], (world, statuses)
