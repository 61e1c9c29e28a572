"""The one exception hierarchy of plancheck.

Every failure the library reports on purpose is a :class:`PlancheckError`. Errors caused by the
user's input (a missing file, a malformed record, an unknown instance id, an unparseable answer)
derive from :class:`BadInputError`, which the CLI maps to exit code 2. Each carries, where it is
known, the file, line and column it is about.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Location:
    """Where in an input a problem is: a source name (file or label), a 1-based line and column."""

    source: str | None = None
    line: int | None = None
    column: int | None = None

    def __str__(self) -> str:
        parts = [self.source or "<input>"]
        if self.line is not None:
            parts.append(f"line {self.line}")
        if self.column is not None:
            parts.append(f"column {self.column}")
        return ", ".join(parts)


def clip(text: str, most: int = 80) -> str:
    """``text`` shortened for a message: at most ``most`` characters and the count of those left out.

    >>> clip("9" * 100, 10)
    '9999999999... (90 more characters)'
    """
    return text if len(text) <= most else f"{text[:most]}... ({len(text) - most} more characters)"


class PlancheckError(Exception):
    """Base class of every error plancheck raises on purpose."""


class BadInputError(PlancheckError):
    """The input (file, record, instance id, option) is wrong; the message says where and why.

    ``option`` names the option whose value is wrong, as Python spells it (``indices``); the
    command line shows it as its flag (``--indices``).
    """

    def __init__(self, message: str, location: Location | None = None, option: str | None = None):
        self.message = message
        self.location = location
        self.option = option
        text = f"{option} {message}" if option else message
        super().__init__(f"{location}: {text}" if location else text)


class InstanceNotFoundError(BadInputError):
    """An instance id or selector names nothing that exists."""


class DataNotFoundError(BadInputError):
    """The published data a command needs is not where it was looked for."""


class AnswerParseError(BadInputError):
    """A model's answer has no readable plan. ``expected`` lists what would have been accepted."""

    def __init__(self, message: str, location: Location | None = None, expected: tuple[str, ...] = ()):
        self.expected = expected
        super().__init__(message, location)


class UnsupportedError(BadInputError):
    """A world (or one of its instances) does not offer what was asked, e.g. a PDDL form."""


class MissingExtraError(BadInputError):
    """An optional dependency a world needs is not installed; the message names the pip extra."""


class PDDLError(BadInputError):
    """A PDDL domain, problem or plan cannot be read or is inconsistent."""


class CertificationError(PlancheckError):
    """Two routes that must agree (a solver and the verifier, two solvers) disagree."""


class LimitError(BadInputError):
    """An input is larger than a limit allows (:class:`plancheck.limits.Limits`); ``option`` names the limit."""
