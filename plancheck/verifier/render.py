"""Plain-text views of verdicts and tables for people (the CLI prints these)."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from plancheck.translators.answer import Reading, ReadStatus, SpanKind
from plancheck.verifier.records import Decimals
from plancheck.verifier.verdict import Semantics, Verdict

_IN_ANSWER = (SpanKind.UNKNOWN, SpanKind.UNREAD)


def number_text(value: object) -> str:
    """A cell or score as printed: floats with 2 decimals (a :class:`Decimals` with its own), never "-0.00".

    >>> number_text(-0.001), number_text(Decimals(-0.04, 1)), number_text(-1.5), number_text(None)
    ('0.00', '0.0', '-1.50', '-')
    """
    if isinstance(value, bool) or value is None:
        return {True: "yes", False: "no", None: "-"}[value]
    if isinstance(value, float):
        text = f"{value:.{value.digits if isinstance(value, Decimals) else 2}f}"
        return text[1:] if text.startswith("-") and not text.strip("-0.") else text
    return str(value)


def printable(line: str) -> str:
    r"""``line`` with control and other unprintable characters escaped (model text must not drive the terminal).

    >>> print(printable("UP, \x1b[2J, é"))
    UP, \x1b[2J, é
    """
    if line.isprintable():
        return line
    return "".join(char if char.isprintable() else char.encode("unicode_escape").decode("ascii") for char in line)


def _listed(items: Sequence[str], limit: int = 200) -> str:
    if len(items) <= limit:
        return ", ".join(items)
    return ", ".join(items[:limit]) + f", ... and {len(items) - limit} more (see --json)"


def _why_failed(verdict: Verdict, semantics: Semantics) -> str:
    reasons = []
    if not verdict.consistent:
        reasons.append("the log contradicts the rules")
    if semantics is Semantics.STRICT and not verdict.valid:
        reasons.append("not strictly valid")
    if verdict.has_goal and verdict.goal_reached is False:
        reasons.append("goal not reached")
    return ", ".join(reasons)


def verdict_text(verdict: Verdict, semantics: Semantics | str = Semantics.STRICT, *, show_steps: bool = False) -> str:
    """A readable multi-line report of one verdict (``semantics`` as an enum member or its name)."""
    semantics = Semantics(semantics)
    lines = [f"{verdict.world} instance {verdict.instance}"]
    if not verdict.parsed:
        lines.append(f"UNPARSEABLE: {verdict.parse_error}")
        lines += reading_lines(verdict.read)
        return "\n".join(printable(line) for line in lines)
    outcome = "PASS" if verdict.passed(semantics) else f"FAIL ({_why_failed(verdict, semantics)})"
    lines.append(f"{outcome} under {semantics.value} semantics; answer read as {verdict.form}"
                 f" with {len(verdict.actions)} action(s)")
    lines += reading_lines(verdict.read)
    lines.append("actions: " + (_listed(verdict.actions) if verdict.actions else "(none)"))
    lines.append("strictly valid: yes" if verdict.valid else f"strictly valid: no, {verdict.failure}")
    if verdict.failure is not None and verdict.failure.unmet:
        lines.append("  unmet: " + " ".join(verdict.failure.unmet))
    if verdict.has_goal:
        reached = f"yes, at step {verdict.goal_step}" if verdict.goal_reached else "no"
        lines.append(f"goal reached: {reached}")
    if verdict.ignored:
        lines.append(f"ignored: {verdict.ignored} action(s) not executed")
    for rule, score in verdict.scores.items():
        extra = ""
        if verdict.optimal and rule in verdict.optimal:
            ratio = verdict.ratio(rule)
            extra = f" (optimum {number_text(verdict.optimal[rule])}" + (
                f", ratio {number_text(float(ratio))})" if ratio is not None else ")")
        lines.append(f"score[{rule}]: {number_text(score)}{extra}")
    for key, value in verdict.metrics.items():
        lines.append(f"{key.replace('_', ' ')}: {number_text(value)}")
    for note in verdict.notes:
        lines.append(f"note: {note}")
    inside = [span for span in verdict.spans if span.kind in _IN_ANSWER]
    around = [span for span in verdict.spans if span.kind not in _IN_ANSWER]
    for heading, spans, kinds in (("text in the answer not read as actions", inside, True),
                                  ("text around the answer", around, False)):
        if spans:
            lines.append(f"{heading} ({len(spans)} span(s)):")
            for span in spans[:20]:
                shown = span.text if len(span.text) <= 60 else span.text[:57] + "..."
                kind = f" [{span.kind.value}]" if kinds or span.kind is not SpanKind.OUTSIDE else ""
                lines.append(f"  line {span.line}, column {span.column}{kind}: {shown!r}")
            if len(spans) > 20:
                lines.append(f"  ... and {len(spans) - 20} more (see --json)")
    rejected = [s for s in verdict.steps if not s.ok]
    if show_steps:
        lines.append("trace:")
        for step in verdict.steps:
            mark = "ok " if step.ok else "NO "
            detail = f" - {step.reason}" if step.reason else ""
            state = f"  [{step.state}]" if step.state else ""
            lines.append(f"  {step.index:3d} {mark}{step.action}{detail}{state}")
    elif rejected:
        label = "steps with a problem or an unclear reading" if verdict.form.startswith("episode") else "no-op steps"
        lines.append(f"{label} ({len(rejected)}):")
        for step in rejected[:10]:
            lines.append(f"  step {step.index}: {step.reason}")
        if len(rejected) > 10:
            lines.append(f"  ... and {len(rejected) - 10} more (see --steps)")
    return "\n".join(printable(line) for line in lines)


def reading_lines(reading: Reading) -> list[str]:
    """How the answer was read: its status and, when candidates differ, each of them.

    >>> reading_lines(Reading(ReadStatus.CLEAR, "the only candidate answer"))
    ['read: clear (the only candidate answer)']
    """
    lines = [f"read: {reading.status.value} ({reading.why})" if reading.why else f"read: {reading.status.value}"]
    if reading.status is not ReadStatus.CLEAR and reading.candidates:
        for seen in reading.candidates:
            mark = "chosen" if seen.chosen else "not chosen"
            role = "" if seen.role.value == "plain" else f", {seen.role.value}"
            lines.append(f"  {mark}: line {seen.line}, column {seen.column}, {seen.form}{role}: "
                         + (_listed(seen.actions, 30) if seen.actions else "(no action)"))
    return lines


def table_text(header: Sequence[str], rows: Sequence[Sequence[object]], title: str = "", labels: int = 1) -> str:
    """A fixed-width table; the first ``labels`` columns are left-aligned, the others right-aligned.
    A header cell holding line breaks spans several header lines (bottom-aligned).

    >>> print(table_text(("", "Agent\\nLength"), [("Average", -0.001)]))
              Agent
             Length
    -------  ------
    Average    0.00
    """
    depth = max((str(h).count("\n") + 1 for h in header), default=1)
    head = [[""] * (depth - len(lines)) + lines for lines in (str(h).split("\n") for h in header)]
    head_rows = [[column[line] for column in head] for line in range(depth)]
    cells = head_rows + [[number_text(c) for c in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]

    def fmt(row: list[str]) -> str:
        return "  ".join(c.ljust(widths[i]) if i < labels else c.rjust(widths[i]) for i, c in enumerate(row)).rstrip()

    out = [title] if title else []
    out.extend(fmt(row) for row in head_rows)
    out.append("  ".join("-" * w for w in widths))
    out.extend(fmt(row) for row in cells[depth:])
    return "\n".join(out)


def table_markdown(header: Sequence[str], rows: Sequence[Sequence[object]], title: str = "", labels: int = 1,
                   width: int = 100) -> str:
    """A Markdown table no wider than ``width`` characters: a table too wide is split into several by columns,
    each repeating the first ``labels`` columns (one column wider than ``width`` cannot be split and stays as it
    is). A header cell's line breaks become spaces.

    >>> print(table_markdown(("model", "score"), [("a|b", 0.5)], "Scores"))
    **Scores**
    <BLANKLINE>
    | model | score |
    |:--|--:|
    | a\\|b | 0.50 |
    >>> wide = table_markdown(["key"] + [f"column\\n{i}" for i in range(12)], [["k"] + list(range(12))])
    >>> max(len(line) for line in wide.splitlines()) <= 100, wide.count("| key |"), "| column 0 |" in wide
    (True, 2, True)
    """
    cells = [[" ".join(str(h).split("\n")) for h in header]] + [[number_text(c) for c in row] for row in rows]
    cells = [[printable(c).replace("|", "\\|") for c in row] for row in cells]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    keys = list(range(min(labels, len(header))))
    groups: list[list[int]] = [[]]
    for column in range(len(keys), len(header)):
        used = sum(widths[i] + 3 for i in keys + groups[-1]) + 1
        if groups[-1] and used + widths[column] + 3 > width:
            groups.append([])
        groups[-1].append(column)
    parts = [textwrap.fill(f"**{printable(title)}**", width)] if title else []
    for group in groups:
        columns = keys + group
        lines = ["| " + " | ".join(cells[0][i] for i in columns) + " |",
                 "|" + "|".join(":--" if i in keys else "--:" for i in columns) + "|"]
        lines += ["| " + " | ".join(row[i] for i in columns) + " |" for row in cells[1:]]
        parts.append("\n".join(lines))
    return "\n\n".join(parts)
