r"""The episode log: JSON lines, a header line, then one line per step (see docs/episodes.md).

A file may hold several episodes; each starts with a header line (the one with
``"plancheck_episode"``). Reading never stops at a broken episode: it becomes a
:class:`BrokenEpisode` naming its file and line, and the next header starts afresh.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "e.jsonl"
>>> header = Header("bandits", "BanditTwoArmedHighLowFixed", 7, {"reading": "smartplay"}, "reference:oracle",
...                 observation="A new round begins.")
>>> step = Step(1, reply="Pull slot machine 2.", action="Pull slot machine 2.", read="clear",
...             observation="You pulled slot machine 2, you received reward 1.", reward=1, score=1, done=False)
>>> write_episodes(path, [Episode(header, (step,))])
>>> [(e.header.seed, len(e.steps), e.steps[0].reward, e.steps[0].line) for e in read_episodes(path)]
[(7, 1, 1, 2)]
>>> _ = path.write_text(path.read_text().replace('"step": 1', '"step": 2'))
>>> [e.reason for e in read_episodes(path)]
['step number 2 where step 1 was expected']
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from plancheck.errors import BadInputError
from plancheck.files import line_reason, read_text
from plancheck.limits import DEFAULT, Limits, load_json
from plancheck.version import __version__

FORMAT = 1
MARK = "plancheck_episode"
READ_STATUSES = ("clear", "ambiguous", "none")


@dataclass(frozen=True, slots=True)
class Header:
    """The first line of an episode: what was played, from which seed, under which settings, by whom.

    ``observation`` is the observation after the reset (the one the first prompt shows);
    ``model`` names the player in summary tables; ``extra`` keeps any other keys of the line.
    """

    world: str
    instance: str
    seed: int | None
    settings: Mapping[str, Any]
    policy: str
    plancheck: str = __version__
    observation: str | None = None
    model: str | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)
    line: int = 0

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {MARK: FORMAT, "world": self.world, "instance": self.instance, "seed": self.seed,
                                "settings": dict(self.settings), "policy": self.policy, "plancheck": self.plancheck}
        if self.observation is not None:
            data["observation"] = self.observation
        if self.model is not None:
            data["model"] = self.model
        return {**data, **self.extra}


@dataclass(frozen=True, slots=True)
class Step:
    """One step: the reply and how it was read, the action taken and what followed.

    ``None`` means "not logged" for ``observation``, ``reward``, ``score``, ``done`` (a converted
    run may lack the last outcome), and "no reply" for ``reply`` (the logged action was taken as
    is). ``action`` is None when the reply could not be read and no action was taken.
    ``earlier`` are the replies to the step's earlier questions (SmartPlay asks two per step);
    ``prompt`` the chat messages the read reply answered, when the player was shown them.
    """

    step: int
    reply: str | None = None
    action: str | None = None
    read: str | None = None
    notes: tuple[str, ...] = ()
    observation: str | None = None
    reward: float | None = None
    score: float | None = None
    done: bool | None = None
    earlier: tuple[str, ...] = ()
    prompt: tuple[Mapping[str, str], ...] | None = None
    info: Mapping[str, Any] | None = None
    line: int = 0

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"step": self.step, "reply": self.reply, "action": self.action, "read": self.read,
                                "notes": list(self.notes), "observation": self.observation, "reward": self.reward,
                                "score": self.score, "done": self.done}
        if self.earlier:
            data["earlier_replies"] = list(self.earlier)
        if self.prompt is not None:
            data["prompt"] = [dict(message) for message in self.prompt]
        if self.info is not None:
            data["info"] = dict(self.info)
        return data


@dataclass(frozen=True, slots=True)
class Episode:
    """A header and its steps; ``source`` is the file it was read from."""

    header: Header
    steps: tuple[Step, ...]
    source: str = ""


@dataclass(frozen=True, slots=True)
class BrokenEpisode:
    """An episode that could not be read: where and why (the reason names the field)."""

    source: str
    line: int
    reason: str
    instance: str | None = None
    header_line: int | None = None


class _Bad(Exception):
    """A malformed line (internal: becomes a BrokenEpisode)."""


def _text(data: Mapping[str, Any], key: str, *, optional: bool = True) -> str | None:
    value = data.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise _Bad(f"{key!r} must be text{' or null' if optional else ''}, not {_kind(value)}")
    return value


def _number(data: Mapping[str, Any], key: str) -> float | None:
    value = data.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _Bad(f"{key!r} must be a number or null, not {_kind(value)}")
    return value


def _texts(data: Mapping[str, Any], key: str) -> tuple[str, ...]:
    value = data.get(key)
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise _Bad(f"{key!r} must be a list of texts")
    return tuple(value)


def _kind(value: Any) -> str:
    kinds = {bool: "true/false", int: "a number", float: "a number", str: "text", list: "a list", dict: "an object"}
    return "null" if value is None else kinds.get(type(value), type(value).__name__)


def parse_header(data: Mapping[str, Any], line: int = 0) -> Header:
    """A header from its JSON object (raises ValueError naming the bad field)."""
    try:
        if data.get(MARK) != FORMAT:
            raise _Bad(f"unsupported episode log format {data.get(MARK)!r} (this plancheck reads {FORMAT})")
        seed = data.get("seed")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise _Bad(f"'seed' must be an integer or null, not {_kind(seed)}")
        settings = data.get("settings", {})
        if not isinstance(settings, dict):
            raise _Bad(f"'settings' must be an object, not {_kind(settings)}")
        known = {MARK, "world", "instance", "seed", "settings", "policy", "plancheck", "observation", "model"}
        return Header(_text(data, "world", optional=False), _text(data, "instance", optional=False), seed, settings,
                      _text(data, "policy") or "external", _text(data, "plancheck") or "", _text(data, "observation"),
                      _text(data, "model"), {k: v for k, v in data.items() if k not in known}, line)
    except _Bad as error:
        raise ValueError(str(error)) from None


def parse_step(data: Mapping[str, Any], expected: int, line: int = 0) -> Step:
    """A step from its JSON object; ``expected`` is the step number it must carry."""
    try:
        number = data.get("step")
        if number != expected or isinstance(number, bool):
            raise _Bad(f"step number {number!r} where step {expected} was expected")
        read = data.get("read")
        if read is not None and read not in READ_STATUSES:
            raise _Bad(f"'read' must be one of {', '.join(READ_STATUSES)} or null, not {read!r}")
        done = data.get("done")
        if done is not None and not isinstance(done, bool):
            raise _Bad(f"'done' must be true, false or null, not {_kind(done)}")
        prompt = data.get("prompt")
        if prompt is not None:
            if not isinstance(prompt, list) or not all(
                    isinstance(m, dict) and isinstance(m.get("role"), str) and isinstance(m.get("content"), str)
                    for m in prompt):
                raise _Bad("'prompt' must be a list of chat messages {\"role\": text, \"content\": text}")
            prompt = tuple(prompt)
        info = data.get("info")
        if info is not None and not isinstance(info, dict):
            raise _Bad(f"'info' must be an object, not {_kind(info)}")
        return Step(expected, _text(data, "reply"), _text(data, "action"), read, _texts(data, "notes"),
                    _text(data, "observation"), _number(data, "reward"), _number(data, "score"), done,
                    _texts(data, "earlier_replies"), prompt, info, line)
    except _Bad as error:
        raise ValueError(str(error)) from None


def read_episodes(path: Path, text: str | None = None, limits: Limits = DEFAULT) -> Iterator[Episode | BrokenEpisode]:
    """Every episode of a log file (``text`` instead of reading ``path``, e.g. for standard input); a line beyond
    ``limits`` (bytes, nesting, digits) breaks its episode as a line that is not JSON does."""
    source = str(path)
    lines = (read_text(path) if text is None else text).split("\n")
    header: Header | None = None
    steps: list[Step] = []
    broken: BrokenEpisode | None = None
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        try:
            limits.text(raw, "the line")
            data = load_json(raw, limits)
        except json.JSONDecodeError as error:
            data, problem = None, f"not JSON (column {error.colno}: {error.msg})"
        except BadInputError as error:
            data, problem = None, line_reason(error)
        else:
            problem = None if isinstance(data, dict) else f"a line must be a JSON object, not {_kind(data)}"
        if isinstance(data, dict) and MARK in data:  # a new episode starts
            if header is not None and broken is None:
                yield Episode(header, tuple(steps), source)
            header, steps, broken = None, [], None
            try:
                header = parse_header(data, number)
            except ValueError as error:
                broken = BrokenEpisode(source, number, f"header: {error}", _instance(data), number)
                yield broken
            continue
        if broken is not None:
            continue  # the rest of a broken episode
        if header is None:
            broken = BrokenEpisode(source, number, problem or "a step before any header line "
                                   f"(an episode starts with a line holding \"{MARK}\": {FORMAT})")
            yield broken
            continue
        try:
            if problem is not None:
                raise ValueError(problem)
            steps.append(parse_step(data, len(steps) + 1, number))
        except ValueError as error:
            broken = BrokenEpisode(source, number, str(error), header.instance, header.line)
            yield broken
    if header is not None and broken is None:
        yield Episode(header, tuple(steps), source)


def _instance(data: Mapping[str, Any]) -> str | None:
    instance = data.get("instance")
    return instance if isinstance(instance, str) else None


def episode_lines(episode: Episode) -> Iterator[dict[str, Any]]:
    """The JSON objects of an episode's lines: its header, then its steps."""
    yield episode.header.to_json()
    for step in episode.steps:
        yield step.to_json()


def dump_episodes(episodes: Iterable[Episode], stream: TextIO) -> None:
    """Write episodes as JSON lines (UTF-8 text, non-ASCII kept)."""
    for episode in episodes:
        for data in episode_lines(episode):
            try:
                stream.write(json.dumps(data, ensure_ascii=False) + "\n")
            except UnicodeEncodeError:  # a lone surrogate (from a JSON escape such as \ud800) is not UTF-8
                stream.write(json.dumps(data) + "\n")


def write_episodes(path: Path, episodes: Iterable[Episode]) -> None:
    """Write episodes to ``path``."""
    with open(path, "w", encoding="utf-8") as stream:
        dump_episodes(episodes, stream)


def is_episode_log(path: Path) -> bool:
    """Whether the file's first non-blank line is an episode header (the format's own marker)."""
    with open(path, encoding="utf-8-sig", errors="replace") as stream:
        while line := stream.readline(DEFAULT.answer_bytes + 1):
            if line.strip():
                try:
                    data = load_json(line)
                except (json.JSONDecodeError, BadInputError):
                    return False
                return isinstance(data, dict) and MARK in data
    return False
