"""Every world reads the reading corpus (``tests/<world>/reading_corpus*.txt``) as a careful person would.

The answers were written for these tests, not taken from any model's published outputs; each lists the
actions a careful reader takes from it and the read status the verdict must carry.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from plancheck.domains.babyai.committed import read_plan, read_subgoals
from plancheck.domains.grasp.parse import ParsePolicy as GraspPolicy
from plancheck.domains.grasp.parse import parse_answer as grasp_answer
from plancheck.domains.mango.parse import parse_answer as mango_answer
from plancheck.domains.smartplay.hanoi.parse import ParsePolicy as HanoiPolicy
from plancheck.domains.smartplay.hanoi.parse import parse_answer as hanoi_answer
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
