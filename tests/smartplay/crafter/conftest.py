"""Fixtures of the Crafter tests: SmartPlay's own wrapper, built once per session from a local checkout."""

from __future__ import annotations

import copy
import functools
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from . import smartplay_original

pytest.importorskip("crafter", reason="the crafter world's runtime: pip install 'plancheck[crafter]'")

REPO = Path(__file__).resolve().parents[3]


class Original:
    """Runs SmartPlay's Crafter wrapper in a separate process (it needs a gym stand-in on its path)."""

    def __init__(self, folder: Path):
        self.folder = folder

    def run(self, *args: str, stdin: str | None = None) -> list:
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        done = subprocess.run([sys.executable, smartplay_original.__file__, *args, "--dir", str(self.folder)],
                              input=stdin, capture_output=True, text=True, env=env, timeout=600)
        assert done.returncode == 0, done.stderr[-3000:]
        return [json.loads(line) for line in done.stdout.splitlines()]


@pytest.fixture(scope="session")
def original(tmp_path_factory) -> Original:
    if not smartplay_original.available():
        pytest.skip(f"SmartPlay's source is not at {smartplay_original.source()} (set SMARTPLAY_SRC)")
    return Original(tmp_path_factory.mktemp("smartplay"))


@functools.cache
def _started(seed: int, episode: int):
    from plancheck.domains.smartplay.crafter.realmap import start_game

    return start_game(seed, episode)


@pytest.fixture
def started():
    """A game right after SmartPlay's reset for (seed, episode): a fresh copy of one built once per session."""
    return lambda seed, episode=1: copy.deepcopy(_started(seed, episode))
