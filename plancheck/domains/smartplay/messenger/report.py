"""Messenger's reference scores for the paper's table.

MessengerL1's are exact expectations over SmartPlay's starts (:mod:`.scoring`). L2/L3's entity moves
are random, so their references are measured: the planner, uniform random play and ``Move North``
over seeds 0-99, recorded by ``benchmarks/messenger_reference.py`` in
``plancheck/data/smartplay/messenger/reference_runs.json`` (every seed's score; the tests replay
some of them and must get the same scores).
"""

from __future__ import annotations

import json
from functools import cache
from statistics import fmean

from plancheck.domains.smartplay.messenger import data
from plancheck.domains.smartplay.messenger.scoring import POLICIES, expected_score

METRICS = (("won", "won"), ("lost", "lost"), ("SmartPlay fallbacks", "read_none"))
RUNS_FILE = "reference_runs.json"
LABELS = {"optimal": "optimal", "planner": "planner", "random": "random", "north": "always Move North"}


@cache
def recorded_runs() -> dict:
    """The recorded reference runs: level -> policy -> {"seeds": [first, last], "scores": [...]}."""
    path = data.folder() / RUNS_FILE
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


def references(level: int) -> list[tuple[str, float]]:
    """(label, expected or measured raw score) of the reference policies."""
    if level == 1:
        return [(LABELS[name], float(expected_score(POLICIES[name])))
                for name in ("random", "north", "optimal")]
    runs = recorded_runs().get(str(level), {})
    return [(f"{LABELS[name]}, seeds {runs[name]['seeds'][0]}-{runs[name]['seeds'][1]}", fmean(runs[name]["scores"]))
            for name in ("random", "north", "planner") if name in runs]
