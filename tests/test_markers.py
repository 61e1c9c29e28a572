"""Labels and roles (plancheck/translators/markers.py): the look-ups made linear for issue 22 (a 1 MB answer in under
1 s) give what the earlier scans gave, kept here as the oracle, on generated answers full of labels."""

from __future__ import annotations

import random
import re

from plancheck.translators import markers
from plancheck.translators.markers import _EXAMPLE, Label, Marking, Role, _previous_line, find_labels


def _old_inside(found, offset: int) -> bool:
    return any(start <= offset < end for start, end in found)


def _old_role_of(marking: Marking, start: int, after: int | None) -> tuple[Role, Label | None]:
    """``Marking.role_of`` as it was until issue 22: every label scanned for each candidate."""
    if any(low <= start < high for low, high in marking.thinking):
        return Role.ASIDE, None
    label, introduced = _old_lead_in(marking, start)
    if label is not None and label.role is Role.ASIDE:
        return Role.ASIDE, label
    if after is not None:
        correction = next((lab for lab in reversed(marking.labels) if lab.role is Role.CORRECTION
                           and after <= lab.start < start), None)
        if correction is not None:
            return Role.CORRECTION, correction
    if label is None and not introduced:
        headings = [lab for lab in marking.labels if lab.heading and lab.end <= start]
        label = headings[-1] if headings and headings[-1].role is not Role.PLAIN else None
    return (label.role, label) if label is not None else (Role.PLAIN, None)


def _old_lead_in(marking: Marking, start: int) -> tuple[Label | None, bool]:
    text = marking.text
    line_start = text.rfind("\n", 0, start) + 1
    low = line_start
    before = text[line_start:start].strip(" \t*_>`-#|")
    introduced = before.endswith((":", "："))
    if not before:
        previous = _previous_line(text, line_start)
        if previous is not None and text[previous[0]:previous[1]].rstrip(" \t*_`").endswith((":", "：")):
            low = previous[0]
            introduced = True
    chosen = [lab for lab in marking.labels if low <= lab.start < start and lab.role not in (Role.CORRECTION,
                                                                                             Role.PLAIN)]
    example = next((lab for lab in reversed(chosen) if _EXAMPLE.match(lab.text + " ")), None)
    if example is not None and not re.search(r"[.!?]\s|\n", text[example.end:start]):
        return example, introduced
    return (chosen[-1] if chosen else None), introduced


PIECES = ("Final answer:", "Answer: ", "## Plan\n", "**Explanation**\n", "Explanation:", "Let me verify:", "<think>",
          "</think>", "<answer>", "</answer>", "Wait,", "Wait, instead: ", "Actually, ", "For example, ", "e.g. ",
          "the plan is ", "Here is the plan:", "Corrected answer: ", "Notes:\n", "Grid:\n", "[UP, TAKE]", "[UP]",
          "1. UP\n", "UP, LEFT", " ", " ", "\n", "\n", "\n\n", ". ", "words ", ": ", "```\n", "# Steps\n",
          "## <answer>\n", "## Explanation </answer>\n", "e.g.: ")


def test_roles_agree_with_the_scans_they_replace(monkeypatch):
    rng = random.Random(22)
    roles = set()
    for _ in range(400):
        text = "".join(rng.choice(PIECES) for _ in range(rng.randrange(1, 25)))
        new_labels = find_labels(text, ((re.compile("action sequence is:"), Role.ANSWER),))
        with monkeypatch.context() as patched:
            patched.setattr(markers._Found, "covers", lambda self, offset: _old_inside(self, offset))
            assert find_labels(text, ((re.compile("action sequence is:"), Role.ANSWER),)) == new_labels, text
        marking = Marking.of(text)
        offsets = sorted({rng.randrange(len(text) + 1) for _ in range(8)} | {m.start() for m in re.finditer(r"\[",
                                                                                                             text)})
        for start in offsets:
            for after in (None, 0, start // 2, start):
                role = marking.role_of(start, after)
                assert role == _old_role_of(marking, start, after), (text, start, after)
                roles.add(role[0])
    assert roles == set(Role)  # every role was given
