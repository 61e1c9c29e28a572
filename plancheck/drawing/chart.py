"""Charts as drawings: lines over steps (posteriors of an episode) and grouped bars per setting (a summary's
score per setting beside the optimum and reference values).

>>> chart = line_chart("P(best)", [Series("machine 1", ((1, 0.5), (2, 0.8)))], "step", "probability", (0, 1))
>>> len(chart.roles("series-machine-1")) > 0
True
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from plancheck.drawing.shapes import INK, LINE, MUTED, OPTIMUM, SERIES, Canvas, Drawing, number_text, text_width


@dataclass(frozen=True)
class Series:
    """A named line through (x, y) points; ``dots`` draws a dot on each point."""

    name: str
    points: tuple[tuple[float, float], ...]
    colour: str = SERIES[0]
    dash: bool = False
    dots: bool = False


@dataclass(frozen=True)
class Mark:
    """A point marked on a chart (e.g. the action taken at a step): a dot, filled or hollow, with a tooltip."""

    x: float
    y: float
    colour: str
    filled: bool = True
    title: str = ""
    role: str = "mark"


def slug(name: str) -> str:
    """A name as a role word.

    >>> slug("Machine 1 (p=0.8)")
    'machine-1-p-0-8'
    """
    out = "".join(char.lower() if char.isalnum() else "-" for char in name)
    while "--" in out:
        out = out.replace("--", "-")
    return out.strip("-")


def _ticks(low: float, high: float, count: int = 5) -> list[float]:
    """About ``count`` round tick values covering [low, high].

    >>> _ticks(0, 1), _ticks(-2.5, 4)
    ([0.0, 0.2, 0.4, 0.6, 0.8, 1.0], [-2.0, 0.0, 2.0, 4.0])
    """
    if high <= low:
        high = low + 1
    raw = (high - low) / count
    power = 10 ** math.floor(math.log10(raw))
    step = min((m * power for m in (1, 2, 5, 10) if m * power >= raw), default=10 * power)
    first = math.ceil(low / step - 1e-9) * step
    ticks = []
    value = first
    while value <= high + 1e-9:
        ticks.append(round(value, 10) + 0.0)
        value += step
    return ticks


@dataclass
class _Axes:
    left: float
    top: float
    width: float
    height: float
    x_range: tuple[float, float]
    y_range: tuple[float, float]

    def at(self, x: float, y: float) -> tuple[float, float]:
        (x0, x1), (y0, y1) = self.x_range, self.y_range
        return (self.left + (x - x0) / ((x1 - x0) or 1) * self.width,
                self.top + self.height - (y - y0) / ((y1 - y0) or 1) * self.height)


def line_chart(title: str, series: Sequence[Series], x_label: str, y_label: str,
               y_range: tuple[float, float] | None = None, marks: Sequence[Mark] = (), width: float = 640,
               height: float = 300) -> Drawing:
    """Lines over a shared x axis, with a legend under the plot."""
    xs = [x for s in series for x, _ in s.points] + [m.x for m in marks] or [0.0, 1.0]
    ys = [y for s in series for _, y in s.points] + [m.y for m in marks] or [0.0, 1.0]
    low, high = y_range if y_range is not None else (min(ys), max(ys))
    legend_rows = math.ceil(len(series) / 3)
    canvas = Canvas(width, height + 20 * legend_rows + 6)
    axes = _Axes(52, 30, width - 70, height - 72, (min(xs), max(xs)), (low, high))
    canvas.text(axes.left, 12, title, size=13, bold=True)
    for tick in _ticks(low, high):
        x, y = axes.at(axes.x_range[0], tick)
        canvas.line(((axes.left, y), (axes.left + axes.width, y)), stroke=LINE, width=0.8)
        canvas.text(axes.left - 6, y, number_text(float(tick)), size=9, fill=MUTED, anchor="end")
    for tick in _ticks(*axes.x_range, count=8):
        x, y = axes.at(tick, low)
        canvas.text(x, axes.top + axes.height + 10, f"{tick:g}", size=9, fill=MUTED, anchor="middle")
    canvas.line(((axes.left, axes.top), (axes.left, axes.top + axes.height), (axes.left + axes.width,
                                                                              axes.top + axes.height)),
                stroke=INK, width=1)
    canvas.text(axes.left + axes.width / 2, axes.top + axes.height + 26, x_label, size=10, fill=MUTED,
                anchor="middle")
    canvas.text(6, axes.top - 14, y_label, size=10, fill=MUTED)
    for s in series:
        points = [axes.at(x, y) for x, y in s.points]
        if len(points) > 1:
            canvas.line(points, stroke=s.colour, width=2, dash=(6, 4) if s.dash else None,
                        role=f"series-{slug(s.name)}", title=s.name)
        for point in points if s.dots or len(points) == 1 else ():
            canvas.circle(*point, 2.5, fill=s.colour, role=f"series-{slug(s.name)}")
    for mark in marks:
        x, y = axes.at(mark.x, mark.y)
        canvas.circle(x, y, 3.5, fill=mark.colour if mark.filled else "#ffffff", stroke=mark.colour, width=1.4,
                      role=mark.role, title=mark.title)
    for index, s in enumerate(series):
        x = axes.left + (index % 3) * (axes.width / 3)
        y = height + 6 + 20 * (index // 3)
        canvas.line(((x, y), (x + 22, y)), stroke=s.colour, width=2.5, dash=(6, 4) if s.dash else None)
        canvas.text(x + 28, y, s.name, size=10)
    return canvas.drawing()


@dataclass(frozen=True)
class Group:
    """One row of a bar chart: its label, a value per model, the optimum, and reference values by name."""

    label: str
    values: Mapping[str, float | None]
    optimum: float | None = None
    references: Mapping[str, float] = field(default_factory=dict)
    counts: Mapping[str, int] = field(default_factory=dict)


def bar_chart(title: str, groups: Sequence[Group], value_label: str, width: float = 760) -> Drawing:
    """Horizontal bars, one per model in each group (row), with the optimum as a green diamond and the
    reference values as hollow markers; a legend at the top."""
    models = list(dict.fromkeys(model for group in groups for model in group.values))
    references = list(dict.fromkeys(name for group in groups for name in group.references))
    values = [v for group in groups for v in group.values.values() if v is not None]
    values += [group.optimum for group in groups if group.optimum is not None]
    values += [v for group in groups for v in group.references.values()]
    low, high = min(values + [0.0]), max(values + [0.0])
    if high - low < 1e-9:
        high = low + 1
    label_width = min(260.0, max([text_width(group.label, 10) for group in groups] + [60.0]) + 10)
    bar, gap = 12.0, 10.0
    group_height = max(1, len(models)) * bar + gap
    legend = 20 * math.ceil((len(models) + len(references) + 1) / 4)
    top = 28 + legend
    canvas = Canvas(width, top + len(groups) * group_height + 40)
    axes = _Axes(label_width, top, width - label_width - 20, len(groups) * group_height, (low, high), (0, 1))
    canvas.text(8, 12, title, size=13, bold=True)
    bars = tuple(colour for colour in SERIES if colour != OPTIMUM)  # green is the optimum's
    keys = [(model, bars[i % len(bars)], "bar") for i, model in enumerate(models)]
    keys += [("optimum", OPTIMUM, "optimum")] + [(name, bars[(i + len(models)) % len(bars)], "reference")
                                                  for i, name in enumerate(references)]
    colours = {name: colour for name, colour, _ in keys}
    for index, (name, colour, kind) in enumerate(keys):
        x, y = 8 + (index % 4) * ((width - 16) / 4), 32 + 20 * (index // 4)
        if kind == "bar":
            canvas.rect(x, y - 5, 14, 10, fill=colour)
        elif kind == "optimum":
            canvas.polygon(((x + 7, y - 6), (x + 13, y), (x + 7, y + 6), (x + 1, y)), fill=colour)
        else:
            canvas.circle(x + 7, y, 5, fill="#ffffff", stroke=colour, width=2)
        canvas.text(x + 20, y, name if len(name) <= 28 else name[:27] + "…", size=10)
    for tick in _ticks(low, high, 8):
        x, _ = axes.at(tick, 0)
        canvas.line(((x, top - 4), (x, top + axes.height)), stroke=LINE, width=0.8)
        canvas.text(x, top + axes.height + 10, f"{tick:g}", size=9, fill=MUTED, anchor="middle")
    zero, _ = axes.at(0.0, 0)
    canvas.line(((zero, top - 4), (zero, top + axes.height)), stroke=INK, width=1)
    canvas.text(axes.left + axes.width / 2, top + axes.height + 26, value_label, size=10, fill=MUTED,
                anchor="middle")
    for row, group in enumerate(groups):
        y0 = top + row * group_height + gap / 2
        canvas.text(label_width - 8, y0 + len(models) * bar / 2, group.label, size=10, anchor="end")
        for index, model in enumerate(models):
            value = group.values.get(model)
            if value is None:
                continue
            x, _ = axes.at(value, 0)
            count = group.counts.get(model)
            canvas.rect(min(x, zero), y0 + index * bar + 1, max(abs(x - zero), 1.0), bar - 2, fill=colours[model],
                        role="bar", title=f"{group.label}, {model}: {number_text(value)}"
                                          + (f" (n = {count})" if count is not None else ""))
        middle = y0 + len(models) * bar / 2
        if group.optimum is not None:
            x, _ = axes.at(group.optimum, 0)
            canvas.polygon(((x, middle - 7), (x + 6, middle), (x, middle + 7), (x - 6, middle)), fill=OPTIMUM,
                           stroke="#ffffff", width=1, role="optimum",
                           title=f"{group.label}: optimum {number_text(group.optimum)}")
        for name, value in group.references.items():
            x, _ = axes.at(value, 0)
            canvas.circle(x, middle, 5, fill="#ffffff", stroke=colours[name], width=2, role="reference",
                          title=f"{group.label}: {name} {number_text(value)}")
    return canvas.drawing()
