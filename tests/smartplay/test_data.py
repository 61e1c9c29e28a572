"""The example logs shipped in tests/data/smartplay are what the code writes today."""

from __future__ import annotations

import io
import json
from pathlib import Path

from plancheck.domains.smartplay.bandits import examples as bandits
from plancheck.domains.smartplay.rps import examples as rps
from plancheck.episodes.log import Episode, dump_episodes

from .original import run_table
from .test_convert import scripted

DATA = Path(__file__).resolve().parent.parent / "data" / "smartplay"
FILES = {"bandits-bayes.jsonl": (bandits, "the Bayes-optimal policy"),
         "bandits-tampered.jsonl": (bandits, "a reward the draw does not give"),
         "rps-strict.jsonl": (rps, "an unreadable reply under the strict reading ends the episode"),
         "rps-unseeded.jsonl": (rps, "no seed: checked from the text")}


def text(episode: Episode) -> str:
    stream = io.StringIO()
    dump_episodes([episode], stream)
    return stream.getvalue()


def test_the_example_logs_are_current():
    for name, (module, example) in FILES.items():
        episode = next(e.episode for e in module.EXAMPLES if e.name == example)
        assert (DATA / name).read_text(encoding="utf-8") == text(episode), name


def test_the_smartplay_run_is_smartplays(smartplay):
    table, _ = run_table(smartplay, smartplay.RPS, 3, scripted(3, ["Rock", "Paper", "Scissor"]))
    assert json.loads((DATA / "rps-smartplay-run.table.json").read_text(encoding="utf-8")) == table
