"""The reading corpus: answers written for the tests in many styles, each with the actions a careful person reads.

A corpus file (``tests/<world>/reading_corpus*.txt``) holds cases::

    === case: a-name
    expect: UP, TAKE, ?JUMP          (the actions read, in order; ?text is an unknown-action slot; none: unreadable;
                                      (empty): the empty plan)
    status: ambiguous                (the read status: clear by default, none when nothing is read)
    options: pick=last unclosed=reject   (optional: the reader's options)
    taken: goto [fridge_0]           (optional, episode replies: the action the benchmark's own rule takes;
                                      none: it takes none)
    read: ambiguous                  (optional, with taken: the reply's status once the benchmark's action is
                                      compared with the committed one)
    ---
    the answer, verbatim, up to the next "=== case:" line (its last line break is not part of it)

Lines before the first case are comments. The separator of ``expect`` is a comma, or a semicolon in the
corpora whose actions hold commas (Decompose subgoals, MANGO moves).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

_CASE = re.compile(r"^=== case: (.+)$", re.MULTILINE)


@dataclass(frozen=True)
class Case:
    """One answer of a corpus and its expected reading."""

    file: str
    line: int
    name: str
    text: str
    expect: tuple[str, ...] | None  # None: unreadable
    status: str
    options: dict[str, str] = field(default_factory=dict)
    taken: str | None = None
    read: str | None = None

    @property
    def id(self) -> str:
        return f"{Path(self.file).stem}:{self.name}"


def load(path: Path, separator: str = ",") -> list[Case]:
    """The cases of one corpus file; a malformed case names its line."""
    content = path.read_text(encoding="utf-8")
    cases = []
    starts = list(_CASE.finditer(content))
    for index, match in enumerate(starts):
        end = starts[index + 1].start() if index + 1 < len(starts) else len(content)
        block = content[match.end() + 1:end]
        line = content.count("\n", 0, match.start()) + 1
        head, sep, text = block.partition("---\n")
        if not sep:
            raise ValueError(f"{path}, line {line}: a case needs a '---' line before its answer")
        fields = dict(entry.split(": ", 1) for entry in head.strip().splitlines())
        unknown = set(fields) - {"expect", "status", "options", "taken", "read"}
        if unknown or "expect" not in fields or ("taken" in fields) != ("read" in fields):
            raise ValueError(f"{path}, line {line}: fields must be expect, status, options, taken with read "
                             f"(got {sorted(fields)})")
        written = fields["expect"].strip()
        expect = None if written == "none" else () if written == "(empty)" else tuple(
            part.strip() for part in written.split(separator) if part.strip())
        status = fields.get("status", "none" if expect is None else "clear").strip()
        options = dict(pair.split("=", 1) for pair in fields.get("options", "").split())
        taken = fields.get("taken", "").strip() or None
        cases.append(Case(str(path), line, match.group(1).strip(), text[:-1] if text.endswith("\n") else text,
                          expect, status, options, None if taken == "none" else taken,
                          fields.get("read", "").strip() or None))
    names = [case.name for case in cases]
    duplicates = {name for name in names if names.count(name) > 1}
    if duplicates:
        raise ValueError(f"{path}: case names used twice: {sorted(duplicates)}")
    return cases
