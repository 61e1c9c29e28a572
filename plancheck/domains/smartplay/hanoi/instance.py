"""Tower of Hanoi instances (SmartPlay): n disks on rod A, to be moved to rod C, within 30 steps.

An instance's id is ``hanoi-<n>``; SmartPlay's environment ids ``Hanoi<n>Disk-v0`` (and
``Hanoi<n>Disk``) name the same instance. SmartPlay publishes 3 and 4 disks; any n >= 1 works.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from plancheck.errors import InstanceNotFoundError, clip
from plancheck.limits import id_number

STEP_LIMIT = 30  # SmartPlay's rollout limit (HanoiEnv.default_steps)
PUBLISHED = (3, 4)  # Hanoi3Disk-v0, Hanoi4Disk-v0
MAX_DISKS = 20  # keeps prompts, PDDL and plans (2^n - 1 moves) of a sane size
_ID = re.compile(r"^(?:hanoi-?(?P<n>\d+)|hanoi(?P<m>\d+)disk(?:-v0)?)$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class HanoiInstance:
    """``disks`` disks, numbered 0 (smallest) to n-1, all on rod A at the start."""

    disks: int
    step_limit: int = STEP_LIMIT

    def __post_init__(self) -> None:
        if not 1 <= self.disks <= MAX_DISKS:
            raise InstanceNotFoundError(f"a Hanoi instance has 1 to {MAX_DISKS} disks, not {self.disks}")

    @property
    def id(self) -> str:
        return f"hanoi-{self.disks}"

    @property
    def env_id(self) -> str:
        """SmartPlay's gym id (only 3 and 4 disks are registered there)."""
        return f"Hanoi{self.disks}Disk-v0"

    @property
    def optimal_moves(self) -> int:
        return 2 ** self.disks - 1

    def to_json(self) -> dict:
        return {"id": self.id, "env_id": self.env_id, "disks": self.disks, "step_limit": self.step_limit,
                "optimal_moves": self.optimal_moves, "published": self.disks in PUBLISHED}


def parse_id(text: str) -> HanoiInstance:
    """The instance an id names.

    >>> parse_id("Hanoi3Disk-v0"), parse_id("hanoi-5").disks
    (HanoiInstance(disks=3, step_limit=30), 5)
    """
    match = _ID.match(text.strip())
    if not match:
        raise InstanceNotFoundError(f"{text!r} is not a Hanoi instance; expected e.g. 'hanoi-3' or 'Hanoi3Disk-v0'")
    return HanoiInstance(id_number(match["n"] or match["m"], f"the number of disks in {clip(text)!r}"))


def select(selectors: Sequence[str]) -> Iterator[HanoiInstance]:
    """Instances for selectors: ids, ``all``/``published`` (3 and 4 disks), or a range ``hanoi-1..6``."""
    for selector in selectors:
        if selector in ("all", "published"):
            yield from (HanoiInstance(n) for n in PUBLISHED)
        elif ".." in selector:
            low, _, high = selector.partition("..")
            first = parse_id(low).disks
            numbered = high.isascii() and high.isdigit()
            last = id_number(high, f"the end of the range {clip(selector)!r}") if numbered else parse_id(high).disks
            if first > last:
                raise InstanceNotFoundError(f"{selector!r}: the range runs backwards; write e.g. hanoi-1..6")
            yield from (HanoiInstance(n) for n in range(first, last + 1))
        else:
            yield parse_id(selector)
