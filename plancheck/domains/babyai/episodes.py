"""LangSuitE episodes: the replies a model gave and, when recorded, what LangSuitE showed it.

:func:`read_episode` recognises, in an answer's text:

* a JSON list of replies (strings), one step each;
* a JSON list of steps ``{"reply" (or "response"), "observation"}``, or an object ``{"replies": [...],
  "observations": [...], "mission": ..., "layout": {...}}`` (``layout``: an instance as ``plancheck
  instances babyai ID --json`` prints it, the world the episode was played on);
* LangSuitE's console log (its ``<Level>-<seed>-<trial>.jl`` files): one JSON message per line,
  ``{"role", "content", ...}``; the assistant messages are the replies, the ``Obs:`` of the system
  message answering each is what LangSuitE showed after it, and ``Task:`` the mission.

Anything else is not an episode (the text is read as one response per line). :func:`contradiction`
compares what an episode recorded with what a world shows along the same run.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from plancheck.domains.babyai.instance import Instance, State
from plancheck.domains.babyai.langsuite import observation_of
from plancheck.limits import DEFAULT, Limits, load_json

_START, _NEXT = "Task: ", "\nWhat is your next step? "


@dataclass(frozen=True)
class Episode:
    """``observations[i]``: what LangSuitE answered reply ``i`` with (None where nothing was recorded)."""

    replies: tuple[str, ...]
    observations: tuple[str | None, ...] = ()
    mission: str | None = None
    layout: Mapping[str, Any] | None = None
    form: str = "a JSON list of replies"

    @property
    def recorded(self) -> bool:
        """Whether the episode says anything about its world to check."""
        return self.mission is not None or any(o is not None for o in self.observations)


def read_episode(text: str, limits: Limits = DEFAULT) -> Episode | None:
    """The episode ``text`` holds, or None when it is not one of the formats above (JSON beyond ``limits`` is
    a LimitError)."""
    stripped = text.strip()
    if stripped.startswith(("[", "{")):
        try:
            data = load_json(stripped, limits)
        except json.JSONDecodeError:
            data = None
        if data is not None:
            return _from_json(data)
    lines = [line for line in stripped.split("\n") if line.strip()]
    try:
        messages = [load_json(line, limits) for line in lines]
    except json.JSONDecodeError:
        return None
    if messages and all(isinstance(m, dict) and isinstance(m.get("role"), str) for m in messages):
        return _from_log(messages)
    return None


def _from_json(data: Any) -> Episode | None:
    if isinstance(data, list) and data and all(isinstance(item, str) for item in data):
        return Episode(tuple(data))
    if isinstance(data, list) and data and all(isinstance(item, dict) for item in data):
        replies = [item.get("reply", item.get("response")) for item in data]
        observations = [item.get("observation") for item in data]
        if all(isinstance(r, str) for r in replies) and all(o is None or isinstance(o, str) for o in observations):
            return Episode(tuple(replies), tuple(observations), form="a JSON list of steps")
        return None
    if isinstance(data, dict) and isinstance(data.get("replies", data.get("responses")), list):
        replies = data.get("replies", data.get("responses"))
        observations = data.get("observations") or []
        layout = data.get("layout")
        mission = data.get("mission")
        if (all(isinstance(r, str) for r in replies) and isinstance(observations, list)
                and all(o is None or isinstance(o, str) for o in observations)
                and (layout is None or isinstance(layout, dict)) and (mission is None or isinstance(mission, str))):
            return Episode(tuple(replies), tuple(observations), mission, layout, "an episode object")
    return None


def _from_log(messages: Sequence[Mapping[str, Any]]) -> Episode:
    replies: list[str] = []
    observations: list[str | None] = []
    mission = None
    for message in messages:
        content = message.get("content")
        if not isinstance(content, str):
            continue
        if message["role"] == "assistant":
            replies.append(content)
            observations.append(None)
        elif message["role"] == "system" and replies and observations[-1] is None:
            if content.startswith(_START) and "\nObs: " in content:
                task, _, seen = content[len(_START):].partition("\nObs: ")
                mission = task
                observations[-1] = seen.removesuffix(_NEXT)
            elif content.startswith("Feedback:") and "\nObs: " in content:
                observations[-1] = content.split("\nObs: ", 1)[1]
    return Episode(tuple(replies), tuple(observations), mission, form="LangSuitE's log")


def contradiction(episode: Episode, instance: Instance, states: Sequence[State], opened: int) -> str | None:
    """Where the episode's record disagrees with ``instance``, or None. ``states[0]`` is the start and
    ``states[k]`` the state after the k-th action; reply ``opened - 1`` started the game (LangSuitE then
    shows the mission and the first view), reply ``opened + k - 1`` is the k-th action."""
    if episode.mission is not None and episode.mission != instance.mission.text:
        return f"the mission: the episode says {episode.mission!r}, the world {instance.mission.text!r}"
    for index, seen in enumerate(episode.observations):
        step = index - opened + 1
        if seen is None or not 0 <= step < len(states):
            continue
        shown = observation_of(instance, states[step])
        if seen != shown:
            return f"the view after reply {index + 1}: the episode says {seen!r}, the world shows {shown!r}"
    return None
