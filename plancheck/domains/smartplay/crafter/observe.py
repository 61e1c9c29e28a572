"""SmartPlay's Crafter observation text, read back into what it shows (the inverse of ``prompts.describe``).

A text is accepted only if writing back what was read gives the same text, byte for byte, so a
reading never guesses: anything else is "not a Crafter observation" with the first line that
does not fit.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from plancheck.domains.smartplay.crafter import prompts

_HEAD = re.compile(r"You took action ([a-z_]+)\.")
# numbers of at most 9 digits: a longer one is no Crafter text (and int() of a hostile one would fail)
_SEEN = re.compile(r"- ([a-z]+) (\d{1,9}) steps to your ([a-z-]+)")
_FACE = re.compile(r"You face ([A-Za-z]+) at your front\.")
_VITAL = re.compile(r"- (health|food|drink|energy): (\d{1,9})/9")
_ITEM = re.compile(r"- ([a-z_]+): (-?\d{1,9})")


@dataclass(frozen=True, slots=True)
class Seen:
    """One ``- name d steps to your direction`` line: the nearest tile of that kind in the view."""

    name: str
    distance: int
    direction: str

    @property
    def nearby(self) -> bool | None:
        """Whether one such tile is in the 3 x 3 square around the player: True, False, or None when the
        text cannot tell (the nearest is 2 steps straight away; a diagonal one may be as near)."""
        if self.distance == 1 or (self.distance == 2 and "-" in self.direction):
            return True
        return None if self.distance == 2 else False


@dataclass(frozen=True)
class Frame:
    """What one observation shows. ``out_of_map`` frames (SmartPlay's error text) show nothing else."""

    action: str | None = None  # the echoed action (crafter's name, moves as compass points)
    sleeping: bool = False
    died: bool = False
    seen: tuple[Seen, ...] = ()
    facing: str = ""
    vitals: dict[str, int] = field(default_factory=dict)
    inventory: dict[str, int] = field(default_factory=dict)  # non-zero items, in crafter's order
    out_of_map: bool = False

    def sees(self, name: str) -> Seen | None:
        return next((s for s in self.seen if s.name == name), None)

    def count(self, item: str) -> int:
        return self.inventory.get(item, 0)

    def text(self) -> str:
        """The observation this frame is read from."""
        if self.out_of_map:
            return prompts.OUT_OF_MAP
        head = f"You took action {self.action}." if self.action is not None else ""
        remark = prompts.SLEEPING if self.sleeping else prompts.DIED if self.died else ""
        seen = "You see:\n" + "\n".join(f"- {s.name} {s.distance} steps to your {s.direction}" for s in self.seen) \
            if self.seen else prompts.NOTHING_SEEN
        status = prompts.status_text({**{v: self.vitals[v] for v in prompts.VITALS},
                                      **{i: self.inventory[i] for i in prompts.ITEMS if i in self.inventory}})
        return f"{head}{remark}\n\n{seen}\n\nYou face {self.facing} at your front.\n\n{status}".strip()


class NotAnObservation(ValueError):
    """The text is not one SmartPlay's Crafter writes; the message names the first line that does not fit."""


def read_frame(text: str) -> Frame:
    """Read an observation (raises :class:`NotAnObservation`)."""
    if text == prompts.OUT_OF_MAP:
        return Frame(out_of_map=True)
    lines = text.split("\n")
    at = 0
    action = None
    head = _HEAD.match(lines[0])
    if head:
        action = head.group(1)
        lines[0] = lines[0][head.end():]
    sleeping = lines[0].startswith(prompts.SLEEPING.strip())
    died = not sleeping and lines[0].startswith(prompts.DIED.strip())
    while at < len(lines) and not lines[at].startswith("You see"):
        at += 1
    seen, facing, vitals, inventory = [], "", {}, {}
    for line in lines[at + 1:] if at < len(lines) and lines[at] == "You see:" else []:
        match = _SEEN.fullmatch(line)
        if not match:
            break
        seen.append(Seen(match.group(1), int(match.group(2)), match.group(3)))
    for line in lines:
        if match := _FACE.fullmatch(line):
            facing = match.group(1)
        elif match := _VITAL.fullmatch(line):
            vitals[match.group(1)] = int(match.group(2))
        elif (match := _ITEM.fullmatch(line)) and match.group(1) not in prompts.VITALS:
            inventory[match.group(1)] = int(match.group(2))
    order = {name: i for i, name in enumerate(prompts.ITEMS)}
    if any(name not in order for name in inventory):
        raise NotAnObservation(f"{next(n for n in inventory if n not in order)!r} is not a Crafter item")
    if len(vitals) != 4:
        raise NotAnObservation(f"the status block lists {len(vitals)} of the 4 vitals")
    frame = Frame(action, sleeping, died, tuple(seen), facing, vitals, inventory)
    if frame.text() != text:
        written = frame.text().split("\n")
        given = text.split("\n")
        line = next((i for i, (a, b) in enumerate(zip(given, written)) if a != b), min(len(given), len(written)))
        shown = given[line] if line < len(given) else "(the end of the text)"
        raise NotAnObservation(f"line {line + 1} ({shown[:60]!r}) is not what SmartPlay's Crafter writes there")
    return frame
