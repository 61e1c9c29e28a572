"""Progress on stderr for long commands: a bar with the count, the total, the rate and the time left, shown
only on a terminal (nothing at all when stderr is a file or a pipe, or with ``--no-progress``).

Written here rather than taken from tqdm or rich: the core depends on lark and networkx only, and one line
of output does not justify a third dependency. The bar is redrawn at most ten times a second.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

WIDTH = 24  # characters of the bar itself


def duration(seconds: float) -> str:
    """A short duration: ``45 s``, ``3 min 05 s``, ``2 h 01 min``.

    >>> duration(4.2), duration(185), duration(7260)
    ('4 s', '3 min 05 s', '2 h 01 min')
    """
    seconds = max(0, round(seconds))
    if seconds < 60:
        return f"{seconds} s"
    minutes, seconds = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes} min {seconds:02d} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"


def line(label: str, done: int, total: int | None, elapsed: float, unit: str = "") -> str:
    """The progress line: the bar and the numbers (without a total: the count and the rate only).

    >>> line("records", 250, 1000, 5.0)
    'records [######------------------] 250/1,000 25% 50/s, 5 s elapsed, about 15 s left'
    >>> line("records", 30, None, 2.0)
    'records 30, 15/s, 2 s elapsed'
    >>> line("lines", 10, 10, 1.0, " (12 records)")
    'lines [########################] 10/10 100% 10/s, 1 s elapsed (12 records)'
    """
    rate = done / elapsed if elapsed > 0 else 0.0
    speed = f"{rate:,.0f}/s" if rate >= 10 else f"{rate:.1f}/s"
    if not total:
        return f"{label} {done:,}, {speed}, {duration(elapsed)} elapsed{unit}"
    fraction = min(1.0, done / total)
    filled = round(WIDTH * fraction)
    early = elapsed < 1.0 or not done  # too soon to tell
    left = "" if done >= total or early else f", about {duration(elapsed * (total - done) / done)} left"
    return (f"{label} [{'#' * filled}{'-' * (WIDTH - filled)}] {done:,}/{total:,} {fraction:.0%} {speed}, "
            f"{duration(elapsed)} elapsed{left}{unit}")


class Progress:
    """A one-line bar on stderr: ``tick`` counts an item, ``advance`` sets the position (e.g. lines read),
    ``total`` may be set late; ``say`` prints a line above the bar; ``done`` ends it."""

    def __init__(self, label: str, enabled: bool, stream: TextIO | None = None, total: int | None = None):
        # sys.stderr looked up now, not at import: it may have been replaced since
        self.label, self.stream = label, stream if stream is not None else sys.stderr
        self.enabled = enabled and self.stream.isatty()
        self.total = total
        self.count = 0  # items
        self.position: int | None = None  # where in the total, when it is not the item count
        self.start = time.monotonic()
        self.shown = 0.0  # when the line was last drawn
        self.drawn = False  # a line is showing
        self.searching = False  # a search's line is showing

    def tick(self, items: int = 1) -> None:
        self.count += items
        self._draw()

    def advance(self, position: int) -> None:
        self.position = position
        self._draw()

    def _draw(self, force: bool = False) -> None:
        if not self.enabled:
            return
        if self.searching:  # a search's line goes before anything else is shown
            self.stream.write("\r\x1b[K")
            self.searching = False
        now = time.monotonic()
        if not force and (now - self.shown < 0.1 or now - self.start < 0.5):  # quick commands show no bar
            return
        self.shown = now
        done = self.count if self.position is None else self.position
        extra = f" ({self.count:,} {self.label})" if self.position is not None else ""
        label = "lines" if self.position is not None else self.label
        self.stream.write("\r" + line(label, done, self.total, now - self.start, extra) + "\x1b[K")
        self.stream.flush()
        self.drawn = True

    def say(self, text: str) -> None:
        """A message on its own line (the bar, if showing, is drawn again below it)."""
        if self.drawn:
            self.stream.write("\r\x1b[K")
        print(text, file=self.stream)
        if self.drawn:
            self._draw(force=True)

    def done(self) -> None:
        if self.enabled and (self.drawn or self.count):
            if self.position is not None and self.total:
                self.position = self.total
            self._draw(force=True)
            self.stream.write("\n")

    def search(self, name: str) -> Callable[[int, int | None], None]:
        """A callback for a long search on one instance: states expanded and the bound proven so far."""

        def report(expanded: int, bound: int | None) -> None:
            if self.enabled:
                proven = "" if bound is None else f", optimum at least {bound}"
                self.stream.write(f"\r{name}: {expanded:,} states expanded{proven}\x1b[K")
                self.stream.flush()
                self.searching = True
        return report
