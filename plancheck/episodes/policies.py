"""The generic players: a replayed log or list of replies, and an external agent process.

``--policy`` names one of: a world's reference policy (``oracle``, ``reference:bayes``),
``replay:FILE`` or ``cmd:COMMAND``. The agent process of ``cmd:`` receives one JSON line per
question on its standard input, ``{"episode": j, "step": k, "turn": i, "turns": n, "messages":
[...], "actions": [...]}``, and answers each with one JSON line ``{"reply": "..."}`` on its
standard output; its standard input is closed when the last episode ends.
"""

from __future__ import annotations

import json
import queue
import shlex
import subprocess
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from plancheck.episodes.game import Episodes, Game, Policy, Replies
from plancheck.episodes.log import BrokenEpisode, read_episodes
from plancheck.errors import BadInputError, Location, PlancheckError
from plancheck.files import data_text
from plancheck.limits import load_json


class AgentError(PlancheckError):
    """The external agent process broke the protocol (exited, wrote something else than a reply, timed out)."""


class ReplayPolicy:
    """Replies taken in order from a list: one per step, each the read reply with its earlier ones."""

    def __init__(self, steps: Sequence[Replies], source: str):
        self.steps, self.source = tuple(steps), source

    def replies(self, step: int, game: Game) -> Replies:
        if step > len(self.steps):
            raise BadInputError(f"replay {self.source} has replies for {len(self.steps)} step(s); "
                                f"the episode needs step {step}")
        return self.steps[step - 1]


def replays(path: Path) -> list[ReplayPolicy]:
    """One replay per episode of a log, or a single one from a JSON list of replies (a reply is text,
    or a list of texts: the replies to the step's questions in order, the last one read)."""
    text = data_text(path)
    if text.lstrip().startswith("["):
        try:
            items = load_json(text, source=str(path))
        except json.JSONDecodeError as error:
            raise BadInputError(f"not JSON: {error.msg}", Location(str(path), error.lineno, error.colno)) from None
        steps = []
        for number, item in enumerate(items, start=1):
            if isinstance(item, str):
                steps.append(Replies(item))
            elif isinstance(item, list) and item and all(isinstance(reply, str) for reply in item):
                steps.append(Replies(item[-1], tuple(item[:-1])))
            else:
                raise BadInputError(f"reply {number} must be text or a non-empty list of texts", Location(str(path)))
        return [ReplayPolicy(steps, str(path))]
    result = []
    for episode in read_episodes(path, text):
        if isinstance(episode, BrokenEpisode):
            raise BadInputError(episode.reason, Location(episode.source, episode.line))
        result.append(ReplayPolicy([Replies(s.reply if s.reply is not None else s.action, s.earlier)
                                    for s in episode.steps], f"{path} (episode at line {episode.header.line})"))
    if not result:
        raise BadInputError("no episode to replay", Location(str(path)))
    return result


class CommandPolicy:
    """An external agent process speaking JSON lines (see the module docstring); use as a context manager.

    ``timeout`` bounds each reply, in seconds. The process's standard error passes through.
    """

    def __init__(self, command: str, timeout: float = 600.0):
        self.argv = shlex.split(command)
        if not self.argv:
            raise BadInputError("cmd: needs a command, e.g. cmd:'python agent.py'")
        self.timeout = timeout
        self.episode = 1
        self.process: subprocess.Popen[str] | None = None
        self.lines: queue.Queue[str | None] = queue.Queue()

    def __enter__(self) -> CommandPolicy:
        try:
            self.process = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                            encoding="utf-8", bufsize=1)
        except OSError as error:
            raise BadInputError(f"cannot start the agent {self.argv[0]!r}: {error.strerror or error}") from None
        threading.Thread(target=self._read, args=(self.process.stdout,), daemon=True).start()
        return self

    def _read(self, stream) -> None:
        for line in stream:
            self.lines.put(line)
        self.lines.put(None)

    def __exit__(self, *exc: Any) -> None:
        process, self.process = self.process, None
        if process is None:
            return
        try:
            process.stdin.close()
        except OSError:  # it is gone already
            pass
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

    def replies(self, step: int, game: Game) -> Replies:
        earlier: list[str] = []
        messages: list[dict[str, str]] = []
        for turn in range(1, game.turns + 1):
            messages = game.messages(earlier)
            earlier.append(self.ask({"episode": self.episode, "step": step, "turn": turn, "turns": game.turns,
                                     "messages": messages, "actions": list(game.actions())}))
        return Replies(earlier[-1], tuple(earlier[:-1]), tuple(messages))

    def ask(self, request: dict[str, Any]) -> str:
        """Send one request and wait for its reply."""
        where = f"episode {request['episode']}, step {request['step']}, turn {request['turn']}"
        if self.process is None:
            raise AgentError("the agent process is not running (use CommandPolicy as a context manager)")
        try:
            self.process.stdin.write(json.dumps(request, ensure_ascii=False) + "\n")
            self.process.stdin.flush()
        except OSError:
            raise AgentError(f"{where}: the agent process {self._ended()} before it was asked") from None
        try:
            line = self.lines.get(timeout=self.timeout)
        except queue.Empty:
            raise AgentError(f"{where}: no reply from the agent within {self.timeout:g} s") from None
        if line is None:
            raise AgentError(f"{where}: the agent process {self._ended()} without replying")
        try:
            answer = load_json(line)
        except (json.JSONDecodeError, BadInputError):
            raise AgentError(f"{where}: the agent wrote {line.strip()[:200]!r}, not a JSON line "
                             '{"reply": "..."}') from None
        if not isinstance(answer, dict) or not isinstance(answer.get("reply"), str):
            raise AgentError(f"{where}: the agent's line has no \"reply\" text: {line.strip()[:200]!r}")
        return answer["reply"]

    def _ended(self) -> str:
        """How the process ended (it closed its pipes: it is exiting, give it a moment)."""
        try:
            return f"exited with status {self.process.wait(timeout=5)}"
        except subprocess.TimeoutExpired:
            return "closed its pipes"


class Players:
    """The policy ``--policy`` names, for each of ``count`` episodes: a reference policy of the world
    (built per episode from its game), a replay (one per episode of the log, or the same one for
    every episode) or one agent process for all. A context manager: the agent runs while it is open."""

    def __init__(self, spec: str, episodes: Episodes, count: int, timeout: float = 600.0):
        self.name = describe_policy(spec)
        self.episodes = episodes
        self.replayed = replays(Path(spec.removeprefix("replay:"))) if spec.startswith("replay:") else None
        if self.replayed is not None and len(self.replayed) not in (1, count):
            raise BadInputError(f"{spec} holds {len(self.replayed)} episodes; play 1 or {len(self.replayed)}")
        self.agent = CommandPolicy(spec.removeprefix("cmd:"), timeout) if spec.startswith("cmd:") else None
        self.reference = self.name.removeprefix("reference:")
        if self.agent is None and self.replayed is None and self.reference not in episodes.policies:
            raise BadInputError(f"unknown policy {spec!r}; {episodes.world} offers {', '.join(episodes.policies)}, "
                                "replay:FILE and cmd:'COMMAND'")

    def __enter__(self) -> Players:
        if self.agent is not None:
            self.agent.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.agent is not None:
            self.agent.__exit__(*exc)

    def policy(self, number: int, game: Game, seed: int) -> Policy:
        """The player of episode ``number`` (0-based), played on ``game`` from ``seed``."""
        if self.agent is not None:
            self.agent.episode = number + 1
            return self.agent
        if self.replayed is not None:
            return self.replayed[number % len(self.replayed)]
        return self.episodes.policy(self.reference, game, seed)


def describe_policy(spec: str) -> str:
    """The policy as the header records it: ``reference:NAME``, ``replay:FILE`` or ``cmd:COMMAND``."""
    if spec.startswith(("replay:", "cmd:", "reference:")):
        return spec
    return f"reference:{spec}"
