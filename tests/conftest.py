"""Shared fixtures: where the published data lives (``../shared/data`` beside the checkout)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

REPO = Path(__file__).resolve().parent.parent


def shared_data_dir() -> Path:
    return Path(os.environ.get("PLANCHECK_DATA", REPO.parent / "shared" / "data"))


@pytest.fixture(scope="session")
def shared_data() -> Path:
    path = shared_data_dir()
    if not path.is_dir():
        raise RuntimeError(f"the published data is missing at {path}; set PLANCHECK_DATA")
    return path


# Property tests are derandomized so that CI runs are reproducible; explore with
# `--hypothesis-profile explore` (random seeds, more examples).
settings.register_profile("default", derandomize=True, deadline=None)
settings.register_profile("explore", max_examples=2000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
