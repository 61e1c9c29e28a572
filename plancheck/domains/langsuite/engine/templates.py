"""LangSuitE's feedback and prompt templates, verbatim, and its template builder.

The templates ship as ``plancheck/data/langsuite/templates_dev.json.gz``: all template files of the
paper-era ``dev`` branch keyed ``dev:<path>`` (MIT, see ``LICENSE-langsuite`` beside it).
:class:`Templates` fills them as ``TemplateBuilder.build`` does: an unknown domain or key gives the
empty string, ``{name}`` placeholders are replaced by ``str(value)`` in the order given, and a
placeholder nobody fills stays in the text literally.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from plancheck.errors import BadInputError


@cache
def _all_templates() -> dict[str, Any]:
    with (resources.files("plancheck") / "data" / "langsuite" / "templates_dev.json.gz").open("rb") as f:
        return json.loads(gzip.decompress(f.read()).decode("utf-8"))


def template_files() -> tuple[str, ...]:
    """The keys of the shipped template files (``branch:path``)."""
    return tuple(_all_templates())


@dataclass(frozen=True)
class Templates:
    """One template file of LangSuitE (e.g. ``rearrange/templates/rearrange_react.json``)."""

    path: str
    table: Mapping[str, Mapping[str, Any]]

    @classmethod
    def load(cls, path: str) -> Templates:
        key = path if ":" in path else f"dev:langsuite/envs/{path}"
        try:
            return cls(key, _all_templates()[key])
        except KeyError:
            raise BadInputError(f"no LangSuitE template file {path!r}") from None

    def build(self, domain: str, key: str = "default", **values: Any) -> str:
        """``TemplateBuilder.build(domain, key, **values)``."""
        entries = self.table.get(domain)
        if entries is None or key not in entries:
            return ""
        text = entries[key]
        if isinstance(text, list):
            if len(text) != 1:
                raise BadInputError(f"{self.path}: {domain}.{key} has {len(text)} variants; LangSuitE picks one "
                                    "at random and plancheck does not guess which")
            text = text[0]
        for name, value in values.items():
            text = text.replace("{" + name + "}", str(value))
        return text
