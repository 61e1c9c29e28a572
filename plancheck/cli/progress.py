"""Progress on stderr for long commands, shown only on a terminal."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TextIO


class Progress:
    """A one-line counter on stderr, shown only on a terminal."""

    def __init__(self, label: str, enabled: bool, stream: TextIO | None = None):
        stream = sys.stderr if stream is None else stream  # looked up now: it may have been replaced since import
        self.label, self.stream = label, stream
        self.enabled = enabled and stream.isatty()
        self.count = 0
        self.searching = False  # a search's line is showing

    def tick(self) -> None:
        self.count += 1
        if self.searching:  # clear it before anything else is printed
            self.stream.write("\r\x1b[K")
            self.searching = False
        if self.enabled and self.count % 200 == 0:
            self.stream.write(f"\r{self.label}: {self.count}\x1b[K")
            self.stream.flush()

    def done(self) -> None:
        if self.enabled:
            self.stream.write(f"\r{self.label}: {self.count} done\x1b[K\n")

    def search(self, name: str) -> Callable[[int, int | None], None]:
        """A callback for a long search on one instance: states expanded and the bound proven so far."""

        def report(expanded: int, bound: int | None) -> None:
            if self.enabled:
                proven = "" if bound is None else f", optimum at least {bound}"
                self.stream.write(f"\r{name}: {expanded:,} states expanded{proven}\x1b[K")
                self.stream.flush()
                self.searching = True
        return report
