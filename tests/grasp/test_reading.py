"""The committed reading on the 1,600 published GPT-3.5 responses: every one is read, each ambiguous one is
listed with its expected reading (``gpt35_ambiguous.json``), and the paper's average stands."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from statistics import fmean

import pytest

from plancheck.domains.grasp.catalog import environment
from plancheck.domains.grasp.check import check_answer
from plancheck.domains.grasp.parse import ParsePolicy, parse_answer

FIXTURE = Path(__file__).with_name("gpt35_ambiguous.json")


@pytest.fixture(scope="module")
def responses(shared_data) -> list[tuple[str, str]]:
    with open(shared_data / "grasp" / "llm" / "gpt35_responses.jsonl") as handle:
        records = [json.loads(line) for line in handle]
    return [(r["custom_id"], r["response"]["body"]["choices"][0]["message"]["content"]) for r in records]


def test_every_response_is_read_and_each_ambiguous_one_is_listed(responses):
    expected = {entry["custom_id"]: entry for entry in json.loads(FIXTURE.read_text())}
    statuses = Counter()
    ambiguous = {}
    for custom_id, text in responses:
        answer = parse_answer(text)
        assert answer.items, custom_id
        statuses[answer.reading.status.value] += 1
        if answer.reading.status.value == "ambiguous":
            ambiguous[custom_id] = answer
    assert len(responses) == 1600 and statuses["none"] == 0
    assert set(ambiguous) == set(expected)
    for custom_id, answer in ambiguous.items():
        entry = expected[custom_id]
        assert ", ".join(str(item.action) for item in answer.items) == entry["actions"]
        chosen = next(seen for seen in answer.reading.candidates if seen.chosen)
        assert (chosen.line, chosen.form, chosen.label) == (entry["chosen"]["line"], entry["chosen"]["form"],
                                                            entry["chosen"]["label"])
        assert [", ".join(seen.actions) for seen in answer.reading.candidates if not seen.chosen] == \
            [other["actions"] for other in entry["others"]]


@pytest.mark.slow
def test_the_committed_reading_leaves_the_papers_average_unchanged(responses, shared_data):
    """Every response reads to the same actions as under the earlier rule (--pick last), so GPT-3.5's Table 1
    average under rule paper stays -2.02; --strict-read leaves out the one ambiguous answer (-2.0219)."""
    scores = {}
    for pick in ("last", "committed"):
        verdicts = [check_answer(environment(custom_id, shared_data), text, ParsePolicy.of(pick=pick))
                    for custom_id, text in responses]
        scores[pick] = verdicts
    assert [v.actions for v in scores["last"]] == [v.actions for v in scores["committed"]]
    assert round(fmean(v.scores["paper"] for v in scores["committed"]), 2) == -2.02
    clear = [v.scores["paper"] for v in scores["committed"] if v.read.status.value == "clear"]
    assert len(clear) == 1599 and round(fmean(clear), 4) == -2.0219
