"""A batch drawn: the summary plot (``evaluate --plot``) and the self-contained HTML report (``evaluate --html``).

The plot shows, per setting (the world's :meth:`~plancheck.world.WorldBase.setting`), each model's mean
headline score as a bar, the mean certified optimum of the same answers as a green diamond, and the
world's reference values as rings. The report holds the summary table and the plot, and for every answer
its picture (the world's ``render``), the actions read, the text not read, the first failure and the
score against the optimum; a filter by model, setting and outcome runs in the page. It needs no server
and no network: styles, script and pictures are inside the file.
"""

from __future__ import annotations

import html
import json
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from statistics import fmean
from typing import Any

from plancheck.drawing.chart import Group, bar_chart
from plancheck.drawing.shapes import Drawing, number_text
from plancheck.drawing.svg import to_svg
from plancheck.errors import PlancheckError
from plancheck.limits import DEFAULT, Limits
from plancheck.verifier.records import Record, Summary
from plancheck.verifier.verdict import Semantics, Verdict
from plancheck.version import __version__
from plancheck.world import Capability, World

Result = tuple[Record, Verdict]


def headline_rule(world: World, results: Sequence[Result], options: dict[str, Any]) -> str | None:
    """The score the plot shows: the world's headline, else the first score of the first scored answer."""
    rule = world.headline(**options)
    if rule is not None:
        return rule
    return next((next(iter(v.scores)) for _, v in results if v.scores), None)


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def plot_groups(world: World, results: Sequence[Result], options: dict[str, Any]) -> tuple[str | None, list[Group]]:
    """The plot's rows: per setting, the mean score per model, the mean optimum and the references."""
    rule = headline_rule(world, results, options)
    scores: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    optima: dict[str, list[float]] = defaultdict(list)
    for record, verdict in results:
        setting = world.setting(record, verdict)
        value = _number(verdict.scores.get(rule)) if verdict.parsed else None
        if value is not None:
            scores[setting][world.model(record)].append(value)
        best = _number((verdict.optimal or {}).get(rule))
        if best is not None:
            optima[setting].append(best)
    groups = []
    for setting in sorted(set(scores) | set(optima)):
        values = {model: fmean(found) for model, found in scores[setting].items()}
        counts = {model: len(found) for model, found in scores[setting].items()}
        groups.append(Group(setting, values, fmean(optima[setting]) if optima[setting] else None,
                            world.reference_scores(setting, **options), counts))
    return rule, groups


def summary_plot(world: World, results: Sequence[Result], options: dict[str, Any]) -> Drawing:
    """The bar chart of ``evaluate --plot``."""
    rule, groups = plot_groups(world, results, options)
    title = f"{world.name}: mean score[{rule}] per setting and model, against the optimum"
    return bar_chart(title, groups, f"mean score[{rule}] (n = answers read)")


# -- the HTML report ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Entry:
    """One answer as the report shows it."""

    record: Record
    verdict: Verdict
    model: str
    setting: str
    picture: str  # inline SVG, or a sentence saying why there is none


_STYLE = """
body{font-family:DejaVu Sans,Arial,sans-serif;margin:24px;color:#222;max-width:1400px}
h1{font-size:22px}h2{font-size:18px;margin-top:28px}h3{font-size:15px;margin:0 0 6px}
table.summary{border-collapse:collapse;font-size:13px}
table.summary th,table.summary td{border:1px solid #ccc;padding:3px 8px;text-align:right}
table.summary th:first-child,table.summary td:first-child{text-align:left}
.filters{position:sticky;top:0;background:#fff;padding:8px 0;border-bottom:1px solid #ddd;z-index:1}
.filters label{margin-right:16px}
article.answer{border:1px solid #ddd;border-radius:6px;padding:10px 14px;margin:12px 0}
article.answer.fail{border-left:5px solid #d55e00}article.answer.pass{border-left:5px solid #009e73}
dl{display:grid;grid-template-columns:max-content auto;gap:2px 12px;font-size:13px;margin:6px 0}
dt{color:#777}dd{margin:0;word-break:break-word}
.picture svg{max-width:100%;height:auto}
.unread{color:#8a4b00}.failure{color:#d55e00}.muted{color:#777}
"""

_SCRIPT = """
(function () {
  var model = document.getElementById('model'), setting = document.getElementById('setting');
  var failed = document.getElementById('failed'), shown = document.getElementById('shown');
  var answers = Array.prototype.slice.call(document.querySelectorAll('article.answer'));
  function update() {
    var count = 0;
    answers.forEach(function (a) {
      var visible = (!model.value || a.dataset.model === model.value) &&
                    (!setting.value || a.dataset.setting === setting.value) &&
                    (!failed.checked || a.dataset.passed === 'false');
      a.hidden = !visible;
      if (visible) { count += 1; }
    });
    shown.textContent = count + ' of ' + answers.length + ' answers shown';
  }
  [model, setting, failed].forEach(function (e) { e.addEventListener('change', update); });
  update();
})();
"""


def _e(value: Any) -> str:
    return html.escape(str(value), quote=True)


def _table(summary: Summary) -> str:
    head = "".join(f"<th>{_e(h)}</th>" for h in summary.header)
    rows = "".join("<tr>" + "".join(f"<td>{_e(_cell(c))}</td>" for c in row) + "</tr>" for row in summary.rows)
    caption = f"<caption>{_e(summary.title)}</caption>" if summary.title else ""
    return f'<table class="summary">{caption}<thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>'


def _cell(value: Any) -> str:
    if isinstance(value, bool) or value is None:
        return {True: "yes", False: "no", None: "-"}[value]
    return number_text(value) if isinstance(value, float) else str(value)


def _listed(items: Sequence[str], limit: int = 60) -> str:
    shown = ", ".join(items[:limit])
    return shown + (f", ... and {len(items) - limit} more" if len(items) > limit else "")


def _scores(verdict: Verdict) -> str:
    parts = []
    for rule, value in verdict.scores.items():
        text = f"{rule} {_cell(value)}"
        if verdict.optimal and rule in verdict.optimal:
            ratio = verdict.ratio(rule)
            text += f" (optimum {_cell(verdict.optimal[rule])}" + (f", ratio {ratio:.2f})" if ratio is not None
                                                                    else ")")
        parts.append(text)
    return "; ".join(parts) or "-"


def _entry_html(entry: Entry, semantics: Semantics, index: int) -> str:
    record, verdict = entry.record, entry.verdict
    passed = verdict.passed(semantics)
    spans = "".join(f'<li><span class="muted">line {s.line}, column {s.column} [{_e(s.kind.value)}]</span> '
                    f'<span class="unread">{_e(s.text[:200])}</span></li>' for s in verdict.spans[:30])
    if len(verdict.spans) > 30:
        spans += f"<li class=muted>... and {len(verdict.spans) - 30} more</li>"
    failure = verdict.parse_error if not verdict.parsed else (str(verdict.failure) if verdict.failure else "none")
    rows = [("outcome", f"{'PASS' if passed else 'FAIL'} under {semantics.value} semantics"
                        + ("" if verdict.parsed else " (no plan could be read)")),
            ("source", f"{record.source}, line {record.line}"),
            ("read as", verdict.form or "-"),
            ("actions read", _listed(list(verdict.actions)) or "(none)"),
            ("first failure", failure),
            ("score", _scores(verdict))]
    cells = "".join(f"<dt>{_e(k)}</dt><dd{' class=failure' if k == 'first failure' and failure != 'none' else ''}>"
                    f"{_e(v)}</dd>" for k, v in rows)
    cells += f"<dt>text not read</dt><dd><ul>{spans}</ul></dd>" if spans else "<dt>text not read</dt><dd>none</dd>"
    return (f'<article class="answer {"pass" if passed else "fail"}" id="answer-{index}" '
            f'data-model="{_e(entry.model)}" data-setting="{_e(entry.setting)}" '
            f'data-passed="{str(passed).lower()}"><h3>{_e(verdict.instance)} <span class="muted">'
            f'{_e(entry.model)}, {_e(entry.setting)}</span></h3><dl>{cells}</dl>'
            f'<div class="picture">{entry.picture}</div></article>')


def _answer(record: Record, episodes: Callable[[Record], Any] | None) -> Any:
    if episodes is not None:
        found = episodes(record)
        if found is not None:
            return found
    return record.text if record.text is not None else list(record.actions or ())


class EpisodeIndex:
    """The episodes of log files by (file, header line), read again when a picture needs one."""

    def __init__(self, limits: Limits = DEFAULT) -> None:
        self.files: dict[str, dict[int, Any]] = {}
        self.limits = limits  # the batch's: every episode it scored is read again

    def __call__(self, record: Record) -> Any:
        from plancheck.episodes.log import Episode, read_episodes

        if "policy" not in record.meta:  # an answer record, not an episode's
            return None
        if record.source not in self.files:
            path = Path(record.source)
            found = read_episodes(path, limits=self.limits) if path.is_file() else ()
            self.files[record.source] = {e.header.line: e for e in found if isinstance(e, Episode)}
        return self.files[record.source].get(record.line)


def entries(world: World, results: Sequence[Result], data: Path | None, options: dict[str, Any], limit: int,
            tick: Callable[[], None] = lambda: None) -> Iterable[Entry]:
    """Each answer with its picture (the first ``limit`` ones drawn; a picture that cannot be drawn says why)."""
    drawn = 0
    episodes = EpisodeIndex(options.get("limits", DEFAULT)) if world.supports(Capability.PLAY) else None
    for record, verdict in results:
        setting = world.setting(record, verdict)
        if not world.supports(Capability.RENDER):
            picture = '<p class="muted">this world draws no pictures</p>'
        elif drawn >= limit:
            picture = f'<p class="muted">not drawn: the report draws the first {limit} answers (--pictures N)</p>'
        else:
            try:
                answer = _answer(record, episodes)
                instance = world.resolve(record, data, **options) if episodes is None or "policy" not in record.meta \
                    else world.episodes.instance(record.instance)
                picture = to_svg(world.render(instance, answer, verdict=verdict, compact=True, **options).still)
                drawn += 1
            except PlancheckError as error:
                picture = f'<p class="muted">no picture: {_e(error)}</p>'
            tick()
        yield Entry(record, verdict, world.model(record), setting, picture)


def html_report(world: World, answers: Iterable[Entry], summary: Summary | None, plot: Drawing | None,
                broken: Sequence[tuple[str, int, str]], semantics: Semantics) -> str:
    """The whole page."""
    shown = list(answers)
    articles = "".join(_entry_html(entry, semantics, index) for index, entry in enumerate(shown, start=1))
    models = sorted({entry.model for entry in shown})
    settings = sorted({entry.setting for entry in shown})

    def options(values: Sequence[str]) -> str:
        return '<option value="">all</option>' + "".join(f'<option value="{_e(v)}">{_e(v)}</option>' for v in values)

    passed = sum(entry.verdict.passed(semantics) for entry in shown)
    head = (f"<h1>plancheck: {_e(world.title)}</h1><p class=muted>plancheck {_e(__version__)}; {len(shown)} "
            f"answer(s) scored ({passed} pass under {semantics.value} semantics), {len(broken)} broken record(s)</p>")
    summary_html = _table(summary) if summary is not None and summary.rows else "<p class=muted>no summary</p>"
    plot_html = f'<div class="plot">{to_svg(plot, "summary-plot")}</div>' if plot is not None else ""
    broken_html = ""
    if broken:
        items = "".join(f"<li>{_e(source)}, line {line}: {_e(reason)}</li>" for source, line, reason in broken)
        broken_html = f'<section id="broken"><h2>Broken records</h2><ul>{items}</ul></section>'
    filters = (f'<div class="filters"><label>model <select id="model">{options(models)}</select></label>'
               f'<label>setting <select id="setting">{options(settings)}</select></label>'
               f'<label><input type="checkbox" id="failed"> failed only</label><span id="shown"></span></div>')
    data = json.dumps({"world": world.name, "answers": len(shown), "broken": len(broken)}).replace("<", "\\u003c")
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>plancheck: {_e(world.name)} evaluation</title><style>{_STYLE}</style></head><body>"
            f'{head}<section id="summary"><h2>Summary</h2>{summary_html}{plot_html}</section>'
            f'<section id="answers"><h2>Answers</h2>{filters}{articles}</section>{broken_html}'
            f'<script type="application/json" id="report-data">{data}</script>'
            f"<script>{_SCRIPT}</script></body></html>\n")
