"""The Crafter example logs shipped in tests/data/smartplay are what the code writes today."""

from __future__ import annotations

import io
from pathlib import Path

from plancheck.domains.smartplay.crafter import examples
from plancheck.episodes.log import dump_episodes

DATA = Path(__file__).resolve().parents[2] / "data" / "smartplay"
FILES = {"crafter-pickaxe.jsonl": "the certified wooden pickaxe plan",
         "crafter-unseeded-tampered.jsonl": "no seed, an item from nowhere"}


def test_the_example_logs_are_current():
    found = {example.name: example.episode for example in examples.examples()}
    for name, example in FILES.items():
        stream = io.StringIO()
        dump_episodes([found[example]], stream)
        assert (DATA / name).read_text(encoding="utf-8") == stream.getvalue(), name
