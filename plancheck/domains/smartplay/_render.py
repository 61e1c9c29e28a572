"""Pictures of SmartPlay's games with a hidden truth (Bandits, Rock Paper Scissors), from an episode log:
the posterior that each action is the best before every step, with the action taken marked on its line
(filled: the posterior favoured it or tied; hollow: a choice against the posterior), and the running
reward and regret."""

from __future__ import annotations

from collections.abc import Sequence

from plancheck.domains.smartplay._scoring import TIE
from plancheck.drawing.chart import Mark, Series, line_chart
from plancheck.drawing.shapes import ANSWER, FAILURE, MUTED, SERIES, Canvas, Picture, number_text, padded, stack
from plancheck.episodes.game import CheckedStep
from plancheck.verifier.verdict import Verdict


def posterior_picture(title: str, steps: Sequence[CheckedStep], actions: Sequence[str], labels: Sequence[str],
                      verdict: Verdict) -> Picture:
    """The posterior chart above the reward and regret chart; ``labels`` name the actions in the legend."""
    taken = [s for s in steps if s.transition is not None and "posterior" in s.transition.info]
    series = [Series(f"P({label} is best)", tuple((s.index, s.transition.info["posterior"][k]) for s in taken),
                     SERIES[k % len(SERIES)]) for k, label in enumerate(labels)]
    marks = []
    for step in taken:
        k = actions.index(step.action)
        regret = step.transition.info["regret"]
        against = regret > TIE
        marks.append(Mark(step.index, step.transition.info["posterior"][k], FAILURE if against else SERIES[k],
                          not against, f"step {step.index}: {labels[k]}, reward {step.transition.reward}"
                          + (f", regret {regret:.3f}" if against else ""), "choice-against" if against else "choice"))
    posterior = line_chart("P(action is best) before each step; hollow dot: a choice against it", series, "step",
                           "P(best)", (0.0, 1.0), marks)
    reward, regret, total, lost = [], [], 0.0, 0.0
    for step in taken:
        total += step.transition.reward or 0
        lost += step.transition.info["regret"]
        reward.append((step.index, total))
        regret.append((step.index, lost))
    running = line_chart("running reward and regret against the posterior",
                         [Series("total reward", tuple(reward), ANSWER), Series("total regret", tuple(regret),
                                                                                FAILURE, dash=True)],
                         "step", "sum", height=240)
    scores = ", ".join(f"{rule} {number_text(value)}" for rule, value in verdict.scores.items())
    caption = Canvas(640, 36)
    caption.text(52, 9, scores, size=11, fill=MUTED)
    if verdict.failure is not None:
        caption.text(52, 27, f"first problem: {verdict.failure}"[:110], size=11, fill=FAILURE)
    head = Canvas(640, 20)
    head.text(0, 10, title, size=13, bold=True)
    return Picture(padded(stack(head.drawing(), posterior, running, caption.drawing(), gap=6)))
