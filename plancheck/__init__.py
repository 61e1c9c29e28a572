"""plancheck: formal plans, optimal references and exact verdicts for LLM-planning benchmarks.

The Python API (see docs/api.md): pick a world by name, select instances, render the benchmark's
prompt, check one answer or evaluate many, solve for a certified reference, export PDDL, draw an
instance and an answer, validate any PDDL plan. Names are imported when first used, so that
``import plancheck`` (and the command line, which starts here) stays cheap.

>>> import plancheck
>>> plancheck.check("hanoi", "hanoi-1", "Move the top disk of rod A to the top of rod C").passed()
True
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from plancheck.version import __version__

_WHERE = {
    "plancheck.api": ("check", "evaluate", "export", "instance", "instances", "prompt", "read_answers", "render",
                      "rows", "save_picture", "solve", "summarize", "validate", "validate_text", "worlds"),
    "plancheck.errors": ("AnswerParseError", "BadInputError", "DataNotFoundError", "LimitError", "PlancheckError",
                         "UnsupportedError"),
    "plancheck.limits": ("Limits",),
    "plancheck.registry": ("get_world",),
    "plancheck.solvers.result": ("SolveResult", "Status"),
    "plancheck.verifier.batch": ("BatchItem",),
    "plancheck.verifier.verdict": ("Failure", "Semantics", "Verdict"),
    "plancheck.world": ("BrokenRecord", "Capability", "Prompt", "Record", "Summary", "World"),
}
_MODULE_OF = {name: module for module, names in _WHERE.items() for name in names}

__all__ = [
    "AnswerParseError", "BadInputError", "BatchItem", "BrokenRecord", "Capability", "DataNotFoundError", "Failure",
    "LimitError", "Limits", "PlancheckError", "Prompt", "Record", "Semantics", "SolveResult", "Status", "Summary",
    "UnsupportedError", "Verdict", "World", "__version__", "check", "evaluate", "export", "get_world", "instance",
    "instances", "prompt", "read_answers", "render", "rows", "save_picture", "solve", "summarize", "validate",
    "validate_text", "worlds",
]

if TYPE_CHECKING:
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
    from plancheck.errors import (
        AnswerParseError,
        BadInputError,
        DataNotFoundError,
        LimitError,
        PlancheckError,
        UnsupportedError,
    )
    from plancheck.limits import Limits
    from plancheck.registry import get_world
    from plancheck.solvers.result import SolveResult, Status
    from plancheck.verifier.batch import BatchItem
    from plancheck.verifier.verdict import Failure, Semantics, Verdict
    from plancheck.world import BrokenRecord, Capability, Prompt, Record, Summary, World


def __getattr__(name: str) -> Any:
    """A public name, imported from its module on first use."""
    if name not in _MODULE_OF:
        raise AttributeError(f"module 'plancheck' has no attribute {name!r}")
    value = getattr(importlib.import_module(_MODULE_OF[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_MODULE_OF])
