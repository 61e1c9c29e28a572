"""Property-based fuzzing (hypothesis) of every world's answer grammar and record readers, and of ``validate``.

Worlds that take answers are fuzzed on answer texts, token lists and answer files; interactive worlds on
replies (the readings of their episode logs) and on episode log files. Whatever the input, a reader gives a
verdict, records, broken records with a reason, or a typed :class:`~plancheck.errors.BadInputError`; never
another exception. Every verdict and report is JSON without NaN
or Infinity and can be written to a UTF-8 or an ASCII-only stream. The default runs are small (a few seconds
each); ``benchmarks/fuzz.py`` runs the same kinds of input long and at every size, with the worst time and
memory per size.
"""

from __future__ import annotations

import importlib
import io
import json
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from plancheck.cli.common import emit
from plancheck.episodes.batch import evaluate_episodes
from plancheck.episodes.check import check_episode
from plancheck.episodes.log import Episode, episode_lines
from plancheck.errors import BadInputError
from plancheck.limits import Limits
from plancheck.registry import get_world, world_names, world_package
from plancheck.verifier.batch import evaluate_records
from plancheck.verifier.pddl_validate import validate_text
from plancheck.verifier.records import BrokenRecord, Record
from plancheck.verifier.render import verdict_text
from plancheck.verifier.verdict import Semantics, Verdict
from plancheck.world import Capability, EpisodeExample, Example
from tests.conftest import shared_data_dir
from tests.pddl.corpus import cases

# small by default; the profile's own count with --hypothesis-profile explore (or HYPOTHESIS_PROFILE=explore)
FUZZ = settings(max_examples=60 if settings.default.max_examples <= 100 else settings.default.max_examples,
                deadline=None, suppress_health_check=[HealthCheck.too_slow])
QUICK = {"babyai": {"no_optimal": True}}  # the optimum's search is not what is fuzzed here

# pieces every grammar gives meaning to: brackets, quotes, separators, escapes, markers, numbering, action words
PIECES = ("[", "]", "{", "}", "(", ")", "'", '"', "`", "```", ",", ";", ":", ".", "-", "->", "*", "**", "#", "//",
          "\\", "\\u", "\\ud800", "\\N{", "\\x4", "\n", "\r\n", "\t", " ", "1.", "2)", "- ", "\u2028", "\ufffd", "é",
          "İ", "UP", "take", "move right", "north-west", "A->C", "Move the top disk of rod A to the top of rod C",
          "left", "forward", "toggle", "pick_up [red ball]", "Act: turn_left", "The LLM's action sequence is: ",
          "The agent's final state is: ((3, 4), 1)", "location_before", "location_after", "prev_node", "action",
          "bedroom", "living room", "9" * 120, "Final answer:", "None", "True", "#", "0x1F")
KEYS = ("instance", "id", "custom_id", "response", "answer", "text", "output", "model", "task", "index",
        "movement_prompt", "energy_limit_prompt", "cost_of_step_prompt", "baseline", "sample_id", "game_name",
        "src_node", "dst_node", "action_list", "model_cutoff_num", "cutoff", "env_name", "seed", "env_seed", "steps",
        "env", "env_id", "body", "choices", "message", "content", "error", "all_llm_output", "target_state",
        "expert_action_sequence", "help_count", "llm_output")


def _corpus(name: str) -> list:
    found = importlib.import_module(world_package(name) + ".examples").EXAMPLES
    return list(found.get(name, ()) if isinstance(found, dict) else found)


ANSWERING = [n for n in world_names() if any(isinstance(e, Example) for e in _corpus(n))]
PLAYING = [n for n in world_names() if get_world(n).supports(Capability.PLAY)]


@cache
def _instance(name: str):
    world = get_world(name)
    first = next(e for e in _corpus(name) if isinstance(e, Example))
    return world, next(iter(world.instances([first.instance], shared_data_dir())))


def _answers(name: str) -> st.SearchStrategy[str]:
    texts = [e.answer for e in _corpus(name) if isinstance(e, Example) and isinstance(e.answer, str)]
    spliced = st.tuples(st.sampled_from(texts), st.integers(0, 400), st.integers(0, 40),
                        st.lists(st.sampled_from(PIECES), max_size=4).map("".join)).map(
        lambda t: t[0][:t[1]] + t[3] + t[0][t[1] + t[2]:])
    return st.one_of(st.text(max_size=200), st.lists(st.sampled_from(PIECES), max_size=50).map("".join), spliced)


def _written(verdict: Verdict) -> None:
    """The verdict is JSON all through and reaches any stream: UTF-8, ASCII-only; so does its text."""
    for encoding in ("utf-8", "ascii"):
        stream = io.TextIOWrapper(io.BytesIO(), encoding=encoding)
        emit(verdict.to_json(), stream, indent=2)
        stream.flush()
        assert json.loads(stream.buffer.getvalue().decode(encoding))["instance"] == verdict.instance
    verdict_text(verdict, Semantics.STRICT, show_steps=True).encode("utf-8", "backslashreplace")


@pytest.mark.parametrize("name", ANSWERING)
def test_any_text_gets_a_verdict(name):
    world, instance = _instance(name)

    @FUZZ
    @given(_answers(name))
    def run(text: str) -> None:
        _written(world.check(instance, text, **QUICK.get(name, {})))

    run()


@pytest.mark.parametrize("name", ANSWERING)
def test_any_list_of_tokens_gets_a_verdict(name):
    world, instance = _instance(name)

    @FUZZ
    @given(st.lists(st.one_of(st.text(max_size=30), st.sampled_from(PIECES)), max_size=30))
    def run(tokens: list[str]) -> None:
        _written(world.check(instance, tokens, **QUICK.get(name, {})))

    run()


def _values() -> st.SearchStrategy:
    leaves = st.one_of(st.none(), st.booleans(), st.integers(), st.integers(min_value=10 ** 100),
                       st.floats(), st.text(max_size=20), st.sampled_from(PIECES))
    return st.recursive(leaves, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(KEYS) | st.text(max_size=6), inner, max_size=5), max_leaves=25)


def _records(name: str) -> st.SearchStrategy[dict]:
    ids = [e.instance for e in _corpus(name) if isinstance(e, Example)] + ["x", "", "9" * 200, "../../etc/passwd",
                                                                           "a/rf/b"]
    answers = _answers(name) | st.lists(st.sampled_from(PIECES), max_size=8) | _values()
    record = st.fixed_dictionaries({"instance": st.sampled_from(ids), "response": answers})
    return st.one_of(record, st.dictionaries(st.sampled_from(KEYS), _values(), max_size=8), _values())


def _damaged(value, cut: int | None, deep: int) -> str:
    text = json.dumps(value, allow_nan=True)  # NaN and Infinity are written, as Python writes them
    if deep:
        text = f'{{"instance": {"[" * deep}1{"]" * deep}}}'
    return text if cut is None else text[:cut]


@pytest.mark.parametrize("name", ANSWERING)
@pytest.mark.parametrize("suffix", [".jsonl", ".json"])
def test_any_file_of_records_is_read_and_scored_or_named_broken(name, suffix, tmp_path):
    world, _ = _instance(name)
    folder = tmp_path / "greedy"  # a baseline file's name, for GRASP
    folder.mkdir(exist_ok=True)
    path = folder / f"inner_random_free{suffix}"
    limits = Limits(answer_bytes=4000, list_length=20, nesting=8, digits=30)

    @FUZZ
    @given(st.lists(st.tuples(_records(name), st.none() | st.integers(0, 60), st.sampled_from([0, 0, 0, 5, 50])),
                    min_size=1, max_size=6), st.binary(max_size=40))
    def run(items: list, noise: bytes) -> None:
        lines = [_damaged(*item) for item in items]
        content = ("\n".join(lines) if suffix == ".jsonl" else "[" + ",".join(lines) + "]").encode()
        path.write_bytes(content + noise)
        records = list(world.read_answers(path, shared_data_dir(), limits=limits))
        assert all(isinstance(r, (Record, BrokenRecord)) for r in records)
        assert all(r.reason for r in records if isinstance(r, BrokenRecord))
        options = {**QUICK.get(name, {}), "limits": limits}
        for item in evaluate_records(world, records, shared_data_dir(), debug=True, **options):
            assert item.verdict is not None or item.error or item.skipped
            json.dumps(item.to_json(), allow_nan=False)

    run()


def _episode(name: str) -> Episode:
    return next(e for e in _corpus(name) if isinstance(e, EpisodeExample)).episode


@pytest.mark.parametrize("name", PLAYING)
def test_any_reply_in_an_episode_log_gets_a_verdict(name):
    world, episode = get_world(name), _episode(name)

    @FUZZ
    @given(st.integers(0, len(episode.steps) - 1), st.one_of(st.text(max_size=200), st.lists(
        st.sampled_from(PIECES), max_size=30).map("".join)))
    def run(at: int, reply: str) -> None:
        steps = list(episode.steps)
        steps[at] = replace(steps[at], reply=reply)
        try:
            _written(check_episode(world.episodes, replace(episode, steps=tuple(steps))))
        except BadInputError as error:
            assert str(error)

    run()


@pytest.mark.parametrize("name", PLAYING)
def test_any_episode_log_is_checked_or_named_broken(name, tmp_path):
    world, lines = get_world(name), list(episode_lines(_episode(name)))
    path = tmp_path / "episodes.jsonl"
    limits = Limits(answer_bytes=100_000, nesting=8, digits=30)
    keys = sorted({key for line in lines for key in line}) + list(KEYS[:6])

    @FUZZ
    @given(st.lists(st.tuples(st.integers(0, len(lines) - 1), st.sampled_from(keys), _values()), max_size=3),
           st.none() | st.integers(0, len(lines) - 1), st.none() | st.integers(0, 2000), st.binary(max_size=20))
    def run(changes: list, dropped: int | None, cut: int | None, noise: bytes) -> None:
        changed = [dict(line) for line in lines]
        for at, key, value in changes:
            changed[at][key] = value
        if dropped is not None:
            del changed[dropped]
        text = "\n".join(json.dumps(line, allow_nan=True) for line in changed)
        path.write_bytes((text if cut is None else text[:cut]).encode() + noise)
        for item in evaluate_episodes(world.episodes, [path], limits, debug=True):
            assert item.verdict is not None or item.error
            json.dumps(item.to_json(), allow_nan=False)

    run()


EDITS = ("(", ")", "(and", "(not", "(or", "(/ 1 0)", "(* 99999999 99999999)", "9" * 40, "-", "?x", ":action",
         "(either", "(forall (?x)", ";", "\n", "(increase (total-cost) 5)", "(= (total-cost) 3)", "(:metric",
         "maximize", "- object", "(when", ":parameters ()", "\x00", "é")


def _edit(text: str, edit: tuple[int, int, str]) -> str:
    at, length, insert = edit
    at %= len(text) + 1
    return text[:at] + insert + text[at + length:]


@FUZZ
@given(case=st.sampled_from(cases()), which=st.integers(0, 2),
       edits=st.lists(st.tuples(st.integers(0, 5000), st.integers(0, 30), st.sampled_from(EDITS)), max_size=5))
def test_validate_gives_a_report_or_names_the_bad_input(case, which: int, edits: list):
    texts = [Path(case.domain_path).read_text(), Path(case.problem_path).read_text(), case.plan_text]
    for edit in edits:
        texts[which] = _edit(texts[which], edit)
    try:
        report = validate_text(*texts, limits=Limits(nesting=40, digits=30))
    except BadInputError as error:
        assert str(error)
        return
    json.dumps(report.to_json(), allow_nan=False)
    assert report.text()
