"""What the episode side of every LangSuitE task shares: instance lookup, the logged settings, scripted replies.

A task's ``world.py`` subclasses :class:`LangsuiteEpisodes` and sets ``world``, ``readings``, ``levels``,
``policies`` and ``lookup`` (an id -> the instance; :class:`~plancheck.errors.BadInputError` when unknown).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from plancheck.episodes.game import Replies, logged_settings
from plancheck.errors import BadInputError, InstanceNotFoundError

DEFAULTS = {"reading": "langsuite", "level": "low"}  # LangSuitE's own parser; the low-level action set


class ScriptPolicy:
    """Replies fixed in advance (a reference plan as LangSuitE reads it); ``after`` once they run out."""

    def __init__(self, replies: Sequence[str], after: str = "Act: stop"):
        self.list = tuple(replies)
        self.after = after

    def replies(self, step: int, game: Any) -> Replies:
        return Replies(self.list[step - 1] if step <= len(self.list) else self.after)


class LangsuiteEpisodes:
    world: str
    readings: Mapping[str, Any]
    levels: tuple[str, ...]
    policies: tuple[str, ...]
    lookup: Callable[[str], Any]
    has_goal = True

    def instance(self, name: str) -> Any:
        try:
            return type(self).lookup(name)
        except BadInputError as error:
            raise InstanceNotFoundError(error.message) from None

    def instance_id(self, item: Any) -> str:
        return item.id

    def settings(self, given: Mapping[str, Any]) -> tuple[dict[str, Any], tuple[str, ...]]:
        """The log's settings checked and completed with LangSuitE's defaults (each default used is noted)."""
        return logged_settings(self.world, given, DEFAULTS, {"reading": tuple(self.readings), "level": self.levels},
                               "LangSuitE's defaults")
