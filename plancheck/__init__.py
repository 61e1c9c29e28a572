"""plancheck: formal plans, optimal references and exact verdicts for LLM-planning benchmarks.

The Python API (see docs/api.md): pick a world by name, select instances, render the benchmark's
prompt, check one answer or evaluate many, solve for a certified reference, export PDDL, draw an
instance and an answer, validate any PDDL plan.

>>> import plancheck
>>> plancheck.check("hanoi", "hanoi-1", "Move the top disk of rod A to the top of rod C").passed()
True
"""

from plancheck.api import (
    check,
    evaluate,
    export,
    instance,
    instances,
    prompt,
    read_answers,
    render,
    rows,
    save_picture,
    solve,
    summarize,
    validate,
    validate_text,
    worlds,
)
from plancheck.errors import AnswerParseError, BadInputError, DataNotFoundError, PlancheckError, UnsupportedError
from plancheck.registry import get_world
from plancheck.solvers.result import SolveResult, Status
from plancheck.verifier.batch import BatchItem
from plancheck.verifier.verdict import Failure, Semantics, Verdict
from plancheck.version import __version__
from plancheck.world import BrokenRecord, Capability, Prompt, Record, Summary, World

__all__ = [
    "AnswerParseError", "BadInputError", "BatchItem", "BrokenRecord", "Capability", "DataNotFoundError", "Failure",
    "PlancheckError", "Prompt", "Record", "Semantics", "SolveResult", "Status", "Summary", "UnsupportedError",
    "Verdict", "World", "__version__", "check", "evaluate", "export", "get_world", "instance", "instances",
    "prompt", "read_answers", "render", "rows", "save_picture", "solve", "summarize", "validate", "validate_text",
    "worlds",
]
