"""What an interactive world provides to the generic episode layer (play, check, evaluate).

A world that is played step by step exposes an :class:`Episodes` object as its facade's
``episodes`` attribute. Everything world-specific sits behind it: the instances, the settings,
a :class:`Game` reproducible from a seed, a :class:`Follower` that checks an unseeded log from
what its text shows, the readings of a reply, the reference policies, and the scores.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from plancheck.episodes.log import Step
from plancheck.errors import BadInputError

CLEAR, AMBIGUOUS, NONE = "clear", "ambiguous", "none"


@dataclass(frozen=True, slots=True)
class Transition:
    """What one action led to: the observation text, reward, end flag, the benchmark's running score.

    ``info`` holds world-specific facts (a log's ``info`` keys are checked against it); ``because``
    says the draws behind the outcome in plain words, for reports ("machine 2 pays with probability
    0.2 and the draw was u=0.9306"): a text, or a function giving it, called only when a report
    needs it (formatting it at every step would slow checking down).
    """

    observation: str | None
    reward: float | None
    done: bool = False
    score: float | None = None
    info: Mapping[str, Any] = field(default_factory=dict)
    because: str | Callable[[], str] | None = None

    def explanation(self) -> str | None:
        """``because`` as text."""
        return self.because() if callable(self.because) else self.because


@dataclass(frozen=True, slots=True)
class Read:
    """How a reply was read: ``clear`` (one action), ``ambiguous`` (several; one was chosen) or
    ``none``; ``action`` is the action taken, None when the reading takes none (the episode then
    ends at this step); ``notes`` say any guess or fallback in plain words.

    A benchmark's reading also reads the reply the committed way (:mod:`plancheck.episodes.committed`):
    ``status`` is then ``clear`` only when the action taken is the one the reply commits to;
    ``rule_status`` is the benchmark rule's own status (what logs written before that comparison
    hold; None: the same as ``status``); ``guessed``: an action was taken that the reply does not
    name (SmartPlay's fallback to action 0) or does not commit to."""

    status: str
    action: str | None
    notes: tuple[str, ...] = ()
    rule_status: str | None = None
    guessed: bool = False


class Reading(Protocol):
    """A named rule that turns a reply into an action (SmartPlay's ``smartplay``, plancheck's ``strict``)."""

    name: str

    def read(self, reply: str, actions: Sequence[str]) -> Read: ...


class Game(Protocol):
    """One running episode.

    ``turns`` is the number of questions asked per step (the last reply is the one read);
    ``horizon`` the number of steps the benchmark runs at most (None: until ``done``).
    """

    turns: int
    horizon: int | None

    def reset(self) -> str:
        """Start the episode; the first observation."""
        ...

    def actions(self) -> tuple[str, ...]:
        """The texts of the actions that can be taken now (the benchmark's menu)."""
        ...

    def step(self, action: str, reply: str | None = None) -> Transition:
        """Take ``action`` (as the world's reading gave it); ``reply`` is the text it was read from,
        for games whose prompt keeps the conversation (None when no reply was logged)."""
        ...

    def messages(self, earlier: Sequence[str] = ()) -> list[dict[str, str]]:
        """The chat messages of the next question of this step, byte for byte as the benchmark builds
        them, given the replies to the step's earlier questions."""
        ...


class Follower(Game, Protocol):
    """A game whose outcomes come from a log: it checks each against what the rules allow (without
    the hidden draws) and then adopts it, so that prompts and scores follow the log."""

    def follow(self, action: str, logged: Step) -> tuple[Transition, str | None]:
        """The transition adopted for ``action`` given the logged step, and the first thing in it
        that no draw of the rules explains (None when it is consistent)."""
        ...


@dataclass(frozen=True, slots=True)
class Replies:
    """A policy's answers at one step: the reply read, the earlier replies, the prompt it was shown."""

    reply: str | None
    earlier: tuple[str, ...] = ()
    prompt: tuple[Mapping[str, str], ...] | None = None


class Policy(Protocol):
    """Who plays: a reference policy, a replayed log or an external agent process."""

    def replies(self, step: int, game: Game) -> Replies: ...


@dataclass(frozen=True, slots=True)
class CheckedStep:
    """One step as re-verified: the reading, the action taken, the transition the rules give (or the
    logged one a follower adopted), and the first problem found at this step."""

    index: int
    logged: Step
    read: Read | None
    action: str | None
    transition: Transition | None
    problem: str | None = None


@dataclass(frozen=True, slots=True)
class Outcome:
    """A world's account of a checked episode: scores under its named rules, metrics, optima, goal."""

    scores: Mapping[str, float]
    metrics: Mapping[str, Any] = field(default_factory=dict)
    optimal: Mapping[str, float] | None = None
    goal_reached: bool | None = None
    goal_step: int | None = None
    notes: tuple[str, ...] = ()


class Episodes(Protocol):
    """The episodic side of a world, declared as data and small functions.

    ``settings`` resolves a log's (or the command line's) settings against the world's defaults:
    the full settings and notes on anything defaulted; it raises BadInputError for unknown keys or
    values. ``settings["reading"]`` names one of ``readings``. ``game`` must reproduce the
    benchmark's draws from ``seed``; ``follower`` returns None when the world cannot check an
    unseeded log.
    """

    world: str
    readings: Mapping[str, Reading]
    policies: tuple[str, ...]
    has_goal: bool

    def instance(self, name: str) -> Any: ...

    def instance_id(self, instance: Any) -> str: ...

    def settings(self, given: Mapping[str, Any]) -> tuple[dict[str, Any], tuple[str, ...]]: ...

    def game(self, instance: Any, seed: int, settings: Mapping[str, Any]) -> Game: ...

    def follower(self, instance: Any, settings: Mapping[str, Any]) -> Follower | None: ...

    def policy(self, name: str, game: Game, seed: int) -> Policy: ...

    def describe(self, step: CheckedStep) -> str:
        """One line on a checked step for reports (e.g. the posterior and the regret)."""
        ...

    def outcome(self, instance: Any, settings: Mapping[str, Any], steps: Sequence[CheckedStep]) -> Outcome: ...


def logged_settings(world: str, given: Mapping[str, Any], defaults: Mapping[str, Any],
                    choices: Mapping[str, Sequence[str]], whose: str) -> tuple[dict[str, Any], tuple[str, ...]]:
    """A log's settings checked and completed with ``defaults`` (:meth:`Episodes.settings`): a text setting must be
    one of its ``choices``, any other a positive integer; each default used is noted (``whose`` defaults they are,
    e.g. "SmartPlay's")."""
    unknown = sorted(set(given) - set(defaults))
    if unknown:
        raise BadInputError(f"unknown setting(s) {', '.join(unknown)}; {world} has {', '.join(defaults)}")
    settings, missing = {}, []
    for key, default in defaults.items():
        value = given.get(key)
        if value is None:
            settings[key] = default
            missing.append(f"{key}={default}")
        elif isinstance(default, str):
            if value not in choices.get(key, ()):
                raise BadInputError(f"setting {key} must be one of {', '.join(choices.get(key, ()))}, not "
                                    f"{value!r}")
            settings[key] = value
        elif isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise BadInputError(f"setting {key} must be a positive integer, not {value!r}")
        else:
            settings[key] = value
    notes = (f"setting(s) not logged, {whose} used: {', '.join(missing)}",) if missing else ()
    return settings, notes
