"""plancheck from Python: the functions behind the command line, one call each.

Every function takes the world by name (``"grasp"``, ``"babyai"``, ``"hanoi"``, ``"mango"``, ...) and
an instance by id or as an instance object from :func:`instances`; options are the world's own
(the command line's flags, spelled as Python names: ``pick="last"``, ``planner="fast-downward"``).
The data folder is ``data=``, else ``$PLANCHECK_DATA``, else a ``shared/data`` folder found nearby.
Errors are :class:`~plancheck.errors.PlancheckError`\\ s; bad input is a
:class:`~plancheck.errors.BadInputError` that says what is wrong and where.

>>> import plancheck
>>> verdict = plancheck.check("hanoi", "hanoi-2", "A->B\\nA->C\\nB->C")
>>> verdict.passed("strict"), verdict.scores["score"]
(True, 2)
>>> plancheck.check("hanoi", "hanoi-2", "A->C\\nA->C").failure.reason
'A->C puts disk 1 on the smaller disk 0'
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from plancheck.errors import BadInputError
from plancheck.files import data_folder
from plancheck.limits import DEFAULT, Limits
from plancheck.registry import get_world, world_names
from plancheck.solvers.result import SolveResult
from plancheck.verifier.batch import BatchItem, evaluate_records
from plancheck.verifier.rows import answer_row
from plancheck.verifier.verdict import Verdict
from plancheck.world import BrokenRecord, Prompt, Record, Summary, World

if TYPE_CHECKING:
    from plancheck.drawing.shapes import Picture
    from plancheck.verifier.pddl_validate import ValidationReport

DataPath = Path | str | None


def _world(name: str) -> World:
    """The world, once its optional dependencies are known to be installed (else MissingExtraError)."""
    found = get_world(name)
    found.require()
    return found


def worlds() -> tuple[str, ...]:
    """The names of the worlds plancheck knows.

    >>> "grasp" in worlds() and "hanoi" in worlds()
    True
    """
    return world_names()


def instances(world_name: str, selectors: str | Sequence[str] = "all", *, data: DataPath = None,
              **options: Any) -> Iterator[Any]:
    """The instances ``selectors`` name (ids, published sets, generator specs), lazily.

    >>> [plancheck_id for plancheck_id in map(lambda i: i.id, instances("hanoi", ["hanoi-3", "hanoi-4"]))]
    ['hanoi-3', 'hanoi-4']
    """
    chosen = [selectors] if isinstance(selectors, str) else list(selectors)
    return _world(world_name).instances(chosen, data_folder(data), **options)


def instance(world_name: str, instance_id: str, *, data: DataPath = None, **options: Any) -> Any:
    """The one instance ``instance_id`` names (a :class:`BadInputError` when it names none or several)."""
    found = []
    for item in instances(world_name, [instance_id], data=data, **options):
        found.append(item)
        if len(found) > 1:
            break
    if len(found) != 1:
        raise BadInputError(f"{instance_id!r} names {'no instance' if not found else 'several instances'}; "
                            "one is needed")
    return found[0]


def _resolve(world_name: str, item: Any, data: DataPath, options: dict[str, Any]) -> Any:
    return instance(world_name, item, data=data, **options) if isinstance(item, str) else item


def prompt(world_name: str, item: Any, *, data: DataPath = None, **options: Any) -> Prompt:
    """The benchmark's prompt for one instance (``Prompt.messages()`` gives the chat messages)."""
    return _world(world_name).prompt(_resolve(world_name, item, data, options), **options)


def check(world_name: str, item: Any, answer: str | Sequence[str], *, data: DataPath = None,
          **options: Any) -> Verdict:
    """Read, verify and score one answer: free text, or a ready list of action names."""
    return _world(world_name).check(_resolve(world_name, item, data, options), answer, **options)


def read_answers(world_name: str, path: Path | str, *, data: DataPath = None,
                 **options: Any) -> Iterator[Record | BrokenRecord]:
    """The records of an answer file in any format the world knows (broken ones say why, with their line)."""
    return _world(world_name).read_answers(Path(path), data_folder(data), **options)


def evaluate(world_name: str, records: Iterable[Record | BrokenRecord] | Path | str, *, data: DataPath = None,
             **options: Any) -> Iterator[BatchItem]:
    """A verdict (or the reason it could not be scored) for every record of a file or an iterable of records."""
    folder = data_folder(data)
    world_ = _world(world_name)
    if isinstance(records, (str, Path)):
        records = world_.read_answers(Path(records), folder, **options)
    return evaluate_records(world_, records, folder, **options)


def rows(world_name: str, records: Iterable[Record | BrokenRecord] | Path | str, *, semantics: str = "strict",
         data: DataPath = None, **options: Any) -> Iterator[dict[str, Any]]:
    """One output row per record (what ``evaluate -o`` writes; docs/output.md): the record's own fields kept,
    ``passed`` under ``semantics``, the headline score (under ``rule=`` where the world has rules), the read
    status, the versions and the verdict, e.g. for ``pandas.DataFrame(plancheck.rows("hanoi", "answers.jsonl"))``."""
    world_ = _world(world_name)
    versions = world_.versions()
    for item in evaluate(world_name, records, data=data, **options):
        yield answer_row(world_name, item, semantics=semantics, rule=options.get("rule"), versions=versions)


def summarize(world_name: str, results: Iterable[tuple[Record, Verdict]], **options: Any) -> Summary:
    """The benchmark's summary table of (record, verdict) pairs, e.g. from :func:`evaluate`."""
    return _world(world_name).summarize(results, **options)


def solve(world_name: str, item: Any, *, data: DataPath = None, **options: Any) -> SolveResult:
    """A certified reference plan (the world's planners by name: ``planner=...``)."""
    return _world(world_name).solve(_resolve(world_name, item, data, options), **options)


def export(world_name: str, item: Any, *, data: DataPath = None, **options: Any) -> dict[str, str]:
    """The PDDL files of one instance: file name -> text."""
    return _world(world_name).export(_resolve(world_name, item, data, options), **options)


def render(world_name: str, item: Any, answer: Any = None, *, data: DataPath = None, **options: Any) -> Picture:
    """A picture of one instance and, when given, one answer (an interactive world's episode:
    :class:`~plancheck.episodes.log.Episode`); ``Picture.still`` is the drawing, ``Picture.frames`` the
    animation. :func:`save_picture` writes it as SVG, PNG or GIF."""
    return _world(world_name).render(_resolve(world_name, item, data, options), answer, **options)


def save_picture(picture: Picture, path: Path | str) -> None:
    """Write a picture; the file name's suffix says the format: .svg (needs nothing), .png or .gif (Pillow)."""
    from plancheck.drawing.output import save

    save(picture, Path(path))


def validate(domain: Path | str, problem: Path | str, plan: Path | str, *,
             limits: Limits = DEFAULT) -> ValidationReport:
    """Validate a plan file against any PDDL domain and problem files (VAL-style report), within ``limits``."""
    from plancheck.verifier.pddl_validate import validate_files

    return validate_files(Path(domain), Path(problem), Path(plan), limits=limits)


def validate_text(domain: str, problem: str, plan: str, *, limits: Limits = DEFAULT) -> ValidationReport:
    """:func:`validate` on PDDL text instead of files."""
    from plancheck.verifier.pddl_validate import validate_text as validate_pddl_text

    return validate_pddl_text(domain, problem, plan, limits=limits)
