"""The episode log format: round trips, several episodes a file, errors that name file and line."""

from __future__ import annotations

import json

from plancheck.episodes.log import BrokenEpisode, Episode, Header, Step, is_episode_log, read_episodes, write_episodes

HEADER = Header("coin", "coin", 3, {"reading": "exact"}, "reference:heads", observation="Toss.", model="m",
                extra={"note": "kept"})
STEP = Step(1, "heads", "heads", "clear", ("a note",), "It was heads.", 1, 1, False, ("earlier",),
            ({"role": "user", "content": "Toss."},), {"coin": "heads"})


def test_round_trip_of_every_field(tmp_path):
    path = tmp_path / "log.jsonl"
    write_episodes(path, [Episode(HEADER, (STEP, Step(2, None, "tails", None)))] * 2)
    episodes = list(read_episodes(path))
    assert len(episodes) == 2 and is_episode_log(path)
    first = episodes[1]
    assert first.header.line == 4 and first.header.extra == {"note": "kept"} and first.header.model == "m"
    assert first.steps[0].to_json() == STEP.to_json() and first.steps[1].reply is None
    assert json.loads(path.read_text().splitlines()[0])["plancheck_episode"] == 1


def test_a_broken_episode_names_its_line_and_the_next_one_is_read(tmp_path):
    path = tmp_path / "log.jsonl"
    lines = [HEADER.to_json(), {**STEP.to_json(), "reward": "one"}, STEP.to_json(), HEADER.to_json(), STEP.to_json()]
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n\n")
    broken, good = read_episodes(path)
    assert isinstance(broken, BrokenEpisode) and (broken.line, broken.header_line) == (2, 1)
    assert broken.reason == "'reward' must be a number or null, not text"
    assert isinstance(good, Episode) and len(good.steps) == 1


def test_errors_in_words(tmp_path):
    path = tmp_path / "log.jsonl"
    cases = {
        '{"step": 1}': "a step before any header line",
        '{"plancheck_episode": 2, "world": "w", "instance": "i"}': "unsupported episode log format 2",
        '{"plancheck_episode": 1, "world": 3, "instance": "i"}': "'world' must be text, not a number",
        '{"plancheck_episode": 1, "world": "w", "instance": "i", "seed": "7"}': "'seed' must be an integer or null",
        "[1]": "a line must be a JSON object, not a list",
        "{oops": "not JSON (column 2",
    }
    for line, words in cases.items():
        path.write_text(line + "\n")
        [item] = read_episodes(path)
        assert isinstance(item, BrokenEpisode) and words in item.reason and item.line == 1, line
    header = json.dumps(HEADER.to_json())
    for step, words in [({"step": 1, "read": "maybe"}, "'read' must be one of clear, ambiguous, none"),
                        ({"step": 1, "done": "no"}, "'done' must be true, false or null"),
                        ({"step": 1, "prompt": [{"role": "user"}]}, "'prompt' must be a list of chat messages"),
                        ({"step": 1, "reward": True}, "'reward' must be a number or null, not true/false"),
                        ({"step": 1, "notes": "x"}, "'notes' must be a list of texts")]:
        path.write_text(header + "\n" + json.dumps(step) + "\n")
        [item] = read_episodes(path)
        assert isinstance(item, BrokenEpisode) and item.line == 2 and words in item.reason, step
    path.write_text("\n")
    assert not is_episode_log(path) and list(read_episodes(path)) == []


def test_lone_surrogates_are_written_as_escapes(tmp_path):
    path = tmp_path / "log.jsonl"
    write_episodes(path, [Episode(HEADER, (Step(1, "\ud800", "heads", "none"),))])
    [episode] = read_episodes(path)
    assert episode.steps[0].reply == "\ud800"
