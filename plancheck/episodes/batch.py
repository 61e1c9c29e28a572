"""Check every episode of many log files; a broken episode is reported with its file and line."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from plancheck.episodes.check import check_episode
from plancheck.episodes.game import Episodes
from plancheck.episodes.log import BrokenEpisode, Episode, read_episodes
from plancheck.errors import BadInputError
from plancheck.limits import DEFAULT, Limits
from plancheck.verifier.batch import BatchItem, internal_reason
from plancheck.verifier.records import BrokenRecord, Record


def record_of(episode: Episode) -> Record:
    """The batch record of an episode: its header's line, instance, and who played (for per-model tables:
    the header's ``model``, else a reference policy's name, else the file's name); the header's seed,
    settings, policy, model and any other keys are the record's fields, kept in output rows."""
    header = episode.header
    model = header.model or (header.policy if header.policy.startswith("reference:") else None)
    return Record(header.line, header.instance, source=episode.source,
                  meta={"model": model, "seed": header.seed, "policy": header.policy},
                  fields={"seed": header.seed, "settings": dict(header.settings), "policy": header.policy,
                          **({"model": header.model} if header.model is not None else {}), **header.extra})


def evaluate_episodes(episodes: Episodes, paths: Iterable[Path], limits: Limits = DEFAULT,
                      debug: bool = False) -> Iterator[BatchItem]:
    """One item per episode of each file: its verdict, or why it could not be checked (lines beyond ``limits``
    break their episode; an unexpected exception is an internal error of that episode, unless ``debug``)."""
    for path in paths:
        for episode in read_episodes(path, limits=limits):
            yield evaluate_episode(episodes, episode, debug=debug)


def evaluate_episode(episodes: Episodes, episode: Episode | BrokenEpisode, debug: bool = False) -> BatchItem:
    """One episode's item: its verdict, or why it could not be checked (an unexpected exception is an internal
    error of that episode, unless ``debug``)."""
    if isinstance(episode, BrokenEpisode):
        return BatchItem(BrokenRecord(episode.line, episode.reason, episode.source, episode.instance),
                         error=episode.reason)
    record = record_of(episode)
    try:
        return BatchItem(record, verdict=check_episode(episodes, episode))
    except BadInputError as error:
        return BatchItem(record, error=error.message)
    except Exception as error:  # a bug: this episode says so, the others are still checked
        if debug:
            raise
        return BatchItem(record, error=internal_reason(error), internal=True)
