"""What every world offers the CLI and the batch code, so neither ever switches on a world's name.

A world is a small facade over its own modules (instances, rules, prompts, parser, scoring,
PDDL compilation, solvers). What it supports is data (:attr:`World.capabilities`), and so are its
options (:class:`Option`), which the CLI turns into subcommands and flags. Options that several
worlds share are declared once here (:func:`shared_option`). Facades import their heavy
dependencies lazily, so that building the CLI is cheap.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from plancheck.errors import MissingExtraError, UnsupportedError
from plancheck.verifier.records import BrokenRecord, Record, Summary
from plancheck.version import __version__

if TYPE_CHECKING:  # for annotations only: the facades (and so the command line) stay cheap to import
    from plancheck.drawing.shapes import Picture
    from plancheck.episodes.game import Episodes
    from plancheck.episodes.log import Episode
    from plancheck.solvers.result import SolveResult
    from plancheck.verifier.verdict import Verdict


class Capability(str, Enum):
    """Something a world can do; the CLI offers a command for a world only when it declares it."""

    INSTANCES = "instances"  # list and select instances
    PROMPT = "prompt"  # the benchmark's prompt for an instance
    PLAY = "play"  # interactive: play episodes with a policy; check and evaluate read episode logs
    CHECK = "check"  # verify and score one answer (or one episode log)
    EVALUATE = "evaluate"  # score files of answers (or episode logs), the paper's tables
    SOLVE = "solve"  # certified reference plans
    EXPORT = "export"  # PDDL domain and problem files
    STATS = "stats"  # counts and statistics of instances
    CONVERT = "convert"  # the benchmark's own run logs -> episode logs
    ANSWERS = "answers"  # check and evaluate read one-shot answers (free text or action lists)
    PDDL_PLAN = "pddl-plan"  # an answer written as a plan of the world's PDDL validation model
    GENERATE = "generate"  # new instances from a seed
    RENDER = "render"  # pictures of an instance and an answer (or an episode)


COMMANDS = ("instances", "prompt", "play", "check", "evaluate", "solve", "export", "stats", "convert", "render")
READING = ("check", "evaluate", "render")  # the commands that read answers
ONE_SHOT = frozenset({Capability.INSTANCES, Capability.PROMPT, Capability.CHECK, Capability.EVALUATE,
                      Capability.ANSWERS})  # what every world that takes whole answers offers
EPISODIC = frozenset({Capability.INSTANCES, Capability.PROMPT, Capability.PLAY, Capability.CHECK,
                      Capability.EVALUATE})  # what every interactive world offers


@dataclass(frozen=True, slots=True)
class Option:
    """A world-specific option: ``--name`` on the commands listed in ``commands``."""

    name: str
    help: str
    commands: tuple[str, ...]
    default: Any = None
    choices: tuple[str, ...] | None = None
    kind: type = str  # str, int, float or bool (a flag)

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")


_SHARED: dict[str, Option] = {
    "planner": Option("planner", "who computes the plan", ("solve",)),
    "timeout": Option("timeout", "seconds a planner may run per instance", ("solve",), 300.0, kind=float),
    "pick": Option("pick", "which candidate answer is the answer when the text holds several: committed (a "
                           "correction, else one introduced as the answer such as 'Final answer:', else the last "
                           "bracket list or code block; lists introduced as explanation, recap or verification are "
                           "not answers), or by position: last, first, only (several = unreadable)", READING,
                   "committed", ("committed", "last", "first", "only")),
    "unclosed": Option("unclosed", "a list cut off at the end of the text (the token limit?): accept it (read, "
                                   "noted) or reject the answer as unreadable", READING, "accept",
                       ("accept", "reject")),
    "strict_read": Option("strict_read", "score an ambiguous answer (candidate answers that differ) as unreadable",
                          READING, kind=bool),
    "unknown": Option("unknown", "a slot of the answer that names no action (always reported)", READING),
}


def shared_option(name: str, detail: str = "", **changes: Any) -> Option:
    """The option ``name`` as every world declares it (planner, timeout, pick, unclosed, strict_read, unknown),
    with this world's ``detail`` added to its help and its own ``choices``/``default`` where they differ.

    >>> shared_option("timeout", default=60.0).flag, shared_option("timeout").default
    ('--timeout', 300.0)
    >>> shared_option("planner", "native or fast-downward", choices=("native", "fast-downward")).help
    'who computes the plan: native or fast-downward'
    """
    option = _SHARED[name]
    help_text = f"{option.help}: {detail}" if detail else option.help
    return replace(option, help=help_text, **changes)


@dataclass(frozen=True, slots=True)
class Prompt:
    """The benchmark's prompt for one instance, as chat messages.

    ``context`` holds (role, content) messages that come between the system message and the user
    message, for benchmarks that send several (SmartPlay sends the manual and the observation as
    further system messages). ``user`` is None for a benchmark that sends no user message
    (LangSuitE's messages are all system messages).
    """

    instance: str
    system: str | None
    user: str | None
    context: tuple[tuple[str, str], ...] = ()

    def messages(self) -> list[dict[str, str]]:
        """The prompt as chat messages (``{"role": ..., "content": ...}``), in the order the benchmark sends them."""
        head = [{"role": "system", "content": self.system}] if self.system is not None else []
        middle = [{"role": role, "content": content} for role, content in self.context]
        return head + middle + ([{"role": "user", "content": self.user}] if self.user is not None else [])

    def to_json(self) -> dict[str, Any]:
        """The prompt as ``prompt --json`` prints it."""
        return {"instance": self.instance, "messages": self.messages()}


@dataclass(frozen=True)
class Example:
    """One answer of a world's contract corpus (its ``examples.py``) and what checking it must give.

    ``valid`` is strict validity; ``failure_step`` and ``failure`` (words the reason contains) say
    where and why an invalid answer fails; ``parsed`` is False for an answer with no readable plan;
    ``scores`` are expected scores (a subset of the verdict's); ``options`` go to ``check``; ``read``
    is the read status the verdict must carry (clear, ambiguous or none), when given.
    """

    instance: str
    answer: str | tuple[str, ...]
    valid: bool
    goal_reached: bool | None = None
    failure_step: int | None = None
    failure: str = ""
    parsed: bool = True
    scores: Mapping[str, float] = field(default_factory=dict)
    options: Mapping[str, Any] = field(default_factory=dict)
    shows: str = ""  # what the example is about, in a few words
    read: str | None = None


@dataclass(frozen=True)
class EpisodeExample:
    """An episode log of an interactive world's contract corpus and what checking it must give: valid or not,
    the failing step and words of its reason, whether the log is consistent with the rules."""

    name: str
    episode: Episode
    valid: bool
    step: int | None = None
    failure: str | None = None
    consistent: bool = True


@dataclass(frozen=True)
class Optimum:
    """A certified optimum of the contract corpus: ``solve`` must find a plan with these values, proven optimal.

    For an interactive world, ``options`` name the reference ``policy`` (and ``seed``) whose episode scores these.
    """

    instance: str
    values: Mapping[str, float]
    options: Mapping[str, Any] = field(default_factory=dict)


class World(Protocol):
    """The facade each world module exposes as ``WORLD``.

    What a world supports is data, its ``capabilities``. An interactive world (``Capability.PLAY``)
    sets ``episodes`` to its :class:`~plancheck.episodes.game.Episodes`: ``check`` and ``evaluate``
    then read episode logs, and one-shot answers too when it also declares ``Capability.ANSWERS``;
    ``convert`` (``Capability.CONVERT``) turns the benchmark's own run logs into episode logs.

    Worlds raise :class:`~plancheck.errors.BadInputError` subclasses for unknown instances and bad
    records, and return :class:`~plancheck.errors.PlancheckError`-free verdicts for bad answers.
    ``data`` is the folder of published data (``shared/data``) or None when it is not needed.
    """

    name: str
    title: str
    options: tuple[Option, ...]
    capabilities: frozenset[Capability]
    episodes: Episodes | None

    def instances(self, selectors: Sequence[str], data: Path | None, **options: Any) -> Iterator[Any]:
        """The instances named by ``selectors`` (ids, names of published sets, generator specs)."""
        ...

    def instance_id(self, instance: Any) -> str:
        """The instance's id, as selectors and answer records name it."""
        ...

    def instance_ids(self, selectors: Sequence[str], data: Path | None, **options: Any) -> Iterator[str]:
        """The ids the selectors name, without necessarily building the instances."""
        ...

    def instance_json(self, instance: Any) -> dict[str, Any]:
        """The instance as ``instances --json`` prints it."""
        ...

    def prompt(self, instance: Any, **options: Any) -> Prompt:
        """The benchmark's prompt for the instance, byte for byte."""
        ...

    def check(self, instance: Any, answer: str | Sequence[str], **options: Any) -> Verdict:
        """Parse (free text) or take (a token list) the answer, execute it, score it."""
        ...

    def read_answers(self, path: Path, data: Path | None, **options: Any) -> Iterator[Record | BrokenRecord]:
        """Read a file of answers in any of the formats this world knows."""
        ...

    def resolve(self, record: Record, data: Path | None, **options: Any) -> Any:
        """The instance a record answers."""
        ...

    def answer_key(self, record: Record, instance: Any) -> Hashable:
        """What makes two records of a batch duplicates: the same answerer's answer to the same instance."""
        ...

    def summarize(self, results: Iterable[tuple[Record, Verdict]], **options: Any) -> Summary:
        """The benchmark's summary table (the paper's layout) of scored records."""
        ...

    def solve(self, instance: Any, **options: Any) -> SolveResult:
        """A reference plan (the planner is one of the options), re-validated by the verifier."""
        ...

    def export(self, instance: Any, **options: Any) -> dict[str, str]:
        """PDDL files for one instance: file name -> text (domains are shared across instances)."""
        ...

    def stats(self, selectors: Sequence[str], data: Path | None, **options: Any) -> Summary:
        """Counts and statistics of the selected instances; a world whose instances are slow to build calls
        ``report()`` (an option) after each one, for a progress bar."""
        ...

    def render(self, instance: Any, answer: Any = None, *, verdict: Verdict | None = None, **options: Any) -> Picture:
        """A picture of the instance and, when given, of the answer (free text or actions; an interactive
        world's :class:`~plancheck.episodes.log.Episode`). ``verdict`` is the answer's verdict when the
        caller has it already (else it is computed); ``compact=True`` asks for a report's picture (the
        answer alone, without side panels such as the optimum's)."""
        ...


class WorldBase:
    """Defaults for a world's facade: ids and JSON from the instance itself, and a clear
    :class:`~plancheck.errors.UnsupportedError` for whatever the world does not declare."""

    name = ""
    title = ""
    options: tuple[Option, ...] = ()
    capabilities: frozenset[Capability] = frozenset()
    requires: tuple[str, ...] = ()  # modules the world runs on (importable names), from the extra below
    extra: str | None = None  # the pip extra that installs them: plancheck[<extra>]
    episodes: Episodes | None = None  # an interactive world's episodes (Capability.PLAY)
    data_release: str = ""  # the benchmark data the instances come from (a release), or how they are made

    def versions(self) -> dict[str, str | None]:
        """What a result depends on: plancheck's version, the data release, and the installed version of every
        module the world runs on (None when it is not installed).

        >>> from plancheck.version import __version__
        >>> WorldBase().versions() == {"plancheck": __version__, "data": None}
        True
        """
        from importlib import metadata  # here: it costs ~10 ms of start-up, and only output rows need it

        found: dict[str, str | None] = {"plancheck": __version__, "data": self.data_release or None}
        for module in self.requires:
            try:
                found[module] = metadata.version(module)
            except metadata.PackageNotFoundError:
                found[module] = None
        return found

    def supports(self, capability: Capability | str) -> bool:
        return Capability(capability) in self.capabilities

    def missing(self) -> tuple[str, ...]:
        """The modules this world needs that are not installed."""
        return tuple(module for module in self.requires if importlib.util.find_spec(module) is None)

    def require(self) -> None:
        """Raise :class:`MissingExtraError` naming the pip extra when a module the world needs is missing."""
        if missing := self.missing():
            raise MissingExtraError(f"the {self.name} world needs {', '.join(missing)}, which is not installed: "
                                    f"pip install 'plancheck[{self.extra}]'")

    def unsupported(self, what: str) -> UnsupportedError:
        offered = ", ".join(c.value for c in Capability if c in self.capabilities)
        return UnsupportedError(f"the {self.name} world does not offer {what} (it offers: {offered})")

    def instance_id(self, instance: Any) -> str:
        return instance.id

    def instance_ids(self, selectors: Sequence[str], data: Path | None, **options: Any) -> Iterator[str]:
        """The ids the selectors name, in order; a world whose instances are costly to build lists them
        without building them."""
        return (self.instance_id(instance) for instance in self.instances(selectors, data, **options))

    def instance_json(self, instance: Any) -> dict[str, Any]:
        return instance.to_json()

    def answer_key(self, record: Record, instance: Any) -> Hashable:
        """The record's model (its ``model`` field, else its file's name) and the instance's id."""
        return record.model, self.instance_id(instance)

    def solve(self, instance: Any, **options: Any) -> SolveResult:
        raise self.unsupported("solve")

    def export(self, instance: Any, **options: Any) -> dict[str, str]:
        raise self.unsupported("export (it has no PDDL form)")

    def solve_warning(self, instance: Any, **options: Any) -> str | None:
        """Why a ``solve`` with these options is not expected to finish on this instance (said before it runs),
        or None."""
        return None

    def stats(self, selectors: Sequence[str], data: Path | None, **options: Any) -> Summary:
        raise self.unsupported("stats")

    def pddl_plan(self, instance: Any, answer: str | Sequence[str], **options: Any) -> tuple[str, str]:
        raise self.unsupported("PDDL plans of answers")

    def render(self, instance: Any, answer: Any = None, *, verdict: Verdict | None = None, **options: Any) -> Picture:
        raise self.unsupported("pictures")

    def setting(self, record: Record, verdict: Verdict) -> str:
        """The setting an answer belongs to: the rows of ``evaluate --plot`` and a filter of ``--html``."""
        return "all"

    def model(self, record: Record) -> str:
        """Whose answer a record is, as the summary table names it (by default the record's ``model``)."""
        return record.model

    def headline(self, **options: Any) -> str | None:
        """The score ``evaluate --plot`` shows (None: each verdict's first score)."""
        return None

    def reference_scores(self, setting: str, **options: Any) -> dict[str, float]:
        """Reference values of the headline score in ``setting`` (baselines the rules define), for plots."""
        return {}

    def commands(self) -> tuple[str, ...]:
        """The commands this world offers, in the command line's order."""
        return tuple(command for command in COMMANDS if self.supports(command))

    def convert(self, path: Path, seed: int | None = None, model: str | None = None, **options: Any) -> Iterator[Any]:
        raise self.unsupported("conversion of run logs")

    def reference_answer(self, result: SolveResult) -> str | tuple[str, ...]:
        """A solved plan as an answer ``check`` reads (by default the plan's action names)."""
        return tuple(result.plan or ())
