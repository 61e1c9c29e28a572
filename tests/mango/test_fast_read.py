"""The fast path of the MANGO reader (a plain trajectory list read without the grammar) reads exactly what the
grammar reads: the same actions, offsets, spans, notes and read status, or the same error, on every published
answer, on the reading corpus, on the oracle answers of every shared game and on generated lists."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plancheck.domains.mango import parse
from plancheck.domains.mango.instance import select
from plancheck.domains.mango.parse import format_answer, parse_answer
from plancheck.domains.mango.solve import reference
from plancheck.errors import AnswerParseError
from plancheck.translators.answer import Pick
from plancheck.translators.reading import Unclosed
from tests.reading_corpus import load

CORPUS = Path(__file__).parent / "reading_corpus.txt"


def _read(text: str, **options) -> object:
    try:
        return parse_answer(text, **options)
    except AnswerParseError as error:
        return ("error", str(error), error.expected)


def _both(text: str, monkeypatch: pytest.MonkeyPatch, **options) -> tuple[object, object, bool]:
    """The reading with the fast path, the reading with the grammar only, and whether the fast path took it."""
    fast = _read(text, **options)
    taken = parse._flat_list(text) is not None
    with monkeypatch.context() as patch:
        patch.setattr(parse, "_flat_list", lambda _: None)
        grammar = _read(text, **options)
    return fast, grammar, taken


def test_published_answers_read_the_same(shared_data, monkeypatch):
    files = sorted((shared_data / "mango").rglob("*.json"))
    texts = [record["response"] for path in files if isinstance(record := json.loads(path.read_text()), dict)
             and isinstance(record.get("response"), str)]
    taken = 0
    for text in texts:
        fast, grammar, fast_taken = _both(text, monkeypatch)
        assert fast == grammar, text[:200]
        taken += fast_taken
    assert len(texts) >= 32 and taken >= 30, (len(texts), taken)


def test_the_reading_corpus_reads_the_same(monkeypatch):
    cases = load(CORPUS, ";")
    taken = 0
    for case in cases:
        options = {"pick": Pick(case.options.get("pick", "committed")),
                   "unclosed": Unclosed(case.options.get("unclosed", "reject"))}
        fast, grammar, fast_taken = _both(case.text, monkeypatch, **options)
        assert fast == grammar, f"{CORPUS}, line {case.line}"
        taken += fast_taken
    assert len(cases) >= 40 and 0 < taken < len(cases), (len(cases), taken)


def test_oracle_answers_of_every_shared_game_read_the_same(shared_data, monkeypatch):
    instances = [i for i in select(["all"], shared_data) if i.answerable][::7]
    for number, instance in enumerate(instances):
        route = reference(instance).trajectory
        text = format_answer(route, "location_before" if number % 2 else "prev_node")
        if number % 3 == 0:
            text = json.dumps([{"location_before": m.before, "action": m.action, "location_after": m.after}
                               for m in route], indent=2 if number % 2 else None)
        fast, grammar, taken = _both(text, monkeypatch)
        assert taken and fast == grammar, text[:200]


_WORD = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=6)
_LAYOUT = st.sampled_from(["", "", "", " ", " ", " ", "\n  ", "\t", " # note\n", "\u00a0", "\\\n"])
_ODD = st.sampled_from(["'a' 'b'", "'it\\'s'", '"\\ud83d\\ude00"', "'\\N{BULLET}'", "'\\x41\\101'",
                                     "'unclosed", "\"two\nlines\"", "''"])
_STRING = st.one_of(_WORD.map(repr), _WORD.map(json.dumps), _WORD.map(lambda w: "u" + repr(w)), _ODD)
_VALUE = st.one_of(_STRING, st.sampled_from(["1", "-2.5e3", ".5", "True", "None", "null", "x1", "[1]", "{}", "1x"]))
_STYLES = [["'location_before'", "'action'", "'location_after'"], ['"prev_node"', '"action"', '"node"']]
_KEY = st.one_of(st.sampled_from(["'location_before'", '"action"', "'location_after'", "'prev_node'", "'node'",
                                  "'step'"]), _STRING, st.sampled_from(["1", "action"]))


_CLEAN_LAYOUT = st.sampled_from(["", " ", "\n  ", "\t", " # note\n", "\u00a0"])
_CLEAN_STRING = st.one_of(_WORD.map(repr), _WORD.map(json.dumps), _WORD.map(lambda w: "u" + repr(w)))


@st.composite
def _answers(draw) -> str:
    """A trajectory list in the plain shape (half of them), or one with odd pieces anywhere."""
    clean = draw(st.booleans())
    layout, string = (_CLEAN_LAYOUT, _CLEAN_STRING) if clean else (_LAYOUT, _STRING)

    def lay() -> str:
        return draw(layout)

    dicts = []
    for _ in range(draw(st.integers(1 if clean else 0, 3))):
        if clean or draw(st.integers(0, 4)):  # the keys of a trajectory, then maybe more
            keys = draw(st.permutations(draw(st.sampled_from(_STYLES)))) + draw(st.lists(_KEY, max_size=2))
        else:
            keys = draw(st.lists(_KEY, max_size=4))
        pairs = [lay() + key + lay() + ":" + lay() + draw(string if clean or draw(st.integers(0, 5)) else _VALUE)
                 + lay() for key in keys]
        dicts.append(lay() + "{" + ",".join(pairs) + draw(st.sampled_from(["", ","] if clean else ["", ",", ",,"]))
                     + "}" + lay())
    body = "[" + ",".join(dicts) + draw(st.sampled_from(["", ",", " "])) + ("]" if clean else
                                                                           draw(st.sampled_from(["]", "", "}"])))
    before = draw(st.sampled_from(["", "Answer:\n", "```python\n", "| a | b |\n|---|---|\n", "[x] "]))
    after = draw(st.sampled_from(["", "\n```", " done.", " [1]", "\n| a |"]))
    return before + body + after


@settings(max_examples=600, deadline=None)
@given(_answers())
def test_generated_lists_read_the_same(text):
    with pytest.MonkeyPatch.context() as monkeypatch:
        fast, grammar, _ = _both(text, monkeypatch)
    assert fast == grammar
