"""What every world offers the CLI and the batch code, so neither ever switches on a world's name.

A world is a small facade over its own modules (instances, rules, prompts, parser, scoring,
PDDL compilation, solvers). Its methods take plain options declared as :class:`Option` data,
which the CLI turns into flags. Facades import their heavy dependencies lazily, so that building
the CLI is cheap.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from plancheck.solvers.result import SolveResult
from plancheck.verifier.verdict import Verdict

if TYPE_CHECKING:
    from plancheck.episodes.game import Episodes

COMMANDS = ("instances", "prompt", "play", "check", "evaluate", "solve", "export", "stats", "convert")
ONE_SHOT_COMMANDS = ("instances", "prompt", "check", "evaluate", "solve", "export", "stats")


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


@dataclass(frozen=True, slots=True)
class Prompt:
    """The benchmark's prompt for one instance, as chat messages.

    ``context`` holds (role, content) messages that come between the system message and the user
    message, for benchmarks that send several (SmartPlay sends the manual and the observation as
    further system messages).
    """

    instance: str
    system: str | None
    user: str
    context: tuple[tuple[str, str], ...] = ()

    def messages(self) -> list[dict[str, str]]:
        head = [{"role": "system", "content": self.system}] if self.system is not None else []
        middle = [{"role": role, "content": content} for role, content in self.context]
        return head + middle + [{"role": "user", "content": self.user}]

    def to_json(self) -> dict[str, Any]:
        return {"instance": self.instance, "messages": self.messages()}


@dataclass(frozen=True, slots=True)
class Record:
    """One answer to evaluate: the instance it answers, the free text or a ready action list.

    ``notes`` are remarks on the record itself that its verdict must carry (e.g. "no answer: the
    record's own reference answer was checked").
    """

    line: int
    instance: str
    text: str | None = None
    actions: tuple[str, ...] | None = None
    source: str = ""
    meta: Mapping[str, Any] = field(default_factory=dict)
    notes: tuple[str, ...] = ()

    @property
    def model(self) -> str:
        """Whose answer this is, for per-model tables: the record's ``model`` field, else its file's name."""
        return str(self.meta.get("model") or Path(self.source).stem or "answers")


@dataclass(frozen=True, slots=True)
class BrokenRecord:
    """A record that could not be read; it is reported with its line, never dropped."""

    line: int
    reason: str
    source: str = ""
    instance: str | None = None


@dataclass(frozen=True)
class Summary:
    """An aggregate table: a title, a header, rows, and the same content as JSON."""

    title: str
    header: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]
    data: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"title": self.title, "header": list(self.header), "rows": [list(r) for r in self.rows],
                **dict(self.data)}


class World(Protocol):
    """The facade each world module exposes as ``WORLD``.

    What a world supports is data: ``commands`` (optional; default :data:`ONE_SHOT_COMMANDS`) lists
    the commands it offers; an interactive world sets ``episodes`` to its
    :class:`~plancheck.episodes.game.Episodes` (``check`` and ``evaluate`` then read episode logs,
    and answers too when it also sets ``answers = True``); ``convert`` turns the benchmark's own run
    logs into episode logs.

    Worlds raise :class:`~plancheck.errors.BadInputError` subclasses for unknown instances and bad
    records, and return :class:`~plancheck.errors.PlancheckError`-free verdicts for bad answers.
    ``data`` is the folder of published data (``shared/data``) or None when it is not needed.
    """

    name: str
    title: str
    options: tuple[Option, ...]

    def instances(self, selectors: Sequence[str], data: Path | None, **options: Any) -> Iterator[Any]:
        """The instances named by ``selectors`` (ids, names of published sets, generator specs)."""
        ...

    def instance_id(self, instance: Any) -> str: ...

    def instance_json(self, instance: Any) -> dict[str, Any]: ...

    def prompt(self, instance: Any, **options: Any) -> Prompt: ...

    def check(self, instance: Any, answer: str | Sequence[str], **options: Any) -> Verdict:
        """Parse (free text) or take (a token list) the answer, execute it, score it."""
        ...

    def read_answers(self, path: Path, data: Path | None, **options: Any) -> Iterator[Record | BrokenRecord]:
        """Read a file of answers in any of the formats this world knows."""
        ...

    def resolve(self, record: Record, data: Path | None, **options: Any) -> Any:
        """The instance a record answers."""
        ...

    def summarize(self, results: Iterable[tuple[Record, Verdict]], **options: Any) -> Summary: ...

    def solve(self, instance: Any, **options: Any) -> SolveResult:
        """A reference plan (the planner is one of the options), re-validated by the verifier."""
        ...

    def export(self, instance: Any, **options: Any) -> dict[str, str]:
        """PDDL files for one instance: file name -> text (domains are shared across instances)."""
        ...

    def stats(self, selectors: Sequence[str], data: Path | None, **options: Any) -> Summary: ...


def commands_of(world: World) -> tuple[str, ...]:
    """The commands ``world`` offers."""
    return tuple(getattr(world, "commands", ONE_SHOT_COMMANDS))


def episodes_of(world: World) -> Episodes | None:
    """The episodic side of ``world``, or None for a one-shot world."""
    return getattr(world, "episodes", None)


def takes_answers(world: World) -> bool:
    """Whether ``check`` and ``evaluate`` of ``world`` read one-shot answers."""
    return bool(getattr(world, "answers", episodes_of(world) is None))
